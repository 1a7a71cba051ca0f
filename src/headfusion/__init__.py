"""headfusion: exact attention-head fusion, with checkable certificates.

    import headfusion as hf
    hf.analyze("W", d=3).minimum          # 8
    hf.certify("W", d=3)                  # out/W_d3.json, out/W_d3.tex
    hf.verify("out/W_d3.json").ok         # True
"""

__version__ = "0.1.0"

from headfusion.api import Analysis, Certificate, Search, Verification, analyze, certify, search, verify  # noqa: E402

__all__ = ["Analysis", "Certificate", "Search", "Verification", "analyze", "certify", "search", "verify", "__version__"]
