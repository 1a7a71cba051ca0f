"""Issue 41, item 12: the theorem for every d of a family whose block is decided by Lemma LU.

The block F = σ(q1) + σ(3q1) has m*(F) = 4 by Lemma LU (which uses the numerator P′), but only bounds on every
nonnegative multiple of Q′ multiply over disjoint blocks; the certificate says which, why the others do not, and states
d = 1 exactly from the block lemma (a claim the kernel checks and the theorem for every d does not use).
"""

from __future__ import annotations

import json

from headfusion.kernel.verify import verify_certificate

from .conftest import claim, run_cli

FAMILY = """description = "each block decided by Lemma LU"

[parameter]
name = "d"
min = 1
max = 1000
default = 2
description = "blocks"

[function]
sum = "j = 1..d"
term = "sigmoid(q{j}) + sigmoid(3*q{j})"
"""


def test_every_d_with_a_unit_root_block_states_d_equal_1_and_says_what_multiplies(capsys, tmp_path) -> None:
    spec = tmp_path / "lu_blocks.toml"
    spec.write_text(FAMILY)
    code, out, err = run_cli(capsys, "certify", str(spec), "--every-d", "--no-pdf", "--out", str(tmp_path / "out"), "--json", "-q")
    assert code == 0, err
    answered = json.loads(out)
    cert = json.loads((tmp_path / "out" / "lu_blocks_every_d.json").read_text())
    assert verify_certificate(cert).ok
    assert (cert["summary"]["lower_bound"], cert["summary"]["upper_bound"]) == (2, 4)  # the theorem multiplies L5 only
    assert claim(cert, "lower:unit-roots")["kind"] == "lower-bound"  # checked, for d = 1
    assert "lower:unit-roots" not in claim(cert, "theorem")["depends_on"]
    assert "d = 1 is decided by the block alone: m*(F_1) = 4 by Lemma LU" in answered["answer"], answered["answer"]
    assert "m*(F) itself" not in answered["answer"]
    tex = (tmp_path / "out" / "lu_blocks_every_d.tex").read_text()
    assert r"For $d=1$ there is no gap" in tex and r"$m^*(F_1)=4$ exactly" in tex
    assert r"and $m^*=4$ for $d=1$" in tex  # the corollary under the theorem
    assert r"Together, $m^*(F)=4$." in tex and "the exact value is not decided" not in tex
    assert "Only bounds on the number of terms of every nonnegative multiple of $Q'$ multiply" in tex
    assert "The other lemmas (LU, LE, LG, LD, K and R)" in tex and "numerator $P'$" in tex
    assert "No head with $2$ and $3$ atoms has been excluded" not in tex  # false: Lemma LU excludes them for F


def test_a_family_whose_block_lemmas_all_multiply_is_unchanged(capsys, tmp_path) -> None:
    """W: the block's bound multiplies (L5), the bounds meet, no sentence about d = 1 or what multiplies is added."""
    code, out, err = run_cli(capsys, "certify", "W", "--every-d", "--no-pdf", "--out", str(tmp_path), "--json", "-q")
    assert code == 0, err
    tex = next(tmp_path.glob("*.tex")).read_text()
    assert "no gap" not in tex and "Only bounds on the number of terms" not in tex
