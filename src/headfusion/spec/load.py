"""Spec dispatch, one place for every command: family name, expression, or TOML path."""

from __future__ import annotations

import re
from pathlib import Path

from headfusion.spec.cost import check_cost, check_dimension
from headfusion.spec.display import printable
from headfusion.spec.families import FAMILIES, build_family
from headfusion.spec.model import Spec
from headfusion.spec.expressions import FUNCTIONS, VARIABLE, SpecError, did_you_mean, parse_expression

BARE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")  # a word that is no expression: meant as a family name


def load_spec(text: str, d: int | None = None) -> Spec:
    """Resolve SPEC (+ --d) into a model; SpecError (an InputError) on anything malformed.

    Every spec passes the cost model (`spec.cost.check_cost`) before it is returned, so no
    caller starts work on an input beyond the limits.
    """
    if not isinstance(text, str):
        raise SpecError(f"the spec must be a string, got {type(text).__name__}")
    if not text.strip():
        raise SpecError("empty spec")
    stripped = text.strip()
    if d is not None and (isinstance(d, bool) or not isinstance(d, int)):
        raise SpecError(f"d must be an integer, got {type(d).__name__} {d!r}")
    if d is not None and d < 1:
        raise SpecError(f"--d must be at least 1, got {d}")
    if stripped in FAMILIES:
        family = FAMILIES[stripped]
        model = build_family(stripped, d)
        spec = Spec(stripped, d, "family", family_title(family.title, d), f"{family.name}_d{d}", model)
    elif stripped.endswith(".toml"):
        from headfusion.spec.toml import load_toml_spec  # the TOML format lives in its own module

        spec = load_toml_spec(resolve_spec_path(stripped)[0], d)
    else:
        _refuse_path_without_suffix(stripped)
        if BARE_NAME.match(stripped) and not VARIABLE.match(stripped) and stripped not in FUNCTIONS | {"exp", "sin", "cos"}:
            raise SpecError(unknown_name(stripped))
        if d is not None:
            check_dimension(d)
        model = parse_expression(stripped, d)
        spec = Spec(stripped, d, "expression", printable(stripped), slug_of(stripped), model)
    check_cost(spec.model)
    return spec


def family_title(title: str, d: int) -> str:
    """'W_d(q) = sigmoid(q_1) + ... + sigmoid(q_d)' at d, written out for d ≤ 3 ('W_1(q) = sigmoid(q_1)', not '… + sigmoid(q_1)')."""
    name, body = title.split(" = ", 1)
    head = body.split("(", 1)[0]
    terms = " + ".join(f"{head}(q_{j})" for j in range(1, d + 1)) if d <= 3 else body.replace("_d", f"_{d}")
    return f"{name.replace('_d', f'_{d}')} = {terms}"


def repository_proofs() -> Path | None:
    """The `proofs/` folder of the repository this headfusion runs from (a source checkout), or None."""
    folder = Path(__file__).resolve().parents[3] / "proofs"
    return folder if folder.is_dir() else None


def resolve_spec_path(text: str) -> tuple[str, str | None]:
    """(the spec file to read, a note naming it when it is not the path as given).

    A relative path not found in the working folder is looked up in the repository (`proofs/x.toml`
    from another folder) and in its `proofs/` (`x.toml`); the note says which file is used.
    """
    path = Path(text)
    if path.is_file() or path.is_absolute():
        return text, None
    proofs = repository_proofs()
    if proofs is not None:
        for candidate in (proofs.parent / path, proofs / path):
            if candidate.is_file() and candidate.resolve().is_relative_to(proofs.parent):
                return str(candidate), f"{text} is not in the working folder: using {candidate}"
    return text, None


def _refuse_path_without_suffix(text: str) -> None:
    """A spec file named without its .toml (`proofs/sigmoid_sum`) is refused with the name to type, not read as an expression."""
    if not re.fullmatch(r"[\w./-]+", text) or "/" not in text:  # a bare word is a family name (unknown_name)
        return
    found, _ = resolve_spec_path(text + ".toml")
    if Path(found).is_file():
        raise SpecError(f"{text!r} is no expression; did you mean the spec file {text}.toml? (spec paths end in .toml)")
    if Path(text).is_file():
        raise SpecError(f"{text} is a file, but a spec file's name ends in .toml (and an expression is not a path)")


def unknown_name(name: str) -> str:
    """The message for a bare word that is neither a family nor a variable: the families, a near miss, a TOML file."""
    hint = did_you_mean(name, list(FAMILIES))
    path = Path("proofs") / f"{name}.toml"
    if Path(resolve_spec_path(str(path))[0]).is_file():
        hint = f"; did you mean the spec file {path}?"
    return (f"unknown family '{name}'{hint} (families: {', '.join(FAMILIES)}; or an expression over q1, q2, ..., "
            "or a path ending in .toml)")


def slug_of(text: str) -> str:
    """A short file-name-safe slug for an expression (deterministic)."""
    import hashlib

    readable = "".join(ch if ch.isalnum() else "_" for ch in text)
    readable = "_".join(part for part in readable.split("_") if part)[:40] or "spec"
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{readable}_{digest}"
