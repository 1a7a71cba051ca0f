"""Constructions against the product head and against z3's --minimize (DESIGN §10).

Per function, in one invocation, each cell in a fresh process (wall clock, with a cap):

* product: the product head's size (the fused head of `algebra.expform`, no construction);
* closed form: the best of reduced, uniform and products of block heads (`bounds.constructions`), its kind and time;
* search: the MIP over the cofactor g (`solving.construct`, HiGHS, repaired exactly), started from the closed
  form with --budget seconds, its head's size and time;
* z3: `search --minimize` as a subprocess (the stepwise SMT search from the lower bound, before constructions
  it had only the product head to stop at), its answer and time.

Run: python3 benchmarks/bench_constructions.py [--budget S] [--cap S] [labels]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

FUNCTIONS = [
    ("(1,2)", "sigmoid(q1)+sigmoid(2*q1)"),
    ("(1,2,3)", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)"),
    ("(1,1,2,3)", "sigmoid(q1)+sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)"),
    ("(1,2,3,6)", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(6*q1)"),
    ("(1,2,4,8)", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(4*q1)+sigmoid(8*q1)"),
    ("(1,2,3,5,6)", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(5*q1)+sigmoid(6*q1)"),
    ("(1,2,3,4,6)", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(4*q1)+sigmoid(6*q1)"),
    ("(1,2,3,6)+σ(q2)", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(6*q1)+sigmoid(q2)"),
    ("σ(q1)+σ(2q1)+σ(q1+q2)", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(q1+q2)"),
    ("triangle C_3", "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)"),
]

CELL = """
import json, sys, time
from headfusion.algebra.expform import exponential_form
from headfusion.bounds.constructions import closed_forms, form_kind
from headfusion.bounds.engine import function_bounds
from headfusion.solving.construct import best_construction
from headfusion.spec.load import load_spec
text, budget = json.loads(sys.argv[1])
model = load_spec(text).model
form = exponential_form(model)
start = time.perf_counter()
closed = closed_forms(form)
t_closed = time.perf_counter() - start
lower = function_bounds(model).best[0]
start = time.perf_counter()
searched = best_construction(form, lower, seconds=budget)
t_search = time.perf_counter() - start
print(json.dumps({"product": form.upper_bound, "closed": closed.upper_bound, "kind": form_kind(closed), "t_closed": t_closed,
                  "lower": lower, "search": searched.upper_bound, "search_kind": form_kind(searched), "t_search": t_search}))
"""


def cell(text: str, budget: float, cap: float) -> dict:
    try:
        out = subprocess.run([sys.executable, "-c", CELL, json.dumps([text, budget])], capture_output=True, text=True, timeout=cap)
        return json.loads(out.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return {}


def z3_minimize(text: str, cap: float) -> tuple[str, float]:
    start = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-m", "headfusion", "search", text, "--minimize", "--timeout", str(cap), "--json"],
                             capture_output=True, text=True, timeout=cap + 30)
        data = json.loads(out.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        return "no answer", time.perf_counter() - start
    answer = str(data.get("minimum")) if data.get("status") == "decided" else f"≤ {data.get('upper_bound')} (undecided)"
    return answer, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=8.0, help="seconds of construction search per function")
    parser.add_argument("--cap", type=float, default=300.0, help="wall-clock cap per cell")
    parser.add_argument("labels", nargs="*")
    args = parser.parse_args()
    rows = [f for f in FUNCTIONS if not args.labels or f[0] in args.labels]
    print("| function | lower | product | closed form (kind, s) | search (kind, s) | z3 --minimize (m*, s) |")
    print("|---|---|---|---|---|---|")
    for label, text in rows:
        c = cell(text, args.budget, args.cap)
        z3, seconds = z3_minimize(text, args.cap)
        if not c:
            print(f"| {label} | | | no answer within {args.cap:g} s | | {z3}, {seconds:.1f} |")
            continue
        print(f"| {label} | {c['lower']} | {c['product']} | {c['closed']} ({c['kind']}, {c['t_closed']:.2f}) | "
              f"{c['search']} ({c['search_kind']}, {c['t_search']:.1f}) | {z3}, {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
