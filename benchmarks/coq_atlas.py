"""Every atlas row decided by residue classes, 2-adic classes, class Descartes, Pβ, P4 or unit roots, re-checked by Coq.

For each row of the named atlases (docs/atlas/NAME.json) whose lower bound is claimed by lower:classes, lower:two-adic,
lower:pair-biased, lower:two-scales or lower:unit-roots: the certificate (no search), `export --coq`, and coqc on the file alone.  Prints,
per atlas and per lemma axiom, how many rows Coq proves with the atlas's bounds and exactly the cited axioms, and the
median and largest coqc CPU seconds (user + system of the child: the machine is shared).  About 2.5 s a row.
Run: python3 benchmarks/coq_atlas.py sigmoid-quadruples-8 sigmoid-biased-pairs-6 sigmoid-biased-triples-5 sigmoid-pairs-12

With --trees, the rows whose claim is search:mM (a refutation tree, Lemma LR) instead: each row's function is
certified with the search exactly as `headfusion atlas` does (proof.atlas.certify_point, with the atlas's default
--search-timeout 60 and --top-timeout = --search-timeout unless given), exported and checked by coqc.  A row whose
certify does not reach the atlas's bounds and claim within its limits is counted as "not reached", never as a Coq
failure.  A row that certify now decides with the atlas's bounds by a lemma added since the atlas was made (V2 on
sigmoid-triples-8) is certified again with the lemmas off (`certify --trees-only`), so that its tree is the one checked,
and counted on a line of its own.  --rows A..B keeps the atlas rows A to B (1-based, in the atlas's order) before the claim filter.
Run: python3 benchmarks/coq_atlas.py --trees sigmoid-triples-8
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

from headfusion.export.coq import LIBRARY, CoqFile, export_coq
from headfusion.proof.atlas import atlas_spec, certify_point, member, row_of
from headfusion.proof.certify import certify
from headfusion.proof.claims import build_certificate
from headfusion.spec.load import load_spec

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ("lower:classes", "lower:two-adic", "lower:pair-biased", "lower:two-scales",
          "lower:unit-roots")
LEMMAS = ("LK_classes", "CD_classes", "V2_two_adic", "P_beta", "P4_two_scales",
          "LU_unit_roots")
REALS = {"ClassicalDedekindReals.sig_not_dec", "ClassicalDedekindReals.sig_forall_dec",
         "FunctionalExtensionality.functional_extensionality_dep"}


def coqc(folder: Path, name: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """The run and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(["coqc", "-Q", ".", "HF", name], cwd=folder, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return run, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def checked(library: Path, out: CoqFile, row: dict, label: str) -> tuple[bool, float]:
    """Write the export, run coqc on it: (Coq proves the row's bounds with exactly the cited axioms, coqc CPU seconds)."""
    (library / "A.v").write_text(out.text, encoding="utf-8")
    run, cpu = coqc(library, "A.v")
    listed = {m.group(1) for m in re.finditer(r"^([A-Za-z_][\w.']*)(?:\s*:|$)", run.stdout.partition("Axioms:")[2], re.M)}
    good = run.returncode == 0 and listed == REALS | set(out.axioms) and (out.lower, out.upper) == (row["lower"], row["upper"])
    if not good:
        print(f"not proved: {label} ({out.lower}, {out.upper}; {out.left_out}) {run.stderr[-200:]}", flush=True)
    return good, cpu


def lemma_rows(library: Path, name: str, atlas: dict, rows: list[dict]) -> None:
    """The rows decided by a lemma without search: one table row per atlas and lemma axiom."""
    groups: dict[str, list[tuple[bool, float]]] = {}
    for row in rows:
        if row.get("claim") not in CLAIMS:
            continue
        spec = atlas["spec"]
        for key, value in row["point"].items():
            spec = re.sub(rf"\b{key}\b", str(value), spec)
        cert = json.loads(json.dumps(build_certificate(load_spec(spec), ["headfusion", "certify", spec])))
        out = export_coq(cert)
        lemma = next((a for a in LEMMAS if a in out.axioms), "none")
        groups.setdefault(lemma, []).append(checked(library, out, row, spec))
    for lemma, results in sorted(groups.items()):
        times = [cpu for _, cpu in results]
        print(f"| {name} | {lemma} | {len(results)} | {sum(ok for ok, _ in results)} | {median(times):.2f} | {max(times):.2f} |", flush=True)


def tree_rows(library: Path, name: str, atlas: dict, rows: list[dict], search_timeout: float, top_timeout: float | None) -> None:
    """The rows decided by a refutation tree (claim search:mM): certified with the search as the atlas did, then coqc."""
    groups: dict[str, tuple[list[tuple[bool, float]], list[str]]] = {}
    for row in rows:
        claim = row.get("claim") or ""
        if not claim.startswith("search:m"):
            continue
        label = ",".join(f"{k}={v}" for k, v in row["point"].items())
        results, missed = groups.setdefault(claim, ([], []))
        point = certify_point(atlas["spec"], atlas["ranges"], row["point"], search_timeout, top_timeout)
        cert, got = point["certificate"], point["row"]
        if cert is not None and (got["lower"], got["upper"]) == (row["lower"], row["upper"]) and got["claim"] != claim:
            # a lemma added since the atlas was made now decides the row: its tree is certified without the lemmas
            print(f"now {got['claim']}: {label}; its tree certified with --trees-only", flush=True)
            results, missed = groups.setdefault(f"{claim}, --trees-only (now {got['claim']})", ([], []))
            spec = member(atlas_spec(atlas["spec"], atlas["ranges"]), row["point"])
            cert = certify(spec, ["headfusion", "certify", "--trees-only", spec.text], search=True, search_timeout=search_timeout,
                           top_timeout=top_timeout, lemmas=False).certificate
            got = row_of(row["point"], cert)
        if cert is None or (got["lower"], got["upper"], got["claim"]) != (row["lower"], row["upper"], claim):
            print(f"not reached: {label} ({got['lower']}, {got['upper']}, {got['claim']}, {got['status']})", flush=True)
            missed.append(label)
            continue
        results.append(checked(library, export_coq(json.loads(json.dumps(cert))), row, label))
    for claim, (results, missed) in sorted(groups.items()):
        times = [cpu for _, cpu in results] or [0.0]
        print(f"| {name} | {claim} (tree, LR) | {len(results) + len(missed)} | {len(results)} | {sum(ok for ok, _ in results)} "
              f"| {median(times):.2f} | {max(times):.2f} | {len(missed)} |", flush=True)


def main(argv: list[str]) -> None:
    """Parse the options, compile the library once, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("names", nargs="+", help="atlases: docs/atlas/NAME.json")
    parser.add_argument("--trees", action="store_true", help="the rows whose claim is search:mM (certify with the search)")
    parser.add_argument("--rows", default=None, metavar="A..B", help="only the atlas rows A to B (1-based)")
    parser.add_argument("--search-timeout", type=float, default=60.0, help="certify's seconds per question (the atlas's default)")
    parser.add_argument("--top-timeout", type=float, default=None, help="seconds of the deciding question (default: --search-timeout)")
    args = parser.parse_args(argv)
    first, _, last = (args.rows or "1..").partition("..")
    library = Path(tempfile.mkdtemp(prefix="coq_atlas_"))
    for name in LIBRARY:
        shutil.copy(ROOT / "src" / "headfusion" / "export" / "coq" / name, library / name)
        coqc(library, name)
    if args.trees:
        print("| atlas | claim | rows | reached by certify | Coq proves the atlas's bounds, exactly the cited axioms "
              "| coqc s (CPU) median | max | not reached |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print("| atlas | lemma axiom | rows | Coq proves the atlas's bounds, exactly the cited axioms | coqc s (CPU) median | max |")
        print("|---|---|---|---|---|---|")
    for name in args.names:
        atlas = json.loads((ROOT / "docs" / "atlas" / f"{name}.json").read_text(encoding="utf-8"))
        rows = atlas["rows"][int(first) - 1:int(last) if last else None]
        if args.trees:
            tree_rows(library, name, atlas, rows, args.search_timeout, args.top_timeout)
        else:
            lemma_rows(library, name, atlas, rows)
    shutil.rmtree(library)


if __name__ == "__main__":
    main(sys.argv[1:])
