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
