"""The construction search: small heads D = g·Q′_B found by a MIP, repaired exactly (DESIGN §10, L1, L4).

For a block with rational weights, minimise |supp(g·Q′)| over the cofactor g on a box G, subject to
g·Q′ ≥ 0 and supp(g·P′) ⊆ supp(g·Q′): one indicator z_e per point e of E = G + supp Q′ ∪ G + supp P′,
with D_e ≥ z_e (scaling: a selected weight is ≥ 1), D_e ≤ M·z_e and |N_e| ≤ M·z_e (HiGHS, one thread,
a fixed seed, a time limit).  Whatever it finds is floats: the support S it selects is re-solved exactly
(the integer null space of the rows D_e = 0, N_e = 0 for e ∉ S, then a rational point of it near the
float g), and only an exact (N, D) with positive weights and supp N ⊆ supp D is returned — a head the
kernel's construction check replays.  The box grows (deg g = 1, 2, …) until the budget ends, the box
limit is reached or the head meets the lower bound; it starts from the best closed form (its size is
the cutoff: only strictly smaller heads count).
"""

from __future__ import annotations

import time
from fractions import Fraction
from itertools import product as cartesian
from math import lcm
from typing import Callable

from headfusion.algebra.expform import ExpForm, x_support
from headfusion.algebra.laurent import LPoly
from headfusion.bounds.constructions import closed_forms, with_head
from headfusion.bounds.highs import quiet_highs

MAX_MIP_POINTS = 600  # points of E in one MIP (indicators); larger boxes are not tried
MAX_G_BOUND = 64.0  # |g_a| ≤ this in the MIP (heads are scale-free: D_e ≥ 1 on the support fixes the scale)
SEED = 20261203  # HiGHS random seed: the same input gives the same head


def _rows(P: LPoly, Q: LPoly, box: list[tuple[int, ...]]) -> tuple[list, dict, dict]:
    """Points E and, per point, the coefficients of D_e and N_e in the unknowns g_a (a indexes the box)."""
    Qx = {e[:-1]: c for e, c in Q.terms.items()}
    Px = {e[:-1]: c for e, c in P.terms.items()}
    D: dict[tuple[int, ...], dict[int, Fraction]] = {}
    N: dict[tuple[int, ...], dict[int, Fraction]] = {}
    for a, shift in enumerate(box):
        for src, out in ((Qx, D), (Px, N)):
            for e, c in src.items():
                point = tuple(x + y for x, y in zip(e, shift))
                out.setdefault(point, {})[a] = c
    points = sorted(set(D) | set(N))
    return points, D, N


def _mip(points: list, D: dict, N: dict, unknowns: int, cutoff: int, seconds: float) -> list[float] | None:
    """The float g of the least-support head on the box, at most cutoff − 1 points; None if none or no time."""
    import highspy
    import numpy as np

    n_z = len(points)
    ncol = unknowns + n_z
    scale = max((abs(float(c)) for row in D.values() for c in row.values()), default=1.0)
    big = MAX_G_BOUND * scale * max(1, unknowns) * 4
    rows: list[tuple[dict[int, float], float, float]] = []
    inf = highspy.kHighsInf
    for i, e in enumerate(points):
        d = {a: float(c) for a, c in D.get(e, {}).items()}
        n = {a: float(c) for a, c in N.get(e, {}).items()}
        z = unknowns + i
        if d:
            rows.append((d, 0.0, inf))  # D_e ≥ 0
            rows.append(({**d, z: -1.0}, 0.0, inf))  # D_e ≥ z_e
            rows.append(({**d, z: -big}, -inf, 0.0))  # D_e ≤ M z_e
        else:  # no denominator term can reach e: the numerator must vanish there
            if n:
                rows.append((n, 0.0, 0.0))
            continue
        if n:
            rows.append(({**n, z: -big}, -inf, 0.0))
            rows.append(({**{a: -v for a, v in n.items()}, z: -big}, -inf, 0.0))
    rows.append(({unknowns + i: 1.0 for i in range(n_z)}, 1.0, float(cutoff - 1)))
    h = quiet_highs()
    # One thread (deterministic, and no worker threads left behind for a later fork: `search --minimize` and `verify` work in
    # forked children).  HiGHS fixes its global scheduler at a process's first solve, and a run asking another thread count
    # fails, so the scheduler is reset before this run and after it.
    highspy.Highs.resetGlobalScheduler(True)
    for key, value in (("threads", 1), ("random_seed", SEED), ("mip_rel_gap", 0.0), ("time_limit", max(0.05, seconds)),
                       ("output_flag", False)):
        h.setOptionValue(key, value)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = ncol, len(rows)
    lp.col_cost_ = np.array([0.0] * unknowns + [1.0] * n_z)
    lp.col_lower_ = np.array([-MAX_G_BOUND] * unknowns + [0.0] * n_z)
    lp.col_upper_ = np.array([MAX_G_BOUND] * unknowns + [1.0] * n_z)
    lp.row_lower_ = np.array([r[1] for r in rows])
    lp.row_upper_ = np.array([r[2] for r in rows])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    starts, index, value = [0], [], []
    for coeffs, _, _ in rows:
        for k in sorted(coeffs):
            index.append(k)
            value.append(coeffs[k])
        starts.append(len(index))
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value)
    lp.integrality_ = [highspy.HighsVarType.kContinuous] * unknowns + [highspy.HighsVarType.kInteger] * n_z
    h.passModel(lp)
    h.run()
    highspy.Highs.resetGlobalScheduler(True)
    info = h.getInfo()
    if info.primal_solution_status != 2:  # no feasible solution found (infeasible or out of time)
        return None
    return list(h.getSolution().col_value)


def _null_space(rows: list[dict[int, Fraction]], unknowns: int) -> list[list[Fraction]]:
    """An exact basis of {g : row·g = 0 for every row} (integer rows via flint)."""
    import flint

    if not rows:
        return [[Fraction(int(i == j)) for i in range(unknowns)] for j in range(unknowns)]
    dense = []
    for row in rows:
        den = lcm(1, *(c.denominator for c in row.values()))
        dense.append([int(row.get(a, Fraction(0)) * den) for a in range(unknowns)])
    space, nullity = flint.fmpz_mat(dense).nullspace()
    return [[Fraction(int(space[i, j])) for i in range(unknowns)] for j in range(nullity)]


def _repair(points: list, D: dict, N: dict, unknowns: int, chosen: set, g_float: list[float]) -> list[Fraction] | None:
    """An exact g with D_e = N_e = 0 off the chosen support and D_e > 0 on it, near the float g, or None."""
    import numpy as np

    rows = [D[e] for e in points if e not in chosen and e in D] + [N[e] for e in points if e not in chosen and e in N]
    basis = _null_space([r for r in rows if r], unknowns)
    if not basis:
        return None
    B = np.array([[float(v) for v in b] for b in basis]).T  # unknowns × k
    coeffs, *_ = np.linalg.lstsq(B, np.array(g_float), rcond=None)
    for den in (1, 2, 6, 12, 60, 10**3, 10**6, 10**9):
        c = [Fraction(float(v)).limit_denominator(den) for v in coeffs]
        g = [sum((ci * b[a] for ci, b in zip(c, basis)), Fraction(0)) for a in range(unknowns)]
        values = [sum((cf * g[a] for a, cf in D[e].items()), Fraction(0)) for e in chosen if e in D]
        if values and all(v > 0 for v in values):
            return g
    return None


def search_block(P: LPoly, Q: LPoly, cutoff: int, lower: int, deadline: float, max_width: int | None = None,
                 progress: Callable[[str], None] | None = None, max_points: int = MAX_MIP_POINTS) -> tuple[LPoly, LPoly] | None:
    """The smallest exact head (N, D) = (g·P′, g·Q′) found below `cutoff` atoms, or None (rational P′, Q′ only)."""
    if any(e[-1] for e in Q.terms) or any(e[-1] for e in P.terms):
        return None
    rank = Q.nvars - 1
    widths = [max(e[c] for e in Q.terms) - min(e[c] for e in Q.terms) for c in range(rank)]
    limit = max_width if max_width is not None else max(2, max(widths, default=1))
    best: tuple[LPoly, LPoly] | None = None
    for k in range(1, limit + 1):
        if best is not None and len(x_support(best[1])) <= lower:
            break
        remaining = deadline - time.monotonic()
        if remaining <= 0.05:
            break
        box = list(cartesian(*(range(k + 1) for _ in range(rank))))
        points, D, N = _rows(P, Q, box)
        if len(points) > max_points:
            break
        if progress:
            progress(f"construction search: cofactor box {k + 1}^{rank}, {len(points)} points, below {cutoff} atoms")
        g_float = _mip(points, D, N, len(box), cutoff, remaining)
        if g_float is None:
            continue
        chosen = {e for i, e in enumerate(points) if g_float[len(box) + i] > 0.5}
        g = _repair(points, D, N, len(box), chosen, g_float[:len(box)])
        if g is None:
            continue
        G = LPoly(Q.nvars, {box[a] + (0,): v for a, v in enumerate(g) if v})
        Dh, Nh = G * Q, G * P
        support = x_support(Dh)
        if not Dh or any(len(c) != 1 or c.get(0, 0) <= 0 for c in support.values()) or not set(x_support(Nh)) <= set(support):
            continue
        if len(support) < cutoff:
            low = tuple(-v for v in Dh.min_exponent())
            best, cutoff = (Nh.shift(low), Dh.shift(low)), len(support)
    return best


def best_construction(form: ExpForm, lower: int | None = None, seconds: float = 0.0, max_rank: int = 2,
                      progress: Callable[[str], None] | None = None, max_points: int = MAX_MIP_POINTS) -> ExpForm:
    """F's form with the best head found: closed forms first, then (seconds > 0) the MIP search per block.

    The search runs on blocks of rank ≤ max_rank with rational weights, on boxes of at most `max_points` points,
    only while the head is above `lower` (a proved lower bound of F: nothing to gain once they meet).
    """
    form = closed_forms(form)
    if seconds <= 0 or (lower is not None and form.upper_bound <= lower):
        return form
    deadline = time.monotonic() + seconds
    others = form.upper_bound
    seen: set[int] = set()
    for index, block in enumerate(form.blocks):
        if id(block.Q) in seen or block.rank > max_rank or time.monotonic() >= deadline:
            continue
        seen.add(id(block.Q))
        size = block.head_size
        rest = others // size  # the product over the other blocks (LP): a block's head is worth only what it saves
        block_lower = max(1, -(-(lower or 1) // rest)) if lower else 1
        found = search_block(block.P_reduced, block.Q_reduced, size, block_lower, deadline, progress=progress, max_points=max_points)
        if found is not None:
            form = with_head(form, index, "search", *found)
            others = form.upper_bound
    return form
