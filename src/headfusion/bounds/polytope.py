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
from headfusion.bounds.lattice import Point, dot, exact_products, int_array, line, pivot_columns, rank, shells
from headfusion.bounds.zonotope import arrangement_regions, classify_box, generator_lines, region_key, wall_point

MAX_EXPLICIT_SUPPORT = 40_000
MAX_ARRANGEMENT_GENERATORS = 22
BOX_BUDGET = 200_000  # integer directions tried in the search for small witnesses
BOX_WORK = 40_000_000  # direction × vertex products allowed in that search (general polytopes)


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
        raise ValueError(f"support of {len(points)} points exceeds the explicit limit {MAX_EXPLICIT_SUPPORT}")
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
    interior = {region_key(c, lines): c for c in arrangement_regions(lines, r)}
    adjacent = [(key, j) for key in interior for j in range(len(lines)) if not key >> j & 1 and key | 1 << j in interior] if with_edges else []
    boxed, walls = classify_box(lines, r, BOX_BUDGET, (len(interior), len(adjacent)))
    # the translation: the support's maximiser of one region's direction is that region's vertex
    key0, c0 = next(iter(interior.items()))
    values = [dot(c0, p) for p in points]
    top = max(values)
    if values.count(top) != 1:
        return None
    base = list(points[values.index(top)])
    for j, d in enumerate(lines):
        if key0 >> j & 1:
            base = [x - lengths[j] * y for x, y in zip(base, d)]

    def vertex(key: int) -> Point:
        v = base
        for j, d in enumerate(lines):
            if key >> j & 1:
                v = [x + lengths[j] * y for x, y in zip(v, d)]
        return tuple(v)

    vertices = tuple(sorted((vertex(key), boxed.get(key, c)) for key, c in interior.items()))
    edges: list[tuple[Point, Point, tuple[int, ...]]] = []
    if with_edges:
        for key, j in adjacent:
            other = key | 1 << j
            c = walls.get((key, j)) or wall_point(interior[key], interior[other], lines[j])
            edges.append((vertex(key), vertex(other), c))
    return NewtonGraph(vertices, tuple(sorted(edges)))


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
    found, pairs = hull.vertices_and_edges(projected, faces, with_edges)
    index = [i for i, _ in found]
    boxed, walls = _box_witnesses([projected[i] for i in index], k, len(pairs) if with_edges else 0)
    position = {i: a for a, i in enumerate(index)}
    vertices = tuple(sorted((points[i], lift(boxed.get(position[i], c))) for i, c in found))
    edges = tuple(sorted(
        (points[u], points[w], lift(walls.get((position[u], position[w]), c))) for u, w, c in pairs
    ))
    return NewtonGraph(vertices, edges)


def _box_witnesses(vertices: list[Point], k: int, edge_count: int) -> tuple[dict[int, Point], dict[tuple[int, int], Point]]:
    """Least box directions maximised at exactly one vertex (a vertex witness) or exactly two (an edge witness).

    The maximisers among the vertices decide: a face is the hull of the vertices on it.
    """
    single: dict[int, Point] = {}
    double: dict[tuple[int, int], Point] = {}
    matrix = int_array(vertices, k)
    work = 0
    for shell in shells(k, BOX_BUDGET):
        work += len(shell) * len(vertices)
        if work > BOX_WORK:
            break
        for start in range(0, len(shell), max(1, 2_000_000 // len(vertices))):
            chunk = shell[start:start + max(1, 2_000_000 // len(vertices))]
            values = exact_products(chunk, matrix)
            top = values.max(axis=1)
            hits = values == top[:, None]
            count = hits.sum(axis=1)
            first = hits.argmax(axis=1)
            last = len(vertices) - 1 - hits[:, ::-1].argmax(axis=1)
            rows = np.flatnonzero(count == 1)
            keys, at = np.unique(first[rows], return_index=True)
            for key, row in zip(keys.tolist(), rows[at].tolist()):
                single.setdefault(key, tuple(chunk[row].tolist()))
            rows = np.flatnonzero(count == 2)
            keys, at = np.unique(np.stack([first[rows], last[rows]], axis=1).reshape(-1, 2), axis=0, return_index=True)
            for (a, b), row in zip(keys.tolist(), rows[at].tolist()):
                double.setdefault((a, b), tuple(chunk[row].tolist()))
        if len(single) == len(vertices) and len(double) >= edge_count:
            break
    return single, double


# -- the exact check ----------------------------------------------------------------------------


def _checked(graph: NewtonGraph, points: list[Point]) -> bool:
    """Every vertex witness has its vertex as unique maximiser, every edge witness exactly its segment."""
    r = len(points[0])
    where = {p: i for i, p in enumerate(points)}
    support = int_array(points, r)
    vertices = [v for v, _ in graph.vertices]
    if len(set(vertices)) != len(vertices) or any(v not in where for v in vertices):
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

