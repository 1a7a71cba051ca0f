"""Spec dispatch, one place for every command: family name, expression, or TOML path."""

from __future__ import annotations

from headfusion.spec.families import FAMILIES, build_family
from headfusion.spec.model import Spec
from headfusion.spec.expressions import SpecError, parse_expression


def load_spec(text: str, d: int | None = None) -> Spec:
    """Resolve SPEC (+ --d) into a model; SpecError on anything malformed."""
    if not isinstance(text, str) or not text.strip():
        raise SpecError("empty spec")
    stripped = text.strip()
    if d is not None and d < 1:
        raise SpecError(f"--d must be at least 1, got {d}")
    if stripped in FAMILIES:
        family = FAMILIES[stripped]
        model = build_family(stripped, d)
        return Spec(stripped, d, "family", family.title.replace("_d", f"_{d}"), f"{family.name}_d{d}", model)
    if stripped.endswith(".toml"):
        from headfusion.spec.toml import load_toml_spec  # the TOML format lives in its own module

        return load_toml_spec(stripped, d)
    model = parse_expression(stripped, d)
    return Spec(stripped, d, "expression", stripped, slug_of(stripped), model)


def slug_of(text: str) -> str:
    """A short file-name-safe slug for an expression (deterministic)."""
    import hashlib

    readable = "".join(ch if ch.isalnum() else "_" for ch in text)
    readable = "_".join(part for part in readable.split("_") if part)[:40] or "spec"
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{readable}_{digest}"
