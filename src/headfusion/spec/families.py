"""Built-in families.  A family supplies only its definition: a MultiHead for given d.

Nothing downstream knows which family a function came from; bounds, search and
verification compute everything from the heads.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from headfusion.spec.numbers import Weight
from headfusion.spec.model import Atom, Head, MultiHead
from headfusion.spec.cost import MAX_VARIABLES
from headfusion.spec.errors import ResourceLimit
from headfusion.spec.expressions import SpecError

MAX_FAMILY_DIMENSION = MAX_VARIABLES


def _unit(j: int, scale: Fraction = Fraction(1)) -> tuple[tuple[int, Fraction], ...]:
    return ((j, scale),)


def sigmoid_sum(d: int) -> MultiHead:
    """W_d(q) = σ(q_1) + … + σ(q_d): head j has atoms (e_j, value 1) and (0, value 0)."""
    return _coordinate_sum(d, Fraction(1), Fraction(0), "sigmoid", f"W_{d}")


def tanh_sum(d: int) -> MultiHead:
    """T_d(q) = tanh(q_1) + … + tanh(q_d): head j has atoms (2e_j, value 1) and (0, value −1)."""
    return _coordinate_sum(d, Fraction(2), Fraction(-1), "tanh", f"T_{d}")


def _coordinate_sum(d: int, slope: Fraction, low: Fraction, name: str, description: str) -> MultiHead:
    """Σ_j of the head with atoms (slope·e_j, value 1) and (0, value low); one number object per value, shared
    by every head (checking and hashing 10^5 heads' numbers is then cheap)."""
    zero, one, high = (), Weight(Fraction(1)), Fraction(1)
    heads = tuple(Head((Atom(_unit(j, slope), one, high), Atom(zero, one, low)), f"{name}(q{j + 1})") for j in range(d))
    return MultiHead(d, heads, (high,) * d, Fraction(0), description=description)


@dataclass(frozen=True)
class Family:
    """A named parameterised function."""

    name: str
    title: str
    build: Callable[[int], MultiHead]


FAMILIES: dict[str, Family] = {
    "W": Family("W", "W_d(q) = sigmoid(q_1) + ... + sigmoid(q_d)", sigmoid_sum),
    "sigmoid-sum": Family("W", "W_d(q) = sigmoid(q_1) + ... + sigmoid(q_d)", sigmoid_sum),
    "tanh-sum": Family("tanh-sum", "T_d(q) = tanh(q_1) + ... + tanh(q_d)", tanh_sum),
}


def build_family(name: str, d: int | None) -> MultiHead:
    """The family's MultiHead for parameter d (SpecError on a missing or bad d)."""
    family = FAMILIES[name]
    if d is None:
        raise SpecError(f"family '{name}' needs --d D (an integer ≥ 1)")
    if d < 1:
        raise SpecError(f"--d must be at least 1, got {d}")
    if d > MAX_FAMILY_DIMENSION:
        raise ResourceLimit(f"--d {d} exceeds the limit of {MAX_FAMILY_DIMENSION} variables: use a smaller d")
    return family.build(d)
