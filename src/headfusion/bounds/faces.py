"""Disjoint faces (Lemma LD, DESIGN §9): m*(F) ≥ Σ_i m*(F_{c_i}) over pairwise disjoint faces of Newt(Q′).

A head's D = g·Q′ has Newt(D) = Newt(g) + Newt(Q′), whose faces in directions c_i and c_j meet only
if Newt(Q′)'s do; the terms of D on its c-face form a head of the face limit F_c (the L6 argument).
So any family of pairwise disjoint faces adds the face functions' own proved bounds — Newton, LK,
LE, LH, LS, LD again.  L6 is the family {c, −c}.

Candidate directions (integer vectors in q): ±1_S for every nonempty set S of the variables F uses
when there are at most MAX_SUBSET_VARIABLES of them (a weak order with two levels; ±e_j among them),
else ±e_j; and ± the facet normals of planar blocks.  Faces are compared block by block (a face of
the product Newt(Q′) = Π_B Newt(Q′_B) is a product of block faces: two are disjoint iff some block's
are), equal faces are tried once, and a best family is a maximum-weight clique of the "disjoint" graph,
found by a deterministic branch and bound with a step budget.  `kernel.faces` re-checks everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import lcm
from typing import Callable

import numpy as np

from headfusion.algebra.expform import ExpForm, x_support
from headfusion.bounds.facelimits import Direction, canonical_form, face_limit, negate, used_variables
from headfusion.bounds.lattice import exact_products, int_array
from headfusion.spec.model import MultiHead

MAX_SUBSET_VARIABLES = 6
MAX_CLIQUE_STEPS = 200_000


@dataclass(frozen=True)
class Face:
    """A face of Newt(Q′) in direction c: its face function (canonical form) and that function's proved bound."""

    direction: Direction
    form: tuple
    value: int


@dataclass(frozen=True)
class FaceFamily:
    """Pairwise disjoint faces; the LD bound is the sum of their functions' bounds."""

    faces: tuple[Face, ...]

    @property
    def value(self) -> int:
        return sum(f.value for f in self.faces)


def candidate_directions(model: MultiHead, form: ExpForm) -> list[Direction]:
    """±1_S (S ⊆ the used variables, when few) or ±e_j, then ± the facet normals of planar blocks."""
    from headfusion.bounds.lower import face_directions

    used = used_variables(model)
    if len(used) <= MAX_SUBSET_VARIABLES:
        sets = [s for k in range(1, len(used) + 1) for s in combinations(used, k)]
    else:
        sets = [(j,) for j in used]
    out: list[Direction] = []
    for s in sets:
        c = tuple((j, Fraction(1)) for j in s)
        out += [c, negate(c)]
    for c in face_directions(model, form)[len(used):]:  # the planar facet normals after the axes
        out += [c, negate(c)]
    return list(dict.fromkeys(out))


def face_tops(form: ExpForm, directions: list[Direction]) -> list[tuple[frozenset, ...]]:
    """Per direction c, per block, the points of supp Q′_B on the top level of ⟨c, key(e)⟩ (the face's points).

    A lattice point e of a block has key Σ_r e_r·b_r in the block's q columns, so ⟨c, key(e)⟩ = ⟨ω, e⟩ with
    ω_r = ⟨c, b_r⟩; ω is scaled to integers (a positive scale keeps the top level) and all directions are
    evaluated in one exact integer product per block.
    """
    per_block = []
    for block in form.blocks:
        support = sorted(x_support(block.Q_reduced))
        vectors = [block.basis.point(tuple(1 if i == r else 0 for i in range(block.rank))) for r in range(block.rank)]
        omegas = []
        for c in directions:
            d = dict(c)
            omega = [sum((d.get(j, Fraction(0)) * v[k] for k, j in enumerate(block.variables)), Fraction(0)) for v in vectors]
            scale = lcm(1, *(w.denominator for w in omega))
            omegas.append([int(w * scale) for w in omega])
        if block.rank == 0 or not support:
            per_block.append([frozenset(support)] * len(directions))
            continue
        values = exact_products(int_array(support, block.rank), int_array(omegas, block.rank))
        hits = values == values.max(axis=0)
        per_block.append([frozenset(support[i] for i in np.flatnonzero(column)) for column in hits.T])
    return [tuple(block[k] for block in per_block) for k in range(len(directions))]


def best_clique(weights: list[int], disjoint: list[set[int]]) -> list[int]:
    """A maximum-weight set of pairwise adjacent nodes (branch and bound, heaviest first, at most MAX_CLIQUE_STEPS steps)."""
    order = sorted(range(len(weights)), key=lambda i: (-weights[i], i))
    best: list[int] = []
    best_value, steps = 0, 0

    def grow(chosen: list[int], value: int, candidates: list[int]) -> None:
        nonlocal best, best_value, steps
        steps += 1
        if value > best_value:
            best, best_value = list(chosen), value
        if steps > MAX_CLIQUE_STEPS or value + sum(weights[i] for i in candidates) <= best_value:
            return
        for k, i in enumerate(candidates):
            if value + sum(weights[j] for j in candidates[k:]) <= best_value:
                return
            grow(chosen + [i], value + weights[i], [j for j in candidates[k + 1:] if j in disjoint[i]])

    grow([], 0, order)
    return sorted(best)


def face_family(model: MultiHead, form: ExpForm, bound_of: Callable[[tuple], int], floor: int) -> FaceFamily | None:
    """The best LD family found above `floor` (None: nothing better), face functions bounded by `bound_of`."""
    seen: dict[tuple, int] = {}
    faces: list[Face] = []
    tops: list[tuple[frozenset, ...]] = []
    whole = tuple(frozenset(x_support(b.Q_reduced)) for b in form.blocks)
    directions = candidate_directions(model, form)
    for c, points in zip(directions, face_tops(form, directions)):
        if points in seen or points == whole:  # the same face again, or all of Newt(Q′) (its limit is F)
            continue
        seen[points] = len(faces)
        limit = canonical_form(face_limit(model, c))
        faces.append(Face(c, limit, bound_of(limit)))
        tops.append(points)
    disjoint = [{j for j in range(len(faces)) if j != i and any(not (a & b) for a, b in zip(tops[i], tops[j]))} for i in range(len(faces))]
    chosen = best_clique([f.value for f in faces], disjoint)
    family = FaceFamily(tuple(faces[i] for i in chosen))
    return family if family.value > floor else None
