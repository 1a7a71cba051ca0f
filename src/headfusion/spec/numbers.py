"""Exact numbers of the model: rationals and their JSON form, and weights r·e^b.

This module belongs to the statement layer (spec/): it imports only the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

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
    if isinstance(value, str) and value.isascii():  # int() reads '٢', '２' and '१' as digits: ASCII only
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
