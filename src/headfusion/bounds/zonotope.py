"""Vertices and edges of a zonotope from its generators: regions of a central hyperplane arrangement.

Z = base + Σ_j [0, ℓ_j·d_j] (d_j primitive, one per line of generators).  A direction c with
⟨c, d_j⟩ ≠ 0 for every j is maximised at the single point base + Σ_{⟨c,d_j⟩>0} ℓ_j·d_j, so
the vertices of Z are the regions of the arrangement {c : ⟨c, d_j⟩ = 0} (its sign vectors).
Two regions whose sign vectors differ in line j only are separated by the one hyperplane
H_j; a direction on the wall between them is maximised exactly on the edge joining the
two vertices (a translate of [0, ℓ_j·d_j]), and these are all the edges of Z.

Regions are enumerated by deletion and restriction, exactly and without an LP: the regions
of A are those of A ∖ H that H misses, plus two for each region of the restriction A^H
(H cuts a region of A ∖ H in two exactly when it meets it).  Each region carries an integer
interior point, so its sign vector is known exactly.

Witnesses of a graphic arrangement (every line a difference of two coordinates, or a coordinate):
the ranks of a topological order of the region's orientation, ω_ℓ = π(ℓ) − π(0) (`order_witness`),
a rule a reader checks row by row.  Otherwise: the facets of Z are parallel to the hyperplanes spanned by lines; the facets through
a vertex or an edge are read off the sign vectors, and the sum of their normals lies in the
relative interior of its normal cone.  Where a box search finds smaller directions
(`classify_box`), those are used.
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from itertools import combinations
from math import lcm
from typing import Sequence

import flint
import numpy as np

from headfusion.bounds.lattice import dot, exact_products, int_array, inverse, line, pivot_columns, primitive, rank, shells

Vector = tuple[int, ...]


def generator_lines(generators: Sequence[Sequence[int]]) -> tuple[tuple[Vector, ...], tuple[int, ...]]:
    """Distinct lines d_j of the nonzero generators and the total lattice length ℓ_j along each."""
    lengths: dict[Vector, int] = {}
    for g in generators:
        if any(g):
            d = line(g)
            i = next(i for i, x in enumerate(d) if x)
            lengths[d] = lengths.get(d, 0) + abs(g[i] // d[i])
    lines = tuple(sorted(lengths))
    return lines, tuple(lengths[d] for d in lines)


def graphic_pairs(lines: Sequence[Vector], width: int) -> list[tuple[int, int]] | None:
    """(a, b) per line when every line is e_a − e_b, a coordinate difference (b = width: the coordinate 0), else None.

    Then ⟨c, d⟩ = c_a − c_b with c_width = 0: the arrangement is the graphic arrangement of the graph
    on the coordinates 0..width with one edge per line, and its regions are the acyclic orientations.
    """
    pairs = []
    for d in lines:
        nonzero = [(i, x) for i, x in enumerate(d) if x]
        if len(nonzero) == 1 and abs(nonzero[0][1]) == 1:
            i, x = nonzero[0]
            pairs.append((i, width) if x == 1 else (width, i))
        elif len(nonzero) == 2 and sorted(x for _, x in nonzero) == [-1, 1]:
            pairs.append((next(i for i, x in nonzero if x == 1), next(i for i, x in nonzero if x == -1)))
        else:
            return None
    return pairs


def order_witness(pairs: Sequence[tuple[int, int]], key: int, width: int, tie: int | None = None) -> Vector:
    """ω_ℓ = π(ℓ) − π(width) for the orientation of region `key` (bit j set: c_a > c_b for pair j = (a, b)).

    π ranks the coordinates 0..width in the least topological order (smallest index first) of
    the orientation; ⟨ω, d_j⟩ = π(a) − π(b) then has the sign of bit j for every line.  With
    `tie` = j, the two ends of pair j share one rank and pair j is left out: a direction on the
    wall H_j between the regions `key` and `key ^ (1 << j)`, exactly on the edge joining their
    vertices (every other line keeps its sign).
    """
    rep = list(range(width + 1))
    if tie is not None:
        a, b = pairs[tie]
        rep[max(a, b)] = min(a, b)
    after: dict[int, set[int]] = {rep[x]: set() for x in range(width + 1)}
    for j, (a, b) in enumerate(pairs):
        if j != tie:
            low, high = (rep[b], rep[a]) if key >> j & 1 else (rep[a], rep[b])
            after[low].add(high)
    before = {x: 0 for x in after}
    for targets in after.values():
        for y in targets:
            before[y] += 1
    ready = [x for x, n in before.items() if n == 0]
    heapq.heapify(ready)
    rank: dict[int, int] = {}
    while ready:
        x = heapq.heappop(ready)
        rank[x] = len(rank) + 1
        for y in after[x]:
            before[y] -= 1
            if before[y] == 0:
                heapq.heappush(ready, y)
    assert len(rank) == len(after), "the orientation of a region has a cycle"
    return tuple(rank[rep[x]] - rank[rep[width]] for x in range(width))


def _signs(c: Sequence[int], lines: Sequence[Vector]) -> tuple[bool, ...]:
    values = [dot(c, d) for d in lines]
    assert all(values), "an interior point lies on a hyperplane"
    return tuple(v > 0 for v in values)


def _restrict(lines: Sequence[Vector], d: Vector) -> tuple[Vector, ...]:
    """The arrangement restricted to H_d = d^⊥: e ↦ (d·d)e − (e·d)d, distinct lines (none parallel to d)."""
    dd = dot(d, d)
    out = set()
    for e in lines:
        ed = dot(e, d)
        p = tuple(dd * x - ed * y for x, y in zip(e, d))
        if any(p):
            out.add(line(p))
    return tuple(sorted(out))


def _independent_regions(lines: Sequence[Vector], width: int) -> list[Vector]:
    """All 2^k sign vectors of k independent lines: c = Σ s_j m_j with ⟨m_i, d_j⟩ = δ_ij (dual basis, scaled)."""
    k = len(lines)
    if k == 0:
        return [(0,) * width]
    gram = [[Fraction(dot(a, b)) for b in lines] for a in lines]
    inv = inverse(gram)
    dual = [[sum((inv[i][l] * lines[l][j] for l in range(k)), Fraction(0)) for j in range(width)] for i in range(k)]
    scale = lcm(*(x.denominator for row in dual for x in row))
    dual_int = int_array([[int(x * scale) for x in row] for row in dual], width)
    signs = np.array([[1 if (s >> (k - 1 - j)) & 1 else -1 for j in range(k)] for s in range(2**k)], dtype=np.int64)
    points = exact_products(signs, dual_int.T.copy())
    return [primitive([int(x) for x in row]) for row in points]


def arrangement_regions(lines: tuple[Vector, ...], width: int, memo: dict | None = None) -> list[Vector]:
    """One integer interior point per region of the central arrangement {c : ⟨c, d⟩ = 0, d ∈ lines}.

    `lines` are distinct primitive lines (as from `generator_lines`); interior points lie in
    their span.  Deletion–restriction, one line at a time.
    """
    memo = {} if memo is None else memo
    if lines in memo:
        return memo[lines]
    if rank(lines) == len(lines):
        memo[lines] = _independent_regions(lines, width)
        return memo[lines]
    regions: list[Vector] = [(0,) * width]
    for i, d in enumerate(lines):
        rest = lines[:i]
        split = {_signs(ch, rest): ch for ch in arrangement_regions(_restrict(rest, d), width, memo)}
        grown: list[Vector] = []
        for c in regions:
            ch = split.get(_signs(c, rest))
            if ch is None:  # H_d misses this region
                grown.append(c)
                continue
            # c_h ± d/K stays in the region for K|⟨c_h, e⟩| > |⟨d, e⟩| (every e in rest)
            scale = 1 + max((abs(dot(d, e)) // abs(dot(ch, e)) for e in rest), default=0)
            grown.append(primitive([scale * x + y for x, y in zip(ch, d)]))
            grown.append(primitive([scale * x - y for x, y in zip(ch, d)]))
        regions = grown
    memo[lines] = regions
    return regions


def region_key(c: Sequence[int], lines: Sequence[Vector]) -> int:
    """The sign vector of an interior point as a bit mask (bit j set when ⟨c, d_j⟩ > 0)."""
    return sum(1 << j for j, positive in enumerate(_signs(c, lines)) if positive)


def facet_normals(lines: Sequence[Vector], width: int) -> list[Vector]:
    """Outer normals of the facets of Σ_j [0, d_j], both orientations: normals of the hyperplanes spanned by lines.

    A facet is parallel to a flat of rank k − 1 (k = rank of the lines); its normal is taken in
    coordinates where the lines' span is full-dimensional and lifted by zeros, so ⟨n, d⟩ is right
    for every d in the span.
    """
    columns = pivot_columns(lines)
    k = len(columns)
    projected = [[d[c] for c in columns] for d in lines]
    flats: list[int] = []
    normals: list[Vector] = []
    for subset in combinations(range(len(lines)), k - 1):
        mask = sum(1 << i for i in subset)
        if any(mask & f == mask for f in flats):
            continue  # inside a hyperplane already found
        if k == 1:
            normal = (1,)
        else:
            space, nullity = flint.fmpz_mat([projected[i] for i in subset]).nullspace()
            if nullity != 1:
                continue
            normal = primitive([int(space[i, 0]) for i in range(k)])
        flats.append(sum(1 << j for j, d in enumerate(projected) if dot(normal, d) == 0))
        lifted = [0] * width
        for c, x in zip(columns, normal):
            lifted[c] = x
        normals += [tuple(lifted), tuple(-x for x in lifted)]
    return normals


def normal_cone_sums(patterns: np.ndarray, lines: Sequence[Vector], normals: Sequence[Vector], width: int) -> np.ndarray:
    """For each sign pattern (a region, or a wall: one zero), the sum of the facet normals in its closed cone.

    A normal n lies in the closed cone of a pattern s when sign⟨n, d_j⟩ ∈ {0, s_j} for every j
    (and is 0 where s_j = 0); these are the facets through the vertex or edge, and their sum lies
    in the relative interior of its normal cone: a witness.
    """
    values = exact_products(int_array(normals, width), int_array(lines, width))
    signs = (values > 0).astype(np.int64) - (values < 0).astype(np.int64)
    s = patterns.astype(np.int64)
    conflicts = (
        (s == 1).astype(np.int64) @ (signs == -1).T.astype(np.int64)
        + (s == -1).astype(np.int64) @ (signs == 1).T.astype(np.int64)
        + (s == 0).astype(np.int64) @ (signs != 0).T.astype(np.int64)
    )
    return exact_products((conflicts == 0).astype(np.int64), int_array(normals, width).T.copy())


def classify_box(
    lines: Sequence[Vector], width: int, budget: int, wanted: tuple[int, int], limit: int
) -> tuple[dict[int, Vector], dict[tuple[int, int], Vector], int]:
    """Least box vectors per region and per wall (canonical small witnesses), found shell by shell.

    Returns ({region mask: c}, {(mask with bit j clear, j): c on H_j}); within a shell the
    first vector in canonical order wins, and earlier shells win over later ones.  Stops once
    `wanted` = (#regions, #walls) are all found, or past radius `limit` (the caller's largest
    witness: beyond it nothing improves).  The last item is the largest radius searched.
    """
    regions: dict[int, Vector] = {}
    walls: dict[tuple[int, int], Vector] = {}
    m = len(lines)
    radius = 0
    if m == 0 or m > 62:
        return regions, walls, radius
    matrix = int_array(lines, width)
    powers = np.array([1 << j for j in range(m)], dtype=np.int64)
    for shell in shells(width, budget):
        if radius >= limit:
            break
        radius += 1
        values = exact_products(shell, matrix)
        positive = (values > 0).astype(np.int64) @ powers
        zeros = values == 0
        count = zeros.sum(axis=1)
        rows = np.flatnonzero(count == 0)
        keys, first = np.unique(positive[rows], return_index=True)
        for key, row in zip(keys.tolist(), rows[first].tolist()):
            regions.setdefault(key, tuple(shell[row].tolist()))
        rows = np.flatnonzero(count == 1)
        which = zeros[rows].argmax(axis=1)
        keys, first = np.unique(np.stack([positive[rows], which], axis=1).reshape(-1, 2), axis=0, return_index=True)
        for (key, j), row in zip(keys.tolist(), rows[first].tolist()):
            walls.setdefault((key, j), tuple(shell[row].tolist()))
        if len(regions) >= wanted[0] and len(walls) >= wanted[1]:
            break
    return regions, walls, radius
