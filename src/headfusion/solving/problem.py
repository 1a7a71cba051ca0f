"""Exact data of the question "is m*(F) ≤ m?" (DESIGN §4): the shifted pair, its boxes and bounds.

Pure: no solver is imported here.  The reductions these computations serve (box,
symmetry breaking, faces, lines) are stated and proved in the docstring of `smtlib.py`,
which writes the query from this data.

Data.  F = P′/Q′ in lowest terms over lattice coordinates x_1..x_r (L4), rational
weights only (the t-variable of transcendental weights is not expressible in linear
real arithmetic; such functions are rejected with `NotRational`).  Both polynomials
are multiplied by one monomial so that Q′ has minimum exponent 0 in every
coordinate; this does not change F = P′/Q′, so a head (N, D) with N·Q′ = D·P′ for the
shifted pair satisfies it for the original pair too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product as cartesian
from math import prod
from typing import Iterable, Sequence

Exp = tuple[int, ...]

MAX_SYMMETRY_COORDS = 6  # permutations tried: at most 6! = 720


class NotRational(ValueError):
    """The function has transcendental weights: not expressible in linear real arithmetic."""


MAX_COMBINED_TERMS = 120_000  # as solver.MAX_BOX_POINTS: the box holds at least supp Q′


class TooManyTerms(NotRational):
    """P′/Q′ over all blocks has too many terms to expand (T_120: 2^120): the finite search does not apply.

    A subclass of NotRational so that every caller reports it as "search not applicable"."""


@dataclass(frozen=True)
class Problem:
    """Exact data of the question for one m: shifted P′, Q′ (x-exponents only) and the boxes."""

    nvars: int
    P: dict[Exp, Fraction]
    Q: dict[Exp, Fraction]
    m: int
    widths: tuple[int, ...]  # w_c of S = supp P′ ∪ supp Q′
    q_widths: tuple[int, ...]  # width of supp Q′ per coordinate
    box_shape: tuple[int, ...]  # B: (m−1)·w_c + 1 per coordinate
    g_shape: tuple[int, ...]  # G: (m−1)·w_c − width_c(Q′) + 1 per coordinate (0 when empty)
    symmetries: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def box_points(self) -> int:
        """|B|."""
        return prod(self.box_shape)

    @property
    def g_points(self) -> int:
        """|G|."""
        return prod(self.g_shape)

    @property
    def q_is_monomial(self) -> bool:
        return len(self.Q) == 1


def problem_from_polys(P: dict[Exp, Fraction], Q: dict[Exp, Fraction], nvars: int, m: int) -> Problem:
    """The problem for F = P/Q (x-exponents, lowest terms) and budget m ≥ 1."""
    if m < 1:
        raise ValueError("the number of atoms must be at least 1")
    if not Q:
        raise ValueError("zero denominator")
    low = tuple(min(e[c] for e in Q) for c in range(nvars))
    Qs = {tuple(a - b for a, b in zip(e, low)): Fraction(v) for e, v in Q.items() if v}
    Ps = {tuple(a - b for a, b in zip(e, low)): Fraction(v) for e, v in P.items() if v}
    support = list(Qs) + list(Ps)
    widths = tuple(max(e[c] for e in support) - min(e[c] for e in support) for c in range(nvars))
    q_widths = tuple(max(e[c] for e in Qs) for c in range(nvars))
    box_shape = tuple((m - 1) * w + 1 for w in widths)
    g_shape = tuple(max(0, (m - 1) * w - qw + 1) for w, qw in zip(widths, q_widths))
    return Problem(nvars, Ps, Qs, m, widths, q_widths, box_shape, g_shape, coordinate_symmetries(Ps, Qs, nvars))


def problem_from_form(form: object, m: int) -> Problem:
    """The problem for an `algebra.ExpForm` (NotRational for transcendental weights)."""
    from headfusion.algebra.expform import combined_polys  # algebra has no solver dependency either

    if not form.is_rational:  # type: ignore[attr-defined]
        raise NotRational(
            "the function has transcendental weights e^b; linear real arithmetic cannot express e, "
            "so the finite search does not apply"
        )
    terms = max(form.upper_bound, form.reduced_support_size)  # type: ignore[attr-defined]
    if terms > MAX_COMBINED_TERMS:  # checked before the product over blocks is expanded
        raise TooManyTerms(f"Q' has {'more than 10^30' if terms > 10**30 else terms} terms; "
                           f"the finite search is limited to {MAX_COMBINED_TERMS}")
    P, Q = combined_polys(form, reduced=True)  # type: ignore[arg-type]
    nvars = P.nvars - 1
    return problem_from_polys(
        {e[:-1]: c for e, c in P.terms.items()}, {e[:-1]: c for e, c in Q.terms.items()}, nvars, m
    )


def coordinate_symmetries(P: dict[Exp, Fraction], Q: dict[Exp, Fraction], nvars: int) -> tuple[tuple[int, ...], ...]:
    """Non-identity coordinate permutations π with (P∘π, Q∘π) = λ·(P, Q), sorted.

    Only coordinates with equal widths can be exchanged, and at most
    MAX_SYMMETRY_COORDS coordinates are permuted (a subset of the symmetries is enough
    for soundness).
    """
    if nvars < 2 or nvars > MAX_SYMMETRY_COORDS:
        return ()
    found = []
    for perm in permutations(range(nvars)):
        if perm == tuple(range(nvars)):
            continue
        pq = _permuted(Q, perm)
        if set(pq) != set(Q):
            continue
        some = next(iter(sorted(Q)))
        ratio = pq[some] / Q[some]
        if any(pq[e] != ratio * Q[e] for e in Q):
            continue
        pp = _permuted(P, perm)
        if set(pp) != set(P) or any(pp[e] != ratio * P[e] for e in P):
            continue
        found.append(perm)
    return tuple(sorted(found))


def _permuted(poly: dict[Exp, Fraction], perm: Sequence[int]) -> dict[Exp, Fraction]:
    """poly∘π: the exponent e becomes (e_{π(0)}, …, e_{π(r−1)})."""
    return {tuple(e[p] for p in perm): c for e, c in poly.items()}


def box_points(shape: Sequence[int]) -> Iterable[Exp]:
    """Points of Π_c {0..shape_c − 1} in lexicographic order (the box order)."""
    return cartesian(*(range(n) for n in shape))


def face_slice(poly: dict[Exp, Fraction], c: int, top: bool) -> dict[Exp, Fraction]:
    """The lowest (or highest) x_c-slice of a polynomial, translated to x_c-exponent 0."""
    level = (max if top else min)(e[c] for e in poly)
    return {e[:c] + (0,) + e[c + 1 :]: v for e, v in poly.items() if e[c] == level}


def slice_bound(poly: dict[Exp, Fraction]) -> int:
    """T(R) lower bound: every polynomial with positive coefficients divisible by R has ≥ this many terms.

    T(R) = 1 when R is a monomial; otherwise the maximum over coordinates c with positive
    width of T(R_bottom,c) + T(R_top,c) (see the docstring of `smtlib.py`, "Faces").
    """
    return _slice_bound_cached(tuple(sorted(poly)))


@lru_cache(maxsize=65536)
def _slice_bound_cached(support: tuple[Exp, ...]) -> int:
    # only the support matters: divisibility by the slice is used through widths alone
    if len(support) <= 1:
        return 1
    best = 1
    nvars = len(support[0])
    for c in range(nvars):
        low = min(e[c] for e in support)
        high = max(e[c] for e in support)
        if low == high:
            continue
        bottom = tuple(sorted(e[:c] + (0,) + e[c + 1 :] for e in support if e[c] == low))
        top = tuple(sorted(e[:c] + (0,) + e[c + 1 :] for e in support if e[c] == high))
        best = max(best, _slice_bound_cached(bottom) + _slice_bound_cached(top))
    return best


def binomial_factors(problem: Problem) -> list[tuple[Exp, Fraction, int]]:
    """(δ, r, k) for each binomial irreducible factor c_a·x^a + c_b·x^b of Q′: δ = b − a, r = −c_a/c_b, multiplicity k.

    δ is oriented so that its first nonzero coordinate is positive; sorted.
    """
    from headfusion.algebra.laurent import LPoly, irreducible_factors  # exact factorisation (sympy), no solver

    if problem.q_is_monomial:
        return []
    out = []
    for f, k in irreducible_factors(LPoly(problem.nvars, problem.Q)):
        if len(f.terms) != 2:
            continue
        (a, ca), (b, cb) = sorted(f.terms.items())
        delta = tuple(y - x for x, y in zip(a, b))
        if next(v for v in delta if v) < 0:
            (a, ca), (b, cb) = (b, cb), (a, ca)
            delta = tuple(-v for v in delta)
        out.append((delta, -ca / cb, k))
    return sorted(out)

