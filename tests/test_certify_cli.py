"""`headfusion certify` end to end: files, determinism, verification, refusal of bad input."""

from __future__ import annotations

import json

import pytest

from .conftest import run_cli


def test_certify_w3_is_deterministic_and_verifies(tmp_path, monkeypatch, capsys):
    outputs = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        monkeypatch.chdir(tmp_path / run)
        code, out, err = run_cli(capsys, "certify", "W", "--d", "3")
        assert code == 0, err
        files = {p.name: p.read_bytes() for p in (tmp_path / run / "out").iterdir()}
        assert {"W_d3.json", "W_d3.tex", "W_d3.m7.smt2"} <= set(files)
        outputs.append(files)
    for name in ("W_d3.json", "W_d3.tex"):
        assert outputs[0][name] == outputs[1][name], name  # same input, byte-identical output
    cert = json.loads(outputs[0]["W_d3.json"])
    assert cert["summary"]["minimum"] == 8 and cert["summary"]["status"] == "proved"
    assert any(c["id"] == "search:m7" and c["evidence"]["status"] == "unsat" for c in cert["claims"])
    code, out, _ = run_cli(capsys, "verify", str(tmp_path / "a" / "out" / "W_d3.json"))
    assert code == 0 and "all claims re-check" in out


@pytest.mark.parametrize("argv", [["certify", "sigmoid(q1*q2)"], ["certify", "W", "--d", "0"], ["certify", "W"],
                                  ["certify", "W", "--d", "3", "--search-timeout", "0"]])
def test_certify_bad_input_writes_nothing(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []



def test_certify_without_latex_engine(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-such-bin"))
    code, out, err = run_cli(capsys, "certify", "W", "--d", "2", "--no-search")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["W_d2.json", "W_d2.tex"]
    assert "no PDF" in out and "apt-get install" in out
    code, out, err = run_cli(capsys, "certify", "W", "--d", "3", "--pdf", "--out", "pdf-out")
    assert code == 2 and "no LaTeX engine" in err
    assert not (tmp_path / "pdf-out").exists()
