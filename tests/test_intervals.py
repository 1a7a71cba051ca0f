"""Interval heads (Lemma IH) and the provenance of a construction (issue 38 item 3, issue 41 items 2 and 8).

An interval head is D = g·Q′ with a positive coefficient at every exponent of [0, deg D]; the kernel checks the
label (no gap, Q′ | D) as it checks "uniform" (one weight on an interval of a line).  The producer's other labels
("blocks", "search") are notes: the kernel accepts them but never states them, and the certificate prints them
outside what is proved.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from headfusion.algebra.expform import exponential_form
from headfusion.bounds.constructions import closed_forms, form_kind
from headfusion.bounds.intervals import interval_cofactor
from headfusion.kernel.verify import verify_certificate
from headfusion.spec.load import load_spec

from .test_constructions import assert_equals_f, assert_upper_rejected, certified

BIASED_1 = "sigmoid(q1+log(2))+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(6*q1)"  # Q′ = (1+2x)(1+x³)(1+x⁶): deg 10, 13 subset sums
BIASED_3 = "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1+log(2))+sigmoid(6*q1)"  # Q′ = (1+x)(1+2x³)(1+x⁶)
UNBIASED = "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(6*q1)"
PAIR = "sigmoid(q1)+sigmoid(3*q1)"  # product head 1 + x + x³ + x⁴: a gap at 2


def _upper(cert: dict) -> dict:
    return next(c for c in cert["claims"] if c["id"] == "upper")


def _dense(poly) -> list[Fraction]:
    top = max(e[0] for e in poly.terms)
    return [poly.terms.get((k, 0), Fraction(0)) for k in range(top + 1)]


@pytest.mark.parametrize("text", [BIASED_1, BIASED_3])
def test_interval_heads_beat_the_product_and_are_replayed(text):
    """σ(q+log 2)+σ(2q)+σ(3q)+σ(6q) and σ(q)+σ(2q)+σ(3q+log 2)+σ(6q): 12 atoms against 13 subset sums (proofs-one-line §3.3)."""
    form = closed_forms(exponential_form(load_spec(text).model))
    assert form.upper_bound == 12 and form_kind(form) == "interval" and form.naive_size == 13
    (block,) = form.blocks
    D = _dense(block.construction[1])
    assert len(D) == 12 and all(c > 0 for c in D)  # no gap on [0, deg D]
    assert_equals_f(text, form)
    cert = certified(text)
    assert verify_certificate(cert).ok
    assert _upper(cert)["evidence"]["heads"][0]["found"] == "interval" and "interval head" in _upper(cert)["statement"]


def test_the_least_interval_head_of_1_2_3_6_has_twelve_atoms():
    """Unbiased (1,2,3,6): Q′ = 1 + x³ + x⁶ + x⁹ (deg 9); the LP finds no g of degree 0 to 1 and one of degree 2 (12 atoms)."""
    Q = _dense(exponential_form(load_spec(UNBIASED).model).blocks[0].Q_reduced)
    assert interval_cofactor([Fraction(0)], Q, 12) is None  # nothing with 11 atoms or fewer
    g = interval_cofactor([Fraction(0)], Q, 13)
    assert g is not None and len(g) == 3


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.lists(st.integers(1, 6), min_size=2, max_size=4), st.lists(st.sampled_from(["", "+log(2)", "+log(1/3)"]), min_size=4, max_size=4))
def test_closed_forms_equal_f_and_never_lose(scales, biases):
    """Every closed-form head (interval heads included) equals F exactly and has at most the product head's atoms."""
    text = "+".join(f"sigmoid({a}*q1{b})" for a, b in zip(scales, biases))
    form = closed_forms(exponential_form(load_spec(text).model))
    assert form.upper_bound <= form.naive_size
    assert_equals_f(text, form, points=2)


def _forge(cert: dict, found: str) -> dict:
    forged = json.loads(json.dumps(cert))
    _upper(forged)["evidence"]["heads"][0]["found"] = found
    return forged


@pytest.mark.parametrize("text,label", [(PAIR, "interval"), (PAIR, "uniform"), (BIASED_1, "uniform")])
def test_forged_interval_and_uniform_labels_are_rejected(text, label, tmp_path, capsys):
    """A head with a gap is no interval head; unequal weights are no uniform head: verify exits 1 naming `upper`."""
    assert_upper_rejected(_forge(certified(text), label), tmp_path, capsys)


@pytest.mark.parametrize("label", ["search", "blocks"])
def test_unchecked_labels_are_only_a_note(label):
    """"search" or "blocks" on the product head: still a head (verified), but the kernel states no provenance and the
    certificate prints the label as the producer's note; the atlas marks it unchecked."""
    from headfusion.proof.atlas import construction_kind
    from headfusion.render.latex import render_latex

    forged = _forge(certified(PAIR), label)
    report = verify_certificate(forged)
    assert report.ok
    statement = _upper(forged)["statement"]
    assert "found as" not in statement and label not in statement
    kernel_statement = next(r for r in report.rows if r[0] == "upper")[3]
    assert "found as" not in kernel_statement
    tex = render_latex(forged)
    assert "the producer's note, not checked by the kernel" in tex
    assert construction_kind(forged) == f"{label} (unchecked note)"


def test_a_uniform_head_prints_its_identity_and_the_head_it_beats():
    from headfusion.render.latex import render_latex

    tex = render_latex(certified(UNBIASED))
    assert r"(y-1)\,D_B=c\,(y^{12}-1)" in tex and r"it beats the product head $\prod_h D_h$ of $13$ atoms" in tex
