"""Exact numbers: rationals, weights r·e^b, and polynomials in t = e^(1/L).

A bias b that is not a logarithm of a rational gives the weight e^b.  All such
biases of one function are rational, so with L the lcm of their denominators every
weight is r·t^k for t = e^(1/L).  Because e is transcendental, t is transcendental
over Q and Q[t, 1/t] is a ring of Laurent polynomials: identities between such
numbers are identities of coefficients, and the sign of a nonzero element is decided
by rational interval bounds on e^(1/L) (`sign_at_t`).
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial, lcm
from typing import Iterable, Mapping

from headfusion.spec.numbers import _frac_text, rational_to_json


# --------------------------------------------------------------------------------------
# Laurent polynomials in t = e^(1/L): dict exponent -> Fraction, zero terms dropped.

TPoly = Mapping[int, Fraction]


def product_tree(values: Iterable[int]) -> int:
    """Π values, multiplied pairwise in a balanced tree: 10^5 small factors take milliseconds, not the quarter
    second of a running product (whose every step copies an ever larger integer)."""
    level = list(values)
    while len(level) > 1:
        level = [level[i] * level[i + 1] if i + 1 < len(level) else level[i] for i in range(0, len(level), 2)]
    return level[0] if level else 1


def t_scale(exponents: Iterable[Fraction]) -> int:
    """L = lcm of the denominators of the exponents (1 when all are integers or none)."""
    denominators = {e.denominator if isinstance(e, int) or type(e) is Fraction else Fraction(e).denominator
                    for e in exponents}  # ints and Fractions carry their denominator: no new Fraction per weight
    return lcm(1, *denominators)


def _exp_bounds(scale: int, terms: int) -> tuple[Fraction, Fraction]:
    """Rational bounds lo < e^(1/scale) < hi from the Taylor series with `terms` terms.

    The tail after n terms of Σ x^k/k! with 0 < x ≤ 1 is below 2·x^n/n! once n ≥ 1,
    because consecutive tail terms shrink by a factor ≤ x/(n+1) ≤ 1/2.
    """
    x = Fraction(1, scale)
    partial = sum((x**k / factorial(k) for k in range(terms)), Fraction(0))
    tail = 2 * x**terms / factorial(terms)
    return partial, partial + tail


def sign_at_t(poly: TPoly, scale: int) -> int:
    """Exact sign (−1, 0, 1) of Σ c_k t^k at t = e^(1/scale).

    Zero only for the zero polynomial (t is transcendental).  Otherwise rational
    interval bounds on t are refined until the interval value excludes 0.
    """
    items = [(k, Fraction(c)) for k, c in poly.items() if c != 0]
    if not items:
        return 0
    if all(c > 0 for _, c in items):
        return 1
    if all(c < 0 for _, c in items):
        return -1
    return _refine(items, scale)


def _refine(items: list[tuple[int, Fraction]], scale: int) -> int:
    terms = 8
    while terms < 4096:
        lo, hi = _exp_bounds(scale, terms)
        low_sum = Fraction(0)
        high_sum = Fraction(0)
        for k, c in items:
            a, b = lo**k, hi**k  # both positive; order depends on the sign of k
            small, large = (a, b) if k >= 0 else (b, a)
            if c > 0:
                low_sum += c * small
                high_sum += c * large
            else:
                low_sum += c * large
                high_sum += c * small
        if low_sum > 0:
            return 1
        if high_sum < 0:
            return -1
        terms *= 2
    raise ArithmeticError("sign of an exponential polynomial not decided (precision cap)")


def t_poly_text(poly: TPoly, scale: int) -> str:
    """sympy-syntax text of Σ c_k e^(k/scale), terms in increasing k."""
    parts: list[str] = []
    for k in sorted(poly):
        c = Fraction(poly[k])
        if c == 0:
            continue
        exponent = Fraction(k, scale)
        if exponent == 0:
            term = _frac_text(abs(c))
        else:
            power = f"exp({_frac_text(exponent)})"
            term = power if abs(c) == 1 else f"{_frac_text(abs(c))}*{power}"
        sign = "-" if c < 0 else "+"
        parts.append(("-" if sign == "-" else "") + term if not parts else f" {sign} {term}")
    return "".join(parts) if parts else "0"


def _dense(poly: TPoly) -> list[Fraction]:
    """Coefficients of t^(k − min k), lowest first."""
    low = min(poly)
    out = [Fraction(0)] * (max(poly) - low + 1)
    for k, c in poly.items():
        out[k - low] = Fraction(c)
    return out


def _remainder(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    """a mod b in Q[t] (dense, lowest first, b's top coefficient nonzero)."""
    a = a[:]
    while len(a) >= len(b) and any(a):
        factor, shift = a[-1] / b[-1], len(a) - len(b)
        for i, c in enumerate(b):
            a[shift + i] -= factor * c
        while a and a[-1] == 0:
            a.pop()
    return a


def _quotient(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    """a / b in Q[t] for b dividing a exactly (dense, lowest first)."""
    a, q = a[:], [Fraction(0)] * (len(a) - len(b) + 1)
    for shift in range(len(q) - 1, -1, -1):
        q[shift] = a[shift + len(b) - 1] / b[-1]
        for i, c in enumerate(b):
            a[shift + i] -= q[shift] * c
    return q


def reduced_ratio(num: TPoly, den: TPoly) -> tuple[TPoly, TPoly]:
    """num/den in lowest terms: their gcd in Q[t] divided out (Euclid), so (3 + 3t)/(1 + t) is 3."""
    a, b = _dense(num), _dense(den)
    g, h = (a, b) if len(a) >= len(b) else (b, a)
    while any(h):
        g, h = h, _remainder(g, h)
    if len(g) == 1:  # coprime: only powers of t and constants in common, left to the caller
        return num, den
    lows = (min(num), min(den))
    return ({lows[0] + i: c for i, c in enumerate(_quotient(a, g)) if c},
            {lows[1] + i: c for i, c in enumerate(_quotient(b, g)) if c})


def t_ratio_to_json(num: TPoly, den: TPoly, scale: int) -> int | str:
    """JSON number for num(t)/den(t) in lowest terms: a rational when both are constants, else sympy text."""
    num = {k: c for k, c in num.items() if c != 0}
    den = {k: c for k, c in den.items() if c != 0}
    if not den:
        raise ZeroDivisionError("zero denominator")
    if not num:
        return 0
    if len(den) > 1:
        num, den = reduced_ratio(num, den)
    if len(den) == 1:
        (kd, cd), = den.items()
        shifted = {k - kd: c / cd for k, c in num.items()}
        if set(shifted) == {0}:
            return rational_to_json(shifted[0])
        text = t_poly_text(shifted, scale)
        return text
    num_text, den_text = t_poly_text(num, scale), t_poly_text(den, scale)
    return f"({num_text})/({den_text})"
