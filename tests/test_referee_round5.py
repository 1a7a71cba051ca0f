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


def test_lemma_lu_cites_l2_and_the_pair_family_says_what_is_checked(capsys, tmp_path):
    from headfusion.kernel.statements import LEMMAS

    assert "L2" in LEMMAS["LU"][1]
    tex = _tex(capsys, tmp_path, "sigmoid(a*q1) + sigmoid(b*q1)", "--every", "a,b")
    assert r"by Lemma~\ref{lem:L2} its keys may be taken in the lattice" in tex
    assert "What the verifier checks, and what rests on the printed proof." in tex
    assert r"the shape $\sigma(aq_1)+\sigma(bq_1)$ with $a$ and $b$ as symbols" in tex and "its lift" in tex
    assert r"it rests on the proof of Lemma~\ref{lem:TP} (Theorem P)" in tex


def test_a_family_theorem_explains_its_checked_members_and_counts_exactly(capsys, tmp_path):
    tex = _tex(capsys, tmp_path, str(ROOT / "proofs" / "tournament_cycle.toml"), "--every-d")
    theorem = tex[tex.index(r"\begin{theorem}"):tex.index(r"\end{theorem}")]
    assert "Let $F$ be the function of Table" not in theorem
    assert r"stop at $n=8$" in tex and r"($\texttt{max}=17$)" in tex and "no hypothesis of the theorem" in tex
    assert "has at least $6$ vertices" not in tex and "has exactly $6$ vertices (counted by" in tex


def test_orientation_counts_come_with_the_chromatic_polynomial(capsys, tmp_path):
    tex = _tex(capsys, tmp_path, str(ROOT / "proofs" / "tournament_complete.toml"), "--d", "4")
    assert r"$24$ vertices ($=|\chi_{G_B}(-1)|$" in tex and r"\chi_{G_B}(k)=k^{4}-6k^{3}+11k^{2}-6k" in tex
    from headfusion.render.latex import render_latex

    from .test_render import k4_by_faces

    faces = render_latex(k4_by_faces())  # K_4 by its triangle faces (LD): Theorem K now bounds it without them
    assert r"$6$ acyclic orientations ($=|\chi_G(-1)|$, $\chi_G(k)=k^{3}-3k^{2}+2k$)" in faces


def test_the_chromatic_polynomial_gives_the_kernels_count():
    from itertools import combinations
    import random

    from headfusion.kernel.graphs import acyclic_orientations
    from headfusion.render.chromatic import at_minus_one, chromatic

    rng = random.Random(34)
    for _ in range(150):
        n = rng.randint(1, 7)
        edges = [e for e in combinations(range(n), 2) if rng.random() < 0.5]
        chi = chromatic(n, edges)
        assert at_minus_one(chi) == acyclic_orientations(n, edges) and sum(chi) == (1 if not edges else 0)  # χ(1) = 0 with an edge


def test_the_construction_table_breaks_across_pages(capsys, tmp_path):
    """Near-empty page 9 of the diamond and of K_5: the 24-atom construction table was an unbreakable tabular pushed to the
    next page (PDFs rendered and read: page 9 is now full); it is a longtable."""
    tex = _tex(capsys, tmp_path, str(ROOT / "proofs" / "tournament_diamond.toml"), "--no-search")
    table = tex[tex.index(r"\text{lattice point} & \text{logit }"):].split(r"\end{longtable}")[0]
    assert r"\midrule\endhead" in table and r"\begin{tabular}" not in table


def test_lemma_le_speaks_of_a_spanning_tree_on_the_listed_vertices():
    from headfusion.kernel.statements import LEMMAS

    statement = LEMMAS["LE"][2]
    assert "spanning tree of rigid edges on the given vertices" in statement and "whose vertices are exactly the given ones" in statement
