"""Theorem K (DESIGN §9 "K_4 beyond 28", issue 31 item 4): 32 ≤ m* for every tournament function of K_4.

The claim `lower:theorem-k` is checked by the kernel from the model (kernel/tournament4.py); LD carries it to K_5
(five K_4 faces: 160).  Forgeries: the claim on the diamond, on a K_4 with a scaled or shifted edge, a changed bound,
a wrong face identification or margin — each rejected by `verify` with exit 1 naming the claim.
"""

from __future__ import annotations

import copy
import json
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from headfusion.algebra.expform import exponential_form
from headfusion.bounds.tournament4 import theorem_k_bound
from headfusion.kernel.statements import LEMMAS
from headfusion.proof.statement import verify_certificate
from headfusion.proof.analysis import analyze
from headfusion.spec.load import load_spec

from .conftest import built, claim, failures, run_cli, without_grid_lemmas

TRANSITIVE = "sigmoid(q1-q2) + sigmoid(q1-q3) + sigmoid(q1-q4) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q3-q4)"
K4S = {  # orientations, renamed vertices (q2, q3, q5, q7 of R^7), nonzero head scales: the hypotheses the proof uses
    "transitive": TRANSITIVE,
    "a 3-cycle and a sink": "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q3-q1) + sigmoid(q1-q4) + sigmoid(q2-q4) + sigmoid(q3-q4)",
    "renamed": "sigmoid(q2-q3) + sigmoid(q5-q2) + sigmoid(q2-q7) + sigmoid(q3-q5) + sigmoid(q7-q3) + sigmoid(q5-q7)",
    "scales": "2*sigmoid(q1-q2) + sigmoid(q1-q3) - sigmoid(q1-q4) + sigmoid(q2-q3) + 1/3*sigmoid(q4-q2) + sigmoid(q3-q4) + 5",
}
DIAMOND = "sigmoid(q1-q2) + sigmoid(q1-q3) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q3-q4)"
SCALED = TRANSITIVE.replace("sigmoid(q1-q2)", "sigmoid(2*q1-2*q2)")
SHIFTED = TRANSITIVE.replace("sigmoid(q1-q2)", "sigmoid(q1-q2+1)")





@pytest.fixture(scope="module")
def k4() -> dict:
    with without_grid_lemmas():
        return built(TRANSITIVE)


def rejected_by_verify(capsys, tmp_path: Path, cert: dict, cid: str, *words: str) -> None:
    """`headfusion verify` exits 1 with a failed row naming `cid` and the words."""
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(cert))
    code = run_cli(capsys, "verify", str(path))[0]
    assert code == 1
    message = failures(cert).get(cid)
    assert message is not None and all(w in message for w in words), failures(cert)


def grafted(cert: dict, k4: dict) -> dict:
    """`cert` with K_4's lower:theorem-k claim inserted before its theorem, and the lemmas it cites that `cert` lacks."""
    out = copy.deepcopy(cert)
    lemmas = {c["id"]: c for c in k4["claims"] + out["claims"] if c["kind"] == "lemma"}
    rest = [c for c in out["claims"] if c["kind"] != "lemma"]
    ordered = [lemmas[f"lemma:{i}"] for i in LEMMAS if f"lemma:{i}" in lemmas]  # cited lemmas first, in the kernel's order
    out["claims"] = ordered + rest[:-1] + [copy.deepcopy(claim(k4, "lower:theorem-k")), rest[-1]]
    return out


# -- the theorem on K_4, in several orientations --------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(K4S))
def test_every_k4_gets_32_checked_by_the_kernel(name):
    with without_grid_lemmas():
        cert = built(K4S[name])
    assert verify_certificate(cert).ok, failures(cert)
    assert (cert["summary"]["lower_bound"], cert["summary"]["upper_bound"]) == (32, 38)
    assert cert["summary"]["lower_bound_claim"] == "lower:theorem-k"
    ev = claim(cert, "lower:theorem-k")["evidence"]
    assert len(ev["faces"]) == 8 and [sign for ((_, sign),), _ in ev["faces"]] == [1] * 4 + [-1] * 4
    assert all(margin == 1 for _, _, margin in ev["pairs"]) and len(ev["pairs"]) == 12  # 5 < 3 + 3 and −1 < 0 + 0
    used = {v for ((v, _),), _ in ev["faces"]}
    for ((v, _),), edges in ev["faces"]:  # each face function: the triangle on the other three vertices
        assert sorted(map(tuple, edges)) == sorted(combinations(sorted(used - {v}), 2))


def test_the_cli_verifies_k4(capsys, tmp_path, k4):
    path = tmp_path / "k4.json"
    path.write_text(json.dumps(k4))
    code, out, err = run_cli(capsys, "verify", str(path))
    assert code == 0 and "32 ≤ m*(F) ≤ 38" in out, (out, err)
    assert {"lemma:K", "lemma:LN", "lemma:LH", "lemma:LD"} <= {c["id"] for c in k4["claims"]}


def test_analyze_reports_theorem_k_and_k5_through_ld():
    """Theorem K's 32 is still reported beside K35's 35, which gives the bound; LD carries 35 to K_5 (5·35)."""
    k4 = analyze(load_spec("proofs/tournament_complete.toml", 4), list_atoms=False)
    assert (k4["lower_bound"], k4["upper_bound"], k4["lower_bounds"]["K"], k4["lower_bounds"]["K35"]) == (35, 38, 32, 35)
    assert k4["theorem_k"]["bound"] == 32
    k5 = analyze(load_spec("proofs/tournament_complete.toml", 5), list_atoms=False)
    assert k5["lower_bound"] >= 175 and k5["upper_bound"] == 291
    assert k5["disjoint_faces"]["bound"] == 175 and {f["lemma"] for f in k5["disjoint_faces"]["faces"]} == {"K35"}
    with without_grid_lemmas():
        k5 = analyze(load_spec("proofs/tournament_complete.toml", 5), list_atoms=False)
    assert k5["disjoint_faces"]["bound"] == 160 and {f["lemma"] for f in k5["disjoint_faces"]["faces"]} == {"K"}


@pytest.mark.slow
def test_k5_certificate_carries_theorem_k_in_its_face_table():
    with without_grid_lemmas():
        cert = built("proofs/tournament_complete.toml", 5)
    assert verify_certificate(cert).ok and cert["summary"]["lower_bound"] == 160
    entries = claim(cert, "lower:faces")["evidence"]["functions"]
    assert {e["by"] for e in entries} == {"lower:theorem-k"}
    assert all("lower:theorem-k" in [cid for cid, _ in e["claims"]] for e in entries)
    assert "lemma:K" in claim(cert, "lower:faces")["depends_on"]


# -- forgeries ------------------------------------------------------------------------------------------------


def test_the_claim_on_the_diamond_is_rejected(capsys, tmp_path, k4):
    rejected_by_verify(capsys, tmp_path, grafted(built(DIAMOND), k4), "lower:theorem-k", "not K_4")


@pytest.mark.parametrize("text, words", [(SCALED, "not a multiple of σ(q_i − q_j)"), (SHIFTED, "not a multiple of σ(q_i − q_j)")])
def test_the_claim_on_a_scaled_or_shifted_edge_is_rejected(capsys, tmp_path, k4, text, words):
    """σ(2(q1 − q2)) and σ(q1 − q2 + 1): Q′ has x_1² + x_2² or x_1 + e·x_2, not x_1 + x_2 — the proof does not cover them."""
    rejected_by_verify(capsys, tmp_path, grafted(built(text), k4), "lower:theorem-k", words)


def test_a_changed_bound_is_rejected(capsys, tmp_path, k4):
    cert = copy.deepcopy(k4)
    claim(cert, "lower:theorem-k")["statement"] = claim(cert, "lower:theorem-k")["statement"].replace("32", "33")
    rejected_by_verify(capsys, tmp_path, cert, "lower:theorem-k", "statement differs")
    cert = copy.deepcopy(k4)
    claim(cert, "theorem")["evidence"]["lower"] = 33
    assert "theorem" in failures(cert)


@pytest.mark.parametrize("where", ["triangle", "direction", "margin", "missing face"])
def test_a_wrong_face_identification_or_margin_is_rejected(capsys, tmp_path, k4, where):
    cert = copy.deepcopy(k4)
    ev = claim(cert, "lower:theorem-k")["evidence"]
    if where == "triangle":
        ev["faces"][0][1] = ev["faces"][1][1]  # the face along 1_1 named with the triangle of the face along 1_2
    elif where == "direction":
        ev["faces"][4][0] = [[1, 1]]  # a sink said to be a source
    elif where == "margin":
        ev["pairs"][0][2] = 2
    else:
        del ev["faces"][7]
    rejected_by_verify(capsys, tmp_path, cert, "lower:theorem-k", "differ from those recomputed")


# -- the theorem is applied exactly where its hypotheses hold ---------------------------------------------------


ALL = [(i, j) for i in range(5) for j in range(i + 1, 5)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(ALL), min_size=1, max_size=10, unique=True), st.lists(st.booleans(), min_size=10, max_size=10))
def test_theorem_k_only_on_k4_and_never_above_the_upper_bound(edges, flips):
    """Random graphs on at most 5 vertices, random orientations: 32 exactly when the edges are the six of a K_4 (one block),
    and then the construction has 38 atoms ≥ 32."""
    text = " + ".join(f"sigmoid(q{j + 1}-q{i + 1})" if flip else f"sigmoid(q{i + 1}-q{j + 1})" for (i, j), flip in zip(edges, flips))
    form = exponential_form(load_spec(text).model)
    used = sorted({v for e in edges for v in e})
    is_k4 = len(used) == 4 and sorted(edges) == list(combinations(used, 2))
    assert theorem_k_bound(form) == (32 if is_k4 else None), text
    if is_k4:
        assert form.upper_bound == 38
