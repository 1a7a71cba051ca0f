"""Restriction to a line (Lemma R, DESIGN §10): m*(F) ≥ m*(f_u), f_u(t) = F(t·u) for an integer vector u.

A head of F restricted to q = t·u is a head of f_u with the same weights and values (keys ⟨κ_i, u⟩, equal keys
merged by L1), so every proved lower bound of the one-dimensional function f_u — LU, LK, a refutation tree over
its own small box — is one of F.  f_u is again a sum of heads (each head's keys k become ⟨k, u⟩), bounded by the
same engine, memoised by canonical form like the face functions of LD.

Candidates: primitive integer vectors u on the variables F uses, |u_c| ≤ MAX_ENTRY (fewer when F uses many
variables), first nonzero entry positive (f_{−u}(t) = f_u(−t) and f_{ku}(t) = f_u(kt) have the same m*), that keep
every non-constant head non-constant.  They are ranked by the size of f_u's product head (the sumset of the heads'
projected keys: a line that keeps every subset sum apart can reach F's own upper bound), then by the span of
those keys (f_u's box of Lemma L3 grows with it), then by Σ|u_c|, then u;
the first MAX_LINES distinct functions are bounded.  `kernel.lines` re-checks everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import islice, product
from math import gcd
from typing import Callable, Iterator

from headfusion.bounds.facelimits import Direction, canonical_form, used_variables
from headfusion.spec.model import Atom, Head, MultiHead

MAX_ENTRY = 8  # |u_c| on two or three variables
MAX_CANDIDATES = 6000  # vectors enumerated: the entries shrink when F uses more variables
MAX_LINES = 4  # distinct functions f_u bounded by the engine, per function


@dataclass(frozen=True)
class LineBound:
    """Lemma R: the direction u, f_u's canonical form, its proved bound, and (from certify) a tree over f_u's box."""

    direction: Direction
    form: tuple
    value: int
    tree: dict | None = None  # refutation evidence {atoms, tree, multipliers, symmetries}: value = atoms + 1


def level(key: tuple, u: dict[int, int]) -> Fraction:
    """⟨k, u⟩."""
    return sum((v * u.get(j, 0) for j, v in key), Fraction(0))


def restrict(model: MultiHead, direction: Direction) -> MultiHead:
    """f_u(t) = F(t·u): every atom keeps weight and value, its key becomes ⟨k, u⟩ on one variable."""
    u = dict(direction)
    heads = []
    for head in model.heads:
        atoms = []
        for a in head.atoms:
            x = level(a.key, u)
            atoms.append(Atom(((0, x),) if x else (), a.weight, a.value))
        heads.append(Head(tuple(atoms), head.label))
    return MultiHead(1, tuple(heads), model.scales, model.constant)


def _sumset(levels: list[set[Fraction]], cap: int) -> tuple[int, Fraction]:
    """(|Σ_h levels_h|, its width): f_u's product head before lowest terms and the span of its keys, counted up to `cap`."""
    sums = {Fraction(0)}
    for values in levels:
        sums = {s + v for s in sums for v in values}
        if len(sums) > cap:
            return cap + 1, max(sums) - min(sums)
    return len(sums), max(sums) - min(sums)


def candidate_lines(model: MultiHead, upper: int) -> Iterator[tuple[Direction, tuple, int]]:
    """(u, canonical form of f_u, its product-head size) for the ranked candidates, distinct forms, best first (lazily: a
    canonical form only for the candidates asked for)."""
    used = used_variables(model)
    if len(used) < 2:
        return
    entry = MAX_ENTRY
    while entry > 1 and (2 * entry + 1) ** len(used) > MAX_CANDIDATES:
        entry -= 1
    live = [sorted({a.key for a in h.atoms}) for s, h in zip(model.scales, model.heads) if s and len({a.key for a in h.atoms}) > 1]
    ranked = []
    for n, vector in enumerate(product(range(-entry, entry + 1), repeat=len(used))):
        if n >= MAX_CANDIDATES:
            break
        first = next((v for v in vector if v), 0)
        if first <= 0 or gcd(*vector) != 1:
            continue
        u = dict(zip(used, vector))
        levels = [{level(k, u) for k in keys} for keys in live]
        if any(len(values) == 1 for values in levels):  # a head lost: f_u forgets it
            continue
        size, width = _sumset(levels, upper)
        ranked.append((-size, width, sum(map(abs, vector)), vector))
    ranked.sort()
    seen: set[tuple] = set()
    for size, _, _, vector in ranked:
        direction = tuple((j, Fraction(v)) for j, v in zip(used, vector) if v)
        form = canonical_form(restrict(model, direction))
        if form not in seen:
            seen.add(form)
            yield direction, form, -size


def line_bound(model: MultiHead, upper: int, bound_of: Callable[[tuple], int], floor: int) -> LineBound | None:
    """The best of the first MAX_LINES candidate lines above `floor` (None: nothing better), f_u bounded by `bound_of`."""
    best: LineBound | None = None
    for direction, form, _ in islice(candidate_lines(model, upper), MAX_LINES):
        value = bound_of(form)
        if value > floor and (best is None or value > best.value):
            best = LineBound(direction, form, value)
    return best
