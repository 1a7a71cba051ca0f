"""The Python API example of docs/api.md (moved from the README) runs as it stands."""

from __future__ import annotations

import re
from pathlib import Path

API_DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_readme_api_example_runs(tmp_path, monkeypatch):
    text = API_DOC.read_text(encoding="utf-8")
    section = text[text.index("# Python API"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "api.md", "exec"), {})  # the document's own example, not user input
    assert (tmp_path / "out" / "W_d2.json").exists()


def test_sympy_expressions_are_walked_not_sympified():
    import pytest
    import sympy as sp

    import headfusion as hf

    q1, q2 = sp.symbols("q1 q2")
    sigmoid, attn = sp.Function("sigmoid"), sp.Function("attn")
    assert hf.analyze(sigmoid(q1) + sigmoid(2 * q1)).data["spec"] == "sigmoid(q1) + sigmoid(2*q1)"
    assert hf.analyze(1 / (1 + sp.exp(-q1)) + sigmoid(q2 + sp.log(2))).minimum == 4  # the logistic form is sigmoid
    assert hf.analyze(sp.Rational(1, 2) * sigmoid(q1 - q2) - 3).minimum == 2
    assert hf.analyze(attn(sp.Tuple(0, q1, 2 * q1), sp.Tuple(0, 1, 3))).upper_bound == 3
    for bad, words in ((sp.sin(q1), "SymPy sin"), (sigmoid(sp.Float(0.5) * q1), "not exact"),
                       (sigmoid(sp.Symbol("x")), "unknown SymPy symbol"), (sigmoid(q1) ** 2, "SymPy Pow"),
                       (3, "spec must be a string")):
        with pytest.raises(hf.InputError, match=words):
            hf.analyze(bad)


def test_one_rich_repr_per_object_and_testimony_shown_as_such(tmp_path):
    import headfusion as hf

    analysis = hf.analyze("W", d=2)
    assert hasattr(analysis, "_repr_html_") and not hasattr(analysis, "_repr_latex_")
    assert "m*(F) = 4" in analysis._repr_html_()
    search = hf.search("W", d=2, atoms=3)
    assert hasattr(search, "_repr_html_") and not hasattr(search, "_repr_latex_")
    assert "testimony" in search.statement
    cert = hf.certify("W", d=2, out=tmp_path, pdf=False)
    assert hasattr(cert, "_repr_latex_") and not hasattr(cert, "_repr_html_")
    assert set(cert.files) == {"json", "tex"} and not cert.queries  # W_2: the bounds meet, nothing is searched
    searched = hf.certify("sigmoid(q1) - 3*sigmoid(3*q1)", out=tmp_path, pdf=False)  # a search at m = 3 (LE gives 3)
    # the refutation at m = 3 covers m = 2, so only its query stays
    assert set(searched.files) == {"json", "tex"} and [p.name.rsplit(".", 2)[-2] for p in searched.queries.values()] == ["m3"]
    assert all(name.endswith(".smt2") for name in searched.queries)
    assert all(p.exists() for p in [*searched.files.values(), *searched.queries.values()])
    shown = hf.Verification(True, [{"id": "testimony:m7", "kind": "testimony", "ok": True, "outcome": "testimony",
                                     "message": "z3 unsat"}])._repr_html_()
    assert "solver testimony, NOT checked" in shown and ">ok<" not in shown
