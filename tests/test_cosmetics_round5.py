"""Issue 34 (round 5): a new user's cosmetic list, one test per one-line fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import headfusion as hf

from .conftest import HANG_GUARD, run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_the_sympy_api_answers_a_bare_exp_with_the_sigmoid_hint():
    sp = pytest.importorskip("sympy")
    with pytest.raises(hf.InputError, match=r"write sigmoid\(L\) for 1/\(1 \+ exp\(-L\)\)"):
        hf.analyze(sp.exp(sp.Symbol("q1")))


def test_the_api_asks_for_d_in_its_own_words():
    with pytest.raises(hf.InputError, match=r"needs d \(e\.g\. hf\.analyze\('W', d=3\)\)") as caught:
        hf.analyze("W")
    assert "--d" not in str(caught.value)


def test_family_titles_are_written_out_for_small_d(capsys):
    assert hf.analyze("W", 1).title == "W_1(q) = sigmoid(q_1)"
    assert hf.analyze("tanh-sum", 2).title == "T_2(q) = tanh(q_1) + tanh(q_2)"
    assert hf.analyze("W", 5).title == "W_5(q) = sigmoid(q_1) + ... + sigmoid(q_5)"


def test_text_reprs_summarise_instead_of_dumping_every_record(tmp_path):
    exploration = hf.explore("W", "1..3")
    assert repr(exploration) == "Exploration(3 rows, d = 1..3, answers: proved, 0 files)"
    hf.certify("W", 2, out=tmp_path)
    verification = hf.verify(tmp_path / "W_d2.json")
    assert repr(verification).startswith("Verification(ok=True, claims: ") and "checked" in repr(verification)
    assert "'message'" not in repr(verification) and len(repr(verification)) < 120


def test_a_json_error_is_json_on_stdout_too(capsys):
    code, out, err = run_cli(capsys, "analyze", "sigmoid(q1", "--json")
    assert code == 2 and err.startswith("headfusion: error: malformed expression") and err.count("\n") == 1
    assert json.loads(out) == {"error": err.removeprefix("headfusion: error: ").rstrip("\n"), "exit_code": 2}
    code, out, err = run_cli(capsys, "analyze", "sigmoid(q1")  # without --json: stdout stays empty
    assert code == 2 and out == ""


def test_verify_json_states_the_theorem_in_plain_text(capsys, tmp_path):
    assert run_cli(capsys, "certify", "W", "--d", "2", "--no-pdf", "--out", str(tmp_path), "-q")[0] == 0
    code, out, err = run_cli(capsys, "verify", str(tmp_path / "W_d2.json"), "--json")
    data = json.loads(out)
    assert code == 0 and "$" not in data["theorem"] and "\\" not in data["theorem"] and "m*(F) = 4" in data["theorem"]
    assert "$" in data["theorem_latex"]


def test_explore_names_its_parameter_and_its_range(capsys, tmp_path):
    """No --d is typed in explore: a value out of the spec's range is named as a value of --range, up front; the first
    column of a graph spec is its parameter n."""
    code, out, err = run_cli(capsys, "explore", str(ROOT / "proofs" / "tournament_complete.toml"), "--range", "3..7",
                             "--out", str(tmp_path))
    assert code == 2 and "--d" not in err and "the value 7 of --range 3..7 is outside the range" in err, err
    code, out, err = run_cli(capsys, "explore", str(ROOT / "proofs" / "tournament_cycle.toml"), "--range", "3..4",
                             "--out", str(tmp_path), "-q")
    assert code == 0 and out.splitlines()[0].split()[0] == "n", out


def test_explore_no_pdf_writes_no_plot_image(capsys, tmp_path):
    code, out, err = run_cli(capsys, "explore", "W", "--range", "1..2", "--out", str(tmp_path), "--no-pdf", "-q")
    assert code == 0 and "no plot image" not in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["W.explore.csv", "W.explore.json", "W.explore.pgf.tex"]


def test_k4_at_35_names_which_box_it_counts(capsys):
    """Two box sizes for K_4 at m = 35, the first m Theorem K35 leaves open (1,000,000 and 1,092,727): each message names its box."""
    code, out, err = run_cli(capsys, "search", str(ROOT / "proofs" / "tournament_complete.toml"), "--d", "4", "--atoms", "35",
                             "--refute")
    assert code == 2 and "the box of the cofactor g (Lemma L3) has 1,000,000 points" in err and "key range" in err, err
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "343,000" not in readme and "1,000,000 points" in readme and "1,092,727" in readme


def test_a_folder_named_like_a_spec_is_called_a_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").mkdir()
    code, out, err = run_cli(capsys, "analyze", "mine.toml")
    assert code == 2 and "mine.toml is a folder, not a spec file" in err and "not found" not in err, err


def test_the_bare_worker_hint_fits_a_clone_install():
    """headfusion is installed from a clone here (not from PyPI): the hint says how to install this clone on a worker."""
    from headfusion.solving.workers import install_command

    hint = install_command("0.1.0")
    assert hint.startswith(f"pip install -e '{ROOT}[cluster]'") and "==" not in hint


def test_a_supplied_refutation_leaves_no_solver_below_it(capsys, tmp_path, monkeypatch):
    """σ(q1) + σ(3q1) + σ(5q1): LU proves 4, a tree at m = 7 proves 8; with that tree supplied, z3 ran at m = 4, 5, 6 first."""
    import time

    from headfusion.algebra.expform import combined_polys, exponential_form
    from headfusion.solving.refute import refute
    from headfusion.spec.load import load_spec

    spec = "sigmoid(q1)+sigmoid(3*q1)+sigmoid(5*q1)"
    P, Q = combined_polys(exponential_form(load_spec(spec).model))
    found = refute(P.terms, Q.terms, 7, deadline=time.time() + HANG_GUARD, vertices=2)
    assert found.status == "unsat"
    (tmp_path / "r.json").write_text(json.dumps({"status": "unsat", "refutation": {"atoms": 7, **found.evidence}}))
    monkeypatch.chdir(tmp_path)
    import headfusion.solving.solver as solver

    asked = []
    real = solver.search
    monkeypatch.setattr(solver, "search", lambda form, m, **kw: asked.append(m) or real(form, m, **kw))
    code, out, err = run_cli(capsys, "certify", spec, "--refutation", "r.json", "--out", "o", "--no-pdf", "-q")
    assert asked == [], asked  # z3 is not asked below (or at) the supplied tree
    assert code == 0, err
    cert = json.loads(next((tmp_path / "o").glob("*.json")).read_text())
    assert [c["id"] for c in cert["claims"] if c["id"].startswith("search:")] == ["search:m7"]
    assert cert["summary"]["minimum"] == 8 and not list((tmp_path / "o").glob("*.smt2"))


def test_a_tiny_box_is_refuted_here_without_a_local_cluster(capsys, monkeypatch):
    pytest.importorskip("distributed")
    from headfusion.solving import distribute

    monkeypatch.setattr(distribute, "distributed_refute", lambda *a, **k: pytest.fail("a LocalCluster for a 3-point box"))
    code, out, err = run_cli(capsys, "search", "sigmoid(q1) - 3*sigmoid(3*q1)", "--atoms", "3", "--refute")
    assert code == 0 and "UNSAT" in out and "in this process (a box of 3 points)" in out, (out, err)


def test_a_mistyped_toml_section_gets_did_you_mean(capsys, tmp_path):
    text = (ROOT / "proofs" / "sigmoid_sum.toml").read_text(encoding="utf-8").replace("[parameter]", "[paramter]")
    (tmp_path / "typo.toml").write_text(text, encoding="utf-8")
    code, out, err = run_cli(capsys, "analyze", str(tmp_path / "typo.toml"), "--d", "2")
    assert code == 2 and "unknown section 'paramter'" in err and "did you mean 'parameter'?" in err, err


def test_the_logistic_form_reads_as_a_plain_sigmoid():
    sp = pytest.importorskip("sympy")
    q1, q2 = sp.symbols("q1 q2")
    assert hf.analyze(1 / (1 + sp.exp(-2 * q1))).title == "sigmoid(2*q1)"  # was sigmoid(-(-2*q1))
    assert hf.analyze(1 / (1 + sp.exp(q2 - q1))).title == "sigmoid(q1 - q2)"


def test_atlas_points_are_named_by_their_values_and_the_title_is_mathematics(capsys, tmp_path):
    code, out, err = run_cli(capsys, "atlas", "sigmoid(a*q1) + sigmoid(b*q1)", "a=1..1", "b=a+1..3", "--out", str(tmp_path),
                             "--no-pdf", "-q")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "points").iterdir()) == ["a1_b2.json", "a1_b2.tex", "a1_b3.json", "a1_b3.tex"]
    tex = (tmp_path / "atlas.tex").read_text(encoding="utf-8")
    assert r"\section*{Atlas: $\sigma(a\cdot q_{1})+\sigma(b\cdot q_{1})$ over a=1..1, b=a+1..3}" in tex
    assert run_cli(capsys, "atlas", "sigmoid(a*q1) + sigmoid(b*q1)", "a=1..1", "b=a+1..3", "--out", str(tmp_path),
                   "--no-pdf", "-q")[0] == 0  # a rerun reuses the points by their new names
    assert "2 from an earlier run" in run_cli(capsys, "atlas", "sigmoid(a*q1) + sigmoid(b*q1)", "a=1..1", "b=a+1..3",
                                              "--out", str(tmp_path), "--no-pdf")[1]
