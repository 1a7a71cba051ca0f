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
    zero = ()
    one = Weight(Fraction(1))
    heads = tuple(
        Head((Atom(_unit(j), one, Fraction(1)), Atom(zero, one, Fraction(0))), f"sigmoid(q{j + 1})")
        for j in range(d)
    )
    return MultiHead(d, heads, tuple(Fraction(1) for _ in heads), Fraction(0), description=f"W_{d}")


def tanh_sum(d: int) -> MultiHead:
    """T_d(q) = tanh(q_1) + … + tanh(q_d): head j has atoms (2e_j, value 1) and (0, value −1)."""
    zero = ()
    one = Weight(Fraction(1))
    heads = tuple(
        Head((Atom(_unit(j, Fraction(2)), one, Fraction(1)), Atom(zero, one, Fraction(-1))), f"tanh(q{j + 1})")
        for j in range(d)
    )
    return MultiHead(d, heads, tuple(Fraction(1) for _ in heads), Fraction(0), description=f"T_{d}")


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
