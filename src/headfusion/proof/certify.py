"""`certify`: bounds, the searches a certificate needs, and the certificate data.

Search policy (untrusted, solver evidence only):
* bounds meet (lower = upper): ask the solver for lower − 1 atoms as an independent
  confirmation, when the L3 box is small enough;
* bounds apart: ask for m = lower, lower + 1, … until a head is found (SAT) or the
  budget or the box size stops the search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from headfusion.algebra.expform import ExpForm, exponential_form
from headfusion.bounds.lower import face_limit_bound, lower_bound_summary, newton_bound
from headfusion.proof.claims import build_certificate
from headfusion.spec.load import Spec, load_spec

CERT_MAX_BOX_POINTS = 20_000  # default searches only where the box is small
SERIES_MAX_D = 8


@dataclass(frozen=True)
class Certified:
    """The certificate data and the SMT-LIB queries to write beside it."""

    certificate: dict
    queries: dict[str, str]  # file name → SMT-LIB text


def run_searches(
    spec: Spec,
    form: ExpForm,
    lower: int,
    timeout: float,
    progress: Callable[[str], None] | None = None,
    timings: bool = False,
) -> tuple[list[dict], dict[str, str], str | None]:
    """Searches for the certificate, given F's form and proved lower bound: (result JSONs, query files, note)."""
    from headfusion.solving.solver import search
    from headfusion.solving.smtlib import Options

    if not form.is_rational:
        return [], {}, "search not applicable: transcendental weights e^b cannot be expressed in linear real arithmetic"
    upper = form.upper_bound
    steps = [lower - 1] if lower == upper else list(range(lower, upper))
    steps = [m for m in steps if m >= 1]
    results: list[dict] = []
    queries: dict[str, str] = {}
    note = None
    options = Options()
    for m in steps:
        points = box_points(form, m)
        if points > CERT_MAX_BOX_POINTS:
            size = f"{points}" if points < 10**12 else f"more than 10^12"
            note = f"search for m = {m if m < 10**6 else 'lower bound - 1'} skipped: its box has {size} points (limit {CERT_MAX_BOX_POINTS} in certify)"
            break
        if progress:
            progress(f"search m = {m}: box {points} points")
        result = search(form, m, timeout=timeout, options=options)
        data = result.to_json()
        if not timings:
            data.pop("seconds", None)  # keeps certificates byte-identical across runs
        if result.query_text is not None:
            name = f"{spec.slug}.m{m}.smt2"
            queries[name] = result.query_text
            data["smt2_file"] = name
        results.append(data)
        if result.status != "unsat":
            break
    return results, queries, note


def box_points(form, m: int) -> int:
    """|Π_c {0..(m−1)·w_c}| of L3 without expanding across blocks.

    S = supp P′ ∪ supp Q′ of F = c + Σ_B P′_B/Q′_B spans, in the coordinates of block B,
    the span of supp P′_B ∪ supp Q′_B (every other factor is a full product of the
    other blocks' Q′), so the widths are read off block by block.
    """
    from headfusion.algebra.expform import x_support

    total = 1
    for block in form.blocks:
        points = list(x_support(block.P_reduced)) + list(x_support(block.Q_reduced))
        for c in range(block.rank):
            width = max(p[c] for p in points) - min(p[c] for p in points)
            total *= (m - 1) * width + 1
            if total > 10**12:
                return total
    return total


def family_series(spec: Spec, certified: dict) -> list[dict] | None:
    """Head-atom terms and bounds over the family parameter d (for the plot), or None.

    The row of the certified d is the certificate's own summary (checked by verify); the
    other rows are recomputed by the same procedure and are not certified.
    """
    if spec.kind not in ("family", "toml") or spec.d is None:
        return None
    first = 1
    if spec.kind == "toml":
        from headfusion.spec.toml import toml_parameter_range

        parameter = toml_parameter_range(spec.text)
        if parameter is None:
            return None
        first = parameter.min
    values = sorted(set(range(first, min(spec.d, first + SERIES_MAX_D - 1) + 1)) | {spec.d})
    series = []
    for d in values:
        if d == spec.d:
            series.append({"d": d, "head_atom_terms": certified["head_atom_terms"],
                           "lower_bound": certified["lower_bound"], "upper_bound": certified["upper_bound"]})
            continue
        model = load_spec(spec.text, d).model
        form = exponential_form(model)
        summary = lower_bound_summary(form, witness_cap=0)
        series.append(
            {"d": d, "head_atom_terms": model.head_atom_terms, "lower_bound": summary["lower_bound"], "upper_bound": form.upper_bound}
        )
    return series


def certify(
    spec: Spec,
    command: list[str],
    search: bool = True,
    search_timeout: float = 60.0,
    progress: Callable[[str], None] | None = None,
    timings: bool = False,
) -> Certified:
    """Build the certificate for a spec (running the default searches unless disabled)."""
    form = exponential_form(spec.model)
    newton = newton_bound(form)
    face = face_limit_bound(spec.model)
    results: list[dict] = []
    queries: dict[str, str] = {}
    note = "search not run (--no-search)"
    if search:
        lower = max(newton.count, face[0] or 0)
        results, queries, note = run_searches(spec, form, lower, search_timeout, progress, timings)
    certificate = build_certificate(spec, command, results, note, bounds=(form, newton, face))
    series = family_series(spec, certificate["summary"])
    if series is not None:
        certificate["series"] = series
    return Certified(certificate, queries)
