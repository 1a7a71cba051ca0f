"""Vertices and edges of Newton polytopes (bounds.polytope.newton_graph) against independent counts and hulls."""

from __future__ import annotations

import json
import random
from itertools import product

import networkx as nx
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headfusion.algebra.expform import exponential_form, x_support
from headfusion.bounds.lower import binomial_generators, block_newton_graph, newton_bound
from headfusion.bounds.polytope import NewtonGraph, is_edge_witness, is_witness, newton_graph, on_segment
from headfusion.bounds.polytope import _zonotope_graph
from headfusion.spec.expressions import parse_expression
from headfusion.spec.load import load_spec

from .conftest import run_cli

X, Y = sympy.symbols("x y")
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def oriented_random_graph(seed: int) -> tuple[nx.Graph, str, int]:
    """A random graph on 4–6 vertices and its tournament Σ σ(q_a − q_b), about a third of the edges reversed."""
    rng = random.Random(seed)
    n = rng.randint(4, 6)
    graph = nx.gnp_random_graph(n, 0.6, seed=rng.randrange(10**6))
    if graph.number_of_edges() == 0:
        graph.add_edge(0, 1)
    edges = [(j, i) if rng.random() < 0.3 else (i, j) for i, j in sorted(graph.edges())]
    return graph, " + ".join(f"sigmoid(q{a + 1} - q{b + 1})" for a, b in edges), n


def acyclic_orientations(graph: nx.Graph) -> int:
    """|χ_G(−1)| (Stanley), from networkx's chromatic polynomial."""
    return abs(int(nx.chromatic_polynomial(graph).subs(X, -1)))


def zonotope_edges(graph: nx.Graph) -> int:
    """Edges of the graphical zonotope: those parallel to e are the regions of the restriction, acyclic orientations of G/e."""
    total = 0
    for e in graph.edges():
        contracted = nx.Graph(nx.contracted_edge(graph, e, self_loops=False))  # parallel edges merge
        total += acyclic_orientations(contracted)
    return total


def assert_witnesses(graph: NewtonGraph, support: list, limit: int = 60) -> None:
    """Every vertex witness and (up to `limit`, spread evenly) edge witness, checked in plain Python."""
    for v, c in graph.vertices:
        assert is_witness(v, c, support), (v, c)
    step = max(1, len(graph.edges) // limit)
    for u, w, c in graph.edges[::step]:
        assert u < w and is_edge_witness(u, w, c, support), (u, w, c)


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] * (s >= 8)) for s in range(20)])
def test_graphical_zonotopes_match_networkx(seed):
    graph, text, n = oriented_random_graph(seed)
    form = exponential_form(parse_expression(text, n))
    assert newton_bound(form).count == acyclic_orientations(graph)  # vertices: acyclic orientations
    forests = int(nx.tutte_polynomial(graph).subs({X: 2, Y: 1}))
    assert form.reduced_support_size == forests  # lattice points of the zonotope: forests, T_G(2, 1)
    for block in form.blocks:
        component = graph.subgraph(block.variables)  # a block per connected component with an edge
        support = sorted(x_support(block.Q_reduced))
        generators = binomial_generators(block)
        assert generators is not None and len(generators) == component.number_of_edges()
        zonotope = _zonotope_graph(support, generators, True)  # the arrangement itself, no fallback
        assert zonotope is not None and zonotope == block_newton_graph(block)
        assert len(zonotope.vertices) == acyclic_orientations(component)
        assert len(zonotope.edges) == zonotope_edges(component)
        assert_witnesses(zonotope, support, limit=60 if len(support) < 600 else 15)
        for _, c in zonotope.vertices:  # the witness of an order π: c_ℓ = π(ℓ) − π(r + 1) (issue 28: a rule a reader checks)
            assert sorted([*c, 0]) == list(range(min([*c, 0]), min([*c, 0]) + len(c) + 1)), c
        general = newton_graph(support)  # double description, without the generators
        assert [v for v, _ in general.vertices] == [v for v, _ in zonotope.vertices]
        assert [e[:2] for e in general.edges] == [e[:2] for e in zonotope.edges]


def test_tournaments_from_the_proofs_folder():
    for path, d, vertices, edges in (("proofs/tournament_complete.toml", 4, 24, 36), ("proofs/tournament_cycle.toml", 5, 30, 70)):
        block = exponential_form(load_spec(path, d).model).blocks[0]
        graph = block_newton_graph(block)
        assert (len(graph.vertices), len(graph.edges)) == (vertices, edges)  # K_4: the permutohedron; C_5: 5 · |χ_{C_4}(−1)| = 5 · 14 edges
        assert_witnesses(graph, sorted(x_support(block.Q_reduced)))


def monotone_chain(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Strict convex hull of planar points, counter-clockwise (Andrew's monotone chain, collinear points dropped)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    hull: list = []
    for sequence in (pts, pts[::-1]):
        start = len(hull)
        for p in sequence:
            while len(hull) >= start + 2 and cross(hull[-2], hull[-1], p) <= 0:
                hull.pop()
            hull.append(p)
        hull.pop()
    return hull


def least_witness_size(is_ok, size: int, dimension: int) -> bool:
    """No integer vector of max-norm below `size` passes `is_ok` (brute force)."""
    return not any(is_ok(c) for c in product(range(-size + 1, size), repeat=dimension) if any(c))


points_2d = st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=14)


@SETTINGS
@given(points_2d)
def test_planar_hulls_match_the_monotone_chain(points):
    support = sorted(set(points))
    graph = newton_graph(support)
    hull = monotone_chain(support)
    assert sorted(v for v, _ in graph.vertices) == sorted(hull)
    if len(hull) == 1:
        assert graph.edges == () and graph.vertices == ((hull[0], (0, 0)),)
        return
    if len(hull) == 2:  # a segment: the one edge, witnessed by any direction orthogonal to it
        expected = {tuple(hull)}
    else:
        expected = {tuple(sorted((a, b))) for a, b in zip(hull, hull[1:] + hull[:1])}
    assert {(u, w) for u, w, _ in graph.edges} == expected
    assert_witnesses(graph, support)
    for v, c in graph.vertices:  # small witnesses: none of smaller max-norm exists
        assert least_witness_size(lambda x: is_witness(v, x, support), max(map(abs, c)), 2)
    for u, w, c in graph.edges:
        size = max(map(abs, c))
        assert size == 0 or least_witness_size(lambda x: is_edge_witness(u, w, x, support), size, 2)


def z3_separates(target: list[tuple[int, ...]], others: list[tuple[int, ...]]) -> bool:
    """Exact LP (z3 over the rationals): some c is constant on `target` and 1 above every point of `others`."""
    import z3

    c = [z3.Real(f"c{i}") for i in range(len(target[0]))]
    solver = z3.Solver()
    value = lambda p: z3.Sum([ci * int(x) for ci, x in zip(c, p)])  # noqa: E731
    for p in target[1:]:
        solver.add(value(p) == value(target[0]))
    for p in others:
        solver.add(value(target[0]) - value(p) >= 1)
    return solver.check() == z3.sat


points_3d = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=10)


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(points_3d, st.booleans())
def test_spatial_hulls_match_an_exact_lp(points, flat):
    support = sorted({(x, y, x + y if flat else z) for x, y, z in points})  # `flat`: coplanar points (rank 2 in Z^3)
    graph = newton_graph(support)
    vertices = [p for p in support if z3_separates([p], [u for u in support if u != p])]
    assert [v for v, _ in graph.vertices] == vertices
    edges = set()
    for u, w in ((a, b) for i, a in enumerate(vertices) for b in vertices[i + 1:]):
        on = [p for p in support if on_segment(p, u, w)]
        if z3_separates(on, [p for p in support if p not in on]):
            edges.add((u, w))
    assert {(u, w) for u, w, _ in graph.edges} == edges
    assert_witnesses(graph, support)


def test_small_cases():
    assert newton_graph([]) == NewtonGraph((), ())
    assert newton_graph([(2, 3)]) == NewtonGraph((((2, 3), (0, 0)),), ())
    line = newton_graph([(0,), (1,), (3,)])  # rank 1: the one edge, witness (0,)
    assert line == NewtonGraph((((0,), (-1,)), ((3,), (1,))), (((0,), (3,), (0,)),))
    square = [(x, y) for x in range(3) for y in range(3)]
    graph = newton_graph(square, with_edges=True)
    assert graph.vertices == (((0, 0), (-1, -1)), ((0, 2), (-1, 1)), ((2, 0), (1, -1)), ((2, 2), (1, 1)))
    assert {c for *_, c in graph.edges} == {(-1, 0), (1, 0), (0, -1), (0, 1)}
    assert newton_graph(square, with_edges=False).edges == ()
    # generators that do not describe the support: the general path answers, correctly
    assert newton_graph(square, generators=[(1, 1)]) == graph
    # a long thin triangle: the least witnesses, not the first ones an LP would find
    triangle = newton_graph([(0, 0), (7, 1), (1, 7)])
    assert max(max(map(abs, c)) for _, c in triangle.vertices) == 1


def test_every_witness_is_checked(monkeypatch):
    from headfusion.bounds import polytope

    honest = polytope._hull_graph

    def forged(points, with_edges):
        graph = honest(points, with_edges)
        (v, c), *rest = graph.vertices
        return NewtonGraph(((v, tuple(-x for x in c)), *rest), graph.edges)

    monkeypatch.setattr(polytope, "_hull_graph", forged)
    with pytest.raises(AssertionError):
        newton_graph([(0, 0), (2, 0), (0, 2), (1, 1)])


RANDOM_3D_SUM = "attn([0, q1 + 2*q2, 2*q3 - q1], [0, 1, 3]) + attn([0, q2 - q3, q1 + q3], [0, 2, 1]) + sigmoid(q1 - q2 + q3)"


ZONOTOPE = "sigmoid(q1) + sigmoid(q2) + sigmoid(q3) + sigmoid(q1 + q2) + sigmoid(q2 - q3) + sigmoid(q1 + q3)"  # not a graph's


@pytest.mark.parametrize("spec, d", [(ZONOTOPE, None), (RANDOM_3D_SUM, None)])
def test_kernel_checks_the_new_witnesses(spec, d, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path / "no-latex"))  # the kernel is the point here, not the PDF
    argv = ["certify", spec, "--no-search", "--out", str(tmp_path)] + (["--d", d] if d else [])
    code, _, err = run_cli(capsys, *argv)
    assert code == 0, err
    (path,) = tmp_path.glob("*.json")
    cert = json.loads(path.read_text())
    (claim,) = [c for c in cert["claims"] if c["id"] == "lower:newton"]
    form = exponential_form(load_spec(spec, int(d) if d else None).model)
    assert [s["method"] for s in claim["evidence"]["shapes"]] == ["vertices"] * len(form.blocks)
    listed = [[tuple(v), tuple(c)] for v, c in claim["evidence"]["shapes"][0]["vertices"]]
    block = form.blocks[0]
    assert listed == [list(x) for x in newton_graph(sorted(x_support(block.Q_reduced)), binomial_generators(block)).vertices]
    code, out, err = run_cli(capsys, "verify", str(path))
    assert code == 0 and "certificate verified" in out, err
    # the kernel rejects a witness that fails at one point
    first = claim["evidence"]["shapes"][0]["vertices"][0]
    first[1] = [-x for x in first[1]]
    path.write_text(json.dumps(cert))
    code, out, err = run_cli(capsys, "verify", str(path))
    assert code != 0 and "certificate verified" not in out
