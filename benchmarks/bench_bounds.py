"""Lower-bound timings for W_d: explicit witnesses (d = 8..12) and structural (d = 10..10,000).

Run: python benchmarks/bench_bounds.py   (prints a Markdown table)
"""

from __future__ import annotations

import time

from headfusion.algebra.expform import _build_local, exponential_form
from headfusion.bounds.lower import _block_cache, newton_bound
from headfusion.proof.analysis import lower_bounds_report
from headfusion.spec.families import sigmoid_sum


def measure(d: int, explicit: bool) -> tuple[float, float, int, str]:
    _build_local.cache_clear()  # measure from scratch, not from the previous row's memo
    _block_cache.clear()
    start = time.perf_counter()
    form = exponential_form(sigmoid_sum(d))
    built = time.perf_counter()
    if explicit:
        summary = lower_bounds_report(form)
        listed = len(summary.get("vertex_witnesses", []))
        lower = summary["lower_bound"]
        evidence = f"{listed} witnesses"
    else:
        bound = newton_bound(form)
        lower = bound.count
        evidence = "structural (product of blocks)"
    done = time.perf_counter()
    assert lower == form.upper_bound == 2**d
    return built - start, done - built, lower.bit_length() - 1, evidence


def main() -> None:
    print("| d | mode | form (s) | lower bound (s) | bound | evidence |")
    print("|---|---|---|---|---|---|")
    for d in (8, 9, 10, 11, 12):
        form_s, bound_s, log2, evidence = measure(d, explicit=True)
        print(f"| {d} | explicit | {form_s:.3f} | {bound_s:.3f} | 2^{log2} | {evidence} |")
    for d in (10, 100, 1000, 10000):
        form_s, bound_s, log2, evidence = measure(d, explicit=False)
        print(f"| {d} | structural | {form_s:.3f} | {bound_s:.3f} | 2^{log2} | {evidence} |")


if __name__ == "__main__":
    main()
