"""headfusion: exact attention-head fusion, with checkable certificates.

    import headfusion as hf
    hf.analyze("W", d=3).minimum          # 8
    hf.certify("W", d=3)                  # out/W_d3.json, out/W_d3.tex
    hf.verify("out/W_d3.json").ok         # True
    hf.explore("W", "1..4").rows          # one row per d, each with its answer_kind

Errors: `hf.InputError` (bad input; the CLI's exit 2) and `hf.CheckFailed` (a failed check;
exit 1), both `hf.HeadfusionError`; see `headfusion.errors`.
"""

__version__ = "0.1.0"

from headfusion.api import (Analysis, Atlas, Certificate, Exploration, Search, Verification, analyze, atlas, attn, certify,  # noqa: E402
                            explore, search, sigmoid, verify)
from headfusion.errors import CheckFailed, HeadfusionError, InputError, ResourceLimit  # noqa: E402

__all__ = ["Analysis", "Atlas", "Certificate", "CheckFailed", "Exploration", "HeadfusionError", "InputError", "ResourceLimit",
           "Search", "Verification", "analyze", "atlas", "attn", "certify", "explore", "search", "sigmoid", "verify", "__version__"]
