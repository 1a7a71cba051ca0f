"""Benchmark: refutations with and without symmetry pruning (image leaves), side by side.

    python benchmarks/bench_symmetry.py [--cap SECONDS] [--repeat N] [--only LABEL,...]

For each question: the coordinate symmetries found (permutations π with P′∘π = λP′,
Q′∘π = λQ′), tree nodes and image leaves with pruning, nodes without, and the median
seconds to find and to replay (kernel) over N runs each, with the ratio plain / symmetric
(> 1: pruning pays).  Every refutation is replayed by the kernel.
"""

from __future__ import annotations

import argparse
import statistics
import time

from headfusion.algebra.expform import combined_polys, exponential_form
from headfusion.kernel.refutation import replay
from headfusion.solving.refute import refute, symmetries_of
from headfusion.spec.load import load_spec

CASES: list[tuple[str, str, int | None, int]] = [
    ("tanh(q1)+tanh(q2)", "tanh(q1) + tanh(q2)", None, 3),
    ("σ(q1)+σ(q2)+σ(q1+q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None, 6),
    ("σ(q1)+σ(q2)+σ(2q1)+σ(2q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(2*q1) + sigmoid(2*q2)", None, 6),
    ("σ(q1+q2)+σ(q1)+σ(q2)+σ(q1+q2+q3)+σ(q3)",
     "sigmoid(q1 + q2) + sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2 + q3) + sigmoid(q3)", None, 3),
    ("W_3", "W", 3, 7),
    ("triangle (no coordinate symmetry)", "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)", None, 6),
]


def _runs(P: dict, Q: dict, m: int, symmetric: bool, cap: float, repeat: int) -> tuple[str, int, int, float, float]:
    """(status, nodes, image leaves, median find s, median replay s)."""
    finds, replays, status, nodes, images = [], [], "", 0, 0
    for _ in range(repeat):
        start = time.monotonic()
        result = refute(P, Q, m, deadline=time.time() + cap, symmetric=symmetric, verify=False)
        finds.append(time.monotonic() - start)
        status, nodes = result.status, result.stats.get("nodes", 0)
        if status == "unsat":
            start = time.monotonic()
            images = replay(P, Q, m, result.evidence).get("image", 0)
            replays.append(time.monotonic() - start)
    return status, nodes, images, statistics.median(finds), statistics.median(replays) if replays else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="deadline per run in seconds")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell (median)")
    parser.add_argument("--only", default="", help="comma-separated labels")
    args = parser.parse_args()
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    header = (f"{'question':42} {'m':>2} {'syms':>4} {'status':7} {'nodes plain':>11} {'nodes sym':>9} {'images':>6} "
              f"{'find plain s':>12} {'find sym s':>10} {'ratio':>5} {'replay sym s':>12}")
    print(header)
    print("-" * len(header))
    for label, text, d, m in CASES:
        if only and label not in only:
            continue
        P, Q = combined_polys(exponential_form(load_spec(text, d).model))
        P, Q = P.terms, Q.terms
        plain = _runs(P, Q, m, False, args.cap, args.repeat)
        sym = _runs(P, Q, m, True, args.cap, args.repeat)
        status = sym[0] if sym[0] == plain[0] else f"{plain[0]}/{sym[0]}"
        print(f"{label:42} {m:>2} {len(symmetries_of(P, Q)):>4} {status:7} {plain[1]:>11} {sym[1]:>9} {sym[2]:>6} "
              f"{plain[3]:>12.2f} {sym[3]:>10.2f} {plain[3] / sym[3]:>5.2f} {sym[4]:>12.3f}", flush=True)


if __name__ == "__main__":
    main()
