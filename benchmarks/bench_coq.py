"""coqc against `headfusion verify`: the same certificates checked by Coq's kernel and by the project's kernel.

For W_3 … W_10 and the acceptance corpus of issue 40, one run each: `certify` (not timed), `headfusion verify`
and, after `export --coq`, coqc on the exported file alone — both as CPU seconds of the child processes
(user + system: the machine is shared, wall clock would measure the load), and verify's wall clock beside
it; the library HF*.v is compiled once beforehand and reported on its own line.  The
theorem column is what the Coq file proves.  Run: python3 benchmarks/bench_coq.py [labels]
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = [(f"W_{d}", "W", d) for d in range(3, 11)] + [
    ("σ(q)+σ(2q)+σ(3q)", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1)", None),
    ("σ(q)+σ(2q)+σ(3q)+σ(6q)", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1) + sigmoid(6*q1)", None),
    ("σ(q1)+σ(q2)+σ(q1+q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None),
    ("σ(q1)+σ(q2)+σ(q1+q2) --trees-only", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None),  # interior and image leaves
    ("diamond", str(ROOT / "proofs" / "tournament_diamond.toml"), None),
    ("paw", "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q3-q4)", None),
    ("σ(q)+σ(2q)+σ(8q)", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(8*q1)", None),
    ("σ(q)+σ(2q)+σ(4q)+σ(8q)", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(4*q1) + sigmoid(8*q1)", None),
    ("two 3-atom heads", "attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])", None),
    ("σ(q)+σ(2q)+σ(2q+log 3)", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(2*q1+log(3))", None),
    ("σ(q+log 3)+σ(2q+log 5)+σ(4q+log 7)", "sigmoid(q1+log(3)) + sigmoid(2*q1+log(5)) + sigmoid(4*q1+log(7))", None),
    ("1/2+σ(3q+log 2)−σ(7q)", "1/2 + sigmoid(3*q1+log(2)) - sigmoid(7*q1)", None),
    ("C_4 (LG)", "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q3-q4) + sigmoid(q1-q4)", None),
    ("K_4 (K35)", "sigmoid(q1-q2) + sigmoid(q1-q3) + sigmoid(q1-q4) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q3-q4)", None),
    ("graphs-5 row 29 (V3, W14)", "sigmoid(q1-q3) + sigmoid(q1-q4) + sigmoid(q1-q5) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q2-q5) + sigmoid(q3-q5)", None),
    ("graphs-5 row 26 (LD)", "sigmoid(q1-q5) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q2-q5) + sigmoid(q3-q4) + sigmoid(q3-q5) + sigmoid(q4-q5)", None),
    ("graphs-6 row 82 (LD, nested)", " + ".join(f"sigmoid(q{e[0]}-q{e[1]})" for e in "12 13 14 15 16 23 24 34".split()), None),
]


def cpu_of(command: list[str], cwd: Path) -> tuple[int, float]:
    """(exit code, CPU seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = subprocess.run(command, cwd=cwd, capture_output=True, text=True).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return code, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main(labels: list[str]) -> None:
    hf = [sys.executable, "-m", "headfusion"]
    work = Path(tempfile.mkdtemp(prefix="bench_coq_"))
    library = work / "coq"
    library.mkdir()
    from headfusion.export.coq import LIBRARY

    for name in LIBRARY:
        shutil.copy(ROOT / "src" / "headfusion" / "export" / "coq" / name, library / name)
    total = sum(cpu_of(["coqc", "-Q", ".", "HF", name], library)[1] for name in LIBRARY)
    print(f"library HF*.v compiled once: {total:.1f} s CPU\n")
    print("| function | certificate | Coq theorem | verify s (CPU) | verify s (wall) | coqc s (CPU) | coqc / verify (CPU) |")
    print("|---|---|---|---|---|---|---|")
    for label, spec, d in CORPUS:
        if labels and label not in labels:
            continue
        args = hf + ["certify", spec, "--out", str(work), "--no-pdf", "-q", "--name", "c"] + (["--d", str(d)] if d else [])
        args += ["--trees-only"] if label.endswith("--trees-only") else []
        subprocess.run(args, check=True, capture_output=True)
        summary = json.loads((work / "c.json").read_text(encoding="utf-8"))["summary"]
        start = time.perf_counter()
        code, verify = cpu_of(hf + ["verify", str(work / "c.json"), "-q"], work)
        wall = time.perf_counter() - start
        assert code == 0
        exported = json.loads(subprocess.run(hf + ["export", "--coq", str(work / "c.json"), "--out", str(library), "--json"],
                                             check=True, capture_output=True, text=True).stdout)
        code, coq = cpu_of(["coqc", "-Q", ".", "HF", exported["file"]], library)
        lo, up = exported["lower"], exported["upper"]
        theorem = "rejected" if code else (f"m* = {up}" if lo == up else f"{lo or '—'} ≤ m* ≤ {up}")
        stated = f"{summary['lower_bound']} ≤ m* ≤ {summary['upper_bound']} ({summary['lower_bound_claim']})"
        print(f"| {label} | {stated} | {theorem} | {verify:.2f} | {wall:.2f} | {coq:.2f} | {coq / verify:.1f}× |", flush=True)
    shutil.rmtree(work)


if __name__ == "__main__":
    main(sys.argv[1:])
