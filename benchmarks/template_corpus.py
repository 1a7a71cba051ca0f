"""A corpus of certificate documents (.json and .tex) that exercises every section of the LaTeX template.

Made for template refactors (issue 31: templates/lemmas/): produce the corpus with the code before the
change, again after it, and compare the two folders byte for byte.

    python benchmarks/template_corpus.py make OUT_BEFORE      # with the old code
    python benchmarks/template_corpus.py make OUT_AFTER       # with the new code
    python benchmarks/template_corpus.py compare OUT_BEFORE OUT_AFTER
    python benchmarks/template_corpus.py rerender OUT_BEFORE  # re-render every stored .json, compare with its .tex

`make` runs `headfusion certify ... --no-pdf` for each entry of CERTIFY (one subfolder per entry, the
files named after the entry) and writes a few certificates built in-process (SYNTHETIC: refutation trees in
full and summarised, solver testimony, hostile user text). `rerender` needs no solver: it renders each stored
JSON again with `render_latex` (the template alone), so it is the quick check after editing a template.
Output is deterministic (no --timings), so any difference is a change in the document.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

# (name, certify arguments): together they print every lemma (L1–L5, LP, LC, LB, LZ, LK, LE, LM, LH, LS,
# LD, LG, LU, TP, LF, LR) and every section of the template (classes, edges, unit roots, graphs, hexagon,
# slices, faces, refutations, testimony, the TOML source, a summarised large family, transcendental weights).
CERTIFY: list[tuple[str, list[str]]] = [
    ("W3", ["W", "--d", "3"]),
    ("W1000", ["W", "--d", "1000", "--no-search"]),
    ("W_every", ["W", "--every-d"]),
    ("sigmoid2", ["sigmoid(q1)+sigmoid(2*q1)"]),
    ("sigmoid3", ["sigmoid(q1)+sigmoid(3*q1)"]),
    ("pairs", ["sigmoid(a*q1) + sigmoid(b*q1)", "--every", "a,b"]),
    ("triangle", ["sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)"]),
    ("K4", ["sigmoid(q1-q2)+sigmoid(q1-q3)+sigmoid(q1-q4)+sigmoid(q2-q3)+sigmoid(q2-q4)+sigmoid(q3-q4)"]),
    ("K3_pair", ["sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q4) + sigmoid(3*q4)"]),
    ("bowtie", ["sigmoid(q1-q2)+sigmoid(q1-q5)+sigmoid(q2-q5)+sigmoid(q3-q4)+sigmoid(q3-q5)+sigmoid(q4-q5)"]),
    ("paw", ["sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q3-q4)"]),
    ("two_triangles", ["sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q4-q5) + sigmoid(q5-q6) + sigmoid(q4-q6)"]),
    ("three_atom", ["attn([0,q1,2*q1],[0,1,3]) + attn([0,q2,2*q2],[0,1,3])"]),
    ("tree_shift", ["sigmoid(q1) + sigmoid(3*q1 + log(2))"]),  # a refutation tree excludes 3
    ("tree_image", ["sigmoid(q1+2*q2) + sigmoid(2*q1+q2) + sigmoid(q1+q2)"]),  # image leaves under q1 <-> q2
    ("vertices", ["sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)"]),
    ("bezout", ["attn([0,q1,q2],[1,2,5]) + sigmoid(q1)"]),
    ("transcendental", ["sigmoid(q1/2 + log(3)) + 1/2 + tanh(q2+1)"]),
    ("transcendental2", ["sigmoid(q1+1/2)+sigmoid(2*q1-1/3)"]),
    ("diamond", ["proofs/tournament_diamond.toml"]),
    ("cycle3", ["proofs/tournament_cycle.toml", "--d", "3"]),
    ("cycle4", ["proofs/tournament_cycle.toml", "--d", "4"]),
    ("cycle_every", ["proofs/tournament_cycle.toml", "--every-d"]),
    ("complete4", ["proofs/tournament_complete.toml", "--d", "4"]),
    ("path", ["proofs/tournament_path.toml"]),
    ("star", ["proofs/tournament_star.toml"]),
    ("sigmoid_sum", ["proofs/sigmoid_sum.toml"]),
    ("tanh_sum", ["proofs/tanh_sum.toml"]),
    ("shifted_sigmoid_sum", ["proofs/shifted_sigmoid_sum.toml"]),
    ("weighted_sigmoid_sum", ["proofs/weighted_sigmoid_sum.toml"]),
    ("shared_direction_sum", ["proofs/shared_direction_sum.toml"]),
    ("three_atom_sum", ["proofs/three_atom_sum.toml"]),
    ("two_keys_one_axis", ["proofs/two_keys_one_axis.toml"]),
]

EVIL = r"\input{/etc/passwd} $x$ 50% a_b #1 & ~ ^ {} <|> σ"


def _search_cert() -> dict:
    """sigmoid(q1) + sigmoid(2*q1) with refutation trees for m = 2, 3, solver testimony and an undecided search (as tests/test_render.py)."""
    from headfusion.algebra.expform import combined_polys, exponential_form
    from headfusion.proof.claims import build_certificate
    from headfusion.solving.refute import refute
    from headfusion.spec.load import load_spec

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
    return json.loads(json.dumps(build_certificate(spec, ["headfusion", "certify"], search_results=results)))


def _evil_cert() -> dict:
    """W_3 with hostile user text in every field a user writes (escaping)."""
    from headfusion.proof.claims import build_certificate
    from headfusion.spec.load import load_spec

    cert = json.loads(json.dumps(build_certificate(load_spec("W", 3), ["headfusion", "certify", "W", "--d", "3"])))
    cert["spec"]["title"] = EVIL
    cert["spec"]["text"] = EVIL
    cert["model"]["heads"][0]["label"] = EVIL
    cert["metadata"]["command"] = ["headfusion", "certify", EVIL]
    cert["spec"]["source"] = EVIL + "\n  indented " + EVIL + "\n\\end{document}"
    return cert


def _write(folder: Path, name: str, cert: dict, max_full_leaves: int | None = None) -> None:
    from headfusion.render import search
    from headfusion.render.latex import render_latex

    saved = search.MAX_FULL_LEAVES
    if max_full_leaves is not None:
        search.MAX_FULL_LEAVES = max_full_leaves  # the trees of _search_cert have 4 and 8 leaves: summarised
    try:
        tex = render_latex(cert, name)
    finally:
        search.MAX_FULL_LEAVES = saved
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(cert, indent=1) + "\n", encoding="utf-8")
    (folder / f"{name}.tex").write_text(tex, encoding="utf-8")
    if max_full_leaves is not None:
        (folder / "MAX_FULL_LEAVES").write_text(f"{max_full_leaves}\n")


def make(out: Path, only: set[str] | None) -> int:
    """Certify every corpus entry into out/<name>/ (no PDF) and write the synthetic certificates."""
    from headfusion.cli import main

    repo = Path(__file__).resolve().parent.parent
    failures = 0
    for name, args in CERTIFY:
        if only and name not in only:
            continue
        args = [str(repo / a) if a.startswith("proofs/") else a for a in args]
        start = time.time()
        code = main(["certify", *args, "--no-pdf", "-q", "--out", str(out / name), "--name", name])
        print(f"{name:22s} exit {code}  {time.time() - start:6.1f} s", file=sys.stderr)
        failures += code != 0
    synthetic = {"search": lambda d: _write(d, "search", _search_cert()),
                 "search_summarised": lambda d: _write(d, "search_summarised", _search_cert(), max_full_leaves=2),
                 "evil": lambda d: _write(d, "evil", _evil_cert())}
    for name, produce in synthetic.items():
        if only and name not in only:
            continue
        produce(out / name)
        print(f"{name:22s} written", file=sys.stderr)
    return 1 if failures else 0


def compare(a: Path, b: Path) -> int:
    """Compare every file of two corpus folders byte for byte; print the differing or missing ones."""
    files_a = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    files_b = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    bad = sorted(str(p) + " (missing on one side)" for p in files_a ^ files_b)
    bad += sorted(str(p) for p in files_a & files_b if (a / p).read_bytes() != (b / p).read_bytes())
    for line in bad:
        print("DIFFERS", line)
    print(f"{len(files_a & files_b)} files compared, {len(bad)} differ")
    return 1 if bad else 0


def rerender(folder: Path) -> int:
    """Render every stored JSON of a corpus again and compare with the stored .tex (template check, no solver)."""
    from headfusion.render import search
    from headfusion.render.latex import render_latex

    bad = 0
    count = 0
    saved = search.MAX_FULL_LEAVES
    for json_path in sorted(folder.rglob("*.json")):
        limit = json_path.parent / "MAX_FULL_LEAVES"
        search.MAX_FULL_LEAVES = int(limit.read_text()) if limit.exists() else saved
        try:
            tex = render_latex(json.loads(json_path.read_text(encoding="utf-8")), json_path.stem)
        finally:
            search.MAX_FULL_LEAVES = saved
        count += 1
        if tex.encode("utf-8") != json_path.with_suffix(".tex").read_bytes():
            print("DIFFERS", json_path.with_suffix(".tex"))
            bad += 1
    print(f"{count} documents re-rendered, {bad} differ")
    return 1 if bad or not count else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_make = sub.add_parser("make", help="certify the corpus into OUT")
    p_make.add_argument("out", type=Path)
    p_make.add_argument("--only", help="comma-separated entry names")
    p_cmp = sub.add_parser("compare", help="compare two corpus folders byte for byte")
    p_cmp.add_argument("a", type=Path)
    p_cmp.add_argument("b", type=Path)
    p_re = sub.add_parser("rerender", help="re-render every stored JSON and compare with its .tex")
    p_re.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.command == "make":
        return make(args.out, set(args.only.split(",")) if args.only else None)
    if args.command == "compare":
        return compare(args.a, args.b)
    return rerender(args.folder)


if __name__ == "__main__":
    sys.exit(main())
