"""2-adic classes (Lemma V2, any biases, DESIGN §11) and class Descartes (Lemma CD): bounds on T(R) in rank 1.

entry      lemma  recomputed here
two-adic   V2     rank 1; binomials 1 + w·x^a (a ≥ 1, w > 0 rational times a power of t) dividing R (exact division),
                  with pairwise distinct 2-adic valuations v₂(a): T(R) ≥ 2^j for j of them.
           CD     with a class: a modulus A, n binomials 1 + w_i·x^(A·o_i) dividing R, o_i odd, w_i^(o_k) ≠ w_k^(o_i) for
                  i ≠ k, and every level's v₂(a) < v₂(A): T(R) ≥ (n + 1)·2^j.  Proofs: the lemmas' text, docs/mathematics.md.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.kernel.base import MAX_POINTS, integer, rational, require, within
from headfusion.kernel.poly import Poly, divide

FIELDS = {"method", "levels", "modulus", "class"}
MAX_ORDERS = 24


def binomial_divides(R: Poly, entry: object) -> tuple[int, Fraction, int]:
    """(a, c, s) for the binomial 1 + c·t^s·x^a [a, c, s], checked to divide R exactly."""
    span = max(e[0] for e in R) - min(e[0] for e in R)
    require(isinstance(entry, list) and len(entry) == 3, "a binomial is [a, coefficient, power of t]")
    a, c, s = integer(entry[0]), rational(entry[1]), integer(entry[2])
    require(1 <= a <= span and c > 0, f"1 + w·x^{a} needs w > 0 and 1 ≤ a ≤ the span {span} of the polynomial")
    within((span // a + 1) * len(R), MAX_POINTS, "quotient terms of a 2-adic division")  # bounds its work
    require(divide(R, {(0, 0): Fraction(1), (a, s): c}) is not None, f"1 + ({c})·t^{s}·x^{a} does not divide the polynomial")
    return a, c, s


def two_adic(R: Poly, item: dict, rank: int, used: set) -> int:
    """Lemma V2: binomials of distinct 2-adic levels divide R, T(R) ≥ 2^j; Lemma CD with a class: T(R) ≥ (n + 1)·2^j."""
    require(rank == 1, "2-adic classes need a lattice of rank 1")
    require(isinstance(item["levels"], list) and isinstance(item["class"], list), "levels and class must be lists")
    within(len(item["levels"]) + len(item["class"]), MAX_ORDERS, "binomials of a 2-adic claim")
    valuation = lambda a: (a & -a).bit_length() - 1  # noqa: E731
    levels = [valuation(binomial_divides(R, e)[0]) for e in item["levels"]]
    require(len(set(levels)) == len(levels), "the 2-adic valuations of the levels are not distinct (each level counts once)")
    if not item["class"]:
        require(levels and item["modulus"] is None, "V2 needs a level, and a modulus only with a class")
        return 2 ** len(levels)
    A = integer(item["modulus"])
    odd = [(a // A, c, s) for a, c, s in (binomial_divides(R, e) for e in item["class"]) if A >= 1 and a % A == 0 and a // A % 2]
    require(len(odd) == len(item["class"]), f"every class binomial must have a scale {A}·(odd), A ≥ 1")
    require(all(v < valuation(A) for v in levels), f"every level must lie below v₂({A}) = {valuation(A)}")
    within(max(o for o, _, _ in odd) * max(len(str(c)) for _, c, _ in odd), 10**5, "digits of the class moduli compared")
    for i, (o, c, s) in enumerate(odd):
        for k, (p, d, u) in enumerate(odd[:i]):
            require(c**p != d**o or s * p != u * o, f"class binomials {k + 1} and {i + 1} have the same root modulus")
    used.add("class-descartes")
    return (len(odd) + 1) * 2 ** len(levels)
