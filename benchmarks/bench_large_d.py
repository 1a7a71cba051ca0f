"""`analyze W --d 100000` (the documented maximum) end to end, and where its time goes.

Issue 27: it took 50 s of its 60 s default timeout on a shared machine.  Runs each command in
a fresh process (wall clock with start-up, median of --repeat), then times the stages in one
process: building the model, the cost model (spec/cost.py), the exponential form, analyze.

    python benchmarks/bench_large_d.py            # d = 100000, 3 runs
    python benchmarks/bench_large_d.py --d 20000 --repeat 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def wall(argv: list[str], repeat: int) -> tuple[float, int]:
    times, code = [], 0
    for _ in range(repeat):
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "headfusion", *argv], capture_output=True, text=True)
        times.append(time.perf_counter() - began)
        code = done.returncode
    return statistics.median(times), code


def stages(d: int) -> dict[str, float]:
    sys.set_int_max_str_digits(0)
    from headfusion.algebra.expform import exponential_form
    from headfusion.proof.analysis import analyze
    from headfusion.spec import cost
    from headfusion.spec.families import build_family
    from headfusion.spec.load import load_spec

    out = {}
    t = time.perf_counter()
    model = build_family("W", d)
    out["model"] = time.perf_counter() - t
    t = time.perf_counter()
    cost.check_cost(model)
    out["cost model"] = time.perf_counter() - t
    t = time.perf_counter()
    exponential_form(model)
    out["exponential form"] = time.perf_counter() - t
    spec = load_spec("W", d)
    t = time.perf_counter()
    analyze(spec, list_atoms=False)
    out["analyze (form and bounds)"] = time.perf_counter() - t
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for argv in (["analyze", "W", "--d", str(args.d)], ["analyze", "W", "--d", str(args.d), "--json", "--no-atoms-list"]):
        seconds, code = wall(argv, args.repeat)
        print(f"headfusion {' '.join(argv)}: {seconds:.1f} s (median of {args.repeat}, exit {code})")
    for name, seconds in stages(args.d).items():
        print(f"  {name}: {seconds:.2f} s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
