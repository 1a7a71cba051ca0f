"""Wall-clock figures the test suite used to assert (issue 34: no test may assert a wall-clock time).

    python benchmarks/bench_timings.py

Each row runs one command or call the tests still check for its *answer*, and prints the seconds it took
next to the cap the old assertion used, so a slowdown is seen here instead of failing `pytest` on a busy
machine. The caps are targets, not verdicts: this script always exits 0.
"""

from __future__ import annotations

import subprocess
import sys
import time
from fractions import Fraction

SEMIPRIME = 700000000000000000000000000000000000009260000000000000000000000000000000000009559

CLI_ROWS = [  # (what, argv, the cap the old test asserted, in seconds)
    ("analyze W --d 10000 (structural)", ["analyze", "W", "--d", "10000", "--no-atoms-list", "--json"], 30),
    ("analyze W --d 16 with its atom list", ["analyze", "W", "--d", "16", "--json"], 15),
    ("search --timeout 0.5 answers unknown", ["search", "sigmoid(q1)+sigmoid(q2)+sigmoid(q1+q2)+sigmoid(q1-q2)", "--atoms", "9",
                                              "--timeout", "0.5", "--encoding", "plain", "--no-faces", "--json"], 2.5),
    ("search --minimize --timeout 1 (tournament_complete, d = 6)",
     ["search", "proofs/tournament_complete.toml", "--d", "6", "--minimize", "--timeout", "1"], 4),
    ("analyze with an 81-digit semiprime weight", ["analyze", f"sigmoid(q1)+sigmoid(2*q1+log({SEMIPRIME}))", "--json"], 15),
]


def timed_call(function) -> float:
    """Seconds one call takes."""
    began = time.perf_counter()
    function()
    return time.perf_counter() - began


def in_process_rows() -> list[tuple[str, float, float]]:
    """The kernel's linear-time checks (issue 28) and the many-heads refusal."""
    from headfusion.kernel.checks import substitute
    from headfusion.kernel.model import Atom, Model, group_polys
    from headfusion.kernel.poly import divide, mul
    from headfusion.spec.load import load_spec
    from headfusion.solving.solver import search

    n = 30_000
    f = {(0, 0): Fraction(1), (1, 0): Fraction(1)}
    a = mul(f, {(i, 0): Fraction(i % 7 + 1) for i in range(n)})
    p = {(i, j, 0): Fraction(1) for i in range(200) for j in range(150)}
    atoms = (Atom(((0, Fraction(1)),), Fraction(1), Fraction(0), Fraction(1)), Atom((), Fraction(1), Fraction(0), Fraction(0)))
    model = Model(1, Fraction(0), tuple((Fraction(1), atoms) for _ in range(200)))
    w3 = load_spec("W", 3).model
    return [
        ("long division by 1 + x, 30,000 terms", timed_call(lambda: divide(a, f)), 30),
        ("substitution of 30,000 terms", timed_call(lambda: substitute(p, [1, 1000])), 30),
        ("200 heads in one block: (1 + x)^200", timed_call(lambda: group_polys(model, list(range(200)), lambda rel: (int(rel.get(0, 0)),), 2, 1)), 30),
        ("search W_3 at 7 atoms (unsat)", timed_call(lambda: search(w3, 7, timeout=60)), 10),
    ]


def main() -> None:
    rows = []
    for what, argv, cap in CLI_ROWS:
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "headfusion", *argv], capture_output=True, text=True)
        rows.append((what, time.perf_counter() - began, cap))
    rows += in_process_rows()
    width = max(len(r[0]) for r in rows)
    print(f"{'what'.ljust(width)}  seconds  old cap")
    for what, seconds, cap in rows:
        print(f"{what.ljust(width)}  {seconds:7.2f}  {cap:>7}{'  OVER' if seconds > cap else ''}")


if __name__ == "__main__":
    main()
