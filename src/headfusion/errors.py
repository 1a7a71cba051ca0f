"""The public exception hierarchy: `headfusion.InputError` (CLI exit 2), `headfusion.CheckFailed` (exit 1).

Defined in the statement layer (`headfusion.spec.errors`) so every package may raise them;
see that module for the hierarchy.
"""

from headfusion.spec.errors import CheckFailed, HeadfusionError, InputError, ResourceLimit

__all__ = ["CheckFailed", "HeadfusionError", "InputError", "ResourceLimit"]
