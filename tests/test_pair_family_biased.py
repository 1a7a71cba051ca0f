"""Theorem Pβ for the whole family (claim lower:every-bias, Lemma PF; `certify "…" --every a,b`).

The family ±σ(a·q1 + b1) ± σ(b·q1 + b2), for all positive integers a ≠ b and all real biases, is certified on
its lift G(u1, u2) = ±σ(u1) ± σ(u2): genuine certificates replay; the lift's head restricted to a member is an
exact head of that member; forged certificates (another template, a weight other than ±1, a third term, a
borrowed claim) are rejected naming the claim; templates outside the theorem are refused.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings, strategies as st

from headfusion.kernel.base import CheckFailed
from headfusion.kernel.verify import verify_certificate as replay_heads
from headfusion.proof.certify import certify_every_pair
from headfusion.proof.claims import build_certificate
from headfusion.proof.statement import verify_certificate
from headfusion.spec.expressions import SpecError, parse_expression
from headfusion.spec.load import load_spec
from headfusion.spec.model import Spec
from headfusion.spec.parametric import biased_pair_family

from .conftest import run_cli
from .test_kernel import claim, rejected

TEMPLATE = "sigmoid(a*q1 + b1) - sigmoid(b*q1 + b2)"


def family_certificate(text: str, names: list[str]) -> dict:
    """The family certificate as stored (through JSON and back)."""
    return json.loads(json.dumps(certify_every_pair(text, names, ["headfusion", "certify", text, "--every", ",".join(names)]).certificate))


@pytest.fixture(scope="module")
def family() -> dict:
    return family_certificate(TEMPLATE, ["a", "b"])


def test_the_family_certificate_states_theorem_p_beta(family):
    assert verify_certificate(family).ok
    theorem = claim(family, "theorem")
    assert theorem["statement"] == (r"For all positive integers $a\ne b$ and all real $b1,b2$, the function"
                                    r" $F_{a,b,b1,b2}(q)=\sigma(aq_1+b1)-\sigma(bq_1+b2)$ satisfies $m^*(F_{a,b,b1,b2})=4$.")
    assert theorem["depends_on"] == ["lower:every-bias", "upper"]  # not the lift's own Newton bound
    assert claim(family, "lower:every-bias")["depends_on"] == ["def:F", "lemma:PF"]
    assert family["spec"]["every"] == ["a", "b", "b1", "b2"] and family["model"]["dimension"] == 2
    assert family["summary"]["lower_bound"] == family["summary"]["upper_bound"] == 4


@pytest.mark.parametrize("text, member", [
    ("sigmoid(a*q1 + b1) + sigmoid(b*q1 + b2)", r"\sigma(aq_1+b1)+\sigma(bq_1+b2)"),
    ("-sigmoid(q1*a + b1) - sigmoid(b2 + b*q1)", r"-\sigma(aq_1+b1)-\sigma(bq_1+b2)"),
])
def test_every_sign_pattern_and_the_explicit_names(text, member):
    cert = family_certificate(text, ["a", "b"])
    assert verify_certificate(cert).ok and f"$F_{{a,b,b1,b2}}(q)={member}$" in claim(cert, "theorem")["statement"]
    named = family_certificate(text, ["a", "b", "b1", "b2"])  # the biases may be named on the command line too
    assert {k: v for k, v in named.items() if k != "metadata"} == {k: v for k, v in cert.items() if k != "metadata"}


def _restricted_head(cert: dict, a: int, b: int, w1: sympy.Expr, w2: sympy.Expr) -> list:
    """The lift's product head (Lemma LP: one atom per pair of atoms) restricted to u = (a·q + log w1, b·q + log w2):
    (key, Σ weights, Σ weight·value) per key, atoms with equal keys merged (L1)."""
    (s1, h1), (s2, h2) = ((sympy.Rational(str(h["scale"])), h["atoms"]) for h in cert["model"]["heads"])
    atoms: dict[int, list] = {}
    for x1, x2 in ((x1, x2) for x1 in h1 for x2 in h2):
        k1, k2 = (int(dict(x["key"]).get(j, 0)) for x, j in ((x1, 1), (x2, 2)))
        mu = sympy.Rational(str(x1["weight"])) * sympy.Rational(str(x2["weight"])) * w1**k1 * w2**k2  # times e^<k, β>
        value = s1 * sympy.Rational(str(x1["value"])) + s2 * sympy.Rational(str(x2["value"]))
        old = atoms.setdefault(a * k1 + b * k2, [0, 0])
        old[0], old[1] = old[0] + mu, old[1] + mu * value
    return sorted(atoms.items())


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.fractions(Fraction(1, 9), 9), st.fractions(Fraction(1, 9), 9))
def test_the_lifts_head_restricts_to_a_head_of_every_member(family, a, b, r1, r2):
    """Lemma PF's restriction, exactly: keys ⟨k,(a,b)⟩, weights times e^⟨k,β⟩, at most 4 atoms, N = F·D."""
    w1, w2 = sympy.Rational(r1.numerator, r1.denominator), sympy.Rational(r2.numerator, r2.denominator)
    atoms, x = _restricted_head(family, a, b, w1, w2), sympy.Symbol("x", positive=True)
    assert len(atoms) <= 4 and all(mu > 0 for _, (mu, _) in atoms)
    D = sum(mu * x**k for k, (mu, _) in atoms)
    N = sum(nu * x**k for k, (_, nu) in atoms)
    member = w1 * x**a / (1 + w1 * x**a) - w2 * x**b / (1 + w2 * x**b)  # σ(aq + log w1) − σ(bq + log w2), x = e^q
    assert sympy.cancel(N - member * D) == 0
    if a != b:
        assert len(atoms) == 4


@pytest.mark.parametrize("text", ["sigmoid(2*q1+log(3)) - sigmoid(5*q1+log(1/2))", "sigmoid(q1+1/2) - sigmoid(3*q1-2/3)"])
def test_members_agree_with_their_own_certificates(text):
    from headfusion.proof.certify import certify

    summary = certify(load_spec(text), ["headfusion", "certify", text]).certificate["summary"]
    assert summary["status"] == "proved" and summary["minimum"] == 4


def test_forged_family_certificates_are_rejected(family):
    for text in ("sigmoid(a*q1 + b1) - 3*sigmoid(b*q1 + b2)", "sigmoid(a*q1 + b1) + sigmoid(b*q1 + b2) + sigmoid(q1)",
                 "sigmoid(a*q1 + b1) + sigmoid(b*q1 + b2)", "sigmoid(a*q1) + sigmoid(b*q1)"):
        forged = copy.deepcopy(family)
        forged["spec"]["text"] = text  # the spec no longer gives this lift (or is not of the form at all)
        assert "def:F" in rejected(forged)
    weighted = copy.deepcopy(family)
    weighted["model"]["heads"][1]["scale"] = -3  # σ(u1) − 3σ(u2): the model differs from the spec's lift
    assert "def:F" in rejected(weighted)
    stated = copy.deepcopy(family)
    claim(stated, "theorem")["statement"] = claim(stated, "theorem")["statement"].replace("all real", "all rational")
    assert "theorem" in rejected(stated)
    two = copy.deepcopy(family)  # Theorem P's claim in place of Pβ's: the theorem for every bias does not rest on it
    two["spec"]["every"] = ["a", "b"]
    assert "def:F" in rejected(two)
    assert not replay_heads(two).ok


def test_the_kernel_reads_the_lift_itself():
    """Built on a lift that is not ±σ(u1) ± σ(u2), the claim fails in the kernel, whatever the spec fields say."""
    fields = {"kind": "expression", "text": TEMPLATE, "source": None, "d": None, "title": "t", "slug": "s", "every_d": False,
              "every": ["a", "b", "b1", "b2"]}
    for lift, words in (("sigmoid(q1) - 3*sigmoid(q2)", "signs"), ("sigmoid(q1) + sigmoid(2*q2)", "head 2"),
                        ("sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", "lift"), ("1 + sigmoid(q1) + sigmoid(q2)", "lift"),
                        ("sigmoid(q2) + sigmoid(q1)", "head 1"), ("attn([0, q1], [1, 2]) + sigmoid(q2)", "head 1")):
        spec = Spec(lift, None, "expression", lift, "forged", parse_expression(lift))
        with pytest.raises(CheckFailed, match=words):
            build_certificate(spec, ["headfusion"], [], [], every_d=fields)
    family = family_certificate("sigmoid(a*q1) + sigmoid(b*q1)", ["a", "b"])  # Theorem P's family: Pβ's claim is not its claim
    pb = {"id": "lower:every-bias", "kind": "lower-bound", "title": "Pairs with every bias", "statement": "",
          "depends_on": ["def:F", "lemma:PF"], "evidence": {}}
    family["claims"].insert(-1, pb)
    assert "lower:every-bias" in [r[0] for r in replay_heads(family).rows if r[2] == "failed"]
    lifted = family_certificate(TEMPLATE, ["a", "b"])  # names that are no names: refused by the kernel too
    lifted["spec"]["every"] = ["a", "b", "b1", "b1"]
    assert "lower:every-bias" in [r[0] for r in replay_heads(lifted).rows if r[2] == "failed"]


@pytest.mark.parametrize("text, names", [
    ("sigmoid(a*q1 + b1) - 3*sigmoid(b*q1 + b2)", ["a", "b"]),  # a weight other than ±1 (σ(q) − 3σ(3q) is not covered)
    ("sigmoid(a*q1 + b1) + sigmoid(b*q1 + b2) + sigmoid(q1)", ["a", "b"]),  # three terms
    ("1 + sigmoid(a*q1 + b1) + sigmoid(b*q1 + b2)", ["a", "b"]),  # a constant
    ("sigmoid(a*q1 + c) + sigmoid(b*q1 + c)", ["a", "b"]),  # one bias for both
    ("sigmoid(a*q1 + b1) + sigmoid(a*q1 + b2)", ["a", "a"]),  # one scale
    ("sigmoid(a*q1 + b1) + tanh(b*q1 + b2)", ["a", "b"]),
    ("sigmoid(a*q1 + log(r1)) + sigmoid(b*q1 + b2)", ["a", "b"]),  # a bias is a name, not an expression
    ("sigmoid(a*q1 + b1) + sigmoid(b*q1 + b2)", ["a", "b", "b2", "b1"]),  # named in another order
    ("sigmoid(a*q1 + b1) + sigmoid(b*q1 + b2)", ["a", "b", "b1"]),
])
def test_templates_outside_the_theorem_are_refused(text, names):
    with pytest.raises(SpecError):
        biased_pair_family(text, names)


def test_the_family_command_line(tmp_path, capsys):
    code, out, err = run_cli(capsys, "certify", TEMPLATE, "--every", "a,b", "--out", str(tmp_path), "--no-pdf")
    assert code == 0 and "a ≠ b and all real b1,b2" in out and "proved for every pair a, b and all real b1, b2" in out, err
    path = next(tmp_path.glob("*.json"))
    assert run_cli(capsys, "verify", str(path))[0] == 0
    code, out, err = run_cli(capsys, "certify", "sigmoid(a*q1 + b1) - 3*sigmoid(b*q1 + b2)", "--every", "a,b",
                             "--out", str(tmp_path / "bad"), "--no-pdf")
    assert code == 2 and err.startswith("headfusion: error:") and err.count("\n") == 1 and "Theorem Pβ" in err, err
