"""Constructions beyond the product head (DESIGN §10): closed forms, the construction search, their claims.

Every head reported is checked twice: by the kernel's construction check (N_B·Q′_B = D_B·P′_B, positive
weights, supp N ⊆ supp D) and by an exact evaluation of the listed atoms at random rational points
x_j = e^{q_j}, against the heads of F evaluated directly.  Forged heads are rejected naming the claim.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from fractions import Fraction
from math import gcd, lcm

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from headfusion.algebra.expform import exponential_form
from headfusion.algebra.fused import atom_dicts
from headfusion.bounds.constructions import closed_forms, form_kind, uniform_head
from headfusion.bounds.engine import function_bounds
from headfusion.proof.statement import verify_certificate
from headfusion.proof.claims import build_certificate
from headfusion.solving.construct import best_construction, search_block
from headfusion.spec.load import load_spec

from .conftest import HANG_GUARD, run_cli

Q1236 = "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(6*q1)"
Q12356 = "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(5*q1)+sigmoid(6*q1)"
Q1123 = "sigmoid(q1)+sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)"


def exact_value(model, x: list[Fraction]) -> Fraction:
    """F at e^{q_j} = x_j, exactly (integer keys, rational weights): Σ_h a_h Σ v w x^k / Σ w x^k + c."""
    total = model.constant
    for scale, head in zip(model.scales, model.heads):
        num = den = Fraction(0)
        for atom in head.atoms:
            assert atom.weight.exponent == 0
            term = atom.weight.coef
            for j, c in atom.key:
                term *= x[j] ** int(c)
            num, den = num + atom.value * term, den + term
        total += scale * num / den
    return total


def head_value(atoms: list[dict], x: list[Fraction]) -> Fraction:
    """A listed head (keys in q, weights and values exact) at e^{q_j} = x_j."""
    num = den = Fraction(0)
    for atom in atoms:
        term = Fraction(atom["weight"])
        for j, c in enumerate(atom["key"]):
            term *= x[j] ** int(Fraction(c))
        num, den = num + Fraction(atom["value"]) * term, den + term
    return num / den


def certified(text: str, form=None) -> dict:
    """The certificate (no solver search) with F's head as `form` carries it, through JSON."""
    spec = load_spec(text)
    bounds = function_bounds(spec.model)
    if form is not None:
        bounds = replace(bounds, form=form)
    return json.loads(json.dumps(build_certificate(spec, ["headfusion", "certify", text], [], bounds=bounds)))


def assert_equals_f(text: str, form, points: int = 4, seed: int = 0) -> None:
    """The listed head equals F at random rational points (an evaluation independent of the kernel)."""
    rng = random.Random(seed)
    model = load_spec(text).model
    atoms = list(atom_dicts(form))
    for _ in range(points):
        x = [Fraction(rng.randint(1, 9), rng.randint(1, 9)) for _ in range(model.dimension)]
        assert head_value(atoms, x) == exact_value(model, x)


# -- closed forms ----------------------------------------------------------------------------------


def test_uniform_head_of_1_2_3_6_beats_the_product_head():
    form = closed_forms(exponential_form(load_spec(Q1236).model))
    assert form.upper_bound == 12 and form_kind(form) == "uniform"
    (block,) = form.blocks
    assert sorted(e[0] for e in block.head_denominator.terms) == list(range(12))
    assert set(block.head_denominator.terms.values()) == {1}  # weight 1 on keys 0..11
    values = [block.head_numerator.terms.get((s, 0), Fraction(0)) for s in range(12)]
    assert values == [sum(1 for a in (1, 2, 3, 6) if s % (2 * a) >= a) for s in range(12)]  # #{i : s mod 2a_i ≥ a_i}
    assert_equals_f(Q1236, form)
    assert verify_certificate(certified(Q1236, form)).ok


def test_repeated_terms_merge_first():
    form = closed_forms(exponential_form(load_spec(Q1123).model))
    assert form.upper_bound == 7 and form_kind(form) == "blocks"
    assert_equals_f(Q1123, form)
    assert verify_certificate(certified(Q1123, form)).ok


@pytest.mark.parametrize("scales", [(1, 2), (1, 3), (2, 5), (1, 2, 4), (1, 4, 5), (1, 2, 3, 5, 6), (1, 2, 3, 4, 6, 12)])
def test_uniform_bound_two_lcm(scales):
    """m*(Σ σ(a_i q)) ≤ 2·lcm(a_i) (§10) and the closed form never exceeds the product head."""
    text = "+".join(f"sigmoid({a}*q1)" for a in scales)
    product = exponential_form(load_spec(text).model)
    form = closed_forms(product)
    assert form.upper_bound <= min(product.upper_bound, 2 * lcm(*scales) // gcd(*scales))
    assert_equals_f(text, form)


def test_uniform_head_needs_roots_of_unity():
    import flint

    assert uniform_head(flint.fmpq_poly([0, 1]), flint.fmpq_poly([1, 2]), 1) is None  # 1 + 2y: no root of unity
    N, D = uniform_head(flint.fmpq_poly([0, 1]), flint.fmpq_poly([1, 1]), 1)
    assert D == flint.fmpq_poly([1, 1]) and N == flint.fmpq_poly([0, 1])


# -- the construction search -----------------------------------------------------------------------


def test_search_finds_the_16_atom_head_of_1_2_3_5_6():
    form = closed_forms(exponential_form(load_spec(Q12356).model))
    assert form.upper_bound == 16 and form_kind(form) == "interval"  # Lemma IH: D = Q′·(2x² + 3x + 2), no gap
    (block,) = form.blocks
    found = search_block(block.P_reduced, block.Q_reduced, 17, 1, time.monotonic() + HANG_GUARD, max_width=3)  # a hang guard, not a time the test asserts
    assert found is not None
    N, D = found
    assert len({e[:-1] for e in D.terms}) == 16 and all(c > 0 for c in D.terms.values())
    assert any(N.terms.get(e, 0) / c < 0 for e, c in D.terms.items())  # one value negative: no block head does this
    better = replace(form, blocks=(replace(block, construction=(N, D), construction_kind="search"),))
    assert better.upper_bound == 16
    assert_equals_f(Q12356, better)
    cert = certified(Q12356, better)
    assert verify_certificate(cert).ok
    upper = next(c for c in cert["claims"] if c["id"] == "upper")
    assert upper["evidence"]["heads"][0]["found"] == "search"
    assert "search" not in upper["statement"]  # provenance the kernel does not check is never part of what it proves


def test_best_construction_skips_the_search_where_the_bounds_meet():
    form = exponential_form(load_spec("W", 3).model)
    assert best_construction(form, lower=8, seconds=30).upper_bound == 8  # returns at once: nothing to gain


# -- forgeries ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def searched() -> dict:
    form = closed_forms(exponential_form(load_spec(Q12356).model))
    (block,) = form.blocks
    N, D = search_block(block.P_reduced, block.Q_reduced, 17, 1, time.monotonic() + HANG_GUARD, max_width=3)  # a hang guard, not a time the test asserts
    return certified(Q12356, replace(form, blocks=(replace(block, construction=(N, D), construction_kind="search"),)))


def _forge(cert: dict, change) -> dict:
    forged = json.loads(json.dumps(cert))
    head = next(c for c in forged["claims"] if c["id"] == "upper")["evidence"]["heads"][0]
    change(head)
    return forged


def _bump(terms: list, index: int) -> None:
    terms[index][1] = str(Fraction(terms[index][1]) + 1)


def _drop(head: dict) -> None:
    key = head["D"].pop(5)[0]  # the atom at the sixth key: its weight and its value
    head["N"] = [t for t in head["N"] if t[0] != key]


FORGERIES = {
    "weight": lambda h: _bump(h["D"], 3),
    "value": lambda h: _bump(h["N"], 2),
    "dropped atom": _drop,
    "uniform claimed": lambda h: h.__setitem__("found", "uniform"),
    "unknown kind": lambda h: h.__setitem__("found", "magic"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forged_heads_are_rejected_naming_the_claim(searched, name, tmp_path, capsys):
    assert verify_certificate(searched).ok
    assert_upper_rejected(_forge(searched, FORGERIES[name]), tmp_path, capsys)


def assert_upper_rejected(forged: dict, tmp_path, capsys) -> None:
    """The kernel rejects the forged certificate at its claim `upper`, and `verify` exits 1 naming it."""
    report = verify_certificate(forged)
    assert not report.ok and "upper" in [r[0] for r in report.rows if r[2] == "failed"]
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    code, out, err = run_cli(capsys, "verify", str(path))
    assert code == 1 and "upper" in out + err


# -- property: every reported head equals F; the search never loses to the product --------------------

KEYS_1D = st.lists(st.integers(1, 6), min_size=2, max_size=4)
KEYS_2D = st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)).filter(lambda k: k != (0, 0)), min_size=2, max_size=3)


def _term(key: tuple[int, ...], scale: int) -> str:
    logit = "+".join(f"{c}*q{j + 1}" for j, c in enumerate(key) if c) or "0"
    return f"{scale}*sigmoid({logit})"


def _check_reported(text: str) -> None:
    product = exponential_form(load_spec(text).model)
    form = best_construction(product, lower=None, seconds=0)
    for block in form.blocks:  # a small search on each block (the MIP's head is repaired exactly)
        if block.rank <= 2 and not any(e[-1] for e in block.Q_reduced.terms):
            found = search_block(block.P_reduced, block.Q_reduced, block.head_size, 1, time.monotonic() + 5, max_width=1)
            if found is not None:
                form = replace(form, blocks=tuple(replace(b, construction=found, construction_kind="search") if b is block else b
                                                  for b in form.blocks))
    assert form.upper_bound <= product.upper_bound
    assert_equals_f(text, form, points=3)
    assert verify_certificate(certified(text, form)).ok


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(KEYS_1D, st.lists(st.integers(1, 3), min_size=4, max_size=4))
def test_reported_heads_equal_f_in_one_dimension(scales, weights):
    _check_reported("+".join(_term((a,), w) for a, w in zip(scales, weights)))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(KEYS_2D, st.lists(st.integers(1, 3), min_size=3, max_size=3))
def test_reported_heads_equal_f_in_two_dimensions(keys, weights):
    _check_reported("+".join(_term(k, w) for k, w in zip(keys, weights)))


# -- end to end (the acceptance commands) ---------------------------------------------------------------


@pytest.mark.slow
def test_analyze_reports_the_best_construction(capsys):
    from .conftest import run_json

    data = run_json(capsys, "analyze", Q1236)
    assert data["upper_bound"] == 12 and data["construction"]["kind"] == "uniform"
    assert len(data["fused_head"]["atoms_list"]) == 12
    assert run_json(capsys, "analyze", Q1123)["upper_bound"] <= 7
    assert run_json(capsys, "analyze", Q12356)["upper_bound"] <= 16


@pytest.mark.slow
def test_certify_proves_twelve(tmp_path, capsys):
    code, out, err = run_cli(capsys, "certify", Q1236, "--out", str(tmp_path), "--no-pdf")
    assert code == 0, err
    (path,) = tmp_path.glob("*.json")
    cert = json.loads(path.read_text())
    assert cert["summary"]["minimum"] == 12
    assert "uniform" in next(c for c in cert["claims"] if c["id"] == "upper")["statement"]


def test_the_certificate_says_how_the_head_was_found(searched):
    from headfusion.render.latex import render_latex

    tex = render_latex(searched)
    assert "the producer's note, not checked by the kernel: found by the construction search" in tex
    assert r"D_B=Q'_B\cdot g" in tex and "x_{1}^{2}" in tex  # g = 2 + 3x + 2x²: one line instead of the table


def test_the_search_still_runs_after_another_highs_solve_in_the_same_process():
    """HiGHS fixes its global scheduler at a process's first solve: a search that then asked for another thread count found
    nothing (the 16-atom head was lost whenever an LP of the refutation producer or of a witness had run first)."""
    import highspy

    first = highspy.Highs()
    first.setOptionValue("output_flag", False)
    first.passModel(highspy.HighsLp())
    first.run()
    form = closed_forms(exponential_form(load_spec(Q12356).model))
    (block,) = form.blocks
    found = search_block(block.P_reduced, block.Q_reduced, 17, 1, time.monotonic() + HANG_GUARD, max_width=3)
    assert found is not None and len({e[:-1] for e in found[1].terms}) == 16
