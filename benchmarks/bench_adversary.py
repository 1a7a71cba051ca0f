"""Benchmark of the verifier's cost model against the attacks of issue 28 (items 6, 7, 10).

    python benchmarks/bench_adversary.py

Rows:
- the residue-class sums at the limit MAX_TILT_DIGITS, in the costliest shape the kernel allows
  (every term at the per-term cap of 10^5 digits, all in one class, fractions that do not
  cancel): the worst a certificate within the limits asks of `lower:classes`;
- the same at a few sizes below, to show the work is about linear in digits × terms;
- `analyze` of σ(q1) + σ(2q1 + log N) with N an 81-digit semiprime (sympy.factorint spent the
  whole timeout of 60 s here before);
- verify of σ(q1)'s certificate with P′ = x·g, Q′ = (1 + x)·g, g of 100,000 terms, and with the
  alternating P′ over Q′ = 1 + x^100001 (refused before any product now).
Target (issue 28): no certificate within the limits takes more than 60 s to verify.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from headfusion.kernel.structure import MAX_TILT_DIGITS, class_sums, tilt_digits

N = 10**124 + 3  # with its denominator: 251 digits per unit of exponent
SEMIPRIME = 700000000000000000000000000000000000009260000000000000000000000000000000000009559


def class_sums_at(per_term: int, total: int) -> tuple[int, float]:
    """Class sums of terms whose tilt factors have about `per_term` digits, `total` digits in all, in one class."""
    tilt = [(Fraction(N, N // 10 + 7), 0), (Fraction(N // 10 + 9, N), 0)]  # two coordinates: no cancellation
    k, count = per_term // 251, max(1, total // per_term)  # points with |e_1| + |e_2| = k, k − 1, …: distinct, one class
    points = [(a, s - a) for s in range(k, 0, -1) for a in range(s + 1)][:count]
    Q = {(a, b, 0): Fraction(1) for a, b in points}
    work = sum(tilt_digits(Q, tilt))
    began = time.perf_counter()
    class_sums(Q, [[1, 0], [0, 1]], tilt)
    return work, time.perf_counter() - began


def timed(argv: list[str]) -> tuple[int, float, str]:
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "headfusion", *argv], capture_output=True, text=True)
    return done.returncode, time.perf_counter() - began, (done.stderr.strip() or done.stdout.strip().splitlines()[-1])[:110]


def inflated(n: int, bezout: bool) -> dict:
    """σ(q1)'s certificate (built here) with lowest terms multiplied by a cofactor of about n terms."""
    from headfusion.proof.certify import certify
    from headfusion.spec.load import load_spec

    cert = json.loads(json.dumps(certify(load_spec("sigmoid(q1)"), ["headfusion", "certify", "sigmoid(q1)"], search=False).certificate))
    shape = next(c for c in cert["claims"] if c["id"] == "exp-form")["evidence"]["shapes"][0]
    if bezout:
        shape["P"], shape["Q"] = [[[k, 0], (-1) ** (k + 1)] for k in range(1, n + 1)], [[[0, 0], 1], [[n, 0], 1]]
        coprime = next(c for c in cert["claims"] if c["id"] == "coprime")["evidence"]["shapes"][0]
        coprime["factors"] = [{"poly": shape["Q"], "multiplicity": 1, "reason": "bezout", "substitution": [1],
                               "A": [[[0, 0], 1]], "B": [[[0, 0], 1]]}]
    else:
        shape["P"] = [[[k, 0], 1] for k in range(1, n + 1)]
        shape["Q"] = [[[0, 0], 1]] + [[[k, 0], 2] for k in range(1, n)] + [[[n, 0], 1]]
    return cert


def main() -> None:
    print(f"class sums (lower:classes), limit {MAX_TILT_DIGITS:,} digits x exponents per claim:")
    for per_term, total in ((100_000, MAX_TILT_DIGITS), (100_000, MAX_TILT_DIGITS // 4), (10_000, MAX_TILT_DIGITS)):
        work, seconds = class_sums_at(per_term, total)
        print(f"  {per_term:>7,} digits per term, {work:>11,} in all: {seconds:6.2f} s")
    code, seconds, last = timed(["analyze", f"sigmoid(q1)+sigmoid(2*q1+log({SEMIPRIME}))", "--timeout", "120"])
    print(f"analyze with an 81-digit semiprime weight: exit {code}, {seconds:.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        for label, n, bezout in (("P' = x g, Q' = (1 + x) g, 100,000 terms", 100_000, False),
                                 ("Bezout item on Q' = 1 + x^100001", 100_001, True)):
            path = Path(folder) / "c.json"
            path.write_text(json.dumps(inflated(n, bezout)))
            code, seconds, last = timed(["verify", str(path)])
            print(f"verify, {label}: exit {code}, {seconds:.1f} s ({last})")


if __name__ == "__main__":
    main()
