"""Lower bounds: Newton polytopes (L4, L5) with witnesses; the whole engine is sound on random sums."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import networkx as nx
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from headfusion.algebra.expform import combined_polys, exponential_form, x_support
from headfusion.bounds.lower import newton_bound
from headfusion.proof.analysis import lower_bounds_report
from headfusion.spec.families import sigmoid_sum
from headfusion.spec.expressions import parse_expression
from headfusion.bounds.polytope import is_witness, newton_graph, zonotope_directions, zonotope_vertex_count

from .conftest import run_json
from .test_foundation import random_heads


@pytest.mark.parametrize("d", range(1, 13))
def test_w_d_bounds_meet_with_explicit_witnesses(d):
    form = exponential_form(sigmoid_sum(d))
    summary = lower_bounds_report(form)
    assert summary["lower_bound"] == form.upper_bound == summary["minimum"] == 2**d
    assert summary["newton_evidence"] == "explicit"
    witnesses = summary["vertex_witnesses"]
    assert len(witnesses) == 2**d
    keys = [tuple(w["vertex"]) for w in witnesses]
    assert sorted(keys) == sorted(product((0, 1), repeat=d))
    if d <= 8:  # check every witness against the whole support, independently of blocks
        support = keys
        for w in witnesses:
            assert is_witness(tuple(w["vertex"]), w["witness"], support)


def test_w_10000_structural(capsys):
    # its time is measured by benchmarks/bench_bounds.py, never asserted here
    data = run_json(capsys, "analyze", "W", "--d", "10000", "--no-atoms-list")
    assert data["lower_bound"] == data["upper_bound"] == data["minimum"] == 2**10000
    assert data["newton_evidence"] == "structural"
    assert "atoms_list" not in data["fused_head"]  # also test_foundation's test_w10000_structural, slow: the same run


@pytest.mark.parametrize(
    "spec, lower, upper",
    [
        ("sigmoid(q1) + sigmoid(2*q1)", 2, 4),  # Newton bound 2 (residue classes decide: 4)
        ("attn([0, q1, 2*q1], [0, 1, 3])", 2, 3),
        ("sigmoid(q1) + sigmoid(3*q1)", 2, 4),
    ],
)
def test_one_dimensional_bounds_do_not_meet(spec, lower, upper):
    form = exponential_form(parse_expression(spec))
    assert newton_bound(form).count == lower and form.upper_bound == upper  # the Newton bound alone does not decide


def acyclic_orientations(graph: nx.Graph) -> int:
    """Independent count: brute force over all orientations."""
    edges = list(graph.edges())
    count = 0
    for flips in product((False, True), repeat=len(edges)):
        digraph = nx.DiGraph()
        digraph.add_nodes_from(graph.nodes())
        digraph.add_edges_from((v, u) if f else (u, v) for (u, v), f in zip(edges, flips))
        count += nx.is_directed_acyclic_graph(digraph)
    return count


def edge_subset_points(graph: nx.Graph) -> int:
    """Independent count of supp Π_{ij}(x_i + x_j): distinct in-degree vectors over orientations."""
    edges = list(graph.edges())
    points = set()
    for flips in product((False, True), repeat=len(edges)):
        degree = [0] * graph.number_of_nodes()
        for (u, v), f in zip(edges, flips):
            degree[u if f else v] += 1
        points.add(tuple(degree))
    return len(points)


GRAPHS = {
    "path3": nx.path_graph(3),
    "triangle": nx.complete_graph(3),
    "cycle4": nx.cycle_graph(4),
    "star4": nx.star_graph(3),
    "K4": nx.complete_graph(4),
    "cycle5": nx.cycle_graph(5),
    "K5": nx.complete_graph(5),
}


def tournament(graph: nx.Graph) -> str:
    return " + ".join(f"sigmoid(q{i + 1} - q{j + 1})" for i, j in sorted(graph.edges()))


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_tournament_vertex_counts(name):
    graph = GRAPHS[name]
    form = exponential_form(parse_expression(tournament(graph), graph.number_of_nodes()))
    bound = newton_bound(form)
    assert bound.count == acyclic_orientations(graph)  # graphical zonotope: acyclic orientations
    assert form.reduced_support_size == edge_subset_points(graph)
    assert form.reduced_is_head and form.upper_bound == edge_subset_points(graph)  # the upper bound, independently
    # the zonotope count from the arrangement agrees with the explicit vertices
    generators = [tuple(1 if k == i else -1 if k == j else 0 for k in range(graph.number_of_nodes())) for i, j in graph.edges()]
    assert zonotope_vertex_count(zonotope_directions(generators)) == acyclic_orientations(graph)
    summary = lower_bounds_report(form)
    assert summary["lower_bound"] <= form.upper_bound


def test_explicit_vertices_of_a_square_with_centre():
    square = [(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0), (2, 2), (2, 1), (1, 2)]
    vertices = newton_graph(square, with_edges=False)
    assert sorted(v for v, _ in vertices.vertices) == [(0, 0), (0, 2), (2, 0), (2, 2)]
    for v, c in vertices.vertices:
        assert is_witness(v, c, square)
    assert not is_witness((1, 1), (1, 0), square)


def relaxed_minimum_1d(spec: str, box: int = 7) -> int | None:
    """Brute force in 1-D: least |K| with D = g·Q′ ≠ 0, N = g·P′ and supp N, supp D ⊆ K ⊆ {0..box}.

    Positivity of D is dropped (a relaxation), so this is ≤ m*(F); the Newton bound (which
    does not use positivity) must be ≤ it.
    """
    form = exponential_form(parse_expression(spec))
    P, Q = combined_polys(form)
    if len(form.blocks) != 1 or form.blocks[0].rank != 1:
        return None
    p = {e[0]: c for e, c in P.terms.items()}
    q = {e[0]: c for e, c in Q.terms.items()}
    low = min(list(p) + list(q))
    p = {k - low: c for k, c in p.items()}
    q = {k - low: c for k, c in q.items()}
    width = max(list(p) + list(q))
    g_range = range(box - width + 1)
    for size in range(1, box + 2):
        for support in combinations(range(box + 1), size):
            outside = [k for k in range(box + 1) if k not in support]
            rows = []
            for k in outside:
                rows.append([q.get(k - i, 0) for i in g_range])
                rows.append([p.get(k - i, 0) for i in g_range])
            matrix = sympy.Matrix(rows) if rows else sympy.zeros(0, len(g_range))
            if len(g_range) - (matrix.rank() if rows else 0) > 0:
                return size
    return None


@pytest.mark.parametrize("spec", ["sigmoid(q1) + sigmoid(2*q1)", "attn([0, q1, 2*q1], [0, 1, 3])", "sigmoid(q1)", "tanh(q1) + sigmoid(q1)"])
def test_one_dimensional_newton_bound_below_brute_force(spec):
    form = exponential_form(parse_expression(spec))
    relaxed = relaxed_minimum_1d(spec)
    assert relaxed is not None
    assert newton_bound(form).count <= relaxed <= form.upper_bound


@settings(max_examples=30, deadline=None)
@given(random_heads(max_heads=3, dimension=2))
def test_random_bounds_are_sound(text):
    model = parse_expression(text, 2)
    form = exponential_form(model)
    summary = lower_bounds_report(form)
    assert summary["lower_bound"] <= form.upper_bound <= form.naive_size
    for block, nb in zip(form.blocks, newton_bound(form).blocks):
        points = sorted(x_support(block.Q_reduced))
        for v, c in nb.vertices.vertices:
            assert is_witness(v, c, points)
    # witnesses in q coordinates single out their vertex among the keys of supp Q′
    keys = [form.key(coords) for coords in product(*(sorted(x_support(b.Q_reduced)) for b in form.blocks))]
    for w in summary.get("vertex_witnesses", []):
        vertex = tuple(Fraction(x) for x in w["vertex"])
        c = [Fraction(x) for x in w["witness"]]
        top = sum(a * b for a, b in zip(c, vertex))
        assert vertex in keys
        assert all(sum(a * b for a, b in zip(c, k)) < top for k in keys if k != vertex)


def _reference_lattice(Q: dict, rank: int, tilt) -> list | None:
    """best_lattice as it was before its Hermite stage was vectorised: one basis at a time, the same budget."""
    from itertools import product as cartesian
    from math import prod

    from headfusion.bounds import classes

    points = classes._tilted(Q, tilt)
    fast = classes._Points(points)
    support = [x for x, _ in points]
    size = len(support)
    widths = [max(e[c] for e in support) - min(e[c] for e in support) for c in range(rank)]
    per_axis = [[1] + [k for k in range(2, widths[c] + 2)
                       if fast.balanced(classes._diagonal(rank, tuple(k if i == c else 1 for i in range(rank))))] for c in range(rank)]
    choices = sorted((ks for ks in cartesian(*per_axis) if 1 < prod(ks) <= size), key=lambda ks: (-prod(ks), ks))
    best = next((classes._diagonal(rank, ks) for ks in choices[:classes.MAX_CANDIDATES] if fast.balanced(classes._diagonal(rank, ks))), None)
    low, tried = (prod(row[i] for i, row in enumerate(best)) if best else 1), 0
    for index in range(min(classes.MAX_HNF_INDEX, size), low, -1):
        found = None
        for diagonal in cartesian(*(range(1, index + 1) for _ in range(rank))):
            if prod(diagonal) != index:
                continue
            slots = [(r, c) for r in range(rank) for c in range(r + 1, rank)]
            for values in cartesian(*(range(diagonal[c]) for _, c in slots)):
                basis = classes._diagonal(rank, diagonal)
                for (r, c), v in zip(slots, values):
                    basis[r][c] = v
                tried += 1
                if tried > classes.MAX_CANDIDATES:
                    break
                if any(values) and fast.balanced(basis):
                    found = basis
                    break
            if found is not None or tried > classes.MAX_CANDIDATES:
                break
        if found is not None or tried > classes.MAX_CANDIDATES:
            return found or best
    return best


_hermite_cases = (st.integers(2, 3), st.lists(st.integers(1, 4), min_size=3, max_size=3),
                  st.lists(st.integers(0, 3), min_size=3, max_size=3),
                  st.dictionaries(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 1)), st.integers(1, 3),
                                  min_size=1, max_size=4),
                  st.booleans(), st.sampled_from([5, 40, 20_000]), st.integers(0, 2**16))


@settings(max_examples=15, deadline=None)
@given(*_hermite_cases)
def test_the_vectorised_hermite_search_finds_what_the_loop_found(rank, diagonal, above, g, noise, budget, seed):
    """15 examples in the quick suite; 60 in the slow twin below."""
    vectorised_hermite_search_finds_what_the_loop_found(rank, diagonal, above, g, noise, budget, seed)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(*_hermite_cases)
def test_the_vectorised_hermite_search_finds_what_the_loop_found_on_many_lattices(rank, diagonal, above, g, noise, budget, seed):
    vectorised_hermite_search_finds_what_the_loop_found(rank, diagonal, above, g, noise, budget, seed)


def vectorised_hermite_search_finds_what_the_loop_found(rank, diagonal, above, g, noise, budget, seed) -> None:
    """best_lattice (bases reduced in arrays, per diagonal) returns the lattice the one-at-a-time loop returned, budget included;
    Q is balanced by construction modulo a random Hermite lattice: a sum of translates of g over one representative of each
    class, each moved by a random lattice vector (so that often no diagonal lattice balances and a sheared one is found)."""
    import random
    from itertools import product as cartesian

    from headfusion.bounds import classes

    M = [[diagonal[r] if c == r else (above[r + c - 1] % diagonal[c] if c > r else 0) for c in range(rank)] for r in range(rank)]
    moves = random.Random(seed)
    Q: dict = {}
    for box in cartesian(*(range(M[r][r]) for r in range(rank))):
        steps = [moves.randint(-1, 1) for _ in range(rank)]
        rep = [x + sum(n * M[r][c] for r, n in enumerate(steps)) for c, x in enumerate(box)]
        for e, v in g.items():
            key = tuple(a + b for a, b in zip(rep, e[:rank])) + (0,)
            Q[key] = Q.get(key, 0) + Fraction(v)
    if noise:  # one coefficient changed: usually no lattice balances any more
        first = min(Q)
        Q[first] += 1
    saved = classes.MAX_CANDIDATES
    classes.MAX_CANDIDATES = budget
    try:
        found = classes.best_lattice(Q, rank, ((Fraction(1), 0),) * rank)
        assert (found[0] if found else None) == _reference_lattice(Q, rank, ((Fraction(1), 0),) * rank)
    finally:
        classes.MAX_CANDIDATES = saved
