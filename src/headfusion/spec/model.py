"""Exact model of atoms, heads and multi-head functions (DESIGN §1).

Keys and values are rational, weights are exact positive numbers r·e^b
(`exact.Weight`).  Nothing here is a float; `numeric_value` exists only as a
numerical sanity check for tests and display.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Sequence

from headfusion.spec.numbers import Weight, rational_to_json

Key = tuple[tuple[int, Fraction], ...]
"""A key k ∈ Q^d stored sparsely: sorted (index, nonzero coordinate) pairs, 0-based."""


def sparse_key(coords: dict[int, Fraction]) -> Key:
    """Key from a mapping index ↦ coordinate (zeros dropped)."""
    return tuple(sorted((j, Fraction(c)) for j, c in coords.items() if c))


def dense_key(key: Key, dimension: int) -> tuple[Fraction, ...]:
    """The key as a full vector of length `dimension`."""
    out = [Fraction(0)] * dimension
    for j, c in key:
        out[j] = c
    return tuple(out)


@dataclass(frozen=True)
class Atom:
    """One key–value entry: key k ∈ Q^d, weight w = e^bias > 0, value v ∈ Q."""

    key: Key
    weight: Weight
    value: Fraction

    def to_json(self) -> dict:
        """JSON object {key, weight, value}; the key sparse as [[index (1-based), coordinate], ...]."""
        return {
            "key": [[j + 1, rational_to_json(c)] for j, c in self.key],
            "weight": self.weight.to_json(),
            "value": rational_to_json(self.value),
        }


@dataclass(frozen=True)
class Head:
    """A softmax head H(q) = Σ v_i w_i e^<k_i,q> / Σ w_i e^<k_i,q>."""

    atoms: tuple[Atom, ...]
    label: str = ""

    def __post_init__(self) -> None:
        if not self.atoms:
            raise ValueError("a head needs at least one atom")

    @cached_property
    def size(self) -> int:
        """Number of distinct keys (L1: the size of the merged head); computed once (hashing keys of Fractions is slow)."""
        return len({atom.key for atom in self.atoms})

    def numeric_value(self, q: Sequence[float]) -> float:
        """Floating-point value at q (sanity checks only, never evidence)."""
        logits = [
            sum(float(k) * q[j] for j, k in a.key) + math.log(a.weight.coef) + float(a.weight.exponent)
            for a in self.atoms
        ]
        top = max(logits)
        exps = [math.exp(l - top) for l in logits]
        return sum(e * float(a.value) for e, a in zip(exps, self.atoms)) / sum(exps)

    def to_json(self) -> dict:
        """JSON object {label, atoms}."""
        return {"label": self.label, "atoms": [a.to_json() for a in self.atoms]}


@dataclass(frozen=True)
class MultiHead:
    """F(q) = constant + Σ_h scale_h · H_h(q) over q ∈ R^dimension."""

    dimension: int
    heads: tuple[Head, ...]
    scales: tuple[Fraction, ...]
    constant: Fraction = Fraction(0)
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.dimension < 1:
            raise ValueError("dimension must be at least 1")
        if len(self.heads) != len(self.scales):
            raise ValueError("one scale per head")
        for head in self.heads:
            for atom in head.atoms:
                if any(not 0 <= j < self.dimension or not c for j, c in atom.key):
                    raise ValueError("key index outside the dimension")

    @property
    def head_atom_terms(self) -> int:
        """Σ_h n_h, the cost of the multi-head form (merged head sizes, L1)."""
        return sum(head.size for head in self.heads)

    def numeric_value(self, q: Sequence[float]) -> float:
        """Floating-point value at q (sanity checks only, never evidence)."""
        return float(self.constant) + sum(float(s) * h.numeric_value(q) for s, h in zip(self.scales, self.heads))

    def to_json(self) -> dict:
        """Normalised model as JSON (exact numbers)."""
        return {
            "dimension": self.dimension,
            "constant": rational_to_json(self.constant),
            "heads": [
                {"scale": rational_to_json(s), **h.to_json()} for s, h in zip(self.scales, self.heads)
            ],
        }


@dataclass(frozen=True)
class Spec:
    """What the user asked for, and the exact model it denotes."""

    text: str  # the spec as given
    d: int | None
    kind: str  # "family" | "expression" | "toml"
    title: str
    slug: str
    model: MultiHead
    source: str | None = None  # the full text of a TOML spec (what a certificate embeds)
    name: str | None = None  # a TOML spec without `name`: the name taken from its file (names the output files)


def group_by_shared_variables(used_by: list[list[int]]) -> list[tuple[list[int], list[int]]]:
    """Blocks: heads joined when they share a variable (union-find), each as (heads, sorted variables).

    `used_by[h]` lists the variables head h depends on; a head with none is a block of its own.
    Blocks are ordered by their first head.
    """
    parent: dict[int, int] = {}

    def find(v: int) -> int:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for used in used_by:
        for j in used[1:]:
            parent[find(j)] = find(used[0])
    groups: dict[object, tuple[list[int], set[int]]] = {}
    for h, used in enumerate(used_by):
        root: object = find(used[0]) if used else ("constant", h)
        heads, variables = groups.setdefault(root, ([], set()))
        heads.append(h)
        variables.update(used)
    ordered = sorted(groups.values(), key=lambda g: g[0][0])
    return [(heads, sorted(variables)) for heads, variables in ordered]
