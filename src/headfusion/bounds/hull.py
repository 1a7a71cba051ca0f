"""Facets, vertices and edges of the convex hull of integer points (exact double description).

The valid inequalities b − ⟨c, x⟩ ≥ 0 of conv(S) form the cone K = {y : ⟨(1, p), y⟩ ≥ 0, p ∈ S};
for a full-dimensional S its extreme rays are the facets.  The double description method
builds K's rays one point at a time (Motzkin et al.): a new constraint keeps the rays it
satisfies and joins each adjacent pair it separates; adjacency is combinatorial (no other
ray is tight wherever both are).  Integer arithmetic throughout, tight sets as bit masks.

From the facets: the smallest face containing a point is the intersection of the facets
through it, so p is a vertex when that intersection is {p}, and two vertices span an edge
when the intersection of the facets through both holds no other vertex.  The sum of the
normals of those facets lies in the relative interior of the face's normal cone: a witness.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Sequence

from headfusion.spec.errors import ResourceLimit
from headfusion.bounds.lattice import Point, dot, inverse, pivot_columns, primitive

MAX_RAYS = 20_000  # intermediate cones beyond this are refused (ResourceLimit, the limit named)


@dataclass(frozen=True)
class Facet:
    """⟨normal, x⟩ ≤ offset on every point, with equality exactly on the points of the mask."""

    normal: tuple[int, ...]
    offset: int
    points: int  # bit i set when point i lies on the facet


def _solve_columns(rows: list[list[int]]) -> list[list[int]]:
    """Integer columns y_i with rows[j]·y_i = 0 for j ≠ i and rows[i]·y_i > 0 (the inverse's columns, scaled)."""
    inv = inverse(rows)
    out = []
    for i in range(len(rows)):
        column = [inv[j][i] for j in range(len(rows))]
        scale = lcm(*(x.denominator for x in column))
        out.append(list(primitive([int(x * scale) for x in column])))
    return out


def facets(points: Sequence[Point], order: Sequence[int] | None = None) -> list[Facet]:
    """All facets of conv(points) for full-dimensional integer points in Z^k, k ≥ 1.

    `order` (a permutation of the indices) is the insertion order: vertices early keep the
    intermediate cones small; the result does not depend on it.
    """
    n, k = len(points), len(points[0])
    order = list(range(n)) if order is None else list(order)
    rows = [(1,) + tuple(p) for p in points]
    # a first simplex: k + 1 affinely independent points, taken greedily in insertion order
    basis: list[int] = []
    for i in order:
        if len(pivot_columns([rows[j] for j in basis + [i]])) == len(basis) + 1:
            basis.append(i)
            if len(basis) == k + 1:
                break
    if len(basis) < k + 1:
        raise ValueError("the points are not full-dimensional")
    rays = [tuple(y) for y in _solve_columns([list(rows[i]) for i in basis])]
    tight = [sum(1 << basis[j] for j in range(k + 1) if j != i) for i in range(k + 1)]
    in_basis = set(basis)
    for t in order:
        if t in in_basis:
            continue
        a = rows[t]
        values = [dot(a, y) for y in rays]
        negative = [i for i, v in enumerate(values) if v < 0]
        bit = 1 << t
        if not negative:
            tight = [z | bit if v == 0 else z for z, v in zip(tight, values)]
            continue
        positive = [i for i, v in enumerate(values) if v > 0]
        new_rays = [rays[i] for i, v in enumerate(values) if v >= 0]
        new_tight = [tight[i] | (bit if values[i] == 0 else 0) for i, v in enumerate(values) if v >= 0]
        for p in positive:
            for q in negative:
                common = tight[p] & tight[q]
                if common.bit_count() < k - 1:
                    continue
                if any(i != p and i != q and tight[i] & common == common for i in range(len(rays))):
                    continue  # not adjacent: a third ray is tight wherever both are
                vp, vq = values[p], -values[q]
                new_rays.append(primitive([vp * x + vq * y for x, y in zip(rays[q], rays[p])]))
                new_tight.append(common | bit)
        if len(new_rays) > MAX_RAYS:
            raise ResourceLimit(f"Newton polytope: more than {MAX_RAYS:,} intermediate facets in its convex hull (limit {MAX_RAYS:,})")
        rays, tight = new_rays, new_tight
    return [Facet(tuple(-x for x in y[1:]), y[0], z) for y, z in zip(rays, tight)]


def _face(masks: list[int], everything: int) -> int:
    out = everything
    for m in masks:
        out &= m
    return out


def vertices_and_edges(points: Sequence[Point], faces: Sequence[Facet], with_edges: bool = True):
    """(vertices, edges) of conv(points) from its facets, each with a witness (sum of facet normals).

    vertices: list of (point index, witness); edges: list of (index u, index w, witness), u < w.
    """
    n, k = len(points), len(points[0])
    everything = (1 << n) - 1
    through: list[list[int]] = [[] for _ in range(n)]  # facets through each point
    for f, facet in enumerate(faces):
        mask = facet.points
        while mask:
            low = mask & -mask
            through[low.bit_length() - 1].append(f)
            mask ^= low
    vertex_mask = 0
    vertices = []
    for i in range(n):
        if _face([faces[f].points for f in through[i]], everything) == 1 << i:
            vertex_mask |= 1 << i
            vertices.append((i, _sum_normals(faces, through[i], k)))
    edges = []
    if with_edges:
        for u, _ in vertices:
            shared: dict[int, list[int]] = {}
            for f in through[u]:
                mask = faces[f].points & vertex_mask
                while mask:
                    low = mask & -mask
                    w = low.bit_length() - 1
                    if w > u:
                        shared.setdefault(w, []).append(f)
                    mask ^= low
            candidates = shared.items() if k > 1 else [(w, []) for w, _ in vertices if w > u]
            for w, common in candidates:
                if len(common) < k - 1:
                    continue
                if _face([faces[f].points for f in common], everything) & vertex_mask == (1 << u) | (1 << w):
                    edges.append((u, w, _sum_normals(faces, common, k)))
    return vertices, edges


def _sum_normals(faces: Sequence[Facet], chosen: list[int], k: int) -> tuple[int, ...]:
    total = [0] * k
    for f in chosen:
        total = [a + b for a, b in zip(total, faces[f].normal)]
    return primitive(total)
