"""2-adic classes (Lemma V2, DESIGN §10): a bound on T(R) in rank 1.

entry      lemma  recomputed here
two-adic   V2     rank 1; distinct integers k_1..k_t ≥ 1 with Φ_(2^k)(x) = 1 + x^(2^(k−1)) dividing R (exact division,
                  2^(k−1) at most the span of supp R): T(R) ≥ 2^t.
Why: the class sums f_k of a nonnegative D mod 2^k satisfy f_k(r) = f_k(r + 2^(k−1)) when Φ_(2^k) | D, so their
support doubles at each such k and never shrinks in between (the template's proof, lemmas/V2).
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.kernel.base import MAX_POINTS, integer, require, within
from headfusion.kernel.poly import Poly, divide

FIELDS = {"method", "orders"}
MAX_ORDERS = 24


def two_adic(R: Poly, item: dict, rank: int) -> int:
    """Lemma V2: Φ_(2^k) | R for t distinct k, so T(R) ≥ 2^t."""
    require(rank == 1, "2-adic classes need a lattice of rank 1")
    orders = item["orders"]
    require(isinstance(orders, list) and orders, "the orders must be a non-empty list")
    within(len(orders), MAX_ORDERS, "orders of a 2-adic claim")
    ks = [integer(k) for k in orders]
    require(len(set(ks)) == len(ks) and all(1 <= k <= 40 for k in ks), "the orders k must be distinct integers from 1 to 40")
    span = max(e[0] for e in R) - min(e[0] for e in R)
    for k in ks:
        require(2 ** (k - 1) <= span, f"Φ_(2^{k}) has degree {2 ** (k - 1)}, more than the span {span} of the polynomial")
        within((span // 2 ** (k - 1) + 1) * len(R), MAX_POINTS, "quotient terms of a 2-adic division")  # bounds its work
        require(divide(R, {(0, 0): Fraction(1), (2 ** (k - 1), 0): Fraction(1)}) is not None, f"Φ_(2^{k}) = 1 + x^{2 ** (k - 1)} does not divide the polynomial")
    return 2 ** len(ks)
