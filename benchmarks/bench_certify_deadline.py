"""certify under a time limit, before and after (issue 38 item 4): exit code, seconds, and whether a verified certificate is left.

Two functions of issue 38: the five-scale biased sum σ(q)+σ(3q)+σ(4q+log ½)+σ(6q+log 3)+σ(7q+log 2) with
`--timeout 60` (before: exit 2 after 60 s, nothing written), and a 2-D sum of three heads with log 2 biases whose
lowest-terms evidence needs Bezout identities (sympy's gcdex over Q(t) before, flint's xgcd over Q after), with
`--no-search`.  "Before" is a git ref checked out in a temporary worktree (default: main), "after" this checkout;
both run as `python -m headfusion` in fresh processes, alternately, `--repeat` times; the table gives medians.
Run it with this checkout's own environment (its editable install gives "after" its templates).

    python benchmarks/bench_certify_deadline.py                 # before = main
    python benchmarks/bench_certify_deadline.py --before HEAD~3 --repeat 1
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

ROOT = Path(__file__).resolve().parent.parent
FIVE = "sigmoid(q1) + sigmoid(3*q1) + sigmoid(4*q1+log(1/2)) + sigmoid(6*q1+log(3)) + sigmoid(7*q1+log(2))"
TWO_D = ("attn([-3*q1 + 4*q2, -1*q1 + -4*q2 + log(2), 2*q1 + 2*q2 + log(2)], [-1, -2, 1]) + attn([-5*q1 + 1*q2 + log(2), "
         "4*q1 + -5*q2 + log(2), -1*q1 + -2*q2], [0, -2, -2]) + attn([-5*q1 + 5*q2, 1*q1 + 5*q2, 1*q1 + -5*q2], [1, 1, 2])")
CASES = [("five scales, --timeout 60", [FIVE, "--timeout", "60"]), ("2-D, log 2 biases, --no-search", [TWO_D, "--no-search", "--timeout", "600"])]


def run(src: Path, argv: list[str], out: Path) -> dict:
    """One certify in a fresh process with `src` first on the path: exit code, seconds, verified certificate or not."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "headfusion", "certify", *argv, "--no-pdf", "--quiet", "--out", str(out), "--json"],
                          capture_output=True, text=True, env=env, cwd=src.parent)
    seconds = time.monotonic() - began
    verified, answer = False, "-"
    if done.returncode == 0:
        data = json.loads(done.stdout)
        answer = data.get("answer_kind", "-")
        check = subprocess.run([sys.executable, "-m", "headfusion", "verify", data["files"]["json"], "--quiet"],
                               capture_output=True, text=True, env=env, cwd=src.parent)
        verified = check.returncode == 0
    return {"code": done.returncode, "seconds": seconds, "verified": verified, "answer": answer}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git ref of the code before (a temporary worktree)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(before), args.before], cwd=ROOT, check=True, capture_output=True)
        # the templates of the code before (an editable install maps headfusion.templates to this checkout's folder)
        (before / "src" / "headfusion" / "templates").symlink_to(before / "templates", target_is_directory=True)
        try:
            trees = {"before": before / "src", "after": ROOT / "src"}
            rows = []
            for name, argv in CASES:
                runs: dict[str, list[dict]] = {"before": [], "after": []}
                for i in range(args.repeat):
                    for side in ("before", "after"):  # alternately: the machine's noise falls on both
                        runs[side].append(run(trees[side], argv, Path(tmp) / f"{side}{i}"))
                rows.append((name, runs))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, capture_output=True)
    print(f"| case | side | exit codes | median s | certificate verified | answer |\n|---|---|---|---|---|---|")
    for name, runs in rows:
        for side, found in runs.items():
            codes = ",".join(str(r["code"]) for r in found)
            median = statistics.median(r["seconds"] for r in found)
            verified = sum(r["verified"] for r in found)
            print(f"| {name} | {side} | {codes} | {median:.1f} | {verified} of {len(found)} | {found[-1]['answer']} |")
        ratio = statistics.median(r["seconds"] for r in runs["before"]) / statistics.median(r["seconds"] for r in runs["after"])
        print(f"| {name} | before/after | | {ratio:.2f}x | | |")


if __name__ == "__main__":
    main()
