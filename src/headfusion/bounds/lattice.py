"""Integer vectors for the polytope modules: inner products, primitive lines, rank, exact products.

Shared by `polytope` (the interface), `hull` (facets of a point set) and `zonotope`
(regions of an arrangement).  Everything is exact: Python integers, Fractions, and
numpy int64 only behind a bound that rules out overflow.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Iterator, Sequence

import numpy as np

Point = tuple[int, ...]

INT64_SAFE = 2**62  # |Σ a_i b_i| below this cannot overflow int64


def dot(a: Sequence[int], b: Sequence[int]) -> int:
    """Integer inner product."""
    return sum(x * y for x, y in zip(a, b))


def primitive(c: Sequence[int]) -> tuple[int, ...]:
    """c divided by the gcd of its entries (the zero vector stays zero)."""
    g = gcd(*c)
    return tuple(x // g for x in c) if g > 1 else tuple(c)


def line(c: Sequence[int]) -> tuple[int, ...]:
    """The primitive vector of c's line with a positive first nonzero entry (c ≠ 0)."""
    p = primitive(c)
    first = next(x for x in p if x)
    return p if first > 0 else tuple(-x for x in p)


def rank(vectors: Sequence[Sequence[int]]) -> int:
    """Exact rank of integer vectors (Gaussian elimination over Q)."""
    return len(pivot_columns(vectors))


def pivot_columns(vectors: Sequence[Sequence[int]]) -> list[int]:
    """Pivot columns of the row echelon form of the vectors (exact); their number is the rank."""
    rows = [list(map(Fraction, v)) for v in vectors if any(v)]
    if not rows:
        return []
    n = len(rows[0])
    pivots: list[int] = []
    r = 0
    for col in range(n):
        pivot = next((i for i in range(r, len(rows)) if rows[i][col] != 0), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        for i in range(r + 1, len(rows)):
            if rows[i][col] != 0:
                f = rows[i][col] / rows[r][col]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[r])]
        pivots.append(col)
        r += 1
        if r == len(rows):
            break
    return pivots


def inverse(matrix: Sequence[Sequence[int | Fraction]]) -> list[list[Fraction]]:
    """The exact inverse of an invertible square matrix (Gauss–Jordan over Q)."""
    n = len(matrix)
    rows = [[Fraction(x) for x in row] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = next(i for i in range(col, n) if rows[i][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        p = rows[col][col]
        rows[col] = [x / p for x in rows[col]]
        for i in range(n):
            if i != col and rows[i][col] != 0:
                f = rows[i][col]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[col])]
    return [row[n:] for row in rows]


def int_array(rows: Sequence[Sequence[int]], width: int) -> np.ndarray:
    """An integer matrix: int64 when its entries are small, else Python integers (object)."""
    big = max((abs(x) for row in rows for x in row), default=0)
    array = np.array(rows, dtype=np.int64 if big < 2**31 else object)
    return array.reshape(len(rows), width)


def exact_products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b.T exactly: int64 when no sum can overflow, else Python integers."""
    if a.dtype != object and b.dtype != object:
        bound = int(np.abs(a).max(initial=0)) * int(np.abs(b).max(initial=0)) * max(a.shape[1], 1)
        if bound < INT64_SAFE:
            return a @ b.T
    return a.astype(object) @ b.astype(object).T


def shells(dimension: int, budget: int) -> Iterator[np.ndarray]:
    """Integer vectors by max-norm B = 1, 2, …: one array per shell, rows in canonical order.

    Canonical order inside a shell: smaller Σc² first, then lexicographically smaller.
    Stops before the cumulative number of vectors would pass `budget`.
    """
    radius = 1
    while True:
        if dimension == 0 or (2 * radius + 1) ** dimension - 1 > budget:
            return
        axes = np.arange(-radius, radius + 1, dtype=np.int64)
        grid = np.stack(np.meshgrid(*([axes] * dimension), indexing="ij"), axis=-1).reshape(-1, dimension)
        shell = grid[np.abs(grid).max(axis=1) == radius]  # meshgrid order is lexicographic
        order = np.argsort((shell * shell).sum(axis=1), kind="stable")
        yield shell[order]
        radius += 1
