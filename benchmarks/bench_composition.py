"""Composition: the proved lower bound before (one lemma at the top) and after (lemmas that compose), one run.

For every graph on at most 5 vertices up to isomorphism (no isolated vertex; the tournament function of its
edges oriented i < j) and the functions of the README, both sides run in the same invocation, each cell in a
fresh process:

* before: `analyze` of the baseline commit (default 2bd6055, the code before V3, V2, Theorem K and R; 749f0e0 is the code
  before LD/LH/LS/LG), checked out with `git worktree` into a temporary folder and imported from there;
* after: `analyze` of this checkout (the bound engine: L5, LK, LG, LE, LH, LS, V3, V2, K, LD recursively, R at the top).

Columns: the lower bound and the lemma that gives it on each side, the construction, whether the bounds now
meet, and the seconds of each analyze (wall clock, including the process start).  Then the acceptance
figures of the issues, each the median of --repeat runs: certify and verify of the paw, the diamond, the bowtie,
σ(q)+σ(2q)+σ(8q), K_4 and K_5, analyze of K_5 and K_6, and `search --atoms 14` on C_4.

Run: python3 benchmarks/bench_composition.py [--baseline REV] [--repeat N] [--skip-graphs]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from headfusion.spec.graph_atlas import edges_text, graphs_up_to, tournament_text

ROOT = Path(__file__).resolve().parent.parent
README_FUNCTIONS = [
    ("W_3", "W", 3),
    ("σ(q1)+σ(2q1)", "sigmoid(q1) + sigmoid(2*q1)", None),
    ("σ(q1)+σ(3q1)", "sigmoid(q1) + sigmoid(3*q1)", None),
    ("two three-atom heads", "attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])", None),
    ("σ(q1)+σ(q2)+σ(q1+q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None),
    ("σ(q1+2q2)+σ(2q1+q2)+σ(q1+q2)", "sigmoid(q1 + 2*q2) + sigmoid(2*q1 + q2) + sigmoid(q1 + q2)", None),
    ("σ(q1+1/2)+σ(2q1+1)", "sigmoid(q1 + 1/2) + sigmoid(2*q1 + 1)", None),
    ("C_6", "proofs/tournament_cycle.toml", 6),
    ("C_8", "proofs/tournament_cycle.toml", 8),
    ("K_5", "proofs/tournament_complete.toml", 5),
    ("K_6", "proofs/tournament_complete.toml", 6),
    ("two triangles", "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q4-q5) + sigmoid(q5-q6) + sigmoid(q4-q6)", None),
]

ANALYZE = """
import json, sys
from headfusion.proof.analysis import analyze
from headfusion.spec.load import load_spec
text, d = json.loads(sys.argv[1])
r = analyze(load_spec(text, d), list_atoms=False)
print(json.dumps({"lower": r["lower_bound"], "method": r["lower_bound_method"], "upper": r["upper_bound"]}))
"""

ACCEPTANCE = [  # (label, argv of headfusion, limit in seconds from the issue)
    ("certify paw", ["certify", "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q1-q3) + sigmoid(q3-q4)", "--no-pdf"], 30),
    ("certify diamond", ["certify", "proofs/tournament_diamond.toml", "--no-pdf"], 60),
    ("certify bowtie", ["certify", "sigmoid(q1-q2) + sigmoid(q1-q5) + sigmoid(q2-q5) + sigmoid(q3-q4) + sigmoid(q3-q5) + sigmoid(q4-q5)",
                        "--no-pdf"], None),
    ("certify σ(q)+σ(2q)+σ(8q)", ["certify", "sigmoid(q1) + sigmoid(2*q1) + sigmoid(8*q1)", "--no-pdf"], None),
    ("certify K_4", ["certify", "proofs/tournament_complete.toml", "--d", "4", "--no-pdf"], None),
    ("certify K_5", ["certify", "proofs/tournament_complete.toml", "--d", "5", "--no-pdf"], 120),
    ("analyze K_5", ["analyze", "proofs/tournament_complete.toml", "--d", "5", "--no-atoms-list"], 60),
    ("analyze K_6", ["analyze", "proofs/tournament_complete.toml", "--d", "6", "--no-atoms-list"], 60),
    ("search C_4 --atoms 14", ["search", "proofs/tournament_cycle.toml", "--d", "4", "--atoms", "14"], 5),
]


def graphs() -> list[tuple[str, str]]:
    """(label, expression) for every graph on at most 5 vertices, up to isomorphism, with no isolated vertex (`atlas --graphs 5`'s order)."""
    return [(f"G{k}: {edges_text(edges)}", tournament_text(edges)) for k, edges in enumerate(graphs_up_to(5), 1)]


def cell(src: Path, text: str, d: int | None) -> tuple[dict | None, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", ANALYZE, json.dumps([text, d])], capture_output=True, text=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - start
    if done.returncode:
        return None, seconds
    return json.loads(done.stdout.strip().splitlines()[-1]), seconds


def short(method: str | None) -> str:
    """'rigid-edges (LE)' -> 'LE', 'newton-polytope (L4, L5)' -> 'L5', 'slices (LS, LM)' -> 'LS'."""
    if not method or "(" not in method:
        return str(method)
    names = [n.strip() for n in method.split("(")[-1].rstrip(")").split(",")]
    return "L5" if names[0] == "L4" else names[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="2bd6055")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-graphs", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.baseline], check=True)
        try:
            rows = ([] if args.skip_graphs else graphs()) + [(label, text) for label, text, _ in README_FUNCTIONS]
            ds = {label: d for label, _, d in README_FUNCTIONS}
            print(f"| function | before ({args.baseline}) | after | upper | before s | after s |")
            print("|---|---|---|---|---|---|")
            raised = meets = 0
            for label, text in rows:
                before, t0 = cell(base / "src", text, ds.get(label))
                after, t1 = cell(ROOT / "src", text, ds.get(label))
                if before is None or after is None:
                    print(f"| {label} | {'—' if before is None else before['lower']} | {'—' if after is None else after['lower']} | | {t0:.1f} | {t1:.1f} |")
                    continue
                up = after["lower"] > before["lower"]
                raised += up
                meets += after["lower"] == after["upper"] and before["lower"] < before["upper"]
                mark = " **↑**" if up else ""
                print(f"| {label} | {before['lower']} ({short(before['method'])}) | {after['lower']} ({short(after['method'])}){mark} "
                      f"| {after['upper']} | {t0:.1f} | {t1:.1f} |", flush=True)
            print(f"\n{raised} of {len(rows)} bounds raised; {meets} now meet the construction.\n")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    print("| acceptance | median s | runs | limit |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as out:
        for label, argv, limit in ACCEPTANCE:
            times = []
            for _ in range(args.repeat):
                extra = ["--out", out] if argv[0] == "certify" else []
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "headfusion", *argv, *extra, "-q"], cwd=ROOT, capture_output=True, check=True)
                times.append(time.perf_counter() - start)
            print(f"| {label} | {statistics.median(times):.2f} | {', '.join(f'{t:.1f}' for t in times)} | {limit or '—'} |", flush=True)
            if argv[0] == "certify":
                for path in sorted(Path(out).glob("*.json")):
                    start = time.perf_counter()
                    subprocess.run([sys.executable, "-m", "headfusion", "verify", str(path)], cwd=ROOT, capture_output=True, check=True)
                    print(f"| verify {label[8:]} | {time.perf_counter() - start:.2f} | 1 | {10 if 'paw' in label or 'diamond' in label else '—'} |")
                    path.unlink()


if __name__ == "__main__":
    main()
