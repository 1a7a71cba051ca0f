"""Every atlas row decided by residue classes, 2-adic classes, class Descartes, Pβ, P4 or unit roots, re-checked by Coq.

For each row of the named atlases (docs/atlas/NAME.json) whose lower bound is claimed by lower:classes, lower:two-adic,
lower:pair-biased, lower:two-scales or lower:unit-roots: the certificate (no search), `export --coq`, and coqc on the file alone.  Prints,
per atlas and per lemma axiom, how many rows Coq proves with the atlas's bounds and exactly the cited axioms, and the
median and largest coqc CPU seconds (user + system of the child: the machine is shared).  About 2.5 s a row.
Run: python3 benchmarks/coq_atlas.py sigmoid-quadruples-8 sigmoid-biased-pairs-6 sigmoid-biased-triples-5 sigmoid-pairs-12
"""

from __future__ import annotations

import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

from headfusion.export.coq import LIBRARY, export_coq
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


def main(names: list[str]) -> None:
    library = Path(tempfile.mkdtemp(prefix="coq_atlas_"))
    for name in LIBRARY:
        shutil.copy(ROOT / "src" / "headfusion" / "export" / "coq" / name, library / name)
        coqc(library, name)
    print("| atlas | lemma axiom | rows | Coq proves the atlas's bounds, exactly the cited axioms | coqc s (CPU) median | max |")
    print("|---|---|---|---|---|---|")
    for name in names:
        atlas = json.loads((ROOT / "docs" / "atlas" / f"{name}.json").read_text(encoding="utf-8"))
        groups: dict[str, list[tuple[bool, float]]] = {}
        for row in atlas["rows"]:
            if row.get("claim") not in CLAIMS:
                continue
            spec = atlas["spec"]
            for key, value in row["point"].items():
                spec = re.sub(rf"\b{key}\b", str(value), spec)
            cert = json.loads(json.dumps(build_certificate(load_spec(spec), ["headfusion", "certify", spec])))
            out = export_coq(cert)
            (library / "A.v").write_text(out.text, encoding="utf-8")
            run, cpu = coqc(library, "A.v")
            listed = {m.group(1) for m in re.finditer(r"^([A-Za-z_][\w.']*)(?:\s*:|$)", run.stdout.partition("Axioms:")[2], re.M)}
            good = run.returncode == 0 and listed == REALS | set(out.axioms) and (out.lower, out.upper) == (row["lower"], row["upper"])
            if not good:
                print(f"not proved: {spec} ({out.lower}, {out.upper}; {out.left_out}) {run.stderr[-200:]}", flush=True)
            lemma = next((a for a in LEMMAS if a in out.axioms), "none")
            groups.setdefault(lemma, []).append((good, cpu))
        for lemma, results in sorted(groups.items()):
            times = [cpu for _, cpu in results]
            print(f"| {name} | {lemma} | {len(results)} | {sum(ok for ok, _ in results)} | {median(times):.2f} | {max(times):.2f} |", flush=True)
    shutil.rmtree(library)


if __name__ == "__main__":
    main(sys.argv[1:])
