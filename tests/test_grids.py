"""Grid bounds (Lemmas W14, K4GRID, M12, Theorem K35; DESIGN §11) and numerator-free bounds on multigraphs.

The acceptance cases: row 29 of the graph map is decided (86) by V3 with W14 and no tree; K_4 in every orientation
tried has m* ≥ 35; row 30 ≥ 119, K_5 ≥ 175.  Every forgery of the issue is rejected by `verify` (exit 1) naming its
claim.  On random multigraphs of at most 4 vertices (multiplicities ≤ 2), every bound T the engine gives on their
denominator Π(x_i + x_j)^(m_ij), replayed by the kernel, is at most the least support of a nonnegative multiple found by
an exact search written here (no producer code).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import combinations, permutations, product

import pytest
from hypothesis import given, settings, strategies as st

from headfusion.bounds.grids import edge_key, find_grid
from headfusion.bounds.multiples import MultipleFinder, _binomial, _freeze
from headfusion.kernel import grids
from headfusion.kernel.base import CheckFailed
from headfusion.kernel.multiples import mu
from headfusion.kernel.poly import Poly, divide, mul, poly_from_json
from headfusion.kernel.threeslices import projected
from headfusion.proof.evidence import multiple_json, poly_json

from .conftest import built, claim, rejected_by_verify


def tournament(edges: list[tuple[int, int]]) -> str:
    """Σ σ(q_i − q_j) over the edges, each read i → j as given (an orientation)."""
    return " + ".join(f"sigmoid(q{i}-q{j})" for i, j in edges)


ROW29 = [(1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5), (3, 5)]
ROW30 = [(1, 2), (1, 4), (1, 5), (2, 4), (2, 5), (3, 4), (3, 5), (4, 5)]
K4 = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
ONE_DOUBLED = [(1, 2), (1, 3), (2, 4), (3, 4), (2, 5), (4, 5)]  # V3 at vertex 1 collapses 2, 3: (x2+x4)²(x2+x5)(x4+x5)


@pytest.fixture(scope="module")
def row29() -> dict:
    return built(tournament(ROW29))


@pytest.fixture(scope="module")
def k4() -> dict:
    return built(tournament(K4))


@pytest.fixture(scope="module")
def row30() -> dict:
    return built(tournament(ROW30))


def entries(item: dict):
    """An entry and every entry nested in it."""
    yield item
    for key in ("mu", "lines"):
        if isinstance(item.get(key), dict):
            yield from entries(item[key])


# -- acceptance -----------------------------------------------------------------------------------------------


def test_row_29_is_86_by_three_slices_and_w14_with_no_tree(row29):
    summary = row29["summary"]
    assert (summary["minimum"], summary["lower_bound_claim"], summary["refutations"]) == (86, "lower:three-slices", 0)
    assert not any(c["id"].startswith(("search:", "testimony:")) for c in row29["claims"])
    top = claim(row29, "lower:three-slices")["evidence"]["shapes"][0]
    assert top["lines"] == {**top["lines"], "method": "grid", "lemma": "W14", "levels": None}  # T_Γ = 14 (W14)
    assert "lemma:W14" in claim(row29, "lower:three-slices")["depends_on"]


@pytest.mark.parametrize("flips", [(), (0, 3), (1, 2, 5), (0, 1, 2, 3, 4, 5)])
def test_k4_is_at_least_35_in_any_orientation(flips):
    edges = [(j, i) if k in flips else (i, j) for k, (i, j) in enumerate(K4)]
    cert = built(tournament(edges))
    assert (cert["summary"]["lower_bound"], cert["summary"]["lower_bound_claim"]) == (35, "lower:grid")
    assert {"lemma:K35"} <= set(claim(cert, "lower:grid")["depends_on"])
    assert {"lemma:M12", "lemma:K4GRID"} <= {c["id"] for c in cert["claims"]}


def test_row_30_is_at_least_119_from_k35_inside_v3(row30):
    assert row30["summary"]["lower_bound"] >= 119
    top = claim(row30, "lower:three-slices")["evidence"]["shapes"][0]
    assert top["mu"]["method"] == "grid" and top["mu"]["lemma"] == "K35"  # T_Y = 35, a numerator-free value


def test_k5_is_at_least_175():
    assert built(tournament([(i, j) for i, j in combinations(range(1, 6), 2)]))["summary"]["lower_bound"] >= 175


def test_m12_core_is_enumerated_by_the_kernel():
    """2 × 14,400 combinations of z-lines (8, 15, 8, 15 admissible chains); the least set has 12 points for each parity."""
    assert (grids.m12_least(0), grids.m12_least(1)) == (12, 12)


# -- forgeries ------------------------------------------------------------------------------------------------


def test_w14_on_a_triangle_with_one_doubled_edge_is_rejected(capsys, tmp_path):
    cert = built(tournament(ONE_DOUBLED))
    top = claim(cert, "lower:three-slices")["evidence"]["shapes"][0]
    rank = len(top["omega"])
    image = projected(poly_from_json(top["A"], rank + 1), [tuple(r) for r in top["projection"]])
    edges = {edge_key(b): 2 for b in (_binomial(f) for f in small_binomial_factors(image, len(top["projection"])))}  # forged: all doubled
    found = find_grid(edges, len(top["projection"]))
    assert found is not None and found[0] == "W14"
    top["lines"] = {"method": "grid", "lemma": "W14", "vertices": [poly_json({e: c}) for e, c in found[1]], "levels": None}
    rejected_by_verify(capsys, tmp_path, cert, "lower:three-slices", "W14", "not divisible")


def test_k35_on_k4_minus_an_edge_is_rejected(capsys, tmp_path, k4):
    diamond = built(tournament(K4[1:]))
    forged = copy.deepcopy(diamond)
    entry = claim(k4, "lower:grid")["evidence"]["shapes"][0]
    claim(forged, "lower:three-slices")["evidence"]["shapes"][0] = copy.deepcopy(entry)
    rejected_by_verify(capsys, tmp_path, forged, "lower:three-slices", "K35")


def test_m12_with_three_levels_in_one_variable_is_rejected(capsys, tmp_path, k4):
    forged = copy.deepcopy(k4)
    claim(forged, "lower:grid")["evidence"]["shapes"][0]["levels"][2] = [0, 1, 2]
    rejected_by_verify(capsys, tmp_path, forged, "lower:grid", "M12", "four levels")


def test_v3_at_a_vertex_with_a_doubled_edge_is_rejected(capsys, tmp_path, row29):
    """Γ_*Y of row 29 is W = (m0+m1)²(m0+m2)²(m1+m2); V3 at m0 (two doubled edges) leaves a copy of each off ω's level."""
    forged = copy.deepcopy(row29)
    top = claim(forged, "lower:three-slices")["evidence"]["shapes"][0]
    rank = len(top["projection"])
    m0, m1, m2 = (poly_from_json(v, rank + 1) for v in top["lines"]["vertices"])
    f1, f2, f3 = {**m0, **m1}, {**m0, **m2}, {**m1, **m2}
    (d1, _, _), (d2, _, _) = _binomial(f1), _binomial(f2)
    omega = next(list(w) for w in product(range(-2, 3), repeat=rank)
                 if all(sum(x * d for x, d in zip(w, delta)) == 1 for delta in (d1, d2)))  # ⟨ω, δ_1⟩ = ⟨ω, δ_2⟩ = 1
    top["lines"] = {"method": "three-slices", "A": poly_json(mul(mul(f1, f2), f3)), "f": [poly_json(f1), poly_json(f2)], "omega": omega,
                    "mu": {"method": "vertices", "vertices": []}, "projection": [[1] * rank], "lines": {"method": "vertices", "vertices": []}}
    rejected_by_verify(capsys, tmp_path, forged, "lower:three-slices", "not on one level")


def test_v3_citing_theorem_k_as_a_t_value_is_rejected(capsys, tmp_path, row30):
    forged = copy.deepcopy(row30)
    top = claim(forged, "lower:three-slices")["evidence"]["shapes"][0]
    top["mu"] = {"method": "theorem-k", "faces": [], "pairs": []}  # Theorem K's 32 bounds m*, not T: no such entry
    rejected_by_verify(capsys, tmp_path, forged, "lower:three-slices", "needs a method")


def test_a_non_injective_substitution_is_refused(k4):
    entry = copy.deepcopy(claim(k4, "lower:grid")["evidence"]["shapes"][0])
    entry["vertices"][3] = entry["vertices"][2]
    Q = poly_from_json(claim(k4, "exp-form")["evidence"]["shapes"][0]["Q"], 4)
    with pytest.raises(CheckFailed, match="not injective"):
        mu(Q, entry, 3, set())


# -- multigraphs: the engine's T never exceeds an exact search's least support ---------------------------------------


def small_binomial_factors(R: Poly, rank: int) -> list[Poly]:
    """The factors 1 + x^δ (δ ∈ {−1, 0, 1}^rank, repeated) of R, by exact division (test-side factorisation)."""
    out = []
    for delta in product((-1, 0, 1), repeat=rank):
        if delta <= tuple(0 for _ in delta):
            continue
        f = {(0,) * (rank + 1): Fraction(1), delta + (0,): Fraction(1)}
        while (q := divide(R, f)) is not None:
            out.append(f)
            R = q
    return out


def multigraph_poly(n: int, mult: dict[tuple[int, int], int]) -> tuple[list[tuple[Poly, int]], int]:
    """Π (x_i + x_j)^m over the edges, with x_(n−1) = 1 (dehomogenised: rank n − 1), as (binomial, multiplicity)."""
    rank = n - 1
    unit = lambda i: tuple(int(k == i) for k in range(rank)) + (0,)  # noqa: E731
    return [({unit(i): Fraction(1), unit(j): Fraction(1)} if j < rank else {unit(i): Fraction(1), (0,) * (rank + 1): Fraction(1)}, m)
            for (i, j), m in sorted(mult.items()) if m], rank


def least_support(factors: list[tuple[Poly, int]], rank: int) -> int:
    """An exact search: the least support among nonnegative multiples D = R·Π(cofactors), each factor x + y times 1 or
    x² − xy + y² (turning it into x³ + y³); each candidate D expanded exactly and kept only when every coefficient is ≥ 0."""
    flat = [f for f, m in factors for _ in range(m)]
    best = None
    for choice in product((False, True), repeat=len(flat)):
        D: Poly = {(0,) * (rank + 1): Fraction(1)}
        for f, cube in zip(flat, choice):
            (a, ca), (b, cb) = sorted(f.items())
            g = f if not cube else {tuple(3 * x for x in a): ca**3, tuple(3 * x for x in b): cb**3}
            D = mul(D, g)
        if min(D.values()) >= 0 and (best is None or len(D) < best):
            best = len(D)
    return best


def engine_bound(factors: list[tuple[Poly, int]], rank: int) -> int:
    """The finder's best T on Π factors, replayed by the kernel from its JSON (the kernel's number)."""
    frozen = tuple(sorted((_freeze(f), m) for f, m in factors))
    axes = [tuple(int(k == i) for k in range(rank)) for i in range(rank)] + [(1,) * rank]
    found = MultipleFinder(rank, axes + [tuple(-x for x in w) for w in axes]).best(frozen, 1)
    if found is None:
        return 1
    R: Poly = {(0,) * (rank + 1): Fraction(1)}
    for f, m in factors:
        for _ in range(m):
            R = mul(R, f)
    value = mu(R, multiple_json(found, rank), rank, set())
    assert value == found.value
    return value


multigraphs = st.integers(3, 4).flatmap(lambda n: st.tuples(st.just(n), st.fixed_dictionaries(
    {e: st.integers(0, 2) for e in combinations(range(n), 2)})))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(multigraphs)
def test_engine_t_bounds_stay_below_an_exact_search(graph):
    n, mult = graph
    factors, rank = multigraph_poly(n, mult)
    if not factors or sum(m for _, m in factors) > 7:
        return
    assert engine_bound(factors, rank) <= least_support(factors, rank)


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4])
def test_engine_t_bounds_stay_below_an_exact_search_on_every_small_multigraph(n):
    """Every multigraph on n vertices with multiplicities ≤ 2 and at most 8 edges counted with multiplicity, up to isomorphism."""
    pairs = list(combinations(range(n), 2))
    seen = set()
    for ms in product(range(3), repeat=len(pairs)):
        mult = dict(zip(pairs, ms))
        canonical = min(tuple(mult[tuple(sorted((p[i], p[j])))] for i, j in pairs) for p in permutations(range(n)))
        if canonical in seen or not any(ms) or sum(ms) > 8:
            continue
        seen.add(canonical)
        factors, rank = multigraph_poly(n, mult)
        assert engine_bound(factors, rank) <= least_support(factors, rank), mult
