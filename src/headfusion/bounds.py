"""Lower and upper bounds on m*(F) (DESIGN §3: L4, L5, L6)."""

from __future__ import annotations

from .algebra import ExpForm


def lower_bound_summary(form: ExpForm) -> dict:
    """The `lower_bound`, `lower_bound_method` and `minimum` fields of analyze (none yet)."""
    return {}
