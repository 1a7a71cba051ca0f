"""Small integer witnesses for vertices and edges: a box search, then an LP where the box does not reach.

A witness is an integer c in an open polyhedral cone given by integer rows: ⟨c, a⟩ ≥ 1 for
the rows a of `above` (for integers, > 0 and ≥ 1 agree) and ⟨c, e⟩ = 0 for the rows of
`level`.  The box search (`box_vertex_witnesses`) tries all integer directions by max-norm,
so what it finds is least in max-norm, then in Σc², then lexicographically.  Beyond the box,
HiGHS minimises max-norm over the real cone (floats find); its optimum is rounded to
integers and kept only when the exact check passes and it is smaller than the witness the
caller already has.  The caller re-checks every witness against the whole support anyway.
"""

from __future__ import annotations

from typing import Callable, Sequence

import flint
import numpy as np

from headfusion.bounds.highs import quiet_highs
from headfusion.bounds.lattice import Point, exact_products, int_array, shells

BOX_BUDGET = 200_000  # integer directions tried by the box search
BOX_WORK = 40_000_000  # direction × vertex products allowed in that search


def box_vertex_witnesses(
    vertices: list[Point], k: int, edge_count: int, limit: int
) -> tuple[dict[int, Point], dict[tuple[int, int], Point], int]:
    """Least box directions maximised at exactly one vertex (vertex witnesses) or exactly two (edge witnesses).

    The maximisers among the vertices decide: a face is the hull of the vertices on it.
    Keys are vertex positions in `vertices` (pairs sorted); the last item is the largest
    radius whose whole box was searched.  Radii above `limit` (the caller's largest witness)
    cannot improve anything and are not searched.
    """
    single: dict[int, Point] = {}
    double: dict[tuple[int, int], Point] = {}
    matrix = int_array(vertices, k)
    step = max(1, 2_000_000 // len(vertices))
    work = radius = 0
    for shell in shells(k, BOX_BUDGET):
        work += len(shell) * len(vertices)
        if work > BOX_WORK or radius >= limit:
            break
        radius += 1
        for start in range(0, len(shell), step):
            chunk = shell[start:start + step]
            values = exact_products(chunk, matrix)
            hits = values == values.max(axis=1)[:, None]
            count = hits.sum(axis=1)
            first = hits.argmax(axis=1)
            last = len(vertices) - 1 - hits[:, ::-1].argmax(axis=1)
            rows = np.flatnonzero(count == 1)
            keys, at = np.unique(first[rows], return_index=True)
            for key, row in zip(keys.tolist(), rows[at].tolist()):
                single.setdefault(key, tuple(chunk[row].tolist()))
            rows = np.flatnonzero(count == 2)
            keys, at = np.unique(np.stack([first[rows], last[rows]], axis=1).reshape(-1, 2), axis=0, return_index=True)
            for (a, b), row in zip(keys.tolist(), rows[at].tolist()):
                double.setdefault((a, b), tuple(chunk[row].tolist()))
        if len(single) == len(vertices) and len(double) >= edge_count:
            break
    return single, double, radius


def _size(c: Sequence[int]) -> tuple[int, int]:
    return max((abs(x) for x in c), default=0), sum(x * x for x in c)


SCALES = np.array([1, 1.25, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64])


def _best_rounding(x: Sequence[float], above: Sequence[Sequence[int]], level: Sequence[Sequence[int]]) -> tuple[int, ...] | None:
    """The least valid integer vector among λ·x rounded, λ ∈ SCALES; None if none is valid.

    Rounding in coordinates of an integer basis B of {c : ⟨c, e⟩ = 0} keeps the level rows
    exact; scaling by λ ≥ 1 buys the margin that rounding costs on the rows ≥ 1.  Validity is
    decided exactly.
    """
    k = len(x)
    if level:
        space, nullity = flint.fmpz_mat([list(e) for e in level]).nullspace()
        basis = np.array([[int(space[i, j]) for j in range(nullity)] for i in range(k)], dtype=np.int64).reshape(k, nullity)
    else:
        basis = np.eye(k, dtype=np.int64)
    if basis.shape[1] == 0:
        return None
    y = np.linalg.lstsq(basis.astype(np.float64), np.asarray(x, dtype=np.float64), rcond=None)[0]
    coords = np.round(SCALES[:, None] * y[None, :])
    if np.abs(coords).max() * np.abs(basis).max() * k > 2**40:
        return None
    candidates = exact_products(coords.astype(np.int64), basis)
    ok = candidates.any(axis=1)
    if above:
        ok &= (exact_products(candidates, int_array(above, k)) >= 1).all(axis=1)
    if level:
        ok &= (exact_products(candidates, int_array(level, k)) == 0).all(axis=1)
    valid = [tuple(int(v) for v in row) for row in candidates[ok]]
    return min(valid, key=_size) if valid else None


def choose(
    candidates: Sequence[tuple[tuple[int, ...], tuple[int, ...] | None, Callable[[], tuple[list[Point], list[Point]]]]],
    radius: int,
) -> list[tuple[int, ...]]:
    """The witness to keep for each (structural witness, box witness or None, cone rows on demand).

    The box witness when the box found one; the structural one when its max-norm is at most
    radius + 1 (the box searched every direction up to `radius`: nothing smaller exists);
    otherwise the LP's, when it is checked and smaller.
    """
    pending = [(i, *rows(), current) for i, (current, boxed, rows) in enumerate(candidates)
               if boxed is None and _size(current)[0] > radius + 1]
    out = [boxed if boxed is not None else current for current, boxed, _ in candidates]
    for (i, *_), better in zip(pending, lp_smaller([p[1:] for p in pending])):
        out[i] = better
    return out


def lp_smaller(problems: Sequence[tuple[Sequence[Sequence[int]], Sequence[Sequence[int]], tuple[int, ...]]]) -> list[tuple[int, ...]]:
    """For each (above, level, current witness): a checked integer witness of smaller max-norm, or the current one.

    One LP per problem: minimise t subject to ⟨c, a⟩ ≥ 1 (a ∈ above), ⟨c, e⟩ = 0 (e ∈ level),
    −t ≤ c_i ≤ t.  Only the exact check of the rounded optimum decides.
    """
    if not problems:
        return []
    import highspy

    highs = quiet_highs()
    highs.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    out = []
    for above, level, current in problems:
        k = len(current)
        rows = [list(a) + [0] for a in above] + [list(e) + [0] for e in level]
        rows += [[int(j == i) for j in range(k)] + [-1] for i in range(k)] + [[int(j == i) for j in range(k)] + [1] for i in range(k)]
        lower = [1.0] * len(above) + [0.0] * len(level) + [-inf] * k + [0.0] * k
        upper = [inf] * len(above) + [0.0] * len(level) + [0.0] * k + [inf] * k
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = k + 1, len(rows)
        lp.col_cost_ = np.array([0.0] * k + [1.0])
        lp.col_lower_ = np.array([-inf] * k + [0.0])
        lp.col_upper_ = np.full(k + 1, inf)
        lp.row_lower_, lp.row_upper_ = np.array(lower), np.array(upper)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.arange(0, len(rows) * (k + 1) + 1, k + 1, dtype=np.int32)
        lp.a_matrix_.index_ = np.tile(np.arange(k + 1, dtype=np.int32), len(rows))
        lp.a_matrix_.value_ = np.array(rows, dtype=np.float64).reshape(-1)
        highs.passModel(lp)
        highs.run()
        best = current
        if highs.getModelStatus() == highspy.HighsModelStatus.kOptimal:
            found = _best_rounding(list(highs.getSolution().col_value)[:k], above, level)
            if found is not None and _size(found) < _size(best):
                best = found
        out.append(best)
    return out
