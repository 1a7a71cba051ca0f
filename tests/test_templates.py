"""The layout of the LaTeX templates (issue 31, item 5): one file per lemma in templates/lemmas/, included by certificate.tex.j2."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from headfusion.kernel.statements import LEMMAS
from headfusion.proof.claims import build_certificate
from headfusion.render.latex import TEMPLATE_NAME, _environment, render_latex
from headfusion.spec.load import load_spec

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
LEMMA_DIR = TEMPLATES / "lemmas"
INCLUDE = re.compile(r'\(\(\*-? *include +"([^"]+)" *-?\*\)\)')
LABEL = re.compile(r"\\label\{lem:([A-Za-z0-9]+)\}")
MAIN_LINES_BEFORE = 1211  # certificate.tex.j2 before the split


def _text(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def _reachable() -> dict[str, list[str]]:
    """Every template reachable from the main one by `include`, with the templates it includes."""
    seen: dict[str, list[str]] = {}
    todo = [TEMPLATE_NAME]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen[name] = INCLUDE.findall(_text(name))
        todo.extend(seen[name])
    return seen


def test_every_lemma_file_is_included_and_every_include_exists():
    reachable = _reachable()
    files = {f"lemmas/{p.name}" for p in LEMMA_DIR.glob("*.tex.j2")}
    assert files and files <= set(reachable), sorted(files - set(reachable))
    for name in reachable:
        assert (TEMPLATES / name).is_file(), f"{name} is included but missing"
    assert set(reachable) == files | {TEMPLATE_NAME}  # nothing else: no stray template left (unit_roots*.tex.j2 folded in)


def test_every_lemma_label_is_defined_in_exactly_one_lemma_file_named_after_it():
    owners: dict[str, list[str]] = {}
    for path in sorted(LEMMA_DIR.glob("*.tex.j2")):
        for label in LABEL.findall(path.read_text(encoding="utf-8")):
            owners.setdefault(label, []).append(path.name)
    assert {label: names for label, names in owners.items() if len(names) != 1} == {}
    assert all(names == [f"{label}.tex.j2"] for label, names in owners.items()), owners
    # every lemma of DESIGN.md (the kernel's statement table) has its file, and every file but the fallback is a lemma
    assert set(owners) == set(LEMMAS), (set(LEMMAS) ^ set(owners))
    assert {p.name for p in LEMMA_DIR.glob("*.tex.j2")} == {f"{lid}.tex.j2" for lid in LEMMAS} | {"other.tex.j2"}


def test_the_main_template_keeps_the_skeleton_only():
    main = _text(TEMPLATE_NAME)
    assert len(main.splitlines()) < MAIN_LINES_BEFORE // 2
    main = re.sub(r"\(\(=.*?=\)\)", "", main, flags=re.S)  # template comments may name what the lemma files hold
    assert r"\begin{lemma}" not in main and r"\label{lem:" not in main and r"\renewcommand{\lemmatag}" not in main
    assert r"\begin{definition}[refutation tree]" not in main  # Definition tree belongs to Lemma LR
    for sec in ("newton", "classes", "edges", "unitroots", "graph", "hexagon", "slices", "faces", "refutations"):
        assert rf"\label{{sec:{sec}}}" not in main  # each is the section of one lemma, in its file
    # the dispatch: lemma ID goes to lemmas/ID.tex.j2, one line each, in DESIGN.md's order
    chain = re.findall(r'^\(\(\* (?:el)?if lm\.id == "(\w+)" \*\)\)\(\(\* include "lemmas/(\w+)\.tex\.j2" \*\)\)$', main, re.M)
    assert [a for a, _ in chain] == list(LEMMAS) and all(a == b for a, b in chain)


def test_lemma_files_have_a_lemma_part_and_at_most_one_section_part():
    env = _environment()
    sections = set(INCLUDE.findall(_text(TEMPLATE_NAME).split('((* set part = "section" *))')[1]))
    for path in sorted(LEMMA_DIR.glob("*.tex.j2")):
        text = path.read_text(encoding="utf-8")
        env.get_template(f"lemmas/{path.name}")  # parses with the LaTeX-safe delimiters
        assert "{%" not in text and len(INCLUDE.findall(text)) == text.count("include ")  # only LaTeX-safe tags
        if path.name == "other.tex.j2":
            continue
        assert text.count('((* if part == "lemma" *))') == 1 and text.count('((* elif part == "section" *))') <= 1
        assert (('((* elif part == "section" *))' in text) == (f"lemmas/{path.name}" in sections)), path.name
        assert text.rstrip("\n").endswith("((* endif *))")


def test_wheel_carries_the_lemma_templates():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["headfusion.templates"] == "templates"
    patterns = config["package-data"]["headfusion.templates"]
    assert any(Path("lemmas/L5.tex.j2").match(p) for p in patterns), patterns


def test_a_lemma_without_a_file_still_prints_its_statement():
    cert = json.loads(json.dumps(build_certificate(load_spec("W", 1), ["headfusion", "certify", "W", "--d", "1"])))
    plain = render_latex(cert)
    cert["claims"].insert(0, {"id": "lemma:LX", "kind": "lemma", "title": "Lemma LX (Test)", "statement": "A test statement.",
                              "uses": [], "evidence": {}})
    tex = render_latex(cert)
    assert r"\label{lem:LX}" in tex and "A test statement." in tex and r"\renewcommand{\lemmatag}{LX}" in tex
    assert tex.count(r"\begin{lemma}") == plain.count(r"\begin{lemma}") + 1
