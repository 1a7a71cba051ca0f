"""`explore`: a table over a family's parameter — cost, bounds, and search-decided minima."""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass
from typing import Callable

from headfusion.algebra.expform import exponential_form
from headfusion.bounds.constructions import closed_forms
from headfusion.proof.analysis import CONSTRUCT_SECONDS, lower_bounds_report
from headfusion.solving.construct import best_construction
from headfusion.spec.expressions import SpecError
from headfusion.spec.load import load_spec

RANGE = re.compile(r"\s*(\d+)\s*\.\.\s*(\d+)\s*\Z")
MAX_RANGE = 64


@dataclass(frozen=True)
class ExploreRow:
    """One parameter value: multi-head cost, bounds, and the minimum when decided."""

    d: int
    heads: int
    head_atom_terms: int
    lower_bound: int
    lower_bound_method: str
    upper_bound: int
    minimum: int | None
    decided_by: str  # "bounds" | "bounds + exact head from search" | "search (solver evidence)" | "undecided"
    search_note: str | None
    newton_vertices: int | None = None
    residue_class_bound: int | None = None  # Lemma LK (mixed with L5 over blocks), when above Newton
    rigid_edge_bound: int | None = None  # Lemma LE, when it applies

    def to_json(self) -> dict:
        """The row's fields and its answer kind (cli/common.answer): proved, testimony or unknown."""
        return {**asdict(self), "answer_kind": ROW_KINDS[self.decided_by]}


ROW_KINDS = {"bounds": "proved", "bounds + exact head from search": "proved", "search (solver evidence)": "testimony",
             "undecided": "unknown"}  # proved: the bounds meet (computed exactly); testimony: z3 excluded smaller m


def parameterised_title(spec) -> str:
    """The title with its parameter left symbolic (W_d(q) = ..., tournament on K_n, ...)."""
    if spec.kind == "family":
        from headfusion.spec.families import FAMILIES

        return FAMILIES[spec.text].title
    if spec.kind == "toml":
        from headfusion.spec.toml import read_toml_spec

        document = read_toml_spec(spec.text)
        name = document.parameter.name if document.parameter else "d"
        return document.title.replace("{" + name + "}", name)
    return spec.title


def parse_range(text: str) -> range:
    """'1..N' → range(1, N + 1) (SpecError otherwise)."""
    match = RANGE.match(text or "")
    if not match:
        raise SpecError(f"--range must look like 1..N, got {text!r}")
    low, high = int(match.group(1)), int(match.group(2))
    if low < 1 or high < low:
        raise SpecError(f"--range needs 1 ≤ low ≤ high, got {text!r}")
    if high - low + 1 > MAX_RANGE:
        raise SpecError(f"--range spans more than {MAX_RANGE} values")
    return range(low, high + 1)


def check_parameterised(spec_text: str) -> None:
    """SpecError unless the spec has a parameter to step: a family name or a TOML spec with [parameter]."""
    from headfusion.spec.families import FAMILIES

    text = spec_text.strip() if isinstance(spec_text, str) else ""
    if text in FAMILIES:
        return
    if not text.endswith(".toml"):
        raise SpecError("explore steps a parameter over --range: give a family name (W, tanh-sum) or a TOML spec "
                        "with a [parameter]; an expression has none (use analyze or search)")
    from headfusion.spec.toml import read_toml_spec

    if read_toml_spec(text).parameter is None:
        raise SpecError(f"explore steps a parameter over --range, and {text} has no [parameter]: "
                        "analyze or certify it as it is, or add a [parameter] table (docs/spec-format.md)")


def explore(
    spec_text: str,
    values: range,
    timeout: float,
    progress: Callable[[int, str], None] | None = None,
) -> list[ExploreRow]:
    """Rows for each parameter value; the search gets `timeout` seconds per value where bounds differ.

    `progress(values done, status text)` is called as each value starts and is searched.
    """
    check_parameterised(spec_text)
    rows = []
    for d in values:
        if progress:
            progress(len(rows), f"d = {d}: bounds")
        spec = load_spec(spec_text, d)
        form = closed_forms(exponential_form(spec.model))
        summary = lower_bounds_report(form, witness_cap=0)
        if summary["lower_bound"] < form.upper_bound:  # the best construction is where the search starts (DESIGN §10)
            form = best_construction(form, summary["lower_bound"], seconds=min(CONSTRUCT_SECONDS, timeout))
        lower, upper = summary["lower_bound"], form.upper_bound
        minimum, decided, note = (lower, "bounds", None) if lower == upper else (None, "undecided", None)
        if minimum is None:
            if progress:
                progress(len(rows), f"d = {d}: searching between {lower} and {upper} (at most {timeout:g} s)")
            minimum, decided, note = _search_minimum(form, timeout, lower)
        rows.append(
            ExploreRow(d, len(spec.model.heads), spec.model.head_atom_terms, lower, summary["lower_bound_method"],
                       upper, minimum, decided, note, summary["vertices"],
                       (summary["residue_classes"] or {}).get("bound"), (summary["rigid_edges"] or {}).get("bound"))
        )
    return rows


def _search_minimum(form, timeout: float, lower: int) -> tuple[int | None, str, str | None]:
    from headfusion.solving.solver import minimize

    start = time.monotonic()
    result = minimize(form, timeout=timeout, lower_bound=lower)  # the bounds above, not computed again
    data = result.to_json()
    if data.get("status") == "decided" and data.get("minimum") is not None:
        if data["minimum"] == result.lower_bound:  # a checked head meets the proved lower bound
            return data["minimum"], "bounds + exact head from search", None
        return data["minimum"], "search (solver evidence)", None
    return None, "undecided", data.get("reason") or f"undecided within {timeout:g} s ({time.monotonic() - start:.1f} s used)"
