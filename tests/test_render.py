"""LaTeX rendering of certificates (render.py, templates/certificate.tex.j2)."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from headfusion.render import write as render_write
from headfusion.proof.claims import build_certificate
from headfusion.render.errors import RenderError
from headfusion.render.figures import dag_layout
from headfusion.render.files import INSTALL_HINT, latex_engine, sanitize_slug
from headfusion.render.latex import render_latex
from headfusion.render.tex import log2_int, math_safe_statement, tex_int, tex_number, tex_poly
from headfusion.render.write import write_certificate
from headfusion.spec.load import load_spec

needs_latex = pytest.mark.skipif(
    latex_engine() is None, reason="no LaTeX engine (pdflatex/latexmk) on PATH: " + INSTALL_HINT
)

EVIL = r"\input{/etc/passwd} $x$ 50% a_b #1 & ~ ^ {} <|> σ"


@lru_cache(maxsize=None)
def _cert_json(spec: str, d: int | None) -> str:
    command = ["headfusion", "certify", spec] + (["--d", str(d)] if d is not None else [])
    return json.dumps(build_certificate(load_spec(spec, d), command))


def cert_for(spec: str, d: int | None = None) -> dict:
    """A fresh certificate dict (JSON round trip, as `verify` and `render` see it)."""
    return json.loads(_cert_json(spec, d))


def pdf_text(pdf: Path) -> str | None:
    if shutil.which("pdftotext") is None:
        return None
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


# -- pieces ---------------------------------------------------------------------------------


def test_numbers_render_as_latex():
    assert tex_number(3) == "3"
    assert tex_number("3/2") == r"\tfrac{3}{2}"
    assert tex_number("-1/2") == r"-\tfrac{1}{2}"
    assert tex_number("exp(1/2)") == "e^{1/2}"
    assert tex_number("3*exp(1/2)") == "3e^{1/2}"
    assert tex_number("1/2*exp(2)") == r"\tfrac{1}{2}e^{2}"
    assert tex_number("(1 + exp(1/2))/(2*exp(1/3))") == r"\frac{1 + e^{1/2}}{2e^{1/3}}"
    assert tex_number("(exp(1/3) + exp(1/2))/(exp(1/3) + exp(1/2))") == "1"
    # anything unexpected is shown literally and escaped, never passed through
    assert tex_number(r"\input{x}") == r"\text{\textbackslash{}input\{x\}}"


def test_big_integers():
    assert tex_int(8) == "8"
    assert tex_int(123456) == r"123\,456"
    assert tex_int(2**1000) == "2^{1000}"
    assert tex_int(3**700).endswith(r"\text{334 digits})")
    assert log2_int(2**1000) == 1000.0
    assert abs(log2_int(3**700) - 700 * 1.584962500721156) < 1e-6


def test_polynomials_use_e_powers_and_group_terms():
    poly = {"nvars": 2, "terms": [[[0, 0], 1], [[1, 2], 1], [[1, 3], 1], [[2, 5], "1/2"]]}
    assert tex_poly(poly, 6) == r"1 + \left(e^{1/3} + e^{1/2}\right) x_{1} + \tfrac{1}{2}e^{5/6} x_{1}^{2}"
    assert tex_poly({"nvars": 3, "terms": [[[0, 0, 0], 1], [[1, 2, 0], -3]]}, 1) == "1 - 3x_{1} x_{2}^{2}"


def test_statements_with_big_counts_compile_in_text_mode():
    assert math_safe_statement(r"with 2^{1000} atoms; hence $m^*(F)\le 2^{1000}$.") == (
        r"with $2^{1000}$ atoms; hence $m^*(F)\le 2^{1000}$."
    )


def test_slug_is_sanitised():
    assert sanitize_slug("../../etc/passwd") == "_.._etc_passwd"
    assert sanitize_slug("W_d3") == "W_d3"
    assert sanitize_slug("") == "certificate"


def test_dag_layout_is_layered_and_deterministic():
    claims = cert_for("W", 3)["claims"]
    layout = dag_layout(claims)
    layer = {n["label"]: n["layer"] for n in layout["nodes"]}
    assert layer["lemma:L1"] == 0 and layer["def:F"] == 0
    assert layer["exp-form"] == 1 and layer["coprime"] == 2 and layer["lower:newton"] == 3
    assert layer["theorem"] == max(layer.values())
    assert layout == dag_layout(copy.deepcopy(claims))


# -- documents ---------------------------------------------------------------------------------


def test_w3_tex_reads_as_a_complete_proof():
    tex = render_latex(cert_for("W", 3))
    assert r"m^*(F)=8" in tex
    assert r"\label{tab:heads}" in tex and r"\label{tab:faces}" in tex
    # eight vertex witnesses in q coordinates: witness c = 2·1_S − 1
    vertices = re.findall(r"^\d+ & \((\d),(\d),(\d)\) & \(([-\d]+),([-\d]+),([-\d]+)\) & \d+\\\\$", tex, re.M)
    assert len(vertices) == 8
    for row in vertices:
        v, c = [int(x) for x in row[:3]], [int(x) for x in row[3:]]
        assert c == [2 * x - 1 for x in v]
    # eight atoms of the construction, value |S|
    atoms = re.findall(r"^\d+ & \((\d),(\d),(\d)\) & 1 & (\d)\\\\$", tex, re.M)
    assert len(atoms) == 8 and all(sum(map(int, a[:3])) == int(a[3]) for a in atoms)
    # coprimality, divisibility, the face-limit induction, every lemma proved
    assert r"f=1 + x_{1}" in tex and r"\nmid P'_B" in tex
    assert r"Q'\mid D" in tex
    assert re.search(r"^0 & \\raggedright \$\\sigma\(q_\{1\}\) \+ \\sigma\(q_\{2\}\) \+ \\sigma\(q_\{3\}\)\$ & \$e_\{1\}\$ & 1 & 1 & \$8\$", tex, re.M)
    for lemma in ("L1", "L2", "L3", "L4", "L5", "L6", "LP"):
        assert rf"\label{{lem:{lemma}}}" in tex
    assert tex.count(r"\begin{proof}") >= 8
    assert r"headfusion verify W\_d3.json" in tex
    assert "headfusion certify W --d 3" in tex.replace(r"\allowbreak{}", "")


def test_render_is_deterministic_and_independent_of_dict_order():
    cert = cert_for("W", 3)
    first = render_latex(cert)
    assert render_latex(cert_for("W", 3)) == first

    def reverse_dicts(value):
        if isinstance(value, dict):
            return {k: reverse_dicts(value[k]) for k in reversed(list(value))}
        if isinstance(value, list):
            return [reverse_dicts(v) for v in value]
        return value

    assert render_latex(reverse_dicts(cert)) == first


def test_large_family_is_summarised_not_listed():
    tex = render_latex(cert_for("W", 1000))
    assert len(tex) < 60_000
    assert r"m^*(F)=2^{1000}" in tex
    assert "988 more heads" in tex and "988 more blocks" in tex
    assert r"$2^{1000}$ atoms" in tex  # construction described structurally
    assert r"\label{tab:faces}" in tex  # referenced label always exists
    tex20 = render_latex(cert_for("W", 20))
    assert r"m^*(F)=1\,048\,576" in tex20 and len(tex20) < 60_000


@pytest.mark.parametrize(
    "spec",
    [
        "sigmoid(q1)+sigmoid(2*q1)",
        "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)",
        "sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2+1)",
        "sigmoid(q1+1/2)+sigmoid(q1+1/3)",
    ],
)
def test_other_functions_render(spec):
    tex = render_latex(cert_for(spec))
    assert r"\end{document}" in tex
    assert "exp(" not in tex.split(r"\begin{document}")[1].replace(r"\texttt", "")  # weights as e^{...}


def test_transcendental_weights_render_as_powers_of_e():
    tex = render_latex(cert_for("sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2+1)"))
    assert r"3e^{2}" in tex  # the fused atom with weight 3*exp(2)
    assert r"m^*(F)=4" in tex


def test_series_figure_uses_log2_values():
    cert = cert_for("W", 3)
    assert r"\begin{axis}" not in render_latex(cert)
    cert["series"] = [
        {"d": d, "head_atom_terms": 2 * d, "lower_bound": 2**d, "upper_bound": 2**d} for d in (1000, 1, 2, 3)
    ]
    tex = render_latex(cert)
    assert r"\begin{axis}" in tex
    assert "(1,1.0000) (2,2.0000) (3,3.0000) (1000,1000.0000)" in tex


def _search_cert() -> dict:
    spec = load_spec("sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)")
    results = [
        {"status": "unsat", "atoms": m, "solver": {"name": "z3", "version": "4.13.0"}, "query_sha256": "ab" * 32,
         "encoding": "cofactor+sym", "box": {"shape": [m, m, m], "points": m**3, "cofactor_shape": [2, 2, 2], "cofactor_points": 8},
         "options": {"encoding": "cofactor", "symmetry": True}, "smt2_file": f"tri.m{m}.smt2",
         "cross_check": {"solver": "cvc5", "version": "1.2.0", "status": "unsat", "query_sha256": "cd" * 32}}
        for m in (5, 6)
    ]
    return json.loads(json.dumps(build_certificate(spec, ["headfusion", "certify"], search_results=results)))


def test_search_claims_render_honestly():
    tex = render_latex(_search_cert())
    assert "z3 4.13.0 reports \\emph{unsat}" in tex
    assert "proved by z3" not in tex
    assert "rests on solver verdicts" in tex
    assert r"\label{sec:search}" in tex
    assert r"$\{0,\dots,5\}^{3}$ (216 points)" in tex and r"tri.m6.smt2" in tex.replace(r"\allowbreak{}", "")
    assert r"cvc5 1.2.0 reports \emph{unsat} on the same query" in tex


def _evil_cert() -> dict:
    cert = cert_for("W", 3)
    cert["spec"]["title"] = EVIL
    cert["spec"]["text"] = EVIL
    cert["model"]["heads"][0]["label"] = EVIL
    cert["metadata"]["command"] = ["headfusion", "certify", EVIL]
    return cert


def test_user_text_is_escaped_in_tex():
    tex = render_latex(_evil_cert()).replace(r"\allowbreak{}", "")
    assert r"\input{" not in tex
    assert r"\textbackslash{}input\{/etc/passwd\}" in tex
    assert r"50\%" in tex and r"a\_b" in tex and r"\#1" in tex and r"\&" in tex


# -- files and PDF ------------------------------------------------------------------------------


def test_write_certificate_without_pdf_is_deterministic(tmp_path):
    cert = cert_for("W", 3)
    first = write_certificate(cert, tmp_path / "a", extra_files={"query_m7.smt2": "(check-sat)\n"}, pdf=False)
    second = write_certificate(cert, tmp_path / "b", extra_files={"query_m7.smt2": "(check-sat)\n"}, pdf=False)
    assert set(first) == {"json", "tex", "query_m7.smt2"}
    assert first["tex"].name == "W_d3.tex" and first["json"].name == "W_d3.json"
    for key in first:
        assert first[key].read_bytes() == second[key].read_bytes()
    assert json.loads(first["json"].read_text()) == cert
    assert first["json"].read_text() == json.dumps(cert, indent=1) + "\n"
    again = write_certificate(cert, tmp_path / "a", pdf=False)  # overwrite in place
    assert again["tex"].read_bytes() == second["tex"].read_bytes()
    assert not [p for p in (tmp_path / "a").iterdir() if p.name.startswith(".")]  # no temporary files left


def test_unsafe_extra_file_names_are_refused(tmp_path):
    with pytest.raises(RenderError):
        write_certificate(cert_for("W", 3), tmp_path, extra_files={"../evil.smt2": ""}, pdf=False)
    assert not list(tmp_path.iterdir())


def test_pdf_required_without_engine(tmp_path, monkeypatch):
    monkeypatch.setattr(render_write, "latex_engine", lambda: None)
    with pytest.raises(RenderError, match="no LaTeX engine found: apt-get install"):
        write_certificate(cert_for("W", 3), tmp_path, pdf=True)
    paths = write_certificate(cert_for("W", 3), tmp_path / "auto")  # pdf=None: no engine, no PDF
    assert "pdf" not in paths and paths["tex"].exists()


@needs_latex
def test_latex_errors_are_reported_and_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(
        render_write, "render_latex", lambda cert: "\\documentclass{article}\\begin{document}\\undefinedmacro\\end{document}\n"
    )
    with pytest.raises(RenderError, match="Undefined control sequence"):
        write_certificate(cert_for("W", 3), tmp_path / "out", pdf=True)
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


@needs_latex
def test_w3_pdf_compiles(tmp_path):
    paths = write_certificate(cert_for("W", 3), tmp_path, pdf=True)
    again = write_certificate(cert_for("W", 3), tmp_path / "again", pdf=True)
    assert again["tex"].read_bytes() == paths["tex"].read_bytes()
    assert again["json"].read_bytes() == paths["json"].read_bytes()
    assert again["pdf"].read_bytes() == paths["pdf"].read_bytes()  # SOURCE_DATE_EPOCH: reproducible PDF
    pdf = paths["pdf"]
    assert pdf.name == "W_d3.pdf" and pdf.read_bytes().startswith(b"%PDF")
    text = pdf_text(pdf)
    if text is not None:
        assert "Exact fusion certificate" in text
        flat = "".join(text.split())
        assert "Then m∗(F)=8." in flat.replace("Thenm", "Then m")
        assert "Face limits" in text and "headfusion verify W_d3.json" in text


@needs_latex
def test_escaped_user_text_compiles_and_shows_literally(tmp_path):
    paths = write_certificate(_evil_cert(), tmp_path, pdf=True)
    text = pdf_text(paths["pdf"])
    if text is None:
        pytest.skip("pdftotext not available; the .tex escaping is checked in test_user_text_is_escaped_in_tex")
    flat = " ".join(text.split())
    assert "\\input{/etc/passwd}" in flat
    assert "50%" in flat and "a_b" in flat and "#1" in flat and "&" in flat


@needs_latex
def test_w1000_pdf_compiles(tmp_path):
    paths = write_certificate(cert_for("W", 1000), tmp_path, pdf=True)
    assert paths["pdf"].exists()
    assert paths["tex"].stat().st_size < 60_000


@needs_latex
def test_search_certificate_compiles(tmp_path):
    paths = write_certificate(_search_cert(), tmp_path, extra_files={"tri.m6.smt2": "(check-sat)\n"}, pdf=True)
    assert paths["pdf"].exists() and paths["tri.m6.smt2"].read_text() == "(check-sat)\n"


def test_zonotope_shapes_render_structurally():
    from headfusion.proof.claims import LEMMAS

    cert = cert_for("sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)")
    cert["claims"].insert(7, {"id": "lemma:LZ", "kind": "lemma", "title": "Lemma LZ (Zonotopes)",
                              "statement": LEMMAS["LZ"][1], "depends_on": [], "check": "lemma", "evidence": {"lemma": "LZ"}})
    for claim in cert["claims"]:
        if claim["id"] == "lower:newton":
            claim["depends_on"].append("lemma:LZ")
            claim["evidence"]["shapes"][0] = {"method": "zonotope", "count": 6, "directions": [[1, -1, 0], [0, 1, -1], [1, 0, -1]]}
            claim["evidence"]["vertex_witnesses"] = []
    tex = render_latex(cert)
    assert r"\label{lem:LZ}" in tex and "Zaslavsky" in tex
    assert r"(1,-1,0), (0,1,-1), (1,0,-1)" in tex
    assert "are not listed one by one" in tex
