"""Proved minima (issue "Checkable search"): certify each function, then replay its certificate.

For each function: the minimum and its status, the refutations (count, nodes, JSON bytes),
the time to find everything (`certify` without LaTeX: bounds, z3, refutation producer) and the
time the kernel takes to replay the whole certificate.  Run: python3 benchmarks/bench_proved_minima.py
"""

from __future__ import annotations

import json
import sys
import time

from headfusion.proof.statement import verify_certificate
from headfusion.proof.certify import certify
from headfusion.spec.load import load_spec

FUNCTIONS = [
    ("σ(q1)+σ(2q1)", "sigmoid(q1) + sigmoid(2*q1)", None),
    ("σ(q1)+σ(q1+log 2)", "sigmoid(q1) + sigmoid(q1 + log(2))", None),
    ("attn([0,q1,2q1],[0,1,3])", "attn([0, q1, 2*q1], [0, 1, 3])", None),
    ("tanh(q1)+tanh(q2)", "tanh(q1) + tanh(q2)", None),
    ("triangle tournament", "sigmoid(q1 - q2) + sigmoid(q2 - q3) + sigmoid(q1 - q3)", None),
    ("σ(q1)+σ(q2)+σ(q1+q2)", "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)", None),
    ("two three-atom heads", "attn([0, q1, 2*q1], [0, 1, 3]) + attn([0, q2, 2*q2], [0, 1, 3])", None),
    ("W_2", "W", 2),
    ("W_3", "W", 3),
]


def main() -> None:
    only = sys.argv[1:]
    print(f"{'function':26} {'m*':>3} {'status':7} {'refut.':>6} {'nodes':>7} {'JSON bytes':>10} {'find s':>7} {'replay s':>8}")
    for label, text, d in FUNCTIONS:
        if only and not any(o in label for o in only):
            continue
        start = time.perf_counter()
        cert = json.loads(json.dumps(certify(load_spec(text, d), ["bench"], search_timeout=300).certificate))
        found = time.perf_counter() - start
        start = time.perf_counter()
        report = verify_certificate(cert)
        replay = time.perf_counter() - start
        trees = [c["evidence"] for c in cert["claims"] if c["kind"] == "refutation"]
        nodes = sum(len(t["tree"]) for t in trees)
        size = sum(len(json.dumps(t, separators=(",", ":"))) for t in trees)
        s = cert["summary"]
        status = s["status"] if report.ok else "REJECTED"
        print(f"{label:26} {str(s['minimum']):>3} {status:7} {len(trees):>6} {nodes:>7} {size:>10} {found:>7.2f} {replay:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
