"""One line with biases (issue 38): the translation normal form, Theorem Pβ, Lemmas P4, V2 (any biases) and CD.

The acceptance functions are decided by a lemma with no tree, and their certificates replay; forgeries of each new claim
are rejected by `verify` (exit 1) naming the claim; on random biased pairs and triples (scales ≤ 4, log biases, signs and
a constant) every new bound is at most m*, refuted by an exact search written here (`has_head`), independent of the tool.
"""

from __future__ import annotations

import copy
import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from headfusion.bounds.engine import function_bounds
from headfusion.kernel.statements import LEMMAS
from headfusion.kernel.verify import verify_certificate
from headfusion.spec.load import load_spec

from .conftest import built, claim, failures, rejected_by_verify
from .test_refute import _rref_nullspace

DECIDED = {  # issue 38's acceptance: (m*, the claim that proves the lower bound)
    "sigmoid(q1+log(2)) + sigmoid(2*q1+log(3))": (4, "lower:two-adic"),  # V2 ties with Pβ (4) and comes first
    "sigmoid(q1) + sigmoid(q1 + 1/2)": (3, "lower:edges"),  # LE ties with Pβ (3), symbolic bias
    "1/2 + sigmoid(3*q1+log(2)) - sigmoid(7*q1)": (4, "lower:pair-biased"),
    "sigmoid(q1+log(3)) + sigmoid(2*q1+log(5)) + sigmoid(4*q1+log(7))": (8, "lower:two-adic"),
}
FIVE = "sigmoid(q1) + sigmoid(3*q1) + sigmoid(4*q1+log(1/2)) + sigmoid(6*q1+log(3)) + sigmoid(7*q1+log(2))"
LADDER = "sigmoid(q1) + sigmoid(2*q1) + sigmoid(2*q1+log(3))"  # CD: A = 2, class {1, 3}, level v₂ = 0: (2 + 1)·2 = 6


# -- an exact search, independent of the tool -------------------------------------------------------------------------


def _mul(p: dict[int, Fraction], q: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for e, c in p.items():
        for f, d in q.items():
            out[e + f] = out.get(e + f, Fraction(0)) + c * d
    return out


def has_head(constant: Fraction, terms: list[tuple[int, Fraction, int]], m: int, budget: int | None = None) -> bool | None:
    """Is F = c + Σ ε·σ(a·q + log r) the function of a head with at most m atoms?  Exact and exhaustive.

    With x = e^q, F = (c·Q + P)/Q for the naive Q = Π(1 + r·x^a).  A head is (N, D) with N·Q = (c·Q + P)·D, D > 0 on its
    support S and N supported in S.  A smallest head can be taken connected with integer keys, least key 0 (a shift),
    spanning at most (m − 1)·deg Q (the finite box of a connected head); so every support S ∋ 0 in [0, (m − 1)·deg Q] is
    tried: the linear conditions on (D_S, N_S) by exact elimination, D ≥ 1 on S by an exact simplex.  None when there are
    more than `budget` supports to try."""
    Q: dict[int, Fraction] = {0: Fraction(1)}
    for a, r, _ in terms:
        Q = _mul(Q, {0: Fraction(1), a: r})
    P: dict[int, Fraction] = {}
    for i, (a, r, eps) in enumerate(terms):
        part = {a: eps * r}
        for j, (b, s, _) in enumerate(terms):
            if j != i:
                part = _mul(part, {0: Fraction(1), b: s})
        for e, c in part.items():
            P[e] = P.get(e, Fraction(0)) + c
    top = _mul(Q, {0: constant})
    for e, c in P.items():
        top[e] = top.get(e, Fraction(0)) + c
    degree = max(Q)
    if budget is not None and sum(math.comb((m - 1) * degree, k) for k in range(m)) > budget:
        return None
    for size in range(1, m + 1):
        for rest in itertools.combinations(range(1, (m - 1) * degree + 1), size - 1):
            S = (0,) + rest
            rows: dict[int, dict[int, Fraction]] = {}  # unknowns: D_s at column i, N_s at column size + i
            for i, s in enumerate(S):
                for column, poly, sign in ((size + i, Q, 1), (i, top, -1)):  # N_s·Q − D_s·(c·Q + P)
                    for e, c in poly.items():
                        row = rows.setdefault(s + e, {})
                        row[column] = row.get(column, Fraction(0)) + sign * c
            basis = _rref_nullspace(list(rows.values()), 2 * size)
            if basis and _positive_combination_exists([[b[i] for b in basis] for i in range(size)]):
                return True
    return False


def _positive_combination_exists(values: list[list[Fraction]]) -> bool:
    """Is there a real c with Σ_j values[i][j]·c_j ≥ 1 for every i?  Exact (sympy's simplex), c = c⁺ − c⁻ with c± ≥ 0."""
    from sympy import Rational
    from sympy.solvers.simplex import InfeasibleLPError, linprog

    A = [[Rational(-v) for v in row] + [Rational(v) for v in row] for row in values]
    try:
        linprog([0] * len(A[0]), A=A, b=[-1] * len(A))
    except InfeasibleLPError:
        return False
    return True


def _text(constant: Fraction, terms: list[tuple[int, Fraction, int]]) -> str:
    parts = [str(constant)] + [f"{'+' if eps > 0 else '-'} sigmoid({a}*q1 + log({r}))" for a, r, eps in terms]
    return " ".join(parts)


def _new_bounds(text: str) -> dict[str, int]:
    """The bounds of the new lemmas: Pβ or P4 (one_line), V2 or CD (the two-adic μ entry of the block)."""
    bounds = function_bounds(load_spec(text).model)
    out = {} if bounds.one_line is None else {bounds.one_line.lemma: bounds.one_line.bound}
    for m in bounds.multiples:
        if m is not None and m.method == "two-adic":
            out["CD" if m.klass else "V2"] = m.value
    return out


def test_the_search_agrees_with_theorem_p_on_known_pairs():
    """σ(q) + σ(2q) has m* = 4 (Theorem P): no head with 3 atoms, and one with 4; σ(q) + σ(q + log 2) has m* = 3."""
    one = Fraction(1)
    assert not has_head(Fraction(0), [(1, one, 1), (2, one, 1)], 3)
    assert has_head(Fraction(0), [(1, one, 1), (2, one, 1)], 4)
    assert not has_head(Fraction(0), [(1, one, 1), (1, Fraction(2), 1)], 2) and has_head(Fraction(0), [(1, one, 1), (1, Fraction(2), 1)], 3)


WEIGHTS = st.sampled_from([Fraction(1), Fraction(2), Fraction(1, 3), Fraction(3, 2), Fraction(5)])
TERM = st.tuples(st.integers(1, 4), WEIGHTS, st.sampled_from([1, -1]))
CONSTANT = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(-1)])


@settings(max_examples=12, deadline=None, derandomize=True)
@given(CONSTANT, st.lists(TERM, min_size=2, max_size=3, unique_by=lambda t: (t[0], t[1])))
def test_every_new_bound_is_at_most_the_exact_minimum(constant, terms):
    """Random biased pairs and triples: no head with fewer atoms than a new bound (up to 4) exists."""
    found = _new_bounds(_text(constant, terms))
    for lemma, bound in found.items():
        m = min(bound, 4) - 1
        assert not has_head(constant, terms, m), (lemma, bound, terms)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True)
@given(CONSTANT, st.lists(TERM, min_size=2, max_size=3, unique_by=lambda t: (t[0], t[1])))
def test_every_new_bound_is_at_most_the_exact_minimum_in_full(constant, terms):
    """The same for every bound whose box has at most 20,000 supports (m = bound − 1 refuted in the whole box), and Pβ's
    m* exactly (its head found)."""
    found = _new_bounds(_text(constant, terms))
    for lemma, bound in found.items():
        assert has_head(constant, terms, bound - 1, budget=20_000) in (False, None), (lemma, bound, terms)
    if "PB" in found:
        assert has_head(constant, terms, found["PB"])


# -- acceptance: decided by a lemma, no tree; certificates replay -----------------------------------------------------


@pytest.mark.parametrize("text", sorted(DECIDED))
def test_the_one_line_acceptance_functions_are_decided_by_a_lemma(text):
    cert = built(text)
    assert verify_certificate(cert).ok, failures(cert)
    summary = cert["summary"]
    assert (summary["minimum"], summary["lower_bound_claim"], summary["refutations"]) == (DECIDED[text][0], DECIDED[text][1], 0)


def test_the_five_scale_sum_gets_8_from_three_2_adic_levels():
    cert = built(FIVE)
    assert verify_certificate(cert).ok, failures(cert)
    assert cert["summary"]["lower_bound"] >= 8 and cert["summary"]["upper_bound"] == 20
    levels = claim(cert, "lower:two-adic")["evidence"]["shapes"][0]["levels"]
    assert sorted((a & -a).bit_length() - 1 for a, _, _ in levels) == [0, 1, 2]


def test_pairs_with_equal_scales_get_3_and_two_scales_get_4_from_the_normal_form():
    assert _new_bounds("sigmoid(q1) + sigmoid(q1 + 1/2)")["PB"] == 3  # symbolic bias: the weights t^0 ≠ t^1 compared exactly
    assert _new_bounds("2 - sigmoid(-3*q1 + log(2)) + sigmoid(5*q1)")["PB"] == 4  # σ(−u) = 1 − σ(u)
    assert "PB" not in _new_bounds("sigmoid(q1) - 3*sigmoid(3*q1)")  # ε = −3: outside Theorem Pβ
    assert "PB" not in _new_bounds("sigmoid(q1) + sigmoid(q1)")  # merged: one term


def test_the_ladder_is_decided_by_class_descartes():
    cert = built(LADDER)
    assert verify_certificate(cert).ok, failures(cert)
    entry = claim(cert, "lower:two-adic")["evidence"]["shapes"][0]
    assert (entry["modulus"], len(entry["class"]), cert["summary"]["minimum"]) == (2, 2, 6)
    assert "lemma:CD" in claim(cert, "lower:two-adic")["depends_on"]


# -- forgeries ----------------------------------------------------------------------------------------------------------


def _grafted(cert: dict, donor: dict, cid: str, evidence: dict) -> dict:
    """`cert` with the donor's claim `cid` (its evidence replaced) before the theorem, and the lemmas it cites."""
    out = copy.deepcopy(cert)
    lemmas = {c["id"]: c for c in donor["claims"] + out["claims"] if c["kind"] == "lemma"}
    rest = [c for c in out["claims"] if c["kind"] != "lemma"]
    forged = copy.deepcopy(claim(donor, cid))
    forged["evidence"] = evidence
    out["claims"] = [lemmas[f"lemma:{i}"] for i in LEMMAS if f"lemma:{i}" in lemmas] + rest[:-1] + [forged, rest[-1]]
    return out


def test_theorem_p_beta_with_equal_scales_and_equal_biases_is_rejected(capsys, tmp_path):
    donor = built("1/2 + sigmoid(3*q1+log(2)) - sigmoid(7*q1)")
    same = built("sigmoid(q1+log(2)) + sigmoid(q1+log(2))")
    copied = {"terms": [[1, 2, 0, 1], [1, 2, 0, 1]]}  # the two terms before merging
    rejected_by_verify(capsys, tmp_path, _grafted(same, donor, "lower:pair-biased", copied), "lower:pair-biased", "normal form differs")
    merged = {"terms": [[1, 2, 0, 2]]}
    rejected_by_verify(capsys, tmp_path, _grafted(same, donor, "lower:pair-biased", merged), "lower:pair-biased", "exactly two terms")


def test_a_normal_form_that_does_not_match_the_function_is_rejected(capsys, tmp_path):
    cert = built("1/2 + sigmoid(3*q1+log(2)) - sigmoid(7*q1)")
    forged = copy.deepcopy(cert)
    claim(forged, "lower:pair-biased")["evidence"]["terms"][0][1] = 3  # σ(3q + log 3) instead of log 2
    rejected_by_verify(capsys, tmp_path, forged, "lower:pair-biased", "normal form differs")
    two = built("sigmoid(q1+log(2)) + sigmoid(3*q1+log(8)) + sigmoid(5*q1+log(32))")
    assert two["summary"]["lower_bound_claim"] == "lower:two-scales" and verify_certificate(two).ok
    claim(two, "lower:two-scales")["evidence"]["terms"][2][3] = -1  # a sign flipped in the copy
    rejected_by_verify(capsys, tmp_path, two, "lower:two-scales", "normal form differs")


def test_v2_with_an_equal_valuation_counted_twice_is_rejected(capsys, tmp_path):
    cert = built("sigmoid(q1+log(3)) + sigmoid(2*q1+log(5)) + sigmoid(4*q1+log(7))")
    levels = claim(cert, "lower:two-adic")["evidence"]["shapes"][0]["levels"]
    levels.append(levels[0])
    rejected_by_verify(capsys, tmp_path, cert, "lower:two-adic", "distinct")
    cert = built("sigmoid(q1+log(3)) + sigmoid(2*q1+log(5)) + sigmoid(4*q1+log(7))")
    levels = claim(cert, "lower:two-adic")["evidence"]["shapes"][0]["levels"]
    levels[0] = [3, 27, 0]  # 1 + 27x³ = (1 + 3x)(1 − 3x + 9x²) does not divide Q′: valuation 0 again, but no factor
    rejected_by_verify(capsys, tmp_path, cert, "lower:two-adic", "does not divide")


def test_class_descartes_with_two_factors_of_one_bias_is_rejected(capsys, tmp_path):
    cert = built(LADDER)
    entry = claim(cert, "lower:two-adic")["evidence"]["shapes"][0]
    entry["class"] = [entry["class"][0], entry["class"][0]]
    rejected_by_verify(capsys, tmp_path, cert, "lower:two-adic", "same root modulus")
    cert = built(LADDER)
    entry = claim(cert, "lower:two-adic")["evidence"]["shapes"][0]
    entry["levels"].append([2, 1, 0])  # a level at v₂(A) = 1: classes mod A do not refine it
    rejected_by_verify(capsys, tmp_path, cert, "lower:two-adic", "below")
