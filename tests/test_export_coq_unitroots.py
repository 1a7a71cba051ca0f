"""`headfusion export --coq` for claim lower:unit-roots (Lemma LU, HFLine.LU_unit_roots; export/oneline.py).

The quick tests check what the exporter states (bound, cited axioms, claims left out); the coqc tests (slow) check that
Coq accepts two pair sums with exactly the cited lemma axioms and Coq's axioms of the reals, rejects single-number
tamperings, and rejects certificates forged to claim m* >= 4 for functions with m* = 2 and m* = 3.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from headfusion.export.coq import export_coq
from headfusion.spec.errors import InputError

from .conftest import built, claim
from .test_export_coq import REALS, _coqc, assert_coqc_rejects, assert_tamperings_rejected, assumptions, library, needs_coq  # noqa: F401 (library: a fixture)

ODD_PAIR = "sigmoid(q1) + sigmoid(3*q1)"  # 𝒟 = {2, 6}: 𝒟/3 = {2}, G = x − x² + 2x³ has the term x, 3 ∤ 1
EVEN_PAIR = "sigmoid(q1) + sigmoid(4*q1)"  # 𝒟 = {2, 8}: no g collapses 𝒟, no numerator argument (G is not written)
AXIOMS = ["LB_bezout", "LC_binomial", "LC_product", "LU_unit_roots"]  # lowest terms, as the certificates prove them, and LU


def _lu_forged(spec: str, orders: list[int]) -> dict:
    """The certificate of spec with a lower:unit-roots claim on the given orders and its theorem edited to m* >= 4."""
    cert = built(spec)
    cert["claims"].insert(-1, {"id": "lower:unit-roots", "kind": "lower-bound", "title": "LU", "statement": "",
                               "depends_on": ["coprime", "exp-form", "lemma:LU"], "evidence": {"orders": orders}})
    claim(cert, "theorem")["evidence"].update({"lower": 4, "minimum": None, "status": "bounds", "lower_by": "lower:unit-roots"})
    return cert


@pytest.mark.parametrize("spec", [ODD_PAIR, EVEN_PAIR])
def test_a_pair_sum_exports_m_star_4_by_lemma_lu(spec: str) -> None:
    cert = built(spec)
    out = export_coq(cert)
    assert (out.lower, out.upper, out.axioms, out.left_out) == (4, 4, AXIOMS, [])
    assert "Theorem main : mstar_eq n F 4." in out.text and "LU_unit_roots n F c" in out.text
    assert export_coq(copy.deepcopy(cert)).text == out.text  # deterministic
    G = out.text.split("Definition lower_unit_roots_G : poly := ")[1].split(".\n")[0]
    assert (G == "[]") == (spec == EVEN_PAIR)  # G only where 𝒟/g = {2} for some g


def test_orders_that_do_not_factor_q_or_are_malformed_are_left_out_and_huge_ones_refused() -> None:
    cert = built(ODD_PAIR)
    for orders, why in (([2, 5], "not a unit times"), ([6, 2], "increasing"), ([], "increasing"), ([0, 2], "increasing")):
        claim(cert, "lower:unit-roots")["evidence"]["orders"] = orders
        out = export_coq(cert)
        assert out.lower == 2 and any(cid == "lower:unit-roots" and why in reason for cid, reason in out.left_out), orders
    claim(cert, "lower:unit-roots")["evidence"]["orders"] = [2, 10**6]  # Coq would build Φ_d of degree ~10^6: refused
    with pytest.raises(InputError, match="verification limit"):
        export_coq(cert)


# ---------------------------------------------------------------- coqc (slow)

@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize("spec", [ODD_PAIR, EVEN_PAIR])
def test_coqc_accepts_pair_sums_by_lemma_lu_with_exactly_the_cited_axioms(library: Path, spec: str) -> None:  # noqa: F811
    out = export_coq(built(spec))
    (library / f"{out.name}.v").write_text(out.text, encoding="utf-8")
    run = _coqc(library, f"{out.name}.v")
    assert run.returncode == 0, run.stderr[-2000:]
    assert assumptions(run.stdout) == REALS | set(AXIOMS)


TAMPER = {  # spec: (anchor, old, new), each one number of the generated file
    ODD_PAIR: [("Definition lower_unit_roots_orders", "[2; 6]", "[2; 5]"),  # an order d (Φ_5 does not divide Q′)
               ("Definition lower_unit_roots_orders", "[2; 6]", "[3; 6]"),  # an order d (𝒟/2 = {3})
               ("Definition lower_unit_roots_u", "1%Q", "2%Q"),  # the unit's coefficient
               ("Definition lower_unit_roots_u", "[0]", "[1]"),  # the unit's exponent
               ("Definition lower_unit_roots_G", "([3], 2%Q)", "([3], 3%Q)"),  # a coefficient of G
               ("Definition lower_unit_roots_G", "([1], 1%Q)", "([4], 1%Q)"),  # an exponent of G
               ("Theorem lower_unit_roots", "F 4", "F 5")],  # the bound
    EVEN_PAIR: [("Definition lower_unit_roots_orders", "[2; 8]", "[2; 4]"),  # an order d
                ("Definition lower_unit_roots_g", "[1%Q]", "[2%Q]")],  # the block's generator
}


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_every_single_number_tampering_of_lemma_lu(library: Path) -> None:  # noqa: F811
    assert sum(len(t) for t in TAMPER.values()) >= 5
    for k, (spec, tamperings) in enumerate(TAMPER.items()):
        assert_tamperings_rejected(library, f"U{k}", export_coq(built(spec)).text, tamperings)


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_lemma_lu_forged_to_state_a_bound_above_m_star(library: Path) -> None:  # noqa: F811
    # σ(q): m* = 2; Q′ = 1 + x = Φ_2, 𝒟/1 = {2} and G = (1 + x)·x/(1 + x) = x has no term off (L/2)Z = Z
    out = export_coq(_lu_forged("sigmoid(q1)", [2]))
    assert (out.lower, out.upper) == (4, 2) and "lower:unit-roots" in out.exported
    assert_coqc_rejects(library, "ForgedLU2", out.text)
    # attn([0, q, 2q], [0, 1, 3]): m* = 3; Q′ = 1 + x + x² = Φ_3 and 𝒟/1 = {3} (a positive trinomial vanishes on its roots)
    out = export_coq(_lu_forged("attn([0, q1, 2*q1], [0, 1, 3])", [3]))
    assert (out.lower, out.upper) == (4, 3) and "lower:unit-roots" in out.exported
    assert_coqc_rejects(library, "ForgedLU3", out.text)


EDGE_CASES = """From Coq Require Import List ZArith QArith.
From HF Require Import HFPoly HFLine.
Import ListNotations.
(* F = 1/2 (P' = 0, Q' = 1, coprime): with 𝒟 = [] every other clause of lu_ok holds, and m* = 1; the check refuses it. *)
Goal lu_ok [] [([0%Z], 1%Q)] [([0%Z], 1%Q)] [] [] = false. Proof. vm_compute. reflexivity. Qed.
(* σ(q) + σ(3q): an order listed twice is refused; the same data times −1 (a unit with a negative coefficient) passes. *)
Goal lu_ok [([1%Z], 1%Q); ([2%Z], (-1)%Q); ([3%Z], 2%Q)] [([0%Z], 1%Q); ([3%Z], 1%Q)] [([0%Z], 1%Q)]
  [([1%Z], 1%Q); ([2%Z], (-1)%Q); ([3%Z], 2%Q)] [2; 2; 6]%Z = false. Proof. vm_compute. reflexivity. Qed.
Goal lu_ok [([1%Z], (-1)%Q); ([2%Z], 1%Q); ([3%Z], (-2)%Q)] [([0%Z], (-1)%Q); ([3%Z], (-1)%Q)] [([0%Z], (-1)%Q)]
  [([1%Z], 1%Q); ([2%Z], (-1)%Q); ([3%Z], 2%Q)] [2; 6]%Z = true. Proof. vm_compute. reflexivity. Qed.
(* cyclo d is Φ_d: checked by multiplying back for every divisor of 2 · 3 · 5 · 7 and of 2^5 · 3^2 = 288. *)
Goal cyclo_ok 210 = true /\\ cyclo_ok 288 = true. Proof. split; vm_compute; reflexivity. Qed.
"""


@needs_coq
@pytest.mark.slow
def test_lu_ok_on_the_referees_edge_cases(library: Path) -> None:  # noqa: F811
    """docs/coq.md's reading: an empty 𝒟 and a repeated order are refused, a negative unit is accepted, cyclo is Φ_d."""
    (library / "ChkLU.v").write_text(EDGE_CASES, encoding="utf-8")
    run = _coqc(library, "ChkLU.v")
    assert run.returncode == 0, run.stderr[-1000:]
