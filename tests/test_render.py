"""LaTeX rendering of certificates (render.py, templates/certificate.tex.j2)."""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path
from unittest import mock

import pytest

from headfusion.render import write as render_write
from headfusion.proof.claims import build_certificate
from headfusion.render.errors import RenderError
from headfusion.render.names import claim_names
from headfusion.render.source import source_lines
from headfusion.render.symbols import lemma_refs
from headfusion.render.files import INSTALL_HINT, latex_engine, sanitize_slug
from headfusion.render.latex import render_latex
from headfusion.render.tex import log2_int, math_safe_statement, tex_int, tex_number, tex_poly
from headfusion.render.write import write_certificate
from headfusion.spec.load import load_spec

from .conftest import without_grid_lemmas

needs_latex = pytest.mark.skipif(
    latex_engine() is None, reason="no LaTeX engine (pdflatex/latexmk) on PATH: " + INSTALL_HINT
)

EVIL = r"\input{/etc/passwd} $x$ 50% a_b #1 & ~ ^ {} <|> σ"


@lru_cache(maxsize=None)
def _cert_json(spec: str, d: int | None) -> str:
    command = ["headfusion", "certify", spec] + (["--d", str(d)] if d is not None else [])
    return json.dumps(build_certificate(load_spec(spec, d), command))


def k4_by_faces() -> dict:
    """K_4 certified by LD alone (Theorem K switched off in the engine): its face functions are triangles."""
    with mock.patch("headfusion.bounds.engine.theorem_k_bound", lambda form: None), without_grid_lemmas():
        spec = load_spec(str(Path(__file__).resolve().parent.parent / "proofs/tournament_complete.toml"), 4)
        return json.loads(json.dumps(build_certificate(spec, ["headfusion", "certify", "SPEC.toml", "--d", "4"])))


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
    poly = [[[0, 0], 1], [[1, 2], 1], [[1, 3], 1], [[2, 5], "1/2"]]
    assert tex_poly(poly, 6) == r"1 + \left(e^{1/3} + e^{1/2}\right) x_{1} + \tfrac{1}{2}e^{5/6} x_{1}^{2}"
    assert tex_poly([[[0, 0, 0], 1], [[1, 2, 0], -3]], 1) == "1 - 3x_{1} x_{2}^{2}"
    assert tex_poly([[[-1, 0], -1], [[0, 0], -1]], 1, ["y"]) == "-y^{-1} - 1"
    assert tex_poly([], 1) == "0"


def test_statements_with_big_counts_compile_in_text_mode():
    assert math_safe_statement(r"with 2^{1000} atoms; hence $m^*(F)\le 2^{1000}$.") == (
        r"with $2^{1000}$ atoms; hence $m^*(F)\le 2^{1000}$."
    )


def test_slug_is_sanitised():
    assert sanitize_slug("../../etc/passwd") == "_.._etc_passwd"
    assert sanitize_slug("W_d3") == "W_d3"
    assert sanitize_slug("") == "certificate"


def test_lemmas_are_printed_and_referenced_under_their_identifiers():
    cert = cert_for("W", 3)
    names = claim_names(cert)
    assert names["lemma:L5"] == r"Lemma~\ref{lem:L5} (Newton polytopes)" and names["def:F"] == r"The function $F$"
    assert lemma_refs("closes every case (Lemma LR); by Lemma LK, and Lemmas L3, L4 and LP") == (
        r"closes every case (Lemma~\ref{lem:LR}); by Lemma~\ref{lem:LK}, and Lemmas~\ref{lem:L3}, \ref{lem:L4} and \ref{lem:LP}")
    tex = render_latex(cert)
    # one stable name per lemma in every certificate: "Lemma L4", never a number that changes with the lemmas printed
    assert r"\renewcommand{\thelemma}{\lemmatag}" in tex
    printed = [c["id"][6:] for c in cert["claims"] if c["kind"] == "lemma"]
    assert re.findall(r"\\label\{lem:(\w+)\}", tex) == printed and "L3" not in printed and "LR" not in printed
    assert re.findall(r"\\renewcommand\{\\lemmatag\}\{(\w+)\}\n\\begin\{lemma\}", tex) == printed


# -- documents ---------------------------------------------------------------------------------


def test_w3_tex_reads_as_a_complete_proof():
    cert = cert_for("W", 3)
    tex = render_latex(cert)
    assert cert["format"] == "headfusion-certificate/3"
    assert r"m^*(F)=8" in tex
    assert r"\label{tab:heads}" in tex and r"\label{tab:notation}" in tex
    # exponential form per shape: lattice basis, P'_B and Q'_B in lowest terms
    assert r"x_{1}=e^{q_{1}}" in tex
    assert r"P'_B&=x_{1}," in tex and r"Q'_B&=1 + x_{1}," in tex
    # lowest terms by the binomial rule; the parallelepiped of Lemma LZ; the product rule
    assert r"\item $f=1 + x_{1}$: \emph{binomial rule}" in tex and r"$\varepsilon_1-\varepsilon_0=(1)$ is primitive" in tex
    assert r"the remainder of $P'_B$ by $f$ is" in tex and r"$\operatorname{rem}_f=-1\ne\nobreak0$" in tex  # x_1 at x_1 = −1
    assert r"is a segment, with $2$ vertices" in tex
    assert re.search(r"^\(0\) & 0 & 1 & 0\\\\$", tex, re.M) and re.search(r"^\(1\) & q_\{1\} & 1 & 1\\\\$", tex, re.M)
    assert r"$2^{3}=8$ atoms" in tex
    lemmas = [c["id"][6:] for c in cert["claims"] if c["kind"] == "lemma"]
    for lemma in lemmas:
        assert rf"\label{{lem:{lemma}}}" in tex
    assert "See the JSON evidence" not in tex  # every lemma has its proof in prose
    assert tex.count(r"\begin{proof}") == len(lemmas) + 2  # the lemmas, the proof in brief (page 1), the proof from the claims
    assert r"headfusion verify W\_d3.json" in tex
    assert "headfusion certify W --d 3" in tex.replace(r"\allowbreak{}", "")


def test_theorem_shows_only_the_kernel_statement():
    for spec, d in (("W", 3), ("sigmoid(q1)+sigmoid(2*q1)", None)):
        cert = cert_for(spec, d)
        tex = render_latex(cert)
        body = tex.split(r"\begin{theorem}\label{thm:main}")[1].split(r"\end{theorem}")[0]
        statement = next(c["statement"] for c in cert["claims"] if c["id"] == "theorem")
        assert body.strip() == r"Let $F$ be the function of Table~\ref{tab:heads}. Then " + lemma_refs(statement)


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
    assert "more heads" not in tex and "more blocks" not in tex  # 1000 identical heads: one row with their count
    assert re.search(r"^1--1000 & \$\\sigma\(q_\{j\}\)\$, \$j=1,\\dots,1000\$", tex, re.M)
    assert r"& q_{j} & 1 & 1\\" in tex
    assert re.search(r"that is\s+\$2\^\{1000\}\$ atoms", tex)  # construction described by the product rule
    assert r"\cdots(1 + x_{1000})" in tex  # Q' = Π_B Q'_B written with its first and last factors
    assert r"\label{tab:faces}" not in tex and r"\ref{tab:faces}" not in tex  # no face tree: no empty table, no reference
    tex20 = render_latex(cert_for("W", 20))
    assert r"m^*(F)=1\,048\,576" in tex20 and len(tex20) < 60_000


@pytest.mark.parametrize(
    "spec",
    [
        "sigmoid(q1)+sigmoid(2*q1)",
        "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)",
        "sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2+1)",
        "sigmoid(q1+1/2)+sigmoid(q1+1/3)",
        "sigmoid(q1+1/2)+sigmoid(2*q1-1/3)",
        "attn([0,q1,q2],[1,2,5]) + sigmoid(q1)",
    ],
)
def test_other_functions_render(spec):
    tex = render_latex(cert_for(spec))
    assert r"\end{document}" in tex
    assert "exp(" not in tex.split(r"\begin{document}")[1].replace(r"\texttt", "")  # weights as e^{...}


def test_transcendental_weights_render_as_powers_of_e():
    tex = render_latex(cert_for("sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2+1)"))
    assert re.search(r"^\(1\) & 2q_\{2\} & e\^\{2\} & 1\\\\$", tex, re.M)  # the tanh block's atom with weight e^2
    assert r"m^*(F)=4" in tex
    tex = render_latex(cert_for("sigmoid(q1+1/2)+sigmoid(2*q1-1/3)"))
    assert r"P'_B&=e^{1/2} x_{1} + e^{-1/3} x_{1}^{2} + 2e^{1/6} x_{1}^{3}," in tex
    assert r"t=e^{1/6}" in tex


def test_bezout_identities_are_written_out():
    tex = render_latex(cert_for("sigmoid(q1) + sigmoid(2*q1)"))
    assert r"\emph{B\'ezout identity}" in tex
    assert r"P'_B(y^\kappa)&=y + y^{2} + 2y^{3}" in tex and r"f(y^\kappa)&=1 + y^{2}" in tex
    assert "A&=-y^{-1} - 1,\\\\\nA'&=3 + 2y" in tex  # A and A' on rows of their own: a long A' never overfills the line
    assert r"A\,P'_B(y^\kappa)+A'\,f(y^\kappa)&=2," in tex  # (−1/y − 1)(y + y² + 2y³) + (3 + 2y)(1 + y²) = 2
    tex = render_latex(cert_for("attn([0,q1,q2],[1,2,5]) + sigmoid(q1)"))
    assert r"x_{1}=y,\ x_{2}=y^{2}" in tex and r"A\,P'_B(y^\kappa)+A'\,f(y^\kappa)&=13," in tex


def test_vertex_witnesses_are_tabulated_with_margins():
    tex = render_latex(cert_for("sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)"))
    rows = re.findall(r"^\(([\d,]+)\) & \(([-\d,]+)\) & (\d+)\\\\$", tex, re.M)  # vertex, witness, margin
    assert len(rows) == 6 and all(int(r[2]) >= 1 for r in rows)
    tex = render_latex(cert_for("proofs/tournament_cycle.toml", 3))  # a graph: its vertices counted (Lemma LG), no table
    assert not re.findall(r"^\(([\d,]+)\) & \(([-\d,]+)\) & (\d+)\\\\$", tex, re.M) and "the verifier counts them: $6$ vertices" in tex
    assert r"\cite{stanley}" in tex and r"\bibitem{zaslavsky}" in tex  # the graphical zonotope, with its references
    assert r"\section{The TOML spec of the function}" in tex and r"{[}graph{]}" in tex  # brackets braced (tex_text)
    assert "description =" not in tex.split(r"\label{sec:source}")[1] and "DESIGN" not in tex  # the author's words are left out


def test_no_series_plot():
    cert = cert_for("W", 3)
    cert["series"] = [{"d": d, "head_atom_terms": 2 * d, "lower_bound": 2**d, "upper_bound": 2**d} for d in (1, 2, 3)]
    tex = render_latex(cert)  # a stray series (unchecked data) is never plotted
    assert r"\begin{axis}" not in tex and "pgfplots" not in tex


@lru_cache(maxsize=None)
def _search_cert_json() -> str:
    pytest.importorskip("highspy")
    import time

    from headfusion.algebra.expform import combined_polys, exponential_form
    from headfusion.solving.refute import refute

    spec = load_spec("sigmoid(q1) + sigmoid(2*q1)")
    P, Q = combined_polys(exponential_form(spec.model))
    results = []
    for m in (2, 3):
        found = refute(P.terms, Q.terms, m, deadline=time.time() + 60)
        assert found.status == "unsat"
        results.append({"status": "unsat", "atoms": m, "refutation": found.evidence})
    results.append({"status": "unsat", "atoms": 1, "solver": {"name": "z3", "version": "4.13.0"}, "query_sha256": "ab" * 32,
                    "options": {"encoding": "cofactor", "symmetry": True},
                    "cross_check": {"cvc5": {"version": "1.2.0", "status": "unsat"}}})
    results.append({"status": "unknown", "atoms": 3, "reason": "time limit 60 s"})
    return json.dumps(build_certificate(spec, ["headfusion", "certify"], search_results=results))


def _search_cert() -> dict:
    return json.loads(_search_cert_json())


def test_refutations_are_proofs_and_testimony_stays_apart():
    cert = _search_cert()
    tex = render_latex(cert)
    assert cert["summary"]["status"] == "proved" and r"m^*(F)=4" in tex
    checked, testimony = tex.split(r"\section{Solver testimony (not checked)}")
    # the refutations: small trees in full (every node with its path, every multiplier vector with its rows)
    assert r"\section{Searches with checked results}" in checked
    assert r"\texttt{search:m2}: no head with at most 2 atoms" in checked
    assert checked.count("The whole tree follows") == 2 and "too many to print" not in checked
    # m = 2 points IN: every other point is OUT (the refuter's OUT rule), so a Farkas vector closes the node
    assert re.search(r"^2 & OUT: none; IN: \$\(0\),\\allowbreak \(3\)\$ & Farkas, \$\\theta\^\{\(1\)\}\$\\\\$", checked, re.M)
    assert re.search(r"^4 & OUT: \$\(0\)\$; IN: none & layer \$1\$: its points \$\(0\)\$ are OUT\\\\$", checked, re.M)
    assert r"0 & $2D_{(0)} - N_{(3)}$\\" in checked and r"$N_{(3)}$ & $2g_{(0)}$\\" in checked  # 2g_0 − 2g_0 = 0
    assert r"The box is $G=\{0\}$ with 1 unknown $g_\gamma$" in checked  # not {0,...,0}
    # testimony and undecided searches: listed apart, with solvers and hash, never in the theorem or the proof
    assert "testimony:m1" not in checked and "unknown:m3" not in checked.split(r"\section{The claims and the proof of Theorem")[0]
    assert r"z3 4.13.0 (\emph{unsat})" in testimony and "cvc5 1.2.0" in testimony and "abababab" in testimony
    assert r"Reason: time limit 60 s." in testimony.replace(r"\allowbreak{}", "")
    proof = testimony.split(r"\begin{proof}[Proof of Theorem~\ref{thm:main}]")[1].split(r"\end{proof}")[0]
    assert r"\item \texttt{testimony:m1}" not in proof and "are not used" in proof
    theorem = tex.split(r"\begin{theorem}")[1].split(r"\end{theorem}")[0]
    assert "testimony" not in theorem and "solver" not in theorem.lower()
    assert "checked" not in testimony.split(r"\section{The claims and the proof of Theorem")[0].replace("not checked", "").replace(r"\emph{not} checked", "")


def test_large_trees_show_one_worked_leaf_of_each_kind(monkeypatch):
    from headfusion.render import search

    monkeypatch.setattr(search, "MAX_FULL_LEAVES", 2)  # the trees of _search_cert have 4 and 8 leaves
    checked = render_latex(_search_cert()).split(r"\section{Solver testimony (not checked)}")[0]
    assert "The whole tree follows" not in checked and checked.count("too many to print") == 2
    assert r"\emph{A layer leaf.}" in checked and checked.count(r"\emph{A Farkas leaf.}") == 2  # no count leaves: the OUT rule
    assert re.search(r"^D_\{\(0\)\} & 4 & \$\\ge1\$ \(IN\) & g_\{\(0\)\}\\\\$", checked, re.M)  # D_0 = g_0 ≥ 1
    assert re.search(r"^N_\{\(3\)\} & -2 & \$=0\$ \(OUT\) & 2g_\{\(0\)\} \+ g_\{\(1\)\} \+ g_\{\(2\)\}\\\\$", checked, re.M)  # a row of several g
    assert r"\sum\theta_p=4>0" in checked and r"\lambda" not in checked.split(r"\section{Searches")[1]


def _evil_cert() -> dict:
    cert = cert_for("W", 3)
    cert["spec"]["title"] = EVIL
    cert["spec"]["text"] = EVIL
    cert["model"]["heads"][0]["label"] = EVIL
    cert["metadata"]["command"] = ["headfusion", "certify", EVIL]
    cert["spec"]["source"] = EVIL + "\n  indented " + EVIL + "\n\\end{document}"
    return cert


def test_user_text_is_escaped_in_tex():
    tex = render_latex(_evil_cert()).replace(r"\allowbreak{}", "")
    assert r"\input{" not in tex
    assert r"\textbackslash{}input\{/etc/passwd\}" in tex
    assert r"50\%" in tex and r"a\_b" in tex and r"\#1" in tex and r"\&" in tex
    assert tex.count(r"\end{document}") == 1  # not even the TOML source can end the document
    lines = source_lines("name = 'x 50% a_b #1 &' # a comment\n# the author's note\n[function]\n  term = 'sigmoid(q1)'\n"
                         "  description = \'\'\'\n\\end{document}\n\'\'\'\n")
    assert r"50\%" in lines["lines"][0] and r"a\_b" in lines["lines"][0] and r"\#1" in lines["lines"][0] and r"\&" in lines["lines"][0]
    assert lines["lines"][2].startswith(r"\ \ term") and len(lines["lines"]) == 3  # indentation kept, the description left out
    assert not any("comment" in line or "note" in line for line in lines["lines"])  # comments are the author's words: left out
    assert lines["omitted"] == "the descriptions and the comments" and not lines["unshown"]
    hashed = source_lines("[function]\nterm = \'\'\'sigmoid(q1)\n# not a comment\'\'\'\n")  # a # inside a multi-line string stays
    assert hashed and not hashed["unshown"] and any("comment" in line for line in hashed["lines"])
    assert source_lines("not toml = = =")["unshown"]  # never shown unless it re-parses as the spec without the author's words


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
        render_write, "render_latex", lambda cert, file_stem=None: "\\documentclass{article}\\begin{document}\\undefinedmacro\\end{document}\n"
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
        assert "headfusion verify W_d3.json" in text


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
@pytest.mark.slow  # the W1000 compile of test_certificate_documents covers it too
def test_w1000_pdf_compiles(tmp_path):
    paths = write_certificate(cert_for("W", 1000), tmp_path, pdf=True)
    assert paths["pdf"].exists()
    assert paths["tex"].stat().st_size < 60_000


@needs_latex
def test_search_certificate_compiles(tmp_path):
    paths = write_certificate(_search_cert(), tmp_path, extra_files={"q.m1.smt2": "(check-sat)\n"}, pdf=True)
    assert paths["pdf"].exists() and paths["q.m1.smt2"].read_text() == "(check-sat)\n"
    text = pdf_text(paths["pdf"])
    if text is not None:
        assert "Solver testimony (not checked)" in text and "The whole tree follows" in text


@needs_latex
def test_toml_certificate_compiles(tmp_path):
    paths = write_certificate(cert_for("proofs/tournament_cycle.toml", 3), tmp_path, pdf=True)
    assert paths["pdf"].exists()


def test_control_characters_and_greek_never_reach_tex_raw():
    from headfusion.render.explore import explore_pgfplots
    from headfusion.render.tex import tex_text

    assert tex_text("a\x7fb\x01c") == "a{[}U+007F{]}b{[}U+0001{]}c"
    assert "Ω" not in explore_pgfplots([{"d": 1, "head_atom_terms": 2, "lower_bound": 2, "upper_bound": 2}], "Ω title")


def test_a_toml_spec_without_a_name_is_named_after_its_file():
    """The referee met "the TOML spec None": a spec without `name` takes it from its file (the certificate's spec text)."""
    from headfusion.render.context import build_context

    cert = cert_for("proofs/tournament_cycle.toml", 4)
    ctx = build_context(cert)
    assert r"\texttt{tournament\_cycle}" in ctx["spec_description"] and "None" not in ctx["spec_description"]


def test_the_proof_in_brief_prints_the_true_face_functions_and_a_witness_of_newt_q():
    """Sentences true as written: F_u in F's own variables with its constant; a multi-block witness is one of Newt(Q′)."""
    from headfusion.kernel.model import face_limit, model_from_json
    from headfusion.render.sketch import proof_sketch

    cert = k4_by_faces()
    text = " ".join(proof_sketch(cert)["paragraphs"])
    assert r"$F_{u_1}(q)=3 + \sigma(q_{2} - q_{3}) + \sigma(q_{2} - q_{4}) + \sigma(q_{3} - q_{4})$" in text
    limit = face_limit(model_from_json(cert["model"]), {0: 1})  # the kernel agrees: σ(q1−q2), σ(q1−q3), σ(q1−q4) → 1
    assert sum(scale for scale, atoms in limit.heads if len({a.key for a in atoms}) == 1) == 3
    cert = cert_for("attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])")
    text = " ".join(proof_sketch(cert)["paragraphs"])
    assert r"$\omega=(-1,-1)$ singles out the vertex $p=(0,0)$ of $\Newt(Q')$" in text


def test_face_forms_normalise_the_sign_of_sigma():
    """σ(−q2+q3) ≃ −σ(q2−q3): the first coefficient of an argument is positive, the constant moves."""
    from fractions import Fraction

    from headfusion.render.faces import _head_parts, tex_face_form

    atoms = [[[[3, 1]], 1, 0, 0], [[[2, 1]], 1, 0, 1]]  # e^{q2}/(e^{q2}+e^{q3}) = σ(q2 − q3), listed as 0 + 1·σ(q2 − q3)
    assert _head_parts(Fraction(1), atoms)[:2] == (Fraction(0), r"\sigma(q_{2} - q_{3})")
    atoms = [[[[2, 1]], 1, 0, 1], [[[3, 1]], 1, 0, 0]]  # the same head, atoms swapped: still 0 + σ(q2 − q3), not 1 − σ(q3 − q2)
    assert _head_parts(Fraction(2), atoms)[:2] == (Fraction(0), r"2\sigma(q_{2} - q_{3})")
    assert _head_parts(Fraction(-1), atoms)[:2] == (Fraction(-1), r"\sigma(q_{3} - q_{2})")  # −σ(q2−q3) = −1 + σ(q3−q2)
    # σ(q1−q2) − σ(−q2+q3), as the referee met it, is σ(q1−q2) + σ(q2−q3) up to a constant
    assert tex_face_form([[1, [[[], 1, 0, 0], [[[1, 1], [2, -1]], 1, 0, 1]]], [-1, [[[], 1, 0, 0], [[[2, -1], [3, 1]], 1, 0, 1]]]]) == (
        r"\sigma(q_{1} - q_{2}) + \sigma(q_{2} - q_{3})")


def test_every_lower_bound_is_checkable_on_the_page():
    """ρ_B stated even when it is 1; rigid edges with their margins and the non-vertex points of supp Q′ named."""
    tex = render_latex(cert_for("sigmoid(q1) + sigmoid(2*q1)"))
    assert r"with no tilt ($\rho_B=(1)$" in tex and r"\rho^p=\prod_\ell\rho_\ell^{p_\ell}" in tex
    tri = cert_for("sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)")
    tex = render_latex(tri)
    assert r"witness $\omega$ & margin & $\len$" in tex
    assert re.search(r"^1 & \$\(0,0\)\$ & \$\(0,1\)\$ & \$\(-1,0\)\$ & 1 & 1 & ", tex, re.M)  # ⟨ω,·⟩: −0 on the edge, −1 next
    assert r"has $7$ points: the $6$ certified vertices of Section~\ref{sec:newton} and the point $(1,1)$, which is not among them" in tex
    # the margin is the gap between the top level and the next one of supp Q′_B, recomputed here
    shape = next(c for c in tri["claims"] if c["id"] == "exp-form")["evidence"]["shapes"][0]
    levels = sorted({-int(e[0]) for e, _ in shape["Q"]}, reverse=True)  # ω = (−1, 0)
    assert levels[0] - levels[1] == 1


def test_only_what_a_certificate_uses_is_defined():
    """No σ where σ never occurs; Definition 2 with only the leaf rules its trees use; one symbol per meaning."""
    tex = render_latex(cert_for("attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])"))
    assert r"\sigma" not in tex and r"\operatorname{attn}" in tex.split(r"\label{tab:notation}")[1].split(r"\end{longtable}")[0]
    tex = render_latex(_search_cert())
    definition = tex.split(r"\begin{definition}[refutation tree]")[1].split(r"\end{definition}")[0]
    assert r"\emph{Farkas}" in definition and r"\emph{image of node" not in definition and "symmetric images or as interior" in definition
    assert "r_p" not in tex and r"\mathcal{B}" not in tex and r"\mathcal{K}" not in tex


# -- issue 28: bounds certificates, order witnesses ------------------------------------------------


@lru_cache(maxsize=None)
def _certified_json(path: str, d: int) -> str:
    """A certificate as `certify` writes it, searches included (for K_4 the search is skipped: its key range is too large)."""
    from headfusion.proof.certify import certify

    spec = load_spec(str(Path(__file__).resolve().parent.parent / path), d)
    return json.dumps(certify(spec, ["headfusion", "certify", "SPEC.toml", "--d", str(d)], search=True).certificate)


def _order(values: list[int]) -> bool:
    return sorted(values) == list(range(min(values), min(values) + len(values)))


def _wins(w: list[int], p: tuple, support: list[tuple]) -> bool:
    return all(sum(a * b for a, b in zip(w, q)) < sum(a * b for a, b in zip(w, p)) for q in support if q != p)


@pytest.mark.parametrize("path,d", [("proofs/tournament_cycle.toml", 5), ("proofs/tournament_complete.toml", 4)], ids=["C5", "K4"])
def test_witness_captions_state_a_rule_true_of_every_row(path, d):
    """Issue 28 item 5: the caption's formula, checked here row by row against the data (not by the render's own code).

    A graph's certificate counts its vertices (Lemma LG) and prints no witness table; the tables and their captions appear
    where witnesses are listed (rigid edges on a graph block next to another block), so the listed evidence is rendered."""
    from headfusion.bounds.engine import function_bounds
    from headfusion.proof import evidence

    cert = json.loads(_certified_json(path, d))
    bounds = function_bounds(load_spec(str(Path(__file__).resolve().parent.parent / path), d).model)
    listed = evidence.newton_evidence(bounds.newton, evidence.coprimality_evidence(bounds.form), listed=True)
    edges = evidence.edges_evidence(bounds.form, bounds.structure)
    cert["claims"] = [dict(c, evidence=listed) if c["id"] == "lower:newton" else c for c in cert["claims"]]
    cert["claims"].insert(-1, {"id": "lower:edges", "kind": "lower-bound", "title": "Rigid-edge bound", "statement": "",
                               "depends_on": ["lower:newton"], "evidence": edges})
    cert["summary"]["rigid_edge_bound"] = bounds.structure.edges.bound
    claims = {c["id"]: c for c in cert["claims"]}
    shape = claims["exp-form"]["evidence"]["shapes"][0]
    support = sorted({tuple(e[:-1]) for e, _ in shape["Q"]})
    n = len(support[0]) + 1
    vertices = [(tuple(v), list(w)) for v, w in claims["lower:newton"]["evidence"]["shapes"][0]["vertices"]]
    for v, w in vertices:  # ω_ℓ = π(ℓ) − π(n): ω_1, …, ω_{n−1}, 0 are n distinct consecutive integers
        assert _order(w + [0]) and _wins(w, v, support), (v, w)
    for p0, p1, w in claims["lower:edges"]["evidence"]["shapes"][0]["edges"]:
        values = w + [0]
        tied = [i for i, x in enumerate(values) if values.count(x) == 2]
        assert len(tied) == 2 and len(set(values)) == n - 1 and _order(sorted(set(values))), w
        broken = []
        for high in tied:  # break the tie: the two orders differ by an adjacent transposition
            order = [x + (x > values[tied[0]]) + (i == high) for i, x in enumerate(values)]
            broken.append([x - order[-1] for x in order[:-1]])
        assert {_wins(b, tuple(p), support) for b in broken for p in (p0, p1)} == {True, False}
        assert any(_wins(broken[0], tuple(a), support) and _wins(broken[1], tuple(b), support) for a, b in ((p0, p1), (p1, p0)))
    tex = render_latex(cert)
    assert "Every witness is\n" + rf"that of an order: $\omega_\ell=\pi(\ell)-\pi({n})$ for a permutation $\pi$ of $\{{1,\dots,{n}\}}$" in tex
    assert rf"Every witness has the form $\omega_\ell=\pi(\ell)-\pi({n})$ for a ranking $\pi$ of $\{{1,\dots,{n}\}}$ with one tie" in tex


def test_no_rule_is_stated_where_the_witnesses_follow_none():
    tex = render_latex(cert_for("sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)"))  # the line (1, 1) is no coordinate difference
    assert "that of an order" not in tex and "with one tie" not in tex


def test_a_bounds_certificate_states_the_gap_from_its_claims():
    """Issue 28 item 1: K_4 (35 ≤ m* ≤ 38, Theorem K35): which lemma stops where and why, the skipped search with its key range, g = 1."""
    from headfusion.render.gap import key_range_points

    cert = json.loads(_certified_json("proofs/tournament_complete.toml", 4))
    tex = render_latex(cert)
    assert r"\title{Exact-fusion bounds certificate:" in tex and r"pdftitle={Exact-fusion bounds certificate}" in tex
    gap = tex.split(r"\paragraph{Status of the gap.}")[1].split(r"\begin{proof}")[0]
    (note,) = [n for n in cert["metadata"]["notes"] if n.startswith("search for m = 35 skipped")]
    points = int(re.search(r"has ([\d,]+) points", note).group(1).replace(",", ""))
    exp = next(c for c in cert["claims"] if c["id"] == "exp-form")["evidence"]
    assert points == key_range_points(exp, 35) and f"${points:,}$".replace(",", "{,}") in gap and "$20{,}000$" in gap
    assert r"Lemma~\ref{lem:L5} stops at $V=24$" in gap and r"$V+1=25$ by design" in gap and r"Lemma~\ref{lem:K35} stops at $35$" in gap
    assert r"No head with $35$ to $37$ atoms has been excluded by this certificate, and none was searched for" in gap
    assert "a limit of the software" in gap and "not of the mathematics" in gap
    assert "lowest-terms head itself" in gap and "$g=1$" in gap and "$38$ atoms" in gap
    assert "search for m" not in tex.split(r"\section{Reproducing")[1]  # the note moved to the main text
    assert r"\label{tab:grids}" in tex and r"\label{lem:M12}" in tex  # Theorem K35's instance after its proof, and M12 it cites
    faces = render_latex(k4_by_faces()).split(r"\label{tab:facefunctions}")[1].split(r"\end{longtable}")[0]  # numbered from 1
    assert (r"its graph has $6$ acyclic orientations ($=|\chi_G(-1)|$, $\chi_G(k)=k^{3}-3k^{2}+2k$), every edge rigid, and its own"
            r" $Q'$ has $7$ terms") in faces  # the triangle, with its chromatic polynomial (issue 34)
    assert r"no. & function & bound & by" in faces and re.search(r"\\midrule\\endhead\s*1 & ", faces) and r"\simeq" not in tex
    proved = render_latex(json.loads(_certified_json("proofs/tournament_cycle.toml", 5)))
    assert "Status of the gap" not in proved and r"\title{Exact fusion certificate:" in proved


def test_a_new_lemma_adds_its_gap_sentence_with_one_entry(monkeypatch):
    from headfusion.render import gap

    cert = json.loads(_certified_json("proofs/tournament_complete.toml", 4))
    cert["claims"].insert(-1, {"id": "lower:disjoint", "kind": "lower-bound", "evidence": {"bound": 7}, "depends_on": []})
    assert r"The claim \texttt{lower:disjoint} gives $m^*(F)\ge 7$." in gap.gap_paragraph(cert)
    monkeypatch.setitem(gap.STOPS, "lower:disjoint", lambda cert, claim: "LD stops at 7 because the faces are disjoint.")
    assert "LD stops at 7 because the faces are disjoint." in gap.gap_paragraph(cert)


def test_every_d_applies_the_lemma_to_f_d():
    from headfusion.spec.family import every_d_block

    built, title, slug = every_d_block("family", "W", None)
    every = {"kind": "family", "text": "W", "source": None, "d": None, "title": title, "slug": slug, "every_d": True}
    tex = render_latex(json.loads(json.dumps(build_certificate(built, ["headfusion", "certify", "W", "--every-d"], every_d=every))))
    assert r"Lemma~\ref{lem:L5} applied to $F_d$" in tex and "raised to the power" not in tex


def test_slice_section_says_only_what_its_table_holds():
    """Referee round: the paw's one-row slice table spoke of "the last Y" and of long factors it did not have; LH went uncited."""
    tex = render_latex(cert_for("sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q3-q4)"))
    assert r"the slice bound (Lemmas~\ref{lem:LS}, \ref{lem:LH} and~\ref{lem:LM}" in tex
    section = tex[tex.index(r"\subsection{Slices}"):tex.index(r"By Lemma~\ref{lem:LM}", tex.index(r"\subsection{Slices}"))]
    assert "last $Y$" not in section and "a long one" not in section and r"$Y_{1}$: " in section
    assert r"The factors: $Y_{1}=" in section and r"$Z_{1}=" in section
    assert "has been excluded," not in tex
    notation = tex[tex.index(r"\label{tab:notation}"):].split(r"\end{longtable}")[0]
    assert r"$\tau$" in notation and "$u_i$" not in notation and "$F_u$" not in notation  # LD's symbols only where LD is printed
