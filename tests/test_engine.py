"""The fast exact engine: rational fused heads, streamed atom lists, cyclotomic binomials."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from headfusion.algebra import laurent
from headfusion.algebra.expform import TooLarge, exponential_form
from headfusion.algebra.fused import _fast_atoms, _rational_blocks, _t_atoms, atom_dicts, atom_texts, check_list_size, fused_atom_json
from headfusion.algebra.laurent import LPoly, binomial_factors, canonical_associate, irreducible_factors, product
from headfusion.proof.analysis import AtomStream, analyze, write_json
from headfusion.spec.load import load_spec

from .conftest import HANG_GUARD, run_cli

# -- the rational path equals the t-polynomial path ---------------------------------------------

small = st.fractions(min_value=-3, max_value=3, max_denominator=4)
positive = st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=4)


def _text(r: Fraction) -> str:
    return f"({r.numerator}/{r.denominator})"


@st.composite
def rational_sums(draw) -> str:
    """Sums of scaled sigmoid/tanh/attn heads with rational keys, log-rational biases and values."""
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        j = draw(st.integers(1, 3))
        slope = draw(small.filter(bool))
        kind = draw(st.sampled_from(["sigmoid", "tanh", "attn", "pair"]))
        if kind == "attn":
            keys = draw(st.lists(st.integers(-2, 2), min_size=2, max_size=3, unique=True))
            values = [draw(small) for _ in keys]
            head = f"attn([{','.join(f'{k}*{_text(slope)}*q{j}' for k in keys)}],[{','.join(_text(v) for v in values)}])"
        elif kind == "pair":
            head = f"sigmoid({_text(slope)}*q{j} + q{draw(st.integers(1, 3))} + log{_text(draw(positive))})"
        else:
            head = f"{kind}({_text(slope)}*q{j} + log{_text(draw(positive))})"
        terms.append(f"{_text(draw(small.filter(bool)))}*{head}")
    return " + ".join(terms) + f" + {_text(draw(small))}"


@settings(max_examples=25, deadline=None)
@given(rational_sums())
def test_fast_atoms_equal_t_path_atoms(text):
    form = exponential_form(load_spec(text).model)
    blocks = _rational_blocks(form)
    assert blocks is not None, "rational weights take the fast path"
    slow = [fused_atom_json(form, a) for a in _t_atoms(form)]
    fast = [fused_atom_json(form, a) for a in _fast_atoms(form, blocks)]
    assert fast == slow
    assert list(atom_dicts(form)) == slow  # the integer tables
    expected = json.dumps({"a": {"b": slow}}, indent=2)
    assert ",\n".join(atom_texts(form, 6)) in expected


@pytest.mark.parametrize("text", ["sigmoid(q2) + sigmoid(q1) + tanh(q3/2)", "sigmoid(q3) + 1/3", "attn([q1, q2], [1, 2]) + sigmoid(q4)",
                                  "sigmoid(q1 + 1/2) + tanh(q2)", "sigmoid(q1 + log(2)) + 2*tanh(q2 + 1/3)", "sigmoid(0*q1) + 2/3"])
def test_atom_texts_match_json_in_every_order(text):
    """Interleaved variables, unused variables, e^b weights, constants: the text is json's."""
    form = exponential_form(load_spec(text).model)
    dicts = [fused_atom_json(form, a) for a in _t_atoms(form)]
    assert list(atom_dicts(form)) == dicts
    assert "[\n" + ",\n".join(atom_texts(form, 2)) + "\n]" == json.dumps(dicts, indent=2)


# -- streamed JSON equals the list form ----------------------------------------------------------


@pytest.mark.parametrize("text, d", [("W", 6), ("sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2 + 1)", None),
                                     ("attn([0,q1,2*q1],[0,1,3]) + sigmoid(q2)", None), ("sigmoid(q5) + sigmoid(q2)", None), ("sigmoid(0*q1)+1/2", None)])
def test_streamed_json_equals_list_json(text, d):
    spec = load_spec(text, d)
    listed = analyze(spec)
    streamed = analyze(spec, stream=True)
    assert isinstance(streamed["fused_head"]["atoms_list"], AtomStream)
    out = io.StringIO()
    write_json(streamed, out, chunk=3)
    assert out.getvalue() == json.dumps(listed, indent=2) + "\n"
    assert list(streamed["fused_head"]["atoms_list"]) == listed["fused_head"]["atoms_list"]


def test_cli_json_streams_w12(capsys):
    code, out, err = run_cli(capsys, "analyze", "W", "--d", "12", "--json")
    assert code == 0, err
    data = json.loads(out)
    atoms = data["fused_head"]["atoms_list"]
    assert len(atoms) == 4096 and atoms[-1] == {"key": [1] * 12, "weight": 1, "value": 12}


def test_list_limits():
    check_list_size(exponential_form(load_spec("W", 20).model), streamed=True)
    with pytest.raises(TooLarge, match="--no-atoms-list"):
        check_list_size(exponential_form(load_spec("W", 21).model), streamed=True)
    with pytest.raises(TooLarge, match="streams up to"):
        check_list_size(exponential_form(load_spec("W", 17).model), streamed=False)


def test_w16_with_atom_list(tmp_path):
    with open(tmp_path / "w16.json", "w") as out:
        proc = subprocess.run([sys.executable, "-m", "headfusion", "analyze", "W", "--d", "16", "--json"],
                              stdout=out, stderr=subprocess.PIPE, timeout=HANG_GUARD)
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads((tmp_path / "w16.json").read_text())["fused_head"]["atoms_list"]) == 65536


# -- cyclotomic binomials ---------------------------------------------------------------------------


def _poly(terms: dict) -> LPoly:
    return LPoly(len(next(iter(terms))), {e: Fraction(c) for e, c in terms.items()})


@pytest.mark.parametrize("n", [1, 2, 3, 6, 12, 30, 105, 210, 30030])
def test_one_plus_x_to_the_n(n):
    binomial = _poly({(0, 0): 1, (n, 0): 1})
    factors = irreducible_factors(binomial)
    orders = [k for k in laurent.divisors(2 * n) if n % k]
    assert sorted(max(e[0] for e in f.terms) for f, _ in factors) == sorted(int(sympy.totient(k)) for k in orders)
    assert all(m == 1 for _, m in factors)
    if n <= 210:
        assert product((f for f, _ in factors), 2) == binomial
        x = sympy.Symbol("x")
        for f, _ in factors[:12]:
            assert sympy.Poly({(e[0],): int(c) for e, c in f.terms.items()}, x).is_irreducible
        # the same factors as general factorisation (so outputs do not change)
        general = sympy.Poly(x**n + 1, x).factor_list()[1]
        expected = {canonical_associate(LPoly.from_sympy(f, 1)) for f, _ in general}
        assert {LPoly(1, {e[:1]: c for e, c in f.terms.items()}) for f, _ in factors} == expected
    else:
        total = sum(len(f.terms) for f, _ in factors)
        assert total > 0 and sum(max(e[0] for e in f.terms) for f, _ in factors) == n


@pytest.mark.parametrize("terms", [{(0, 0): 3, (6, 0): -3}, {(0, 0): Fraction(2, 5), (4, 2): Fraction(2, 5)},
                                   {(1, -3): -7, (-3, 1): -7}, {(2, 0): 1, (0, 3): 1}])
def test_binomials_after_a_unimodular_change(terms):
    binomial = _poly(terms)
    factors = binomial_factors(binomial)
    assert factors is not None
    assert canonical_associate(product((f for f, _ in factors), binomial.nvars)) == canonical_associate(binomial)
    gens = sympy.symbols("x1 x2")
    p, _ = binomial.to_sympy(gens)
    assert len(factors) == sum(k for _, k in p.factor_list()[1])


def test_other_binomials_go_to_general_factorisation():
    assert binomial_factors(_poly({(0,): 2, (4,): -1})) is None  # x^4 − 2
    assert [len(f.terms) for f, _ in irreducible_factors(_poly({(0,): -4, (2,): 1}))] == [2, 2]  # (x − 2)(x + 2)


@pytest.mark.parametrize("k", [1, 2, 9, 105, 1155, 4 * 3 * 5 * 7])
def test_cyclotomic_fallback_equals_flint(k, monkeypatch):
    fast = laurent.cyclotomic(k)
    monkeypatch.setattr(laurent, "flint", None)
    assert laurent.cyclotomic(k) == fast
    assert len(fast) - 1 == int(sympy.totient(k))


def pair_answers_without_the_degree_limit(monkeypatch, b: int) -> None:
    """σ(q1) + σ(b·q1): 1 + x^b factors in closed form, and analyze gives the 4-atom fused head."""
    import headfusion.spec.cost as cost

    monkeypatch.setattr(cost, "MAX_DEGREE", 10**6)
    result = analyze(load_spec(f"sigmoid(q1)+sigmoid({b}*q1)"))
    assert result["upper_bound"] == 4 and len(result["fused_head"]["atoms_list"]) == 4


def test_sigmoid_2050_answers_without_the_degree_limit(monkeypatch):
    """Just past MAX_DEGREE = 2048 in the quick suite; the issue's 30030 (32 cyclotomic factors) in the slow twin."""
    pair_answers_without_the_degree_limit(monkeypatch, 2050)


@pytest.mark.slow  # analysing 1 + x^30030 takes seconds
def test_sigmoid_30030_answers_without_the_degree_limit(monkeypatch):
    pair_answers_without_the_degree_limit(monkeypatch, 30030)


@pytest.mark.slow  # the analysis of the test above, end to end in a child process: seconds
def test_sigmoid_30030_cli_completes():
    proc = subprocess.run([sys.executable, "-m", "headfusion", "analyze", "sigmoid(q1)+sigmoid(30030*q1)", "--json",
                           "--timeout", str(HANG_GUARD)], capture_output=True, text=True, timeout=HANG_GUARD)
    assert proc.returncode == 0, proc.stderr  # answered: 1 + x^30030 factors into cyclotomic polynomials
    assert json.loads(proc.stdout)["upper_bound"] == 4
