"""Rigid edges (Lemma LE, DESIGN §8): when |supp Q′| > V, a head with V atoms is impossible.

A head with m = V atoms (V = #vertices of Newt(Q′)) has every term of D = g·Q′ a vertex of
Newt(D), with the normal fan of Newt(Q′) (LT).  Along an edge of Newt(Q′) exposed by c whose face
limit F_c = P′_c/Q′_c is not constant, the face identity N_c·Q′_c = D_c·P′_c forces the matching
edge of Newt(D) to have the same lattice length (the edge is *rigid*).  Rigid edges along a
spanning tree of Newt(Q′)'s vertex graph make Newt(g) a point: g is a monomial and D has
|supp Q′| > V terms, a contradiction.  So m*(F) ≥ V + 1.

This module finds, per block, a spanning tree of rigid edges among the Newton vertices the
certificate lists; `kernel.structure.check_edges` re-checks every witness and face limit.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, prod
from typing import Sequence

from headfusion.algebra.expform import Block, ExpForm, x_support
from headfusion.bounds.lower import NewtonBound, block_newton_graph
from headfusion.kernel.poly import add, mul, x_groups  # the kernel's exact arithmetic: the same test it will replay

Point = tuple[int, ...]


@dataclass(frozen=True)
class RigidEdge:
    """An edge [u, w] of Newt(Q′_B) exposed by c, with its face polynomials (terms on the top c-level)."""

    u: Point
    w: Point
    witness: tuple[int, ...]
    face_P: dict  # P′_B,c as {exponent (x…, t): coefficient}
    face_Q: dict  # Q′_B,c


@dataclass(frozen=True)
class EdgeBound:
    """LE for F: per block, a spanning tree of rigid edges; the bound V + 1."""

    trees: tuple[tuple[RigidEdge, ...], ...]  # per block of the form
    vertices: int
    support: int

    @property
    def bound(self) -> int:
        return self.vertices + 1


def is_constant_ratio(P: dict, Q: dict) -> bool:
    """P = κ·Q for a constant κ (in Q(t)): P·q0 = Q·p0 with p0, q0 the coefficients at one point of supp Q (exact)."""
    groups_P, groups_Q = x_groups(P), x_groups(Q)
    anchor = min(groups_Q)
    q0, p0 = ({(0,) * len(anchor) + (k,): v for k, v in R.get(anchor, {}).items()} for R in (groups_Q, groups_P))
    return not add(mul(P, q0), mul(Q, p0), Fraction(-1))


def segment_points(u: Point, w: Point) -> list[Point]:
    """The lattice points of the segment [u, w] (u + k·(w − u)/g for k = 0..g, g the gcd of w − u)."""
    step = [b - a for a, b in zip(u, w)]
    g = gcd(*step)
    if g == 0:
        return [u]
    step = [s // g for s in step]
    return [tuple(a + k * s for a, s in zip(u, step)) for k in range(g + 1)]


def rigid_tree(block: Block, vertices: Sequence[Point]) -> tuple[RigidEdge, ...] | None:
    """A spanning tree of rigid edges on the given vertices of Newt(Q′_B), or None.

    The witness c of an edge [u, w] exposes exactly that segment of conv(supp Q′_B) (checked by
    `newton_graph`), so the top c-level is ⟨c, u⟩ and the terms of Q′ there lie on the segment: they are
    looked up, not searched.  Terms of P′ outside supp Q′ are the only ones that can leave the segment,
    so only they are evaluated.
    """
    groups_P, groups_Q = x_support(block.P_reduced), x_support(block.Q_reduced)
    outside = [x for x in groups_P if x not in groups_Q]  # points of supp P′ that are not in supp Q′
    graph = block_newton_graph(block)
    listed = set(vertices)
    root = {v: v for v in listed}

    def find(v: Point) -> Point:
        while root[v] != v:
            v = root[v]
        return v

    def terms_at(groups: dict, points: Sequence[Point]) -> dict:
        return {x + (k,): v for x in points if x in groups for k, v in groups[x].items()}

    tree: list[RigidEdge] = []
    for u, w, c in graph.edges:
        if u not in listed or w not in listed or find(u) == find(w):
            continue
        top = sum(map(operator.mul, c, u))
        levels = [(x, sum(map(operator.mul, c, x))) for x in outside]
        if any(level > top for _, level in levels):
            continue
        segment = segment_points(u, w)
        face_Q = terms_at(groups_Q, segment)
        face_P = terms_at(groups_P, segment + [x for x, level in levels if level == top])
        if is_constant_ratio(face_P, face_Q):
            continue
        root[find(u)] = find(w)
        tree.append(RigidEdge(u, w, tuple(c), face_P, face_Q))
    return tuple(tree) if len(tree) == len(listed) - 1 else None


def edge_bound(form: ExpForm, newton: NewtonBound) -> EdgeBound | None:
    """LE for F, when every block has a spanning tree of rigid edges and |supp Q′| > V."""
    support = prod(len(x_support(b.Q_reduced)) for b in form.blocks)
    if support <= newton.count or any(nb.vertices is None for nb in newton.blocks):
        return None
    trees, cache = [], {}
    for block, nb in zip(form.blocks, newton.blocks):
        key = (block.P_reduced, block.Q_reduced)
        if key not in cache:
            cache[key] = rigid_tree(block, [v for v, _ in nb.vertices.vertices])
        if cache[key] is None:
            return None
        trees.append(cache[key])
    return EdgeBound(tuple(trees), newton.count, support)
