"""Interior leaves for the refutation producer (untrusted; the kernel checks each one).

When m ≤ V (V = #vertices of Newt(Q′)), every point of supp D of a head with at most m atoms
is a vertex of Newt(D) (L5, the argument of lemma LT), so a node whose IN set has a point in
the convex hull of its other IN points is closed.  A floating LP (HiGHS) finds a candidate
combination; the combination is then recomputed exactly on the LP's support (Fractions) and
returned only if it holds exactly.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

Point = tuple[int, ...]


def _exact_combination(e: Point, support: list[Point]) -> list[tuple[Point, Fraction]] | None:
    """c ≥ 0 with Σ c·f = e and Σ c = 1 over an affinely independent part of `support`, exactly."""
    rank = len(e)
    for size in range(1, min(len(support), rank + 1) + 1):
        for part in combinations(support, size):
            # rows: coordinates and the sum; columns: the points of `part`
            matrix = [[Fraction(f[i]) for f in part] + [Fraction(e[i])] for i in range(rank)]
            matrix.append([Fraction(1)] * size + [Fraction(1)])
            solution = _solve(matrix, size)
            if solution is not None and all(c >= 0 for c in solution):
                return [(f, c) for f, c in zip(part, solution) if c]
    return None


def _solve(matrix: list[list[Fraction]], ncols: int) -> list[Fraction] | None:
    """The unique solution of an augmented system with full column rank (None otherwise)."""
    from headfusion.solving.farkas import rref

    reduced, pivots = rref(matrix, ncols + 1)  # the right-hand side as a pivot: inconsistent
    if pivots != list(range(ncols)):
        return None  # dependent columns (not affinely independent) or no solution
    return [reduced[i][-1] for i in range(ncols)]


_HIGHS: list = []  # one solver per process, re-used: creating one costs more than these tiny LPs


def _highs():
    from headfusion.solving.farkas import quiet_highs

    if not _HIGHS:
        _HIGHS.append(quiet_highs())
    _HIGHS[0].clearModel()
    return _HIGHS[0]


def _float_combination(e: Point, others: list[Point]) -> list[Point] | None:
    """The support of a floating convex combination of `others` giving e (HiGHS), or None."""
    import highspy
    import numpy as np

    h = _highs()
    n, rank = len(others), len(e)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, rank + 1
    lp.col_cost_ = np.zeros(n)
    lp.col_lower_, lp.col_upper_ = np.zeros(n), np.full(n, highspy.kHighsInf)
    target = np.array([float(x) for x in e] + [1.0])
    lp.row_lower_, lp.row_upper_ = target, target
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array([(rank + 1) * j for j in range(n + 1)], dtype=np.int32)
    lp.a_matrix_.index_ = np.array(list(range(rank + 1)) * n, dtype=np.int32)
    lp.a_matrix_.value_ = np.array([float(x) for f in others for x in list(f) + [1]], dtype=np.float64)
    h.passModel(lp)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    values = h.getSolution().col_value
    return [f for f, c in zip(others, values) if c > 1e-9]


def interior_leaf(inside: list[Point], newest: Point) -> list | None:
    """["interior", e, [[f, c], …]] when some IN point is a convex combination of the others.

    `newest` (the point just set IN) is tried first: the rest was in convex position at the
    parent unless the parent could not be closed this way (a cube's prefix).
    """
    if len(inside) < 2:
        return None
    for e in [newest] + [p for p in inside if p != newest]:
        others = [p for p in inside if p != e]
        if any(not min(f[i] for f in others) <= x <= max(f[i] for f in others) for i, x in enumerate(e)):
            continue  # outside the others' bounding box: not in their hull (no LP needed)
        support = _float_combination(e, others)
        if support is None:
            continue
        combo = _exact_combination(e, support)
        if combo is not None:
            return ["interior", list(e), [[list(f), str(c)] for f, c in combo]]
    return None
