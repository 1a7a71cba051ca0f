"""`headfusion export --coq` for residue classes (LK), class Descartes (CD), V2 at any number of levels, Theorem Pβ and
Lemma P4 (HFLine.v, export/oneline.py).

The quick tests check what the exporter states (bounds, cited axioms, claims left out); the coqc tests (slow) check
that Coq accepts each file with exactly the cited lemma axioms and Coq's axioms of the reals, rejects single-number
tamperings, and rejects certificates forged to state a bound above m*.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from headfusion.export.coq import export_coq

from .conftest import built, claim
from .test_export_coq import REALS, _coqc, assert_coqc_rejects, assert_tamperings_rejected, assumptions, library, needs_coq  # noqa: F401 (library: a fixture)

QUADRUPLE = "sigmoid(q1) + sigmoid(2*q1) + sigmoid(4*q1) + sigmoid(8*q1)"  # LK mod 16: 16 = the product
TILTED = "sigmoid(q1+log(2))+sigmoid(2*q1+log(4))"  # LK on Q′(x/2): 4
PAIR_OF_TRIPLES = "attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])"  # LK mod 3 on two blocks: 9
MIXED = "attn([0, q1, 2*q1], [0, 1, 3]) + sigmoid(q2-q3) + sigmoid(q3-q4) + sigmoid(q2-q4)"  # LK 3 × L5 6 (LM): 18 ≤ m* ≤ 21
LADDER = "sigmoid(q1) + sigmoid(2*q1) + sigmoid(2*q1+log(3))"  # CD: A = 2, class {1, 3}, one level: (2 + 1)·2 = 6
BIASED_LEVELS = "sigmoid(q1+log(3)) + sigmoid(2*q1+log(5)) + sigmoid(4*q1+log(7))"  # V2 with three levels: 8
PAIR = "1/2 + sigmoid(3*q1+log(2)) - sigmoid(7*q1)"  # Theorem Pβ: 4
SCALES = "sigmoid(q1+log(2)) + sigmoid(3*q1+log(8)) + sigmoid(5*q1+log(32))"  # Lemma P4: 4 (upper 8)
LOWEST = ["LB_bezout", "LC_binomial", "LC_product"]  # lowest terms, as the certificates prove them
CORPUS = [  # (spec, lower, upper, the lemma axioms the theorem cites)
    (QUADRUPLE, 16, 16, sorted(LOWEST + ["LK_classes", "LM_terms"])),
    (TILTED, 4, 4, sorted(LOWEST + ["LK_classes", "LM_terms"])),
    (PAIR_OF_TRIPLES, 9, 9, ["LB_bezout", "LC_product", "LK_classes", "LM_terms"]),
    (MIXED, 18, 21, sorted(LOWEST + ["L5_terms", "LK_classes", "LM_terms"])),
    (LADDER, 6, 6, sorted(LOWEST + ["CD_classes", "LM_terms"])),
    (BIASED_LEVELS, 8, 8, sorted(LOWEST + ["LM_terms", "V2_two_adic"])),
    (PAIR, 4, 4, ["P_beta"]),  # Pβ needs no lowest terms
    (SCALES, 4, 8, sorted(LOWEST + ["P4_two_scales"])),
]


@pytest.mark.parametrize(("spec", "lower", "upper", "axioms"), CORPUS)
def test_the_exported_theorem_states_the_bounds_with_its_axioms(spec: str, lower: int, upper: int, axioms: list[str]) -> None:
    cert = built(spec)
    out = export_coq(cert)
    assert (out.lower, out.upper, out.axioms, out.left_out) == (lower, upper, axioms, [])
    assert export_coq(copy.deepcopy(cert)).text == out.text  # deterministic


def test_a_cd_level_not_below_the_modulus_and_a_power_of_t_are_left_out() -> None:
    cert = built(LADDER)
    entry = claim(cert, "lower:two-adic")["evidence"]["shapes"][0]
    entry["levels"] = [[2, 1, 0]]  # v₂(2) = 1 is not below v₂(A) = 1: Lemma CD does not apply
    out = export_coq(cert)
    assert out.lower == 2 and any(cid == "lower:two-adic" and "below" in why for cid, why in out.left_out)
    cert = built(TILTED)
    claim(cert, "lower:classes")["evidence"]["shapes"][0]["tilt"] = [["1/2", 1]]  # a tilt with t: weights e^b, not exported
    out = export_coq(cert)
    assert out.lower == 2 and any(cid == "lower:classes" and "power of t" in why for cid, why in out.left_out)


def test_a_normal_form_that_is_not_the_functions_is_left_out() -> None:
    cert = built(PAIR)
    claim(cert, "lower:pair-biased")["evidence"]["terms"][0][1] = 3  # σ(3q + log 3): no longer F
    out = export_coq(cert)
    assert out.lower == 2 and any(cid == "lower:pair-biased" and "not the function's" in why for cid, why in out.left_out)


# ---------------------------------------------------------------- coqc (slow)

@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("spec", "lower", "upper", "axioms"), CORPUS)
def test_coqc_accepts_the_line_corpus_with_exactly_the_cited_axioms(library: Path, spec: str, lower: int, upper: int,  # noqa: F811
                                                                    axioms: list[str]) -> None:
    out = export_coq(built(spec))
    (library / f"{out.name}.v").write_text(out.text, encoding="utf-8")
    run = _coqc(library, f"{out.name}.v")
    assert run.returncode == 0, run.stderr[-2000:]
    assert assumptions(run.stdout) == REALS | set(axioms)


TAMPER = {  # spec: (anchor, old, new), each one number of the generated file
    QUADRUPLE: [("Lemma lower_classes_e1 ", "16.", "17.")],  # the LK bound
    TILTED: [("apply (LK_classes", "[(1#2)%Q]", "[(1#3)%Q]")],  # the tilt ρ (the class sums of Q′(x/3) differ)
    PAIR_OF_TRIPLES: [("apply (LK_classes", "[[3]]", "[[2]]")],  # the lattice (2 classes, not 3)
    LADDER: [("refine (CD_classes shape0_Q", "shape0_Q 2 [", "shape0_Q 4 ["),  # the modulus A
             ("refine (CD_classes shape0_Q", "[(1, 1%Q)]", "[(2, 1%Q)]"),  # a level (v₂ = 1 is not below v₂(A))
             ("refine (CD_classes shape0_Q", "(2, 3%Q)]", "(2, 1%Q)]"),  # a class weight (two equal roots)
             ("apply (divides_by_ok 1 _ _ [([0], 1%Q); ([2], 4%Q)", "([4], 3%Q)", "([4], 2%Q)")],  # a quotient
    PAIR: [("Definition lower_pair_biased_terms", "LTm 3 2%Q", "LTm 3 3%Q"),  # a weight w
           ("Definition lower_pair_biased_terms", "LTm 7 1%Q", "LTm 6 1%Q"),  # a scale a
           ("Definition lower_pair_biased_c0", "(1#2)%Q", "(1#3)%Q"),  # the constant c0
           ("Theorem lower_pair_biased", "F 4", "F 5")],  # the bound
    SCALES: [("Definition lower_two_scales_terms", "LTm 5 32%Q 1%Q", "LTm 5 32%Q 2%Q"),  # a sign ε
             ("Lemma lower_two_scales_poles", "1%Q", "2%Q")],  # a quotient by 1 + w·x^a
}


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_every_single_number_tampering_of_the_line_lemmas(library: Path) -> None:  # noqa: F811
    assert sum(len(t) for t in TAMPER.values()) >= 5
    for k, (spec, tamperings) in enumerate(TAMPER.items()):
        assert_tamperings_rejected(library, f"L{k}", export_coq(built(spec)).text, tamperings)


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_forged_bounds_from_classes(library: Path) -> None:  # noqa: F811
    # m*(σ(q)+σ(2q)+σ(4q)+σ(8q)) >= 32 (> 16, false), the evidence edited to match: 32 classes mod 32, each sum listed as 1
    cert = built(QUADRUPLE)
    claim(cert, "lower:classes")["evidence"]["shapes"][0].update({"lattice": [[32]], "sums": [[[k], [[0, 1]]] for k in range(32)]})
    claim(cert, "theorem")["evidence"].update({"lower": 32, "minimum": None, "status": "bounds"})
    out = export_coq(cert)
    assert out.lower == 32
    assert_coqc_rejects(library, "ForgedLK", out.text)
    # the ladder: m* >= 8 (> 6, false) by a third class binomial 1 + 3x² whose root is already counted
    cert = built(LADDER)
    claim(cert, "lower:two-adic")["evidence"]["shapes"][0]["class"].append([2, 3, 0])
    out = export_coq(cert)
    assert out.lower == 8
    assert_coqc_rejects(library, "ForgedCD", out.text)


@needs_coq
@pytest.mark.slow
def test_the_one_line_form_rests_on_no_lemma_axiom(library: Path) -> None:  # noqa: F811
    """HFLine.line_sound (the exponential form gives F = c0 + Σ ε·σ) is proved: only Coq's axioms of the reals."""
    (library / "ChkLine.v").write_text("From HF Require Import HFLine.\nPrint Assumptions HFLine.line_sound.\n", encoding="utf-8")
    run = _coqc(library, "ChkLine.v")
    assert run.returncode == 0 and assumptions(run.stdout) <= REALS, run.stdout[-500:]
