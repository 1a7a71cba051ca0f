"""`headfusion certify` end to end: files, determinism, verification, refusal of bad input."""

from __future__ import annotations

import json

import pytest

from .conftest import run_cli


@pytest.mark.parametrize("pdf", [pytest.param([], marks=pytest.mark.slow, id="with-pdf"), pytest.param(["--no-pdf"], id="no-pdf")])
def test_certify_w3_is_deterministic_and_verifies(tmp_path, monkeypatch, capsys, pdf):
    """Twice the same command, byte-identical .json and .tex (the quick suite skips the two LaTeX runs: test_render compiles W3)."""
    outputs = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        monkeypatch.chdir(tmp_path / run)
        code, out, err = run_cli(capsys, "certify", "W", "--d", "3", *pdf)
        assert code == 0, err
        files = {p.name: p.read_bytes() for p in (tmp_path / run / "out").iterdir()}
        assert {"W_d3.json", "W_d3.tex"} <= set(files) and not [f for f in files if f.endswith(".smt2")]
        outputs.append(files)
    for name in ("W_d3.json", "W_d3.tex"):
        assert outputs[0][name] == outputs[1][name], name  # same input, byte-identical output
    cert = json.loads(outputs[0]["W_d3.json"])
    assert cert["summary"]["minimum"] == 8 and cert["summary"]["status"] == "proved"
    # the Newton bound meets the construction: nothing is searched, no tree, no testimony
    assert not [c for c in cert["claims"] if c["id"].startswith(("search:", "testimony:", "unknown:"))]
    code, out, _ = run_cli(capsys, "verify", str(tmp_path / "a" / "out" / "W_d3.json"))
    assert code == 0 and "certificate verified" in out and "testimony" not in out


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


FOUNDATION_AND_SEARCH_FUNCTIONS = [
    "sigmoid(q1) + sigmoid(q1)",
    "sigmoid(q1) + tanh(q1)",
    "attn([q1, 2*q2, 0], [1, -1, 0]) + sigmoid(q2)",
    "sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2 + 1)",
    "sigmoid(q1) + sigmoid(2*q1)",
    "tanh(q1) + tanh(q2)",
    "attn([0, q1, 2*q1], [0, 1, 3])",
]


@pytest.mark.parametrize("spec", [pytest.param(s, marks=[pytest.mark.slow] * (i % 3 != 0)) for i, s in enumerate(FOUNDATION_AND_SEARCH_FUNCTIONS)])
def test_functions_of_the_issues_certify_compile_and_verify(tmp_path, monkeypatch, capsys, spec):
    from headfusion.render.files import latex_engine

    if latex_engine() is None:
        pytest.skip("no LaTeX engine (.ci/run installs one)")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "certify", spec, "--pdf", "--search-timeout", "30")
    assert code == 0, err
    pdf = next((tmp_path / "out").glob("*.pdf"))
    assert pdf.stat().st_size > 10_000
    code, out, _ = run_cli(capsys, "verify", str(pdf.with_suffix(".json")))
    assert code == 0, out


# 7 ≤ m* ≤ 8 by rigid edges (V = 6, |supp Q′| = 8): a search decides m = 7, with q1 <-> q2 as a symmetry
SYMMETRIC = "sigmoid(q1 + 2*q2) + sigmoid(2*q1 + q2) + sigmoid(q1 + q2)"


@pytest.fixture(scope="module")
def symmetric_refutation() -> dict:
    """A refutation of "a head with 7 atoms" for SYMMETRIC, found apart from certify (as on a cluster)."""
    import time

    from headfusion.algebra.expform import combined_polys, exponential_form
    from headfusion.solving.refute import refute
    from headfusion.spec.load import load_spec

    P, Q = combined_polys(exponential_form(load_spec(SYMMETRIC).model))
    # order "far": a tree with an image leaf under q1 <-> q2 (the default order's tree closes without one since the OUT rule)
    found = refute(P.terms, Q.terms, 7, deadline=None, vertices=6, order="far")
    assert found.status == "unsat"
    return {"atoms": 7, **found.evidence}


@pytest.mark.slow  # its refutation fixture takes about 8 s
def test_certify_with_a_supplied_refutation(tmp_path, monkeypatch, capsys, symmetric_refutation):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text(json.dumps({"status": "unsat", "seconds": 1.5, "refutation": symmetric_refutation}))
    code, out, err = run_cli(capsys, "certify", SYMMETRIC, "--refutation", "r.json", "--out", "o")
    assert code == 0, err
    files = sorted(p.name for p in (tmp_path / "o").iterdir())
    assert not [f for f in files if f.endswith(".smt2")]  # no solver was asked
    cert = json.loads(next((tmp_path / "o").glob("*.json")).read_text())
    assert cert["summary"]["minimum"] == 8 and cert["summary"]["status"] == "proved"
    claim = next(c for c in cert["claims"] if c["id"] == "search:m7")
    assert claim["kind"] == "refutation" and claim["evidence"]["tree"] == symmetric_refutation["tree"]
    code, out, _ = run_cli(capsys, "verify", str(next((tmp_path / "o").glob("*.json"))))
    assert code == 0 and "testimony" not in out


def _tampered(refutation: dict, how: str) -> dict:
    bad = json.loads(json.dumps(refutation))
    if how == "leaf":
        leaf = next(i for i, node in enumerate(bad["tree"]) if node[0] == "farkas")
        bad["tree"][leaf] = ["count"]  # a count leaf with too few points IN
    elif how == "m":
        bad["atoms"] = 6  # the rigid edges already prove m* >= 7: not a question of this certificate
    elif how == "vector":
        bad["multipliers"][0][0][2] = "12345"
    return bad


@pytest.mark.slow  # the refutation fixture (about 8 s), then eight refusals
@pytest.mark.parametrize("content", ["leaf", "m", "vector", "not a refutation", "float", "no-search", "junk node",
                                     "junk symmetry"])
def test_certify_refuses_a_bad_supplied_refutation(tmp_path, monkeypatch, capsys, symmetric_refutation, content):
    monkeypatch.chdir(tmp_path)
    extra = []
    if content == "not a refutation":
        data: object = {"summary": {}, "claims": []}
    elif content == "float":
        data = {**symmetric_refutation, "multipliers": [[["D", [0, 0], 0.5]]]}
    elif content == "junk node":
        data = {**symmetric_refutation, "tree": [["split", "x", {}, None]]}
    elif content == "junk symmetry":
        data = {**symmetric_refutation, "symmetries": [["a", 0]]}
    elif content == "no-search":
        data, extra = symmetric_refutation, ["--no-search"]
    else:
        data = _tampered(symmetric_refutation, content)
    (tmp_path / "r.json").write_text(json.dumps(data))
    code, out, err = run_cli(capsys, "certify", SYMMETRIC, "--refutation", "r.json", "--out", "o", *extra)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").iterdir())


@pytest.mark.slow
def test_a_supplied_refutation_keeps_its_symmetries(tmp_path, monkeypatch, capsys, symmetric_refutation):
    """SYMMETRIC: the refutation at m = 7 has image leaves under q1 <-> q2."""
    assert symmetric_refutation.get("symmetries") == [[1, 0]]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text(json.dumps({"refutation": symmetric_refutation}))
    code, out, err = run_cli(capsys, "certify", SYMMETRIC, "--refutation", "r.json", "--out", "o")
    assert code == 0, err
    path = next((tmp_path / "o").glob("*.json"))
    claim = next(c for c in json.loads(path.read_text())["claims"] if c["id"] == "search:m7")
    assert claim["evidence"]["symmetries"] == [[1, 0]] and "symmetric images" in claim["statement"]
    code, out, _ = run_cli(capsys, "verify", str(path))
    assert code == 0


def test_a_substitution_that_merges_factors_is_retried(tmp_path, monkeypatch, capsys):
    """CI regression (hypothesis): with a = (1, 1), P′(y^a) and 1 + y^2 share a factor although P′ and
    1 + x2^2 do not; certify crashed with a traceback.  A larger separating substitution is tried."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "certify", "sigmoid(q1) + sigmoid(q1 + q2) + tanh(q2)", "--no-search", "--out", "o")
    assert code == 0, err
    cert = json.loads(next((tmp_path / "o").glob("*.json")).read_text())
    entry = next(item for shape in next(c for c in cert["claims"] if c["id"] == "coprime")["evidence"]["shapes"]
                 for item in shape["factors"] if item["reason"] == "bezout")
    assert entry["substitution"] != [1, 1]
    code, _, _ = run_cli(capsys, "verify", str(next((tmp_path / "o").glob("*.json"))))
    assert code == 0
