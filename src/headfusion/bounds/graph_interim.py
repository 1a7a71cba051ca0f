"""INTERIM (replaced by the polytope work of issue 22): vertices and edges of conv(support), exact via z3."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Sequence

from headfusion.bounds.polytope import explicit_vertices

Point = tuple[int, ...]


@dataclass(frozen=True)
class NewtonGraph:
    vertices: tuple[tuple[Point, tuple[int, ...]], ...]
    edges: tuple[tuple[Point, Point, tuple[int, ...]], ...]


def _on_segment(p: Point, u: Point, w: Point) -> bool:
    d, e = [b - a for a, b in zip(u, w)], [b - a for a, b in zip(u, p)]
    parallel = all(e[j] * d[k] == e[k] * d[j] for j in range(len(d)) for k in range(j))
    along = sum(a * b for a, b in zip(e, d))
    return parallel and 0 <= along <= sum(a * a for a in d)


def _edge_witness(u: Point, w: Point, support: Sequence[Point]) -> tuple[int, ...] | None:
    import z3

    r = len(u)
    cs = [z3.Real(f"c{i}") for i in range(r)]
    s = z3.Solver()
    s.add(z3.Sum([cs[i] * (u[i] - w[i]) for i in range(r)] + [z3.RealVal(0)]) == 0)
    for p in support:
        if not _on_segment(p, u, w):
            s.add(z3.Sum([cs[i] * (u[i] - p[i]) for i in range(r)] + [z3.RealVal(0)]) >= 1)
    if s.check() != z3.sat:
        return None
    m = s.model()
    vals = [m.evaluate(c, model_completion=True) for c in cs]
    fr = [Fraction(v.numerator_as_long(), v.denominator_as_long()) for v in vals]
    scale = lcm(1, *(f.denominator for f in fr))
    ints = [int(f * scale) for f in fr]
    g = gcd(*ints) or 1
    return tuple(x // g for x in ints)


def newton_graph(support: Sequence[Point], generators: Sequence[Point] | None = None, with_edges: bool = True) -> NewtonGraph:
    points = sorted(set(support))
    vs = explicit_vertices(points)
    verts = [v for v, _ in vs.vertices]
    edges = []
    if with_edges and len(verts) >= 2:
        for i, u in enumerate(verts):
            for w in verts[i + 1:]:
                c = _edge_witness(u, w, points)
                if c is not None:
                    edges.append((u, w, c))
    return NewtonGraph(vs.vertices, tuple(edges))
