"""Template context for Theorem K (DESIGN §9 "K_4 beyond 28"): the instance printed after its proof.

The orientation of the six edges as F's heads give them, the eight directions ±e_v with their face functions written
exactly (each a triangle's function plus a constant), and the twelve margins of the disjointness test, all from the
claim `lower:theorem-k` and the model; the sketch's paragraph and the sentence saying where the theorem stops.
Display only: the kernel is what checks.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.kernel.tournament4 import BOUND
from headfusion.render.composition import _direction, _exact_limit
from headfusion.render.tex import frac_tex


def _arcs(cert: dict) -> list[str]:
    """'i\\to j' per head, i → j when the head increases with q_i − q_j (its scale times the value step is positive)."""
    from headfusion.kernel.model import model_from_json, relative_keys

    model = model_from_json(cert["model"])
    arcs = []
    for scale, atoms in model.heads:
        if len(atoms) != 2:
            continue
        step = next((k for k in relative_keys(atoms) if k), {})
        low, high = (atoms[0], atoms[1]) if relative_keys(atoms)[1] == step else (atoms[1], atoms[0])
        slope = scale * (high.value - low.value)  # the head is const + slope·σ(⟨step, q⟩)
        i, j = (max(step, key=lambda v: step[v]) + 1, min(step, key=lambda v: step[v]) + 1)
        i, j = (i, j) if slope > 0 else (j, i)
        weight = "" if abs(slope) == 1 else rf"\ ({frac_tex(abs(Fraction(slope)))})"
        arcs.append(rf"{i}\to {j}{weight}")
    return arcs


def theorem_k_context(cert: dict, claims: dict[str, dict]) -> dict | None:
    """The instance of `lower:theorem-k` when F itself carries it (None otherwise: a face function's is in its table)."""
    claim = claims.get("lower:theorem-k")
    if claim is None:
        return None
    ev = claim["evidence"]
    rows = []
    for k, (direction, edges) in enumerate(ev["faces"]):
        (v, sign), = direction
        rows.append({"index": k + 1, "direction": ("" if sign > 0 else "-") + _direction([[v, 1]]), "kind": "source" if sign > 0 else "sink",
                     "limit": _exact_limit(cert, direction), "triangle": ",".join(str(a) for a in sorted({x for e in edges for x in e}))})
    pairs = [{"i": k + 1, "j": l + 1, "margin": margin} for k, l, margin in ev["pairs"]]
    return {"arcs": ",\\ ".join(_arcs(cert)), "rows": rows, "pairs": pairs, "bound": BOUND}


def theorem_k_sentence(claims: dict[str, dict]) -> str | None:
    """Theorem K in one paragraph of the proof sketch."""
    if "lower:theorem-k" not in claims:
        return None
    return (r"Lemma~\ref{lem:K} gives more (with Lemma~\ref{lem:LN}, Section~\ref{sec:theorem-k}): the four faces of $\Newt(Q')$ along $e_v$ (vertex $v$"
            r" above all others) are pairwise disjoint and each carries a head of a triangle's function, so they hold $4\cdot7$ terms"
            r" (Lemmas~\ref{lem:LD} and~\ref{lem:LH}); the four faces along $-e_v$ are pairwise disjoint too, and by Lemma~\ref{lem:LN} each"
            r" holds a term off every source face. Hence $m^*(F)\ge 28+4=32$.")


def theorem_k_stop(cert: dict, claim: dict) -> str:
    """Where Theorem K stops (the gap section's sentence)."""
    return (r"Lemma~\ref{lem:K} stops at $32$: it counts the terms of $D$ on the four source faces ($7$ each) and one more"
            r" term per sink face; the six interior points of $\Newt(Q')$ (the score vectors $(2,2,1,1)$ and their permutations) are"
            r" forced by nothing proved here.")
