"""Restriction to a line (Lemma R, DESIGN §10): m*(F) ≥ m*(f_u) for f_u(t) = F(t·u), u an integer vector.

claim        lemma  recomputed here
lower:line   R      u: a nonzero integer vector in q (entries at most MAX_ENTRY); f_u recomputed from the model (every
                    head's keys k become ⟨k, u⟩, weights and values kept) has the canonical form of the evidence's
                    function entry {form, claims, bound, by} — replayed exactly as a face function of LD (exp-form,
                    coprime, lower:newton, then lower bounds of f_u or a refutation tree over f_u's own box); the
                    bound is that entry's replayed bound.

A head N/D = F gives, at q = t·u, the head with keys ⟨κ_i, u⟩ and the same weights and values, equal to f_u for every t;
equal keys merge (L1).  No sign of ⟨k, u⟩ is needed: a head whose keys all meet u in one level is a constant of f_u.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from headfusion.kernel import statements as say
from headfusion.kernel.base import integer, require
from headfusion.kernel.faces import SUB_CLAIMS, replay_table
from headfusion.kernel.model import Model, canonical, restrict

MAX_ENTRY = 10**6  # |u_c|: a line is a few small integers; larger ones only make f_u's keys (and its box) larger
LINE_CLAIMS = SUB_CLAIMS + ("refutation",)  # f_u's own claims: its lower bounds, or a tree over its one-dimensional box


def check_line(model: Model, ev: dict, facts: dict, checks: dict[str, Callable]) -> tuple[dict, list[str], str]:
    """Lemma R: f_u computed from the model is the entry's function, whose replayed bound transfers to F."""
    require(set(ev) == {"direction", "function"}, "lower:line carries a direction and a function")
    direction = ev["direction"]
    require(isinstance(direction, list) and direction, "the direction must be a nonempty list of [coordinate, integer]")
    u = {integer(j) - 1: Fraction(integer(v)) for j, v in direction}
    require(len(u) == len(direction) and all(0 <= j < model.dimension and 0 < abs(v) <= MAX_ENTRY for j, v in u.items()),
            "malformed direction (coordinates in range, once each, nonzero integers of size at most 10^6)")
    table, lemmas = replay_table([ev["function"]], checks, LINE_CLAIMS)
    form, bound, by = table[0]
    require(canonical(restrict(model, u)) == form, "the restriction of F to the line t·u is not the function of the evidence")
    dense = [int(u.get(j, 0)) for j in range(model.dimension)]
    return {"bound": bound}, sorted({"lemma:R"} | lemmas), say.line(dense, bound, by)
