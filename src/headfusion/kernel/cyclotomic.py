"""One dimension: Lemma LU (unit roots of positive binomials and trinomials) and Theorem P (DESIGN §9).

claim             lemma  recomputed here
lower:unit-roots  LU     F has one block, of rank 1; Q′_B = u·Π_{d∈𝒟} Φ_d(x), u one term, 𝒟 the listed orders
                         (distinct, ≤ MAX_ORDER), Φ_d = Π_{e|d} (x^e − 1)^μ(d/e); for g = 1..L = lcm 𝒟 (L·|𝒟| ≤
                         MAX_POINTS), 𝒟/g = {d/gcd(d, g)} is never {3}, {4}, {6}; if it is {2} for some g,
                         G = (1 + x^(L/2))·P′_B/Q′_B (exact division) has a term x^e, L/2 ∤ e.  Then m*(F) ≥ 4.
lower:pairs       TP     only in the family certificate of σ(a·q1) + σ(b·q1) (the spec layer read the template's
                         syntax; the model is the lift G = σ(u1) + σ(u2)): m*(F_{a,b}) ≥ 4 for all a ≠ b.
Proofs: docs/mathematics.md §4 (Lemma LU, Theorem P) and the certificate's lemma text.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm

from headfusion.kernel import statements as say
from headfusion.kernel.base import MAX_POINTS, CheckFailed, integer, require, within
from headfusion.kernel.poly import Poly, divide, mul, product, x_groups

MAX_ORDER = 2000  # largest order d of a cyclotomic factor Φ_d the kernel recomputes


def _mobius(n: int) -> int:
    """μ(n): 0 if a square of a prime divides n, else (−1)^(number of prime factors)."""
    primes = [p for p in range(2, n + 1) if n % p == 0 and all(p % k for k in range(2, p))]
    return 0 if any(n % (p * p) == 0 for p in primes) else (-1) ** len(primes)


def cyclotomic(d: int) -> Poly:
    """Φ_d(x) in (x, t) = Π_{e|d} (x^e − 1)^μ(d/e): the binomials with μ = 1 multiplied, those with μ = −1 divided out."""
    within(d, MAX_ORDER, "order of a cyclotomic factor")
    binomial = lambda e: {(e, 0): Fraction(1), (0, 0): Fraction(-1)}  # noqa: E731
    divisors = [e for e in range(1, d + 1) if d % e == 0]
    out = product([binomial(e) for e in divisors if _mobius(d // e) == 1], 2)
    for e in divisors:
        if _mobius(d // e) == -1:
            out = divide(out, binomial(e))  # exact: Φ_d is a polynomial
    return out


def check_unit_roots(model: object, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Lemma LU on the one rank-1 block: Q′_B = unit·Π Φ_d, the finite collapse check, and the numerator argument."""
    exp = facts["exp-form"]
    require(len(exp["blocks"]) == 1 and exp["shapes"][0][2] == 1, "Lemma LU needs F with one block, of rank 1")
    _, _, _, P, Q = exp["shapes"][0]
    orders = [integer(d) for d in ev["orders"]]
    require(orders and orders == sorted(set(orders)) and orders[0] >= 1, "the orders d must be distinct positive integers, increasing")
    within(max(orders), MAX_ORDER, "order of a cyclotomic factor")
    L = lcm(*orders)
    within(L * len(orders), MAX_POINTS, "residues g times orders of the unit-root check")
    rest: Poly | None = Q
    for d in orders:
        rest = divide(rest, cyclotomic(d)) if rest is not None else None
    require(rest is not None and len(rest) == 1, "Q'_B is not a unit times the product of the listed cyclotomic polynomials")
    collapses: dict[int, int] = {}  # k -> the least g with 𝒟/g = {k}, k in {2, 3, 4, 6}
    for g in range(L, 0, -1):
        values = {d // gcd(d, g) for d in orders}
        if len(values) == 1 and values <= {2, 3, 4, 6}:
            collapses[values.pop()] = g
    if bad := sorted(set(collapses) - {2}):
        raise CheckFailed(f"g = {collapses[bad[0]]} sends every root of Q'_B to a primitive {bad[0]}-th root of unity: "
                          "Lemma LU does not exclude a positive trinomial")
    term = None
    if 2 in collapses:  # 𝒟/g = {2}: every d has the 2-adic valuation of L, so L is even
        half = L // 2
        R = divide({(half, 0): Fraction(1), (0, 0): Fraction(1)}, Q)
        require(R is not None, f"Q'_B does not divide 1 + x^{half}")
        off = sorted(e for (e,) in x_groups(mul(R, P)) if e % half)
        require(off, f"every exponent of G = (1 + x^{half})P'_B/Q'_B is a multiple of {half}: the numerator argument fails")
        term = off[0]
    return {"lower": 4}, ["coprime", "exp-form", "lemma:LU"], say.unit_roots(orders, L, collapses.get(2), term)


def check_pairs(model: object, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Theorem P's hypothesis, read by the statement layer: the certificate is the family's (--every a,b)."""
    require(facts.get("every") is not None and ev == {}, "Theorem P is the lower bound of the family certificate only")
    return {"pairs": 4}, ["def:F", "lemma:TP"], say.pairs(*facts["every"])
