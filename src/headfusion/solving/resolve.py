"""Re-solve a certificate's solver testimony with z3 and cvc5 (`verify --resolve`).

This is the solver side, outside the kernel: it adds fresh testimony, never proof.
The query of a testimony claim is regenerated from the spec and must match its hash.
"""

from __future__ import annotations

from headfusion.algebra.expform import exponential_form
from headfusion.solving.problem import problem_from_form
from headfusion.solving.process import cvc5_available, solve_isolated
from headfusion.solving.smtlib import Options, query_sha256, query_text
from headfusion.spec.load import load_spec
from headfusion.spec.toml import load_toml_text


def resolve_testimony(cert: dict, timeout: float = 120.0) -> list[tuple[str, str, str]]:
    """(claim, solver, verdict) for every testimony claim of a (kernel-checked) certificate."""
    spec = cert["spec"]
    built = load_toml_text(spec["source"], "the embedded TOML spec", spec["d"], spec["text"]) if spec["kind"] == "toml" else load_spec(spec["text"], spec["d"])
    form = exponential_form(built.model)
    out = []
    for claim in cert["claims"]:
        if not claim["id"].startswith("testimony:"):
            continue
        ev = claim["evidence"]
        text = query_text(problem_from_form(form, int(ev["atoms"])), Options(**(ev.get("options") or {})))
        if query_sha256(text) != ev.get("query_sha256"):
            out.append((claim["id"], "query", "hash mismatch: the recorded query is not the regenerated one"))
            continue
        for solver in ("z3", "cvc5"):
            if solver == "cvc5" and not cvc5_available():
                out.append((claim["id"], solver, "absent (pip install cvc5)"))
                continue
            status, _, reason = solve_isolated(text, timeout, solver=solver)
            out.append((claim["id"], solver, status + (f" ({reason})" if reason and status == "unknown" else "")))
    return out
