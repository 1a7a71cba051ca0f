"""Exact numbers: rationals, weights r·e^b, and polynomials in t = e^(1/L).

A bias b that is not a logarithm of a rational gives the weight e^b.  All such
biases of one function are rational, so with L the lcm of their denominators every
weight is r·t^k for t = e^(1/L).  Because e is transcendental, t is transcendental
over Q and Q[t, 1/t] is a ring of Laurent polynomials: identities between such
numbers are identities of coefficients, and the sign of a nonzero element is decided
by rational interval bounds on e^(1/L) (`sign_at_t`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial, lcm
from typing import Iterable, Mapping

Rational = Fraction


def to_fraction(value: int | Fraction) -> Fraction:
    """Return value as a Fraction (ints and Fractions only: floats are never exact input)."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError(f"exact number expected, got {type(value).__name__}")
    return Fraction(value)


def rational_to_json(value: Fraction) -> int | str:
    """JSON form of a rational: an integer, or the string "p/q"."""
    value = Fraction(value)
    if value.denominator == 1:
        return value.numerator
    return f"{value.numerator}/{value.denominator}"


def rational_from_json(value: object) -> Fraction:
    """Inverse of `rational_to_json`; raises ValueError on anything else."""
    if isinstance(value, bool):
        raise ValueError("boolean is not a number")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        text = value.strip()
        num, sep, den = text.partition("/")
        try:
            if sep:
                if not den.strip().isdigit():
                    raise ValueError
                return Fraction(int(num), int(den))
            return Fraction(int(text))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"not an exact rational: {value!r}") from None
    raise ValueError(f"not an exact rational: {value!r}")


@dataclass(frozen=True, order=True)
class Weight:
    """An exact positive atom weight coef·e^exponent (coef > 0 rational, exponent rational)."""

    coef: Fraction
    exponent: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if not isinstance(self.coef, Fraction) or not isinstance(self.exponent, Fraction):
            raise TypeError("Weight takes Fractions")
        if self.coef <= 0:
            raise ValueError("a weight must be positive")

    def __mul__(self, other: Weight) -> Weight:
        return Weight(self.coef * other.coef, self.exponent + other.exponent)

    @property
    def is_rational(self) -> bool:
        """True when the weight is a rational number."""
        return self.exponent == 0

    def to_json(self) -> int | str:
        """JSON number: an integer, "p/q", or a sympy-syntax string such as "3*exp(1/2)"."""
        if self.is_rational:
            return rational_to_json(self.coef)
        power = f"exp({_frac_text(self.exponent)})"
        return power if self.coef == 1 else f"{_frac_text(self.coef)}*{power}"


def _frac_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


# --------------------------------------------------------------------------------------
# Laurent polynomials in t = e^(1/L): dict exponent -> Fraction, zero terms dropped.

TPoly = Mapping[int, Fraction]


def t_scale(exponents: Iterable[Fraction]) -> int:
    """L = lcm of the denominators of the exponents (1 when all are integers or none)."""
    return lcm(1, *(Fraction(e).denominator for e in exponents))


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


def t_ratio_to_json(num: TPoly, den: TPoly, scale: int) -> int | str:
    """JSON number for num(t)/den(t): a rational when both are constants, else sympy text."""
    num = {k: c for k, c in num.items() if c != 0}
    den = {k: c for k, c in den.items() if c != 0}
    if not den:
        raise ZeroDivisionError("zero denominator")
    if not num:
        return 0
    if len(den) == 1:
        (kd, cd), = den.items()
        shifted = {k - kd: c / cd for k, c in num.items()}
        if set(shifted) == {0}:
            return rational_to_json(shifted[0])
        text = t_poly_text(shifted, scale)
        return text
    num_text, den_text = t_poly_text(num, scale), t_poly_text(den, scale)
    return f"({num_text})/({den_text})"
