"""Exact heads from a solver's model: the coefficients, the identity check and the smallest component.

A SAT answer is never trusted as such: its values become an exact head (N, D) that is
re-checked with Laurent-polynomial arithmetic (N·Q′ = D·P′, D > 0, supp N ⊆ supp D).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from headfusion.spec.numbers import rational_to_json
from headfusion.algebra.laurent import LPoly
from headfusion.solving.problem import Exp, Problem
from headfusion.solving.smtlib import Options


@dataclass(frozen=True)
class HeadAtom:
    """One atom of a found head: key in q coordinates, exact weight and value."""

    key: tuple[Fraction, ...]
    weight: Fraction
    value: Fraction

    def to_json(self) -> dict:
        """{key, weight, value} as in `analyze`."""
        return {
            "key": [rational_to_json(v) for v in self.key],
            "weight": rational_to_json(self.weight),
            "value": rational_to_json(self.value),
        }


def head_coefficients(problem: Problem, options: Options, values: dict[str, Fraction]) -> tuple[dict[Exp, Fraction], dict[Exp, Fraction]]:
    """(D, N) as exact dicts from the solver's values (cofactor: D = g·Q′, N = g·P′)."""
    def parse(name: str, prefix: str) -> Exp | None:
        if name == prefix:
            return ()
        if not name.startswith(prefix + "_"):
            return None
        return tuple(int(v) for v in name[len(prefix) + 1 :].split("_"))

    D: dict[Exp, Fraction] = {}
    N: dict[Exp, Fraction] = {}
    if options.encoding == "cofactor":
        g = {e: v for name, v in values.items() if (e := parse(name, "g")) is not None and v}
        for j, c in g.items():
            for e, q in problem.Q.items():
                k = tuple(a + b for a, b in zip(j, e))
                D[k] = D.get(k, Fraction(0)) + c * q
            for e, p in problem.P.items():
                k = tuple(a + b for a, b in zip(j, e))
                N[k] = N.get(k, Fraction(0)) + c * p
    else:
        for name, v in values.items():
            if (e := parse(name, "w")) is not None:
                D[e] = v
            elif (e := parse(name, "u")) is not None:
                N[e] = v
    return {k: v for k, v in D.items() if v}, {k: v for k, v in N.items() if v}


def check_head(P: dict[Exp, Fraction], Q: dict[Exp, Fraction], D: dict[Exp, Fraction], N: dict[Exp, Fraction]) -> bool:
    """Exact check that (N, D) is a head for F = P/Q: N·Q = D·P, every D_k > 0, supp N ⊆ supp D."""
    if not D or any(v <= 0 for v in D.values()) or not set(k for k, v in N.items() if v) <= set(D):
        return False
    nvars = len(next(iter(D)))
    lp = lambda d: LPoly(nvars, d)  # noqa: E731 - tiny adapter
    return not (lp(N) * lp(Q) - lp(D) * lp(P)).terms


def components(keys: Sequence[Exp], differences: set[Exp]) -> list[list[Exp]]:
    """Connected components of keys joined by a difference in `differences` (L2), sorted."""
    remaining = set(keys)
    out = []
    for start in sorted(keys):
        if start not in remaining:
            continue
        remaining.discard(start)
        comp, stack = [start], [start]
        while stack:
            k = stack.pop()
            for dlt in differences:
                n = tuple(a + b for a, b in zip(k, dlt))
                if n in remaining:
                    remaining.discard(n)
                    comp.append(n)
                    stack.append(n)
        out.append(sorted(comp))
    return out


def smallest_component_head(problem: Problem, D: dict[Exp, Fraction], N: dict[Exp, Fraction]) -> tuple[dict, dict]:
    """L2: each component of a head represents F alone; keep the smallest one that checks."""
    support = set(problem.P) | set(problem.Q)
    diffs = {tuple(a - b for a, b in zip(x, y)) for x in support for y in support}
    best = (D, N)
    for comp in sorted(components(list(D), diffs), key=len):
        d = {k: D[k] for k in comp}
        n = {k: N[k] for k in comp if k in N}
        if len(d) < len(best[0]) and check_head(problem.P, problem.Q, d, n):
            best = (d, n)
            break
    return best


def head_atoms_of(form, D: dict[Exp, Fraction], N: dict[Exp, Fraction]) -> list[HeadAtom]:
    """Atoms in q coordinates; weights scaled to coprime positive integers (scaling is free)."""
    from math import gcd, lcm

    from headfusion.algebra.expform import combined_key

    scale = Fraction(lcm(*(v.denominator for v in D.values())), 1)
    ints = [int(v * scale) for v in D.values()]
    scale /= gcd(*ints)
    atoms = []
    for k in sorted(D):
        weight = D[k] * scale
        value = N.get(k, Fraction(0)) / D[k]
        atoms.append(HeadAtom(combined_key(form, k + (0,)), weight, value))
    return sorted(atoms, key=lambda a: a.key)

