"""Round 6b (issue 41, the referee's re-read of this round's certificates): each test fails before its fix and passes after."""

from __future__ import annotations

from .conftest import built


def _tex(cert: dict) -> str:
    from headfusion.render.latex import render_latex

    return render_latex(cert)


def test_the_two_adic_section_cites_lemma_cd_only_when_a_row_uses_it():
    """σ(q)+σ(2q)+σ(8q) is decided by Lemma V2 alone: Lemma CD is not printed, so a reference to it would be "??"."""
    tex = _tex(built("sigmoid(q1) + sigmoid(2*q1) + sigmoid(8*q1)"))
    assert r"\label{lem:CD}" not in tex and r"\ref{lem:CD}" not in tex
    assert r"the bound of Lemma~\ref{lem:V2}." in tex.replace("\n", " ")


def test_the_pair_with_biases_is_named_as_its_lemma_is_printed():
    """The certificate prints Lemma PB; "Theorem Pβ" (the design's name) is nowhere defined in it."""
    tex = _tex(built("1/2 + sigmoid(3*q1+log(2)) - sigmoid(7*q1)"))
    assert r"\label{lem:PB}" in tex and r"The lower bound is the bound for pairs with biases (Lemma~\ref{lem:PB}" in tex
    assert r"P$\beta$" not in tex and "Pβ" not in tex
