"""Newton polytopes: vertices and edges with integer witnesses (L5, LE).

A vertex v of conv(S) is certified by an integer c with ⟨c, v⟩ > ⟨c, u⟩ for every other
u ∈ S, an edge [u, w] by an integer c whose maximisers in S are exactly the points of S on
the segment [u, w]; both checks are integer arithmetic.  `newton_graph` finds all vertices
and all edges of conv(S):

- when S is the support of a product of binomials (a zonotope; the caller passes the
  exponent differences, detected from the algebra) from the regions of the generators'
  hyperplane arrangement (`zonotope`): no LP at all;
- otherwise from the facets of conv(S), computed exactly by double description (`hull`).

Witnesses are then replaced by the least integer vectors (max-norm, then Σc², then
lexicographic) doing the same job, where a box search finds them cheaply, and every
witness is re-checked exactly against all of S before it is returned: finders are
never trusted.

For a zonotope the vertex count is also the number of regions of the central arrangement
of its generators (Zaslavsky), counted exactly by Whitney's formula
r = Σ_{B ⊆ A} (−1)^{|B| − rank B}: `zonotope_vertex_count`, for supports too large to list.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Sequence

import numpy as np

from headfusion.bounds import hull
from headfusion.spec.errors import ResourceLimit
from headfusion.bounds.lattice import Point, dot, exact_products, int_array, line, pivot_columns, primitive, rank
from headfusion.bounds.witnesses import BOX_BUDGET, box_vertex_witnesses, choose
from headfusion.bounds.zonotope import (
    arrangement_regions,
    classify_box,
    facet_normals,
    generator_lines,
    graphic_pairs,
    normal_cone_sums,
    order_witness,
    region_key,
)

MAX_EXPLICIT_SUPPORT = 40_000
MAX_ARRANGEMENT_GENERATORS = 22


def is_witness(vertex: Point, witness: Sequence[int], support: Sequence[Point]) -> bool:
    """⟨c, v⟩ > ⟨c, u⟩ for every u ≠ v in the support (integer arithmetic)."""
    top = dot(witness, vertex)
    return vertex in support and all(dot(witness, u) < top for u in support if u != vertex)


def on_segment(p: Point, u: Point, w: Point) -> bool:
    """p ∈ [u, w] (exact): p − u is a multiple t·(w − u) with 0 ≤ t ≤ 1."""
    a = [x - y for x, y in zip(p, u)]
    b = [x - y for x, y in zip(w, u)]
    if any(a[i] * b[j] != a[j] * b[i] for i in range(len(a)) for j in range(i + 1, len(a))):
        return False
    return 0 <= dot(a, b) <= dot(b, b)


def is_edge_witness(u: Point, w: Point, witness: Sequence[int], support: Sequence[Point]) -> bool:
    """The maximisers of ⟨c, ·⟩ over the support are exactly its points on [u, w], u and w among them."""
    top = max(dot(witness, p) for p in support)
    argmax = [p for p in support if dot(witness, p) == top]
    return u != w and u in argmax and w in argmax and all(on_segment(p, u, w) for p in argmax)


@dataclass(frozen=True)
class NewtonGraph:
    """The vertex–edge graph of conv(support), every vertex and edge with a checked integer witness."""

    vertices: tuple[tuple[Point, tuple[int, ...]], ...]  # (vertex, c): ⟨c,v⟩ > ⟨c,u⟩ for every other u; sorted
    edges: tuple[tuple[Point, Point, tuple[int, ...]], ...]  # (u, w, c), u < w: argmax of c = support ∩ [u, w]; sorted


@dataclass(frozen=True)
class VertexSet:
    """The vertices of one Newton polytope, each with a checked witness."""

    dimension: int
    support_size: int
    vertices: tuple[tuple[Point, tuple[int, ...]], ...]  # (vertex, witness)

    @property
    def count(self) -> int:
        return len(self.vertices)


def newton_graph(support: Sequence[Point], generators: Sequence[Point] | None = None, with_edges: bool = True) -> NewtonGraph:
    """All vertices and (with_edges) all edges of conv(support), each with a small checked integer witness.

    `generators`: the exponent differences g_i when the polynomial is a unit times Π (x^{a_i} + c_i x^{b_i}),
    so that conv(support) is the zonotope Σ [0, g_i] translated; then the arrangement does the work.
    """
    points = sorted(set(tuple(p) for p in support))
    if not points:
        return NewtonGraph((), ())
    r = len(points[0])
    if len(points) == 1:
        return NewtonGraph(((points[0], (0,) * r),), ())
    if len(points) > MAX_EXPLICIT_SUPPORT:
        raise ResourceLimit(f"Newton polytope: support of {len(points):,} points exceeds the explicit limit {MAX_EXPLICIT_SUPPORT:,}")
    if r == 1:  # a segment (e.g. every block of W_d): its ends, and the one edge
        low, high = points[0], points[-1]
        graph = NewtonGraph(((low, (-1,)), (high, (1,))), ((low, high, (0,)),) if with_edges else ())
        assert _checked(graph, points)
        return graph
    graph = _zonotope_graph(points, generators, with_edges) if generators else None
    if graph is None or not _checked(graph, points):  # generators that do not fit the support: the general way
        graph = _hull_graph(points, with_edges)
        if not _checked(graph, points):
            raise AssertionError("a Newton-polytope witness failed its check")
    return graph


# -- zonotopes ----------------------------------------------------------------------------------


def _zonotope_graph(points: list[Point], generators: Sequence[Point], with_edges: bool) -> NewtonGraph | None:
    """The graph from the generators' arrangement; None when the generators do not describe the support."""
    r = len(points[0])
    lines, lengths = generator_lines(generators)
    if not lines or any(len(d) != r for d in lines):
        return None
    m = len(lines)
    interior = {region_key(c, lines): c for c in arrangement_regions(lines, r)}
    keys = sorted(interior)
    adjacent = [(key, j) for key in keys for j in range(m) if not key >> j & 1 and key | 1 << j in interior] if with_edges else []
    pairs = graphic_pairs(lines, r)
    if pairs is not None:  # orientations of a graph: the witnesses of their orders, one rule for every row
        chosen = [order_witness(pairs, key, r) for key in keys] + [order_witness(pairs, key, r, j) for key, j in adjacent]
        return _translated(points, lines, lengths, keys, adjacent, chosen)
    # witnesses: sums of facet normals, then the least box directions where the box reaches
    patterns = np.array([[1 if key >> j & 1 else -1 for j in range(m)] for key in keys]
                        + [[0 if i == j else 1 if key >> i & 1 else -1 for i in range(m)] for key, j in adjacent],
                        dtype=np.int64).reshape(-1, m)
    sums = normal_cone_sums(patterns, lines, facet_normals(lines, r), r)
    witness = [primitive([int(x) for x in row]) for row in sums]
    largest = max(max(map(abs, c)) for c in witness)
    boxed, walls, radius = classify_box(lines, r, BOX_BUDGET, (len(keys), len(adjacent)), largest)

    def cone(pattern: np.ndarray) -> tuple[list[Point], list[Point]]:
        """Rows of the region or wall: s_j·d_j ≥ 1 off the wall, d_j = 0 on it."""
        above = [tuple(int(s) * x for x in d) for s, d in zip(pattern, lines) if s]
        return above, [d for s, d in zip(pattern, lines) if not s]

    chosen = choose([
        (c, boxed.get(key) if i < len(keys) else walls.get(adjacent[i - len(keys)]), lambda p=pattern: cone(p))
        for i, (key, c, pattern) in enumerate(zip(keys + [k for k, _ in adjacent], witness, patterns))
    ], radius)
    return _translated(points, lines, lengths, keys, adjacent, chosen)


def _translated(points: list[Point], lines: Sequence[Point], lengths: Sequence[int], keys: list[int],
                adjacent: list[tuple[int, int]], chosen: list[tuple[int, ...]]) -> NewtonGraph | None:
    """The graph with its vertices placed: the support's maximiser of one region's witness is that region's vertex."""
    values = [dot(chosen[0], p) for p in points]
    top = max(values)
    if values.count(top) != 1:
        return None
    base = list(points[values.index(top)])
    for j, d in enumerate(lines):
        if keys[0] >> j & 1:
            base = [x - lengths[j] * y for x, y in zip(base, d)]

    def vertex(key: int) -> Point:
        v = base
        for j, d in enumerate(lines):
            if key >> j & 1:
                v = [x + lengths[j] * y for x, y in zip(v, d)]
        return tuple(v)

    vertices = tuple(sorted(zip((vertex(key) for key in keys), chosen)))
    edges = tuple(sorted(
        (vertex(key), vertex(key | 1 << j), c) for (key, j), c in zip(adjacent, chosen[len(keys):])
    ))
    return NewtonGraph(vertices, edges)


# -- general point sets ------------------------------------------------------------------------


def _hull_graph(points: list[Point], with_edges: bool) -> NewtonGraph:
    """The graph from the exact facets of conv(points), in coordinates where it is full-dimensional."""
    r = len(points[0])
    origin = points[0]
    columns = pivot_columns([[x - y for x, y in zip(p, origin)] for p in points[1:]])
    k = len(columns)  # the projection to these coordinates is injective on the affine hull

    def lift(c: Sequence[int]) -> tuple[int, ...]:
        full = [0] * r
        for j, x in zip(columns, c):
            full[j] = int(x)
        return tuple(full)

    projected = [tuple(p[j] for j in columns) for p in points]
    n = len(points)
    centre = [sum(p[i] for p in projected) for i in range(k)]
    spread = [sum((n * x - s) ** 2 for x, s in zip(p, centre)) for p in projected]
    order = sorted(range(n), key=lambda i: (-spread[i], projected[i]))  # far points (likely vertices) first
    faces = hull.facets(projected, order)
    found, pairs = hull.vertices_and_edges(projected, faces, True)  # edges also give the LP its rows
    index = [i for i, _ in found]
    position = {i: a for a, i in enumerate(index)}
    largest = max(max(map(abs, c)) for _, c in found + [(None, c) for *_, c in (pairs if with_edges else [])])
    boxed, walls, radius = box_vertex_witnesses([projected[i] for i in index], k, len(pairs) if with_edges else 0, largest)
    neighbours: dict[int, list[int]] = {i: [] for i in index}
    for u, w, _ in pairs:
        neighbours[u].append(w)
        neighbours[w].append(u)

    def away(u: int, others: Sequence[int]) -> list[Point]:
        return [tuple(a - b for a, b in zip(projected[u], projected[z])) for z in others]

    # the tangent cone at a vertex is spanned by its edges: the LP's rows where the box falls short
    vertex_witness = choose([
        (c, boxed.get(position[i]), lambda i=i: (away(i, neighbours[i]), [])) for i, c in found
    ], radius)
    vertices = tuple(sorted((points[i], lift(c)) for (i, _), c in zip(found, vertex_witness)))
    if not with_edges:
        return NewtonGraph(vertices, ())
    edge_witness = choose([
        (c, walls.get((position[u], position[w])),
         lambda u=u, w=w: (away(u, [z for z in neighbours[u] if z != w]), away(w, [u])))
        for u, w, c in pairs
    ], radius)
    edges = tuple(sorted((points[u], points[w], lift(c)) for (u, w, _), c in zip(pairs, edge_witness)))
    return NewtonGraph(vertices, edges)


# -- the exact check ----------------------------------------------------------------------------


def _checked(graph: NewtonGraph, points: list[Point]) -> bool:
    """Every vertex witness has its vertex as unique maximiser, every edge witness exactly its segment."""
    if len({v for v, _ in graph.vertices}) != len(graph.vertices):
        return False
    if len(points) * (len(graph.vertices) + len(graph.edges)) < 4096:  # small: plain Python is quicker than numpy
        return all(is_witness(v, c, points) for v, c in graph.vertices) and all(
            u < w and is_edge_witness(u, w, c, points) for u, w, c in graph.edges)
    r = len(points[0])
    where = {p: i for i, p in enumerate(points)}
    support = int_array(points, r)
    if any(v not in where for v, _ in graph.vertices):
        return False
    for start in range(0, len(graph.vertices), 512):
        batch = graph.vertices[start:start + 512]
        values = exact_products(support, int_array([c for _, c in batch], r))
        top = values.max(axis=0)
        if (np.asarray((values == top).sum(axis=0)) != 1).any():
            return False
        if any(where[v] != int(i) for (v, _), i in zip(batch, values.argmax(axis=0))):
            return False
    for start in range(0, len(graph.edges), 512):
        batch = graph.edges[start:start + 512]
        values = exact_products(support, int_array([c for _, _, c in batch], r))
        hits = values == values.max(axis=0)
        for (u, w, _), column in zip(batch, hits.T):
            argmax = [points[i] for i in np.flatnonzero(column)]
            if u >= w or u not in where or w not in where or u not in argmax or w not in argmax:
                return False
            if not all(on_segment(p, u, w) for p in argmax):
                return False
    return True


# -- counting zonotope vertices without listing them ----------------------------------------------


def zonotope_directions(generators: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Distinct generator lines: primitive, sign-normalised (first nonzero entry > 0), sorted."""
    return tuple(sorted({line(g) for g in generators if any(g)}))


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

