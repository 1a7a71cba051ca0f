"""Issue 34 (round 5): the referee's list — certificate and console wording that states what is proved by what."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_the_cycle_family_console_speaks_lemma_lf_not_copies(capsys, tmp_path):
    """C_n is no set of disjoint copies and its parameter is n: certify and verify name LF, not "LP over d copies"."""
    code, out, err = run_cli(capsys, "certify", str(ROOT / "proofs" / "tournament_cycle.toml"), "--every-d", "--no-pdf",
                             "--out", str(tmp_path), "-q")
    assert code == 0, err
    assert "for every n ≥ 3 (Lemma LF" in out and "block bounds" not in out and "disjoint copies" not in out, out
    assert "Lemma LF for every n" in out
    code, out, err = run_cli(capsys, "verify", str(tmp_path / "tournament_cycle_every_n.json"))
    assert code == 0 and "Lemma LF for every n" in out and "disjoint copies" not in out, out


def test_a_family_of_disjoint_copies_still_speaks_lemma_lp(capsys, tmp_path):
    code, out, err = run_cli(capsys, "certify", "W", "--every-d", "--no-pdf", "--out", str(tmp_path), "-q")
    assert code == 0 and "Lemma LP over d disjoint copies" in out, out


def _tex(capsys, tmp_path: Path, spec: str, *more: str) -> str:
    code, out, err = run_cli(capsys, "certify", spec, *more, "--no-pdf", "--out", str(tmp_path), "--name", "c", "-q")
    assert code == 0, err
    return (tmp_path / "c.tex").read_text(encoding="utf-8")


TRIANGLE_AND_PAIR = "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q4) + sigmoid(3*q4)"


def test_a_face_function_bounded_by_lu_prints_its_instance(capsys, tmp_path):
    """Table 5 said "no positive binomial or trinomial is divisible by Q′", false for Q′ = 1 + x³; the bound 4 is LU's
    numerator case, and its instance is now printed in the row."""
    tex = _tex(capsys, tmp_path, TRIANGLE_AND_PAIR)
    row = next(line for line in tex.splitlines() if line.startswith(r"1 & $\sigma(q_{1}) + \sigma(3q_{1})$ & $4$"))
    assert "no positive binomial or trinomial" not in tex
    assert r"\Phi_{2}\Phi_{6}" in row and r"$\{2\}$ for $g=3$" in row and "the numerator case" in row, row


def test_the_proof_in_brief_says_how_each_blocks_vertices_are_certified(capsys, tmp_path):
    """Block 1 (the triangle) is counted by LG, block 2 has witnesses: "every vertex is certified by a witness" was false."""
    tex = _tex(capsys, tmp_path, TRIANGLE_AND_PAIR)
    brief = tex[tex.index("Write $F=P'/Q'$"):].split("\n", 1)[0]
    assert "Each vertex $p$ of each" not in brief
    assert r"block~1's by Lemma~\ref{lem:LG}" in brief and r"block~2's by integer \emph{witnesses}" in brief, brief


def test_the_structural_bounds_include_lemma_lu(capsys, tmp_path):
    """σ(q1) + σ(3q1) + σ(5q1): "every head has at least 4 atoms" (LU), then "the structural bounds stop at 2"."""
    tex = _tex(capsys, tmp_path, "sigmoid(q1)+sigmoid(3*q1)+sigmoid(5*q1)")
    assert "The structural bounds stop at $4$" in tex and "stop at $2$" not in tex
