"""Benchmark of the refutation producer (solving/refute.py) and the kernel replay.

    python benchmarks/bench_refute.py [--cap SECONDS] [--only LABEL,...] [--order lp|lex|rlex]

One row per (function, m): status, tree nodes, leaves by kind (count/layer/farkas),
multiplier vectors, JSON size of the evidence (bytes of json.dumps), LP solves, time to
find (producer) and time to replay (kernel, exact).  Each row runs under its own deadline
(default 300 s); a row that does not close is reported "unknown" with how far it got.
Targets (issue): the triangle refutation ≤ 5 MB and its replay ≤ 10 s.
"""

from __future__ import annotations

import argparse
import json
import time

from headfusion.algebra.expform import combined_polys, exponential_form
from headfusion.kernel.refutation import replay, rows, search_box
from headfusion.solving.refute import refute
from headfusion.spec.load import load_spec

CASES: list[tuple[str, str, int | None, int]] = [
    ("σ(q1)+σ(2q1)", "sigmoid(q1) + sigmoid(2*q1)", None, 3),
    ("σ(q1)+σ(q1+log 2)", "sigmoid(q1) + sigmoid(q1 + log(2))", None, 2),
    ("attn([0,q1,2q1],[0,1,3])", "attn([0, q1, 2*q1], [0, 1, 3])", None, 2),
    ("tanh(q1)+tanh(q2)", "tanh(q1) + tanh(q2)", None, 3),
    ("W_2", "W", 2, 3),
    ("σ(q1)+σ(q2)+σ(q1+q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None, 6),
    ("triangle", "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)", None, 6),
    ("two 3-atom heads", "attn([0,q1,2*q1],[0,1,3]) + attn([0,q2,2*q2],[0,1,3])", None, 8),
    ("W_3", "W", 3, 7),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=300.0, help="deadline per row in seconds")
    parser.add_argument("--only", default="", help="comma-separated labels")
    parser.add_argument("--order", default="near", help="chain order (near, far, lex, rlex, lp)")
    args = parser.parse_args()
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    header = (
        f"{'function':26} {'m':>2} {'status':7} {'box':>12} {'|E|':>5} {'nodes':>7} "
        f"{'count':>6} {'layer':>5} {'farkas':>6} {'vectors':>7} {'LPs':>6} {'JSON bytes':>11} "
        f"{'find s':>8} {'replay s':>8}"
    )
    print(header)
    print("-" * len(header))
    for label, text, d, m in CASES:
        if only and label not in only:
            continue
        P, Q = combined_polys(exponential_form(load_spec(text, d).model))
        P, Q = P.terms, Q.terms
        sizes = search_box(P, Q, m)
        n_e = len(rows(P, Q, sizes)[0]) if sizes is not None else 0
        start = time.monotonic()
        result = refute(P, Q, m, deadline=time.time() + args.cap, order=args.order, verify=False)
        found = time.monotonic() - start
        stats = result.stats
        leaves = stats.get("leaves", {})
        size, replayed = "-", "-"
        if result.status == "unsat":
            size = str(len(json.dumps(result.evidence)))
            start = time.monotonic()
            replay(P, Q, m, result.evidence)
            replayed = f"{time.monotonic() - start:.3f}"
        status = result.status
        if status == "unknown":  # how far it got
            status += f" (max |IN| {stats.get('max_in', 0)})"
        print(
            f"{label:26} {m:>2} {status:7} {str(sizes):>12} {n_e:>5} {stats.get('nodes', 0):>7} "
            f"{leaves.get('count', 0):>6} {leaves.get('layer', 0):>5} {leaves.get('farkas', 0):>6} "
            f"{stats.get('vectors', 0):>7} {stats.get('lp_solves', 0):>6} {size:>11} "
            f"{found:>8.2f} {replayed:>8}",
            flush=True,
        )


if __name__ == "__main__":
    main()
