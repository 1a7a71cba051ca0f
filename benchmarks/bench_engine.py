"""The exact engine against a naive SymPy baseline on W_d = σ(q_1) + … + σ(q_d), side by side.

headfusion: `headfusion analyze W --d d --json > file` (the full fused head, with its atom
list of 2^d atoms, streamed).  SymPy: Σ exp(q_j)/(1 + exp(q_j)), `together`, `cancel`, then
the numerator and denominator expanded (2^d terms each).  Each run is a fresh process, one
after the other on the same machine; seconds are wall-clock, memory the process's peak RSS
(getrusage of the child).  Medians of 3 where a run takes under 10 s.

Run: python benchmarks/bench_engine.py [--d 10,12,14,16] [--big 20] [--sympy-limit 600]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

SYMPY_CHILD = """
import sys
import sympy
d = int(sys.argv[1])
qs = sympy.symbols(f"q1:{d + 1}")
expr = sum(sympy.exp(q) / (1 + sympy.exp(q)) for q in qs)
n, m = sympy.fraction(sympy.cancel(sympy.together(expr)))
n, m = sympy.expand(n), sympy.expand(m)
print(len(sympy.Add.make_args(m)))
"""


def measured(argv: list[str], stdout_path: str, limit: float) -> tuple[float, float, str]:
    """Run argv under a tiny helper that reports the child's own peak RSS (ru_maxrss of wait4)."""
    helper = (
        "import os, sys, time\n"
        "start = time.perf_counter()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)\n"
        "    os.dup2(fd, 1)\n"
        "    os.execvp(sys.argv[2], sys.argv[2:])\n"
        "_, status, usage = os.wait4(pid, 0)\n"
        "print(time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), file=sys.stderr)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", helper, stdout_path, *argv], stderr=subprocess.PIPE)
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return float("nan"), float("nan"), f"> {limit:.0f} s"
    seconds, mib, code = err.decode().strip().splitlines()[-1].split()
    return float(seconds), float(mib), "ok" if code == "0" else f"exit {code}"


def median_run(argv: list[str], path: str, limit: float, repeat: int = 3) -> tuple[float, float, str, int]:
    runs = [measured(argv, path, limit)]
    while len(runs) < repeat and runs[0][2] == "ok" and runs[0][0] < 10:
        runs.append(measured(argv, path, limit))
    seconds = statistics.median(r[0] for r in runs)
    return seconds, max(r[1] for r in runs), runs[0][2], len(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", default="10,12,14,16", help="comma-separated d for the side-by-side rows")
    parser.add_argument("--big", type=int, default=20, help="a larger d for headfusion alone, streamed to a file (0: skip)")
    parser.add_argument("--sympy-limit", type=float, default=600.0, help="seconds before a SymPy run is stopped")
    args = parser.parse_args()
    headfusion = ["headfusion"]
    tmp = tempfile.mkdtemp(prefix="bench-engine-")
    print("| d | atoms | headfusion (s) | peak MiB | JSON MiB | SymPy (s) | peak MiB | SymPy / headfusion | runs |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in [int(x) for x in args.d.split(",") if x]:
        path = os.path.join(tmp, f"w{d}.json")
        hf_s, hf_mib, hf_status, hf_n = median_run([*headfusion, "analyze", "W", "--d", str(d), "--json"], path, 120)
        size = os.path.getsize(path) / 2**20
        sp_s, sp_mib, sp_status, sp_n = median_run([sys.executable, "-c", SYMPY_CHILD, str(d)], os.path.join(tmp, "sympy.txt"),
                                                   args.sympy_limit)
        ratio = f"{sp_s / hf_s:.0f}×" if sp_status == "ok" and hf_status == "ok" else ("> " + f"{args.sympy_limit / hf_s:.0f}×" if hf_status == "ok" else "-")
        sympy_cell = f"{sp_s:.2f}" if sp_status == "ok" else sp_status
        print(f"| {d} | {2**d:,} | {hf_s:.2f} | {hf_mib:.0f} | {size:.1f} | {sympy_cell} | {sp_mib:.0f} | {ratio} | {hf_n}/{sp_n} |",
              flush=True)
    if args.big:
        path = os.path.join(tmp, f"w{args.big}.json")
        hf_s, hf_mib, hf_status, hf_n = median_run([*headfusion, "analyze", "W", "--d", str(args.big), "--json"], path, 300, 1)
        size = os.path.getsize(path) / 2**20
        print(f"| {args.big} (streamed) | {2**args.big:,} | {hf_s:.2f} | {hf_mib:.0f} | {size:.1f} | not run | - | - | {hf_n}/0 |")
        os.remove(path)
    for name in os.listdir(tmp):
        os.remove(os.path.join(tmp, name))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
