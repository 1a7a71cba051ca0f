"""Vertices of Newton polytopes with integer witnesses (L5).

A vertex v of Newt(S) is certified by an integer vector c with ⟨c, v⟩ > ⟨c, u⟩ for
every other u ∈ S; the check is integer arithmetic.  Finding witnesses is untrusted:
random integer directions first (any direction with a unique maximiser yields a
vertex and its witness), then an exact LP (z3, rational) for the points left over.
Every witness reported here has been checked.

For a zonotope (Q′_B a product of binomials) the vertex count is the number of
regions of the central hyperplane arrangement {c : ⟨c, g⟩ = 0} of its generators
(Zaslavsky), counted exactly by Whitney's formula r = Σ_{B ⊆ A} (−1)^{|B| − rank B}.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import gcd, lcm
from typing import Sequence

Point = tuple[int, ...]

MAX_EXPLICIT_SUPPORT = 40_000
MAX_ARRANGEMENT_GENERATORS = 22


def dot(a: Sequence[int], b: Sequence[int]) -> int:
    """Integer inner product."""
    return sum(x * y for x, y in zip(a, b))


def is_witness(vertex: Point, witness: Sequence[int], support: Sequence[Point]) -> bool:
    """⟨c, v⟩ > ⟨c, u⟩ for every u ≠ v in the support (integer arithmetic)."""
    top = dot(witness, vertex)
    return vertex in support and all(dot(witness, u) < top for u in support if u != vertex)


@dataclass(frozen=True)
class VertexSet:
    """The vertices of one Newton polytope, each with a checked witness."""

    dimension: int
    support_size: int
    vertices: tuple[tuple[Point, tuple[int, ...]], ...]  # (vertex, witness)

    @property
    def count(self) -> int:
        return len(self.vertices)


def _unique_argmax(points: Sequence[Point], c: Sequence[int]) -> Point | None:
    best, best_value, unique = None, None, False
    for p in points:
        value = dot(c, p)
        if best_value is None or value > best_value:
            best, best_value, unique = p, value, True
        elif value == best_value:
            unique = False
    return best if unique else None


def _lp_witness(vertex: Point, others: Sequence[Point]) -> tuple[int, ...] | None:
    """Integer c with ⟨c, v − u⟩ ≥ 1 for all u (exact LP via z3), or None if none exists."""
    import z3

    r = len(vertex)
    cs = [z3.Real(f"c{i}") for i in range(r)]
    solver = z3.Solver()
    for u in others:
        solver.add(z3.Sum([cs[i] * (vertex[i] - u[i]) for i in range(r) if vertex[i] != u[i]] or [z3.RealVal(0)]) >= 1)
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    values = []
    for c in cs:
        v = model.evaluate(c, model_completion=True)
        values.append(Fraction(v.numerator_as_long(), v.denominator_as_long()))
    scale = lcm(1, *(v.denominator for v in values))
    return tuple(int(v * scale) for v in values)


def _primitive(c: Sequence[int]) -> tuple[int, ...]:
    g = gcd(*c)
    return tuple(x // g for x in c) if g > 1 else tuple(c)


def explicit_vertices(support: Sequence[Point], seed: int = 0, expected: int | None = None) -> VertexSet:
    """All vertices of conv(support) with checked integer witnesses.

    `expected`, when given, is the exact number of vertices known from theory (the
    region count of a zonotope): once that many distinct vertices carry checked
    witnesses, the remaining points cannot be vertices and need no LP.
    """
    points = sorted(set(support))
    if not points:
        return VertexSet(0, 0, ())
    r = len(points[0])
    if len(points) > MAX_EXPLICIT_SUPPORT:
        raise ValueError(f"support of {len(points)} points exceeds the explicit limit {MAX_EXPLICIT_SUPPORT}")
    if len(points) == 1:
        return VertexSet(r, 1, ((points[0], (0,) * r),))
    found: dict[Point, tuple[int, ...]] = {}
    # The direction from the centroid to the point first: it is the witness for every
    # vertex of a centrally symmetric support (e.g. 2·1_S − 1 for the cube of W_d).
    n = len(points)
    centroid_n = [sum(p[i] for p in points) for i in range(r)]  # n · centroid, kept integral
    for p in points:
        c = _primitive([n * p[i] - centroid_n[i] for i in range(r)]) if any(n * p[i] != centroid_n[i] for i in range(r)) else None
        if c is not None and is_witness(p, c, points):
            found[p] = c
    if len(found) == n:
        return VertexSet(r, n, tuple(sorted(found.items())))
    # Coordinate directions and their negatives: cheap and often enough.
    directions: list[tuple[int, ...]] = []
    for i in range(r):
        for s in (1, -1):
            directions.append(tuple(s if j == i else 0 for j in range(r)))
    rng = random.Random(seed)
    bound = 3
    directions += [tuple(rng.randint(-bound, bound) for _ in range(r)) for _ in range(2 * len(points) + 16)]
    for c in directions:
        if expected is not None and len(found) >= expected:
            break
        if not any(c):
            continue
        v = _unique_argmax(points, c)
        if v is not None and v not in found:
            found[v] = _primitive(c)
    # Points not reached by a random direction: an exact LP decides them.
    for p in points:
        if p in found:
            continue
        if expected is not None and len(found) >= expected:
            break
        witness = _lp_witness(p, [u for u in points if u != p])
        if witness is not None:
            found[p] = _primitive(witness)
    for v, c in found.items():
        if not is_witness(v, c, points):  # never trust the finder
            raise AssertionError(f"witness check failed for vertex {v}")
    return VertexSet(r, len(points), tuple(sorted(found.items())))


# -- zonotopes --------------------------------------------------------------------------


def rank(vectors: Sequence[Sequence[int]]) -> int:
    """Exact rank of integer vectors (fraction-free Gaussian elimination)."""
    rows = [list(map(Fraction, v)) for v in vectors if any(v)]
    if not rows:
        return 0
    n = len(rows[0])
    r = 0
    for col in range(n):
        pivot = next((i for i in range(r, len(rows)) if rows[i][col] != 0), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        for i in range(len(rows)):
            if i != r and rows[i][col] != 0:
                f = rows[i][col] / rows[r][col]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        r += 1
        if r == len(rows):
            break
    return r


def zonotope_directions(generators: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Distinct generator lines: primitive, sign-normalised (first nonzero entry > 0), sorted."""
    lines = set()
    for g in generators:
        if not any(g):
            continue
        p = _primitive(list(g))
        first = next(x for x in p if x)
        lines.add(p if first > 0 else tuple(-x for x in p))
    return tuple(sorted(lines))


@lru_cache(maxsize=256)
def zonotope_vertex_count(directions: tuple[tuple[int, ...], ...]) -> int:
    """Vertices of Σ segments along the directions = regions of their central arrangement.

    Independent directions give 2^k; otherwise Whitney's formula
    r(A) = Σ_{B ⊆ A} (−1)^{|B| − rank(B)} (Zaslavsky's theorem), exact.
    """
    k = len(directions)
    if k == 0:
        return 1
    if rank(directions) == k:
        return 2**k
    if k > MAX_ARRANGEMENT_GENERATORS:
        raise ValueError(f"arrangement of {k} dependent generators exceeds the limit {MAX_ARRANGEMENT_GENERATORS}")
    total = 0
    for size in range(k + 1):
        for subset in combinations(directions, size):
            total += (-1) ** (size - rank(subset))
    return total
