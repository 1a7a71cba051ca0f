"""headfusion: exact attention-head fusion, with checkable certificates.

    import headfusion as hf
    hf.analyze("W", d=3).minimum          # 8
    hf.certify("W", d=3)                  # out/W_d3.json, out/W_d3.tex
    hf.verify("out/W_d3.json").ok         # True

Errors: `hf.InputError` (bad input; the CLI's exit 2) and `hf.CheckFailed` (a failed check;
exit 1), both `hf.HeadfusionError`; see `headfusion.errors`.
"""

__version__ = "0.1.0"

from headfusion.api import Analysis, Certificate, Search, Verification, analyze, certify, search, verify  # noqa: E402
from headfusion.errors import CheckFailed, HeadfusionError, InputError, ResourceLimit  # noqa: E402

__all__ = ["Analysis", "Certificate", "CheckFailed", "HeadfusionError", "InputError", "ResourceLimit", "Search",
           "Verification", "analyze", "certify", "search", "verify", "__version__"]
