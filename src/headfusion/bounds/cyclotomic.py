"""Lemma LU's producer (one dimension, DESIGN §9, Theorem P): m*(F) ≥ 4 from the unit roots of Q′.

For F = c + P′/Q′ with one block of rank 1: write Q′ = u·Π_{d∈𝒟} Φ_d(x) (cyclotomic polynomials, each
once), L = lcm 𝒟, 𝒟/g = {d/gcd(d, g) : d ∈ 𝒟}.  Lemma LU: if 𝒟/g is never {3}, {4} or {6} (g = 1..L)
and, when it is {2} for some g, G = (1 + x^(L/2))·P′/Q′ has a term off (L/2)Z, no head with at most
3 atoms represents F.  The kernel (`kernel/cyclotomic.py`, claim `lower:unit-roots`) recomputes every
step; this module finds 𝒟 from the block's irreducible factors and runs the same finite checks, so
that a certificate only carries the claim when the kernel will accept it.

Interface for a bound engine: `block_unit_roots(block)` → UnitRootBound | None for one block (its own
F_B = P′_B/Q′_B); `unit_root_bound(form)` → the same for F when F has exactly one block.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm

from headfusion.algebra.expform import Block, ExpForm, x_support
from headfusion.algebra.laurent import LPoly, canonical_associate, cyclotomic, exact_divide, product
from headfusion.kernel.base import MAX_POINTS
from headfusion.kernel.cyclotomic import MAX_ORDER

COLLAPSE_ORDERS = (2, 3, 4, 6)  # the k ≠ 1 with φ(k) ≤ 2: a positive binomial or trinomial has at most two unit roots


@dataclass(frozen=True)
class UnitRootBound:
    """m*(F) ≥ 4 by Lemma LU, with what a reader checks: 𝒟, L, the halving g and the term of G (if any)."""

    orders: tuple[int, ...]  # 𝒟, increasing
    lcm: int  # L
    halving: int | None  # the least g with 𝒟/g = {2} (then the numerator argument is used), else None
    term: int | None  # the least exponent of G off (L/2)Z
    G: LPoly | None  # G = (1 + x^(L/2))·P′/Q′ when the numerator argument is used
    bound: int = 4

    def evidence(self) -> dict:
        """The claim's evidence as the kernel reads it."""
        return {"orders": list(self.orders)}


@lru_cache(maxsize=1)
def _totients() -> list[int]:
    """φ(n) for n = 0..MAX_ORDER (sieve)."""
    phi = list(range(MAX_ORDER + 1))
    for p in range(2, MAX_ORDER + 1):
        if phi[p] == p:  # p is prime
            for k in range(p, MAX_ORDER + 1, p):
                phi[k] -= phi[k] // p
    return phi


def cyclotomic_order(f: LPoly) -> int | None:
    """d with f = unit·Φ_d(x) (d ≤ the kernel's MAX_ORDER), for a polynomial in (x, t) of one variable x; else None."""
    if f.nvars != 2 or len({e[1] for e in f.terms}) != 1:
        return None
    g = canonical_associate(LPoly(2, {(e[0], 0): c for e, c in f.terms.items()}))
    degree = max(e[0] for e in g.terms)
    coefficients = [g.terms.get((k, 0), Fraction(0)) for k in range(degree + 1)]
    phi = _totients()
    for d in range(1, MAX_ORDER + 1):
        if phi[d] == degree and [Fraction(c) for c in cyclotomic(d)] == coefficients:
            return d
    return None


def collapses(orders: tuple[int, ...]) -> dict[int, int]:
    """k ↦ the least g in 1..L with 𝒟/g = {k}, for k in {2, 3, 4, 6}."""
    found: dict[int, int] = {}
    for g in range(lcm(*orders), 0, -1):
        values = {d // gcd(d, g) for d in orders}
        if len(values) == 1 and values <= set(COLLAPSE_ORDERS):
            found[values.pop()] = g
    return found


def block_unit_roots(block: Block) -> UnitRootBound | None:
    """Lemma LU for one block of rank 1 (its P′_B/Q′_B), or None when a hypothesis fails or a limit is passed."""
    if block.rank != 1:
        return None
    orders = []
    for f in block.factors:
        remaining = f.in_denominator - f.in_gcd
        if remaining == 0:
            continue
        order = cyclotomic_order(f.poly) if remaining == 1 else None
        if order is None:
            return None
        orders.append(order)
    orders_t = tuple(sorted(orders))
    if not orders_t or len(set(orders_t)) != len(orders_t) or lcm(*orders_t) * len(orders_t) > MAX_POINTS:
        return None
    Q, P = block.Q_reduced, block.P_reduced
    phis = [LPoly(2, {(k, 0): Fraction(c) for k, c in enumerate(cyclotomic(d)) if c}) for d in orders_t]
    unit = exact_divide(Q, product(phis, 2))
    if unit is None or len(unit.terms) != 1:  # the kernel asks for a unit of one term
        return None
    found = collapses(orders_t)
    if set(found) - {2}:
        return None
    L = lcm(*orders_t)
    if 2 not in found:
        return UnitRootBound(orders_t, L, None, None, None)
    half = L // 2
    R = exact_divide(LPoly(2, {(half, 0): Fraction(1), (0, 0): Fraction(1)}), Q)
    if R is None:
        return None
    G = R * P
    off = sorted(e[0] for e in x_support(G) if e[0] % half)
    if not off:
        return None
    return UnitRootBound(orders_t, L, found[2], off[0], G)


def unit_root_bound(form: ExpForm) -> UnitRootBound | None:
    """Lemma LU for F: only when F has exactly one block (the lemma's hypothesis), else None."""
    return block_unit_roots(form.blocks[0]) if len(form.blocks) == 1 else None
