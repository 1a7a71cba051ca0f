"""Structure before search: certify with the lemmas LK and LE against the refutation tree alone.

For every proved minimum of the README's table, the cycles C_4..C_6 and C_8, K_4 and two
controls, both sides run in one invocation, each cell in a fresh process (wall clock, with a
cap), the "with lemmas" side the median of --repeat runs:

* lemmas: `certify` as shipped (Newton, face limits, residue classes LK, rigid edges LE; the
  search only above the strongest bound), then the kernel's replay of the certificate;
* tree alone: `certify(..., lemmas=False)` — the search starts at the Newton/face bound and
  every further atom needs a replayed refutation tree (what the tool did before).

Columns: the theorem, which claim gives the lower bound, the tree nodes the certificate
carries, certify and verify seconds.  Run: python3 benchmarks/bench_structure.py [--cap S] [labels]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

FUNCTIONS = [
    ("σ(q1)+σ(2q1)", "sigmoid(q1) + sigmoid(2*q1)", None),
    ("σ(q1+1/2)+σ(2q1+1)", "sigmoid(q1 + 1/2) + sigmoid(2*q1 + 1)", None),
    ("σ(q1)+σ(q1+log 2)", "sigmoid(q1) + sigmoid(q1 + log(2))", None),
    ("attn([0,q1,2q1],[0,1,3])", "attn([0, q1, 2*q1], [0, 1, 3])", None),
    ("two three-atom heads", "attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])", None),
    ("tanh(q1)+tanh(q2)", "tanh(q1) + tanh(q2)", None),
    ("σ(q1)+σ(q2)+σ(q1+q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None),
    ("triangle C_3", "sigmoid(q1 - q2) + sigmoid(q2 - q3) + sigmoid(q1 - q3)", None),
    ("W_2", "W", 2),
    ("W_3", "W", 3),
    ("σ(q1)+σ(3q1) (control)", "sigmoid(q1) + sigmoid(3*q1)", None),
    ("C_4", "proofs/tournament_cycle.toml", 4),
    ("C_5", "proofs/tournament_cycle.toml", 5),
    ("C_6", "proofs/tournament_cycle.toml", 6),
    ("C_8", "proofs/tournament_cycle.toml", 8),
    ("K_4", "proofs/tournament_complete.toml", 4),
]

CELL = """
import json, sys, time
from headfusion.proof.statement import verify_certificate
from headfusion.proof.certify import certify
from headfusion.spec.load import load_spec
text, d, lemmas, timeout = json.loads(sys.argv[1])
start = time.perf_counter()
cert = json.loads(json.dumps(certify(load_spec(text, d), ["bench"], search_timeout=timeout, lemmas=lemmas).certificate))
found = time.perf_counter() - start
start = time.perf_counter()
report = verify_certificate(cert)
replay = time.perf_counter() - start
s = cert["summary"]
nodes = sum(len(c["evidence"]["tree"]) for c in cert["claims"] if c["kind"] == "refutation")
print(json.dumps({"ok": report.ok, "lower": s["lower_bound"], "upper": s["upper_bound"], "by": s["lower_bound_claim"],
                  "nodes": nodes, "certify": found, "verify": replay, "bytes": len(json.dumps(cert))}))
"""


def cell(text: str, d: int | None, lemmas: bool, cap: float) -> dict:
    """One certify + verify in a fresh process; {"error": ...} on a refusal or when the cap is reached."""
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", CELL, json.dumps([text, d, lemmas, cap])], capture_output=True,
                              text=True, timeout=cap + 30)
    except subprocess.TimeoutExpired:
        return {"error": f"over {cap + 30:.0f} s"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": last[:70], "seconds": time.perf_counter() - start}
    return json.loads(done.stdout.strip().splitlines()[-1])


def describe(result: dict) -> str:
    if "error" in result:
        return f"{result['error']}"
    bound = f"m* = {result['lower']}" if result["lower"] == result["upper"] else f"{result['lower']} ≤ m* ≤ {result['upper']}"
    return f"{bound} ({result['by']}), {result['nodes']} nodes"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=300.0, help="seconds per solver question and per cell (tree alone)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the lemma side (median)")
    parser.add_argument("only", nargs="*", help="labels to run (substrings)")
    args = parser.parse_args()
    print(f"| function | with LK/LE | certify s | verify s | tree alone | certify s | verify s | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for label, text, d in FUNCTIONS:
        if args.only and not any(o in label for o in args.only):
            continue
        runs = [cell(text, d, True, args.cap) for _ in range(args.repeat)]
        good = [r for r in runs if "error" not in r]
        lemma = good[0] if good else runs[0]
        lemma_s = statistics.median(r["certify"] for r in good) if good else None
        lemma_v = statistics.median(r["verify"] for r in good) if good else None
        tree = cell(text, d, False, args.cap)
        tree_s = tree.get("certify")
        ratio = f"{tree_s / lemma_s:.1f}×" if tree_s and lemma_s and tree.get("lower") == lemma.get("lower") else "—"
        fmt = lambda v: f"{v:.2f}" if isinstance(v, float) else "—"  # noqa: E731
        print(f"| {label} | {describe(lemma)} | {fmt(lemma_s)} | {fmt(lemma_v)} | {describe(tree)} | {fmt(tree_s)} | "
              f"{fmt(tree.get('verify'))} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
