"""Before/after benchmark of 1-D refutations: Σ σ(a_i q) over quadruples at m = #subset sums − 1 (issue 38, item 6).

    python benchmarks/bench_line_refute.py [--baseline REV] [--cap SECONDS] [--only a,b,c,d@m ...]

Each case runs `solving.refute.refute` (its kernel replay included) in a child process, once with the code of
REV (default: the main worktree's HEAD, extracted with `git archive` into a temporary folder) and once with this
checkout, one after the other, under the same wall-clock cap.  The table gives the status, the CPU seconds of the
child (less sensitive than wall time to the other jobs of a shared machine), the wall seconds, the tree's nodes and
the LP solves; a "unknown" row shows how far the search got.  The last lines give the ratios (baseline / now).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CASES = [((2, 3, 5, 8), 11), ((1, 3, 4, 5), 11), ((1, 2, 4, 5), 12), ((2, 3, 4, 5), 12), ((1, 2, 3, 7), 13)]

CHILD = r"""
import json, sys, time
from headfusion.algebra.expform import exponential_form
from headfusion.proof.certify import kernel_question
from headfusion.solving.refute import refute
from headfusion.spec.load import load_spec
scales, m, cap = json.loads(sys.argv[1])
P, Q, vertices = kernel_question(exponential_form(load_spec(" + ".join(f"sigmoid({a}*q1)" for a in scales)).model))
cpu, wall = time.process_time(), time.monotonic()
result = refute(P, Q, m, deadline=time.time() + cap, vertices=vertices)
print(json.dumps({"status": result.status, "cpu": time.process_time() - cpu, "wall": time.monotonic() - wall,
                  "nodes": result.stats.get("nodes", 0), "lps": result.stats.get("lp_solves", 0),
                  "reason": result.stats.get("reason")}))
"""


def extract(rev: str, folder: Path) -> Path:
    """The source tree of `rev` (its src/ and templates/), from `git archive`."""
    archive = folder / "base.tar"
    with open(archive, "wb") as out:
        subprocess.run(["git", "-C", str(HERE), "archive", rev, "src", "templates"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "base", filter="data")
    return folder / "base" / "src"


def run(src: Path, scales: tuple[int, ...], m: int, cap: float) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps([list(scales), m, cap])], env=env,
                          capture_output=True, text=True, timeout=cap + 120)
    if done.returncode != 0:
        return {"status": "error", "cpu": 0.0, "wall": 0.0, "nodes": 0, "lps": 0, "reason": done.stderr.strip()[-80:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = subprocess.run(["git", "-C", "/work/main", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip() or "HEAD"
    parser.add_argument("--baseline", default=default, help="git revision of the baseline (default: the main worktree's HEAD)")
    parser.add_argument("--cap", type=float, default=300.0, help="wall-clock seconds per run")
    parser.add_argument("--only", nargs="*", default=[], help="cases as a,b,c,d@m")
    args = parser.parse_args()
    cases = [(tuple(int(v) for v in c.split("@")[0].split(",")), int(c.split("@")[1])) for c in args.only] or CASES
    print(f"baseline {args.baseline[:12]}, now {HERE}; cap {args.cap:g} s per run")
    header = f"{'scales':14} {'m':>3} | {'before':22} {'cpu s':>7} {'wall s':>7} {'nodes':>8} {'LPs':>6} | {'now':8} {'cpu s':>7} {'wall s':>7} {'nodes':>8} {'LPs':>6}"
    print(header)
    print("-" * len(header))
    ratios, node_ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        base = extract(args.baseline, Path(tmp))
        for scales, m in cases:
            before = run(base, scales, m, args.cap)
            now = run(HERE / "src", scales, m, args.cap)
            shown = before["status"] + (f" ({before['reason']})" if before["reason"] else "")
            print(f"{str(scales):14} {m:>3} | {shown[:22]:22} {before['cpu']:>7.1f} {before['wall']:>7.1f} {before['nodes']:>8} {before['lps']:>6} | "
                  f"{now['status']:8} {now['cpu']:>7.1f} {now['wall']:>7.1f} {now['nodes']:>8} {now['lps']:>6}", flush=True)
            if before["status"] == now["status"] == "unsat":
                ratios.append(before["cpu"] / max(now["cpu"], 1e-9))
                node_ratios.append(before["nodes"] / max(now["nodes"], 1))
    if ratios:
        print(f"where both refute: CPU time before/now median {statistics.median(ratios):.2f}x, nodes before/now median {statistics.median(node_ratios):.2f}x")


if __name__ == "__main__":
    main()
