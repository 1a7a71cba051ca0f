"""Foundation: exact model, parsing, exponential-family form, `analyze`."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headfusion.algebra.expform import exponential_form
from headfusion.algebra.fused import identity_holds
from headfusion.spec.numbers import Weight
from headfusion.algebra.exact import sign_at_t
from headfusion.spec.families import sigmoid_sum
from headfusion.algebra.lattice import lattice_basis
from headfusion.spec.expressions import SpecError, parse_expression

from .conftest import fused_numeric, random_points, run_cli, run_json


def test_w3_fused_head(capsys):
    data = run_json(capsys, "analyze", "W", "--d", "3")
    assert data["dimension"] == 3 and data["heads"] == 3
    assert data["head_atom_terms"] == 6
    assert data["upper_bound"] == 8 and data["fused_head"]["atoms"] == 8
    atoms = data["fused_head"]["atoms_list"]
    assert len(atoms) == 8
    assert sorted(tuple(a["key"]) for a in atoms) == sorted(
        (a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)
    )
    assert all(a["value"] == sum(a["key"]) for a in atoms)
    assert len({json.dumps(a["weight"]) for a in atoms}) == 1


def test_w10_has_1024_atoms(capsys):
    data = run_json(capsys, "analyze", "W", "--d", "10")
    assert data["upper_bound"] == 1024 and len(data["fused_head"]["atoms_list"]) == 1024
    assert exponential_form(sigmoid_sum(10)).upper_bound == 1024


@pytest.mark.slow  # the same run as test_bounds.py::test_w_10000_structural, which checks these in the quick suite
def test_w10000_structural(capsys):
    data = run_json(capsys, "analyze", "W", "--d", "10000", "--no-atoms-list")
    assert data["upper_bound"] == 2**10000
    assert "atoms_list" not in data["fused_head"]


@pytest.mark.parametrize(
    "spec, atoms",
    [
        ("sigmoid(q1) + sigmoid(q1)", 2),  # gcd taken: 2σ(q1)
        ("sigmoid(q1) + tanh(q1)", 4),  # (1+x)(1+x^2)
        ("attn([q1, 2*q2, 0], [1, -1, 0]) + sigmoid(q2)", 6),
        ("sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2 + 1)", 4),
        ("sigmoid(q1) - sigmoid(q1)", 1),  # the constant 0
        ("2*sigmoid(q1) - 1 - tanh(q1/2)", 1),  # tanh(ℓ/2) = 2σ(ℓ) − 1, so F = 0
        ("sigmoid(q1) + sigmoid(-q1)", 1),  # σ(ℓ) + σ(−ℓ) = 1
        ("0.25*sigmoid(q1 + 0.5) + attn([q1, -q1, 0], [1, 2, 3])", 4),  # {-1,0,1}+{0,1} has 4 points
        ("sigmoid(q1 + 0.5) + sigmoid(q1 + q2)", 4),
    ],
)
def test_fused_head_equals_multihead_sum(spec, atoms):
    model = parse_expression(spec)
    form = exponential_form(model)
    assert form.upper_bound == atoms
    assert identity_holds(form)  # exact coefficient identity N·Q = D·P
    for q in random_points(model.dimension):
        assert fused_numeric(form, q) == pytest.approx(model.numeric_value(q), abs=1e-9)


def test_log_bias_rational_key_and_constant(capsys):
    data = run_json(capsys, "analyze", "sigmoid(q1/2 + log(3)) + 1/2")
    atoms = {tuple(a["key"]): a for a in data["fused_head"]["atoms_list"]}
    assert atoms[(0,)] == {"key": [0], "weight": 1, "value": "1/2"}
    assert atoms[("1/2",)] == {"key": ["1/2"], "weight": 3, "value": "3/2"}


def test_decimals_are_exact():
    model = parse_expression("0.1*sigmoid(0.3*q1)")
    assert model.scales == (Fraction(1, 10),)
    assert model.heads[0].atoms[0].key == ((0, Fraction(3, 10)),)


def test_transcendental_weights_are_exact():
    model = parse_expression("sigmoid(q1 + 1/2)")
    assert model.heads[0].atoms[0].weight == Weight(Fraction(1), Fraction(1, 2))
    assert sign_at_t({0: Fraction(-1), 1: Fraction(1)}, 2) == 1  # e^(1/2) − 1 > 0
    assert sign_at_t({0: Fraction(-2), 2: Fraction(1)}, 1) == 1  # e − 2 > 0
    assert sign_at_t({0: Fraction(-3), 1: Fraction(1)}, 1) == -1  # e − 3 < 0


def test_lattice_basis_coordinates():
    basis = lattice_basis(2, [{0: Fraction(1, 2)}, {0: Fraction(1), 1: Fraction(2)}, {1: Fraction(4)}])
    assert basis.rank == 2
    for v in ({0: Fraction(1, 2)}, {0: Fraction(1), 1: Fraction(2)}, {1: Fraction(4)}):
        coords = basis.coordinates(v)
        assert basis.point(coords) == tuple(v.get(j, Fraction(0)) for j in range(2))
    with pytest.raises(ValueError):
        basis.coordinates({1: Fraction(1)})


BAD_INPUTS = [
    ("sin(q1)", "unknown function"),
    ("exp(q2)", "unknown function"),
    ("sigmoid(q1*q2)", "nonlinear"),
    ("sigmoid(q1", "malformed"),
    ("", "empty"),
    ("   ", "empty"),
    ("sigmoid(q1).real", "attribute"),
    ("__import__('os').system('true')", "unsupported call"),
    ("__import__('os')", "unknown function"),
    ("open('x')", "unknown function"),
    ("[sigmoid(q) for q in range(3)]", "comprehension"),
    ("(lambda: 1)()", "unsupported call"),
    ("sigmoid(q1 + log(0))", "non-positive"),
    ("sigmoid(q1 + log(-2))", "non-positive"),
    ("attn([q1, q2], [1])", "differ in length"),
    ("sigmoid(x1)", "unknown variable"),
    ("sigmoid(q0)", "unknown variable"),
    ("q1 + sigmoid(q1)", "logit"),
    ("sigmoid(q1) * sigmoid(q2)", "products of heads"),
    ("sigmoid(q1) / q1", "non-constant"),
    ("sigmoid(q1) / 0", "division by zero"),
    ("1 + 2", "no head"),
    ("sigmoid(q1, q2)", "takes 1 argument"),
    ("'sigmoid(q1)'", "unsupported constant"),
    ("sigmoid((q1 + log(3))/2)", "integers"),
]


@pytest.mark.parametrize("text, fragment", BAD_INPUTS)
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, monkeypatch, text, fragment):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "analyze", text)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert fragment.lower() in lines[0].lower()
    assert list(Path(tmp_path).iterdir()) == []  # nothing written


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["analyze", "W", "--d", "0"], "at least 1"),
        (["analyze", "W"], "needs --d"),
        (["analyze", "W", "--d", "x"], "must be an integer"),
        (["analyze", "W", "--d", "21", "--json"], "--no-atoms-list"),  # the text output lists 64 atoms at any d
        (["analyze", "missing.toml"], "not found"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_usage_exits_2(capsys, argv, fragment):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and (out == "" if "--json" not in argv else json.loads(out)["exit_code"] == 2)  # --json: the error as JSON
    assert len(err.strip().splitlines()) == 1 and fragment in err


# -- property tests: random small sums of heads --------------------------------------------

small_int = st.integers(min_value=-2, max_value=2)
value = st.fractions(min_value=-3, max_value=3, max_denominator=3)


@st.composite
def random_heads(draw, max_heads: int = 3, dimension: int = 2):
    heads = []
    for _ in range(draw(st.integers(1, max_heads))):
        n = draw(st.integers(1, 3))
        logits = []
        for _ in range(n):
            coeffs = [draw(small_int) for _ in range(dimension)]
            bias = draw(st.sampled_from(["", " + log(2)", " + log(1/3)", " + 1/2"]))
            terms = " + ".join(f"{c}*q{j + 1}" for j, c in enumerate(coeffs)) or "0"
            logits.append(terms + bias)
        values = [str(draw(value)) for _ in range(n)]
        scale = draw(st.sampled_from(["", "2*", "-1/2*"]))
        heads.append(f"{scale}attn([{', '.join(logits)}], [{', '.join(values)}])")
    constant = draw(st.sampled_from(["", " + 1", " - 1/3"]))
    return " + ".join(heads) + constant


@settings(max_examples=40, deadline=None)
@given(random_heads())
def test_random_sums_fuse_exactly(text):
    model = parse_expression(text, 2)
    form = exponential_form(model)
    assert identity_holds(form)
    assert form.upper_bound <= form.naive_size
    for q in random_points(2, 3):
        assert fused_numeric(form, q) == pytest.approx(model.numeric_value(q), rel=1e-7, abs=1e-7)


_laurent = st.dictionaries(st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
                           st.fractions(min_value=-5, max_value=5, max_denominator=6).filter(bool), min_size=1, max_size=12)


@settings(max_examples=20, deadline=None)
@given(_laurent, _laurent, _laurent)
def test_flint_products_and_divisions_equal_the_plain_ones(a, b, c):
    """20 examples in the quick suite; 60 in the slow twin below."""
    flint_products_and_divisions_equal_the_plain_ones(a, b, c)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(_laurent, _laurent, _laurent)
def test_flint_products_and_divisions_equal_the_plain_ones_on_many_polynomials(a, b, c):
    flint_products_and_divisions_equal_the_plain_ones(a, b, c)


def flint_products_and_divisions_equal_the_plain_ones(a: dict, b: dict, c: dict) -> None:
    """LPoly's flint path (products, exact division) gives the same exact polynomials as the schoolbook loops."""
    from headfusion.algebra import laurent
    from headfusion.algebra.laurent import LPoly, exact_divide, product

    A, B, C = (LPoly(2, x) for x in (a, b, c))
    saved = laurent.FLINT_PRODUCT_WORK
    try:
        laurent.FLINT_PRODUCT_WORK = 10**9  # the plain loops
        plain = (A * B, product([A, B, C], 2), exact_divide(A * B, B), exact_divide(A * B + C.shift((5, 0)), B))
        laurent.FLINT_PRODUCT_WORK = 0  # flint for every product and division
        fast = (A * B, product([A, B, C], 2), exact_divide(A * B, B), exact_divide(A * B + C.shift((5, 0)), B))
    finally:
        laurent.FLINT_PRODUCT_WORK = saved
    assert plain == fast
    assert fast[2] == A  # the division is exact and undoes the product
