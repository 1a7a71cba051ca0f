"""Three slices through a pair of roots (Lemma V3, DESIGN §10; Theorem DM is its first case): a bound on T(R).

T(R) is the least number of terms of a nonzero Laurent polynomial D with nonnegative coefficients and R | D
(kernel.multiples).  Lemma V3 is a numerator-free bound: it holds for every such D, so it feeds LS, LM and
LD wherever R is a factor.

entry          lemma  recomputed here
three-slices   V3     R = unit·A·f_1·f_2; supp A on one level of an integer functional ω; f_k = φ_k x^(u_k)(1 + λ_k x^(δ_k))
                      binomials with positive monomial coefficients and ⟨ω, δ_k⟩ = ±1 (oriented to +1: λ_k ↦ 1/λ_k, δ_k ↦ −δ_k);
                      ε = δ_1 − δ_2 primitive (nonzero, gcd 1); μ′ ≤ T(A) from A's own entry; an integer matrix P with
                      Pε = 0 and L ≤ T(P_*A) from the entry of P_*A (P_*: x^e ↦ x^(Pe), recomputed here); c = 4 when
                      1 + (λ_1/λ_2)·x^ε divides A (recomputed), else 3.  Then
                      T(R) ≥ min(4μ′, 3μ′ + L, 2μ′ + max(μ′, c·L)).
Why L: the terms of D_r on one line e + Rε collapse under P_* to one point, and P_*D_r is a nonzero nonnegative
multiple of P_*A, so D_r meets at least L lines in direction ε.  The proof is the template's (lemmas/V3).
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Callable

from headfusion.kernel.base import MAX_EXPONENT, MAX_POINTS, integer, require, within
from headfusion.kernel.poly import Poly, binomial, divide, mul, poly_from_json, unit_multiple, x_groups

FIELDS = {"method", "A", "f", "omega", "mu", "projection", "lines"}
MAX_ROWS = 16  # rows of the projection P
MAX_NESTING = 12  # entries within entries


def oriented(f: Poly, omega: tuple[int, ...]) -> tuple[tuple[int, ...], Fraction, int]:
    """(δ, r, s) of f = unit·(1 + r·t^s·x^δ) with ⟨ω, δ⟩ = 1."""
    delta, r, s = binomial(f)
    step = sum(w * d for w, d in zip(omega, delta))
    require(step in (1, -1), "a root factor must move the functional ω by ±1")
    return (delta, r, s) if step == 1 else (tuple(-d for d in delta), 1 / r, -s)


def projected(A: Poly, P: list[tuple[int, ...]]) -> Poly:
    """P_*A: x^e ↦ x^(Pe), t unchanged, equal exponents added."""
    out: Poly = {}
    for e, c in A.items():
        k = tuple(sum(p * x for p, x in zip(row, e[:-1])) for row in P) + (e[-1],)
        out[k] = out.get(k, 0) + c
    return {k: c for k, c in out.items() if c}


def quotient_box(A: Poly) -> int:
    """The number of points of A's bounding box (x and t): the work of one long division of A."""
    box = 1
    for i in range(len(next(iter(A)))):
        box *= max(e[i] for e in A) - min(e[i] for e in A) + 1
    return box


def three_slices(R: Poly, item: dict, rank: int, used: set, depth: int, mu: Callable) -> int:
    """Lemma V3: T(R) ≥ min(4μ′, 3μ′ + L, 2μ′ + max(μ′, c·L)) for R = unit·A·f_1·f_2 (see the table above)."""
    require(rank >= 2 and depth < MAX_NESTING, f"three slices need a lattice of rank at least 2 and nest at most {MAX_NESTING} deep")
    A = poly_from_json(item["A"], rank + 1)
    require(isinstance(item["f"], list) and len(item["f"]) == 2, "three slices need exactly two root factors f")
    f1, f2 = (poly_from_json(f, rank + 1) for f in item["f"])
    require(unit_multiple(R, mul(mul(A, f1), f2)), "the polynomial is not a unit times A·f_1·f_2")
    require(isinstance(item["omega"], list) and len(item["omega"]) == rank, "ω must have one integer per coordinate")
    omega = tuple(integer(w) for w in item["omega"])
    require(len({sum(w * x for w, x in zip(omega, e)) for e in x_groups(A)}) == 1, "supp A is not on one level of ω")
    (d1, r1, s1), (d2, r2, s2) = oriented(f1, omega), oriented(f2, omega)
    eps = tuple(a - b for a, b in zip(d1, d2))
    require(any(eps) and gcd(*eps) == 1, "ε = δ_1 − δ_2 must be a nonzero primitive vector")
    rows = item["projection"]
    require(isinstance(rows, list) and 1 <= len(rows) <= MAX_ROWS and all(isinstance(r, list) and len(r) == rank for r in rows),
            f"P must be 1 to {MAX_ROWS} integer rows of length {rank}")
    P = [tuple(integer(v) for v in row) for row in rows]
    within(max(abs(v) for row in P for v in row), MAX_EXPONENT, "an entry of P")
    require(all(sum(p * x for p, x in zip(row, eps)) == 0 for row in P), "P does not annihilate ε: a line would not collapse")
    image = projected(A, P)
    within(max((abs(x) for k in image for x in k), default=0), MAX_EXPONENT, "an exponent of P_*A")
    require(bool(image), "P_*A is zero")
    inner = mu(A, item["mu"], rank, used, depth + 1)
    lines = mu(image, item["lines"], len(P), used, depth + 1)
    edge = {(0,) * (rank + 1): Fraction(1), eps + (s1 - s2,): r1 / r2}  # 1 + (λ_1/λ_2)x^ε: the line factor of Lemma Q4
    within(quotient_box(A), MAX_POINTS, "points of the box of Y's quotient by its line factor")  # bounds the division's work
    c = 4 if divide(A, edge) is not None else 3
    return min(4 * inner, 3 * inner + lines, 2 * inner + max(inner, c * lines))
