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

from dataclasses import dataclass
from fractions import Fraction
from math import prod
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


def face(poly: dict, witness: Sequence[int], top: int) -> dict:
    """The terms of a polynomial in (x, t) on the level ⟨c, x⟩ = top."""
    return {e: c for e, c in poly.items() if sum(a * b for a, b in zip(witness, e[:-1])) == top}


def is_constant_ratio(P: dict, Q: dict) -> bool:
    """P = κ·Q for a constant κ (in Q(t)): P·q0 = Q·p0 with p0, q0 the coefficients at one point of supp Q (exact)."""
    groups_P, groups_Q = x_groups(P), x_groups(Q)
    anchor = min(groups_Q)
    q0, p0 = ({(0,) * len(anchor) + (k,): v for k, v in R.get(anchor, {}).items()} for R in (groups_Q, groups_P))
    return not add(mul(P, q0), mul(Q, p0), Fraction(-1))


def rigid_tree(block: Block, vertices: Sequence[Point]) -> tuple[RigidEdge, ...] | None:
    """A spanning tree of rigid edges on the given vertices of Newt(Q′_B), or None."""
    P, Q = block.P_reduced.terms, block.Q_reduced.terms
    support = sorted(x_support(block.Q_reduced))
    graph = block_newton_graph(block)
    listed = set(vertices)
    root = {v: v for v in listed}

    def find(v: Point) -> Point:
        while root[v] != v:
            v = root[v]
        return v

    tree: list[RigidEdge] = []
    for u, w, c in graph.edges:
        if u not in listed or w not in listed or find(u) == find(w):
            continue
        top = max(sum(a * b for a, b in zip(c, e)) for e in support)
        if any(sum(a * b for a, b in zip(c, e[:-1])) > top for e in P):
            continue
        face_P, face_Q = face(P, c, top), face(Q, c, top)
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
