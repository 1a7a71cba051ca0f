"""The exact side of the refutation producer (solving/refute.py): the question's rows, the LPs, exact repair.

The rows D_e, N_e of the kernel's question are held over indices, exact (Fractions) and
scaled to integers.  The weighted dual (Farkas) LP of a node's virtual system is solved in
floats by HiGHS; its vector is repaired to exact integer multipliers on the float support
(null vector with python-flint, or rational row reduction) and checked exactly.  When the
LP says feasible, the head is extracted exactly (null space, a positive combination found
in floats and rounded, checked exactly).  Nothing here is trusted: only the kernel's
`replay` is.
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import gcd, lcm

from headfusion.bounds.highs import quiet_highs
from headfusion.kernel.refutation import box_points

try:  # optional accelerators; the producer falls back to Fractions without flint
    import flint  # type: ignore
except ImportError:  # pragma: no cover - exercised only without python-flint
    flint = None

Point = tuple[int, ...]

FREE, OUT, IN = 0, 1, 2
_EPS_COST = 1e-3  # L1 weight of multipliers on rows that cost no split
_TOL = 1e-9  # support threshold of a float multiplier


class _Row:
    """One row of a flint matrix, converted to Fractions entry by entry on demand."""

    __slots__ = ("M", "i")

    def __init__(self, M, i: int):
        self.M, self.i = M, i

    def __getitem__(self, j: int) -> Fraction:
        x = self.M[self.i, j]
        return Fraction(int(x.p), int(x.q))


def _rref_int(flat: list[int], nrows: int, ncols: int):
    """rref over Q of an integer matrix (flint), rows read lazily."""
    R, rank = flint.fmpq_mat(flint.fmpz_mat(nrows, ncols, flat)).rref()
    pivots, j = [], 0
    for i in range(rank):
        while R[i, j] == 0:
            j += 1
        pivots.append(j)
    return [_Row(R, i) for i in range(rank)], pivots


def rref(matrix: list[list[Fraction]], ncols: int) -> tuple[list[list[Fraction]], list[int]]:
    """Reduced row echelon form and pivot columns, in Fractions (the path without flint)."""
    if not matrix:
        return [], []
    A = [list(r) for r in matrix]
    pivots, r = [], 0
    for c in range(ncols):
        p = next((i for i in range(r, len(A)) if A[i][c]), None)
        if p is None:
            continue
        A[r], A[p] = A[p], A[r]
        inv = 1 / A[r][c]
        A[r] = [v * inv for v in A[r]]
        for i in range(len(A)):
            if i != r and A[i][c]:
                f = A[i][c]
                A[i] = [x - f * y for x, y in zip(A[i], A[r])]
        pivots.append(c)
        r += 1
        if r == len(A):
            break
    return A[:r], pivots


class Farkas:
    """The rows of one question over indices, the dual LP over them, and their exact repair.

    `status` (FREE, OUT or IN per point of E) is the search's assignment: set by the
    search, read here.  `stats` is the search's counter dict (LP solves are counted here).
    """

    def __init__(self, D: dict, N: dict, sizes: tuple[int, ...], m: int, stats: dict, deadline):
        import highspy  # noqa: F401  (imported here: the kernel and the package never need it)
        import numpy as np

        self.np = np
        self.m, self.deadline, self.stats = m, deadline, stats
        self.points: list[Point] = sorted(D)
        self.pidx = {e: i for i, e in enumerate(self.points)}
        self.gpts: list[Point] = box_points(sizes)
        self.gidx = {a: i for i, a in enumerate(self.gpts)}
        self.npts: list[Point] = sorted(N)
        self.nin = [self.pidx.get(e, -1) for e in self.npts]  # N row -> point of E (or −1)
        self.status = [FREE] * len(self.points)
        # sparse rows over unknown indices, exact and float
        self.D_ex = [{self.gidx[a]: c for a, c in D[e].items()} for e in self.points]
        self.N_ex = [{self.gidx[a]: c for a, c in N[e].items()} for e in self.npts]
        self.row_den = {
            "D": [lcm(*(c.denominator for c in r.values())) for r in self.D_ex],
            "N": [lcm(*(c.denominator for c in r.values())) for r in self.N_ex],
        }
        self.D_int = [{a: int(c * d) for a, c in r.items()} for r, d in zip(self.D_ex, self.row_den["D"])]
        self.N_int = [{a: int(c * d) for a, c in r.items()} for r, d in zip(self.N_ex, self.row_den["N"])]
        big = lcm(*self.row_den["D"], *self.row_den["N"])
        self.D_all = [{a: int(c * big) for a, c in r.items()} for r in self.D_ex]
        self.N_all = [{a: int(c * big) for a, c in r.items()} for r in self.N_ex]
        self._build_lp()

    # ------------------------------------------------------------------ the dual LP
    def _build_lp(self) -> None:
        import highspy

        np = self.np
        nE, nN, nG = len(self.points), len(self.npts), len(self.gpts)
        self.nE, self.nN, self.nG = nE, nN, nG
        ncol = 2 * nE + 2 * nN
        starts, index, value = [], [], []
        for sign in (1.0, -1.0):
            for row in self.D_ex:
                starts.append(len(index))
                for a, c in row.items():
                    index.append(a)
                    value.append(sign * float(c))
        for sign in (1.0, -1.0):
            for row in self.N_ex:
                starts.append(len(index))
                for a, c in row.items():
                    index.append(a)
                    value.append(sign * float(c))
        h = quiet_highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("presolve", "off")
        inf = highspy.kHighsInf
        self.inf = inf
        lp = highspy.HighsLp()
        lp.num_col_ = ncol
        lp.num_row_ = nG + 1
        lp.col_cost_ = np.zeros(ncol)
        lp.col_lower_ = np.zeros(ncol)
        lp.col_upper_ = np.full(ncol, inf)
        lp.row_lower_ = np.concatenate([np.zeros(nG), [1.0]])
        lp.row_upper_ = np.concatenate([np.zeros(nG), [inf]])
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.array(starts + [len(index)], dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=np.float64)
        h.passModel(lp)
        self.h = h
        self.cur_cost = np.zeros(ncol)
        self.cur_upper = np.full(ncol, inf)
        self.cur_norm = np.zeros(nE)

    def _targets(self):
        np = self.np
        st = np.array(self.status)
        nin_st = np.array([self.status[i] if i >= 0 else -1 for i in self.nin])
        inf = self.inf
        cost_p = np.where(st == IN, 0.0, _EPS_COST)
        cost_u = np.where(st == FREE, 1.0, _EPS_COST)
        up_u = np.where(st == IN, 0.0, inf)
        cost_n = np.where(nin_st == FREE, 1.0, _EPS_COST)
        up_n = np.where(nin_st == IN, 0.0, inf)
        cost = np.concatenate([cost_p, cost_u, cost_n, cost_n])
        upper = np.concatenate([np.full(self.nE, inf), up_u, up_n, up_n])
        norm = (st == IN).astype(float)
        return cost, upper, norm

    def solve_dual(self):
        """The weighted Farkas LP of the virtual system; (status, λ_D, λ_N) in floats."""
        import highspy

        np = self.np
        cost, upper, norm = self._targets()
        h = self.h
        ch = np.nonzero(cost != self.cur_cost)[0]
        if len(ch):
            h.changeColsCost(len(ch), ch.astype(np.int32), cost[ch])
        ch = np.nonzero(upper != self.cur_upper)[0]
        if len(ch):
            h.changeColsBounds(len(ch), ch.astype(np.int32), np.zeros(len(ch)), upper[ch])
        for i in np.nonzero(norm != self.cur_norm)[0]:
            h.changeCoeff(self.nG, int(i), float(norm[i]))
        self.cur_cost, self.cur_upper, self.cur_norm = cost, upper, norm
        self.stats["lp_solves"] += 1
        if self.deadline is not None:
            # HiGHS's clock runs across solves of one instance: the limit is cumulative
            h.setOptionValue("time_limit", h.getRunTime() + max(0.01, self.deadline - time.time()))
        h.run()
        ms = h.getModelStatus()
        if ms == highspy.HighsModelStatus.kOptimal:
            x = np.array(h.getSolution().col_value)
            nE, nN = self.nE, self.nN
            lamD = x[:nE] - x[nE : 2 * nE]
            lamN = x[2 * nE : 2 * nE + nN] - x[2 * nE + nN :]
            return "optimal", lamD, lamN
        if ms == highspy.HighsModelStatus.kInfeasible:
            return "infeasible", None, None
        # numerical trouble: restart from scratch once
        h.clearSolver()
        h.run()
        ms = h.getModelStatus()
        if ms == highspy.HighsModelStatus.kOptimal:
            return self._solve_dual_result()
        if ms == highspy.HighsModelStatus.kInfeasible:
            return "infeasible", None, None
        self.stats["lp_trouble"] = h.modelStatusToString(ms)
        return "error", None, None

    def _solve_dual_result(self):
        np = self.np
        x = np.array(self.h.getSolution().col_value)
        nE, nN = self.nE, self.nN
        return "optimal", x[:nE] - x[nE : 2 * nE], x[2 * nE : 2 * nE + nN] - x[2 * nE + nN :]

    # ------------------------------------------------------------------ exact repair
    def repair(self, lamD, lamN) -> tuple[dict, dict] | None:
        """Exact λ on the float support with Σλ·row ≡ 0 and Σ_IN λ_D = 1; None if it fails."""
        for tol in (1e-7, 1e-9, 1e-11):
            S = [("D", i, float(lamD[i])) for i in self.np.nonzero(abs(lamD) > tol)[0]]
            S += [("N", j, float(lamN[j])) for j in self.np.nonzero(abs(lamN) > tol)[0]]
            got = self._repair_on(S)
            if got is not None:
                return got
        return None

    def _repair_on(self, S) -> tuple[dict, dict] | None:
        """Exact multipliers on the rows S: the null vector of the support when it is unique,
        else a basic solution of the normalised system; integers, checked exactly."""
        if not S:
            return None
        cols: dict[int, int] = {}
        for side, i, _ in S:
            for a in (self.D_int[i] if side == "D" else self.N_int[i]):
                cols.setdefault(a, len(cols))
        n = len(S)
        # λ_k = d_k·μ_k with d_k the common denominator of row k: an integer system in μ
        width = n + 1
        flat = [0] * ((len(cols) + 1) * width)
        scale = []
        norm_row = len(cols) * width
        for k, (side, i, _) in enumerate(S):
            row = self.D_int[i] if side == "D" else self.N_int[i]
            scale.append(self.row_den[side][i])
            for a, c in row.items():
                flat[cols[a] * width + k] = c
            if side == "D" and self.status[i] == IN:
                flat[norm_row + k] = scale[k]
        flat[norm_row + n] = 1
        candidates: list[list] = []
        if flint is not None:
            hom = [v for r in range(len(cols)) for v in flat[r * width : r * width + n]]
            K, nullity = flint.fmpz_mat(len(cols), n, hom).nullspace()
            if nullity == 0:
                return None
            if nullity == 1:
                candidates.append([int(K[k, 0]) for k in range(n)])
        if not candidates:
            if flint is not None:
                R, pivots = _rref_int(flat, len(cols) + 1, width)
            else:
                M = [[Fraction(v) for v in flat[r * width : (r + 1) * width]] for r in range(len(cols) + 1)]
                R, pivots = rref(M, width)
            if n in pivots:
                return None
            free = [k for k in range(n) if k not in set(pivots)]
            for mode in ("zero", "float"):
                if mode == "float" and not free:
                    break
                mu = [Fraction(0)] * n
                if mode == "float":
                    for k in free:
                        mu[k] = (Fraction(S[k][2]) / scale[k]).limit_denominator(10**6)
                for r, p in zip(R, pivots):
                    mu[p] = r[n] - sum((r[k] * mu[k] for k in free if mu[k]), Fraction(0))
                den = lcm(*(v.denominator for v in mu))
                candidates.append([int(v * den) for v in mu])
        for mu in candidates:
            lam = [v * d for v, d in zip(mu, scale)]
            norm = sum(v for v, (side, i, _) in zip(lam, S) if side == "D" and self.status[i] == IN)
            if norm < 0:
                lam = [-v for v in lam]
            g = gcd(*lam)
            if not g:
                continue
            lD = {i: v // g for v, (side, i, _) in zip(lam, S) if side == "D" and v}
            lN = {i: v // g for v, (side, i, _) in zip(lam, S) if side == "N" and v}
            if self._valid(lD, lN):
                return lD, lN
        return None

    def _valid(self, lD: dict, lN: dict) -> bool:
        """Exact check (integers): cancels every unknown, signs allowed here, rhs > 0."""
        total: dict[int, int] = {}
        for i, lam in lD.items():
            if self.status[i] == IN and lam < 0:
                return False
            for a, c in self.D_all[i].items():
                total[a] = total.get(a, 0) + lam * c
        for j, lam in lN.items():
            if self.nin[j] >= 0 and self.status[self.nin[j]] == IN:
                return False
            for a, c in self.N_all[j].items():
                total[a] = total.get(a, 0) + lam * c
        if any(total.values()):
            return False
        return any(lam > 0 and self.status[i] == IN for i, lam in lD.items())

    # ------------------------------------------------------------------ heads
    def extract_head(self) -> dict | None:
        """Exact g with D ≥ 1 on IN, D = 0 elsewhere on E, N = 0 off IN; None if none."""
        inside = [i for i in range(self.nE) if self.status[i] == IN]
        eqs = [self.D_ex[i] for i in range(self.nE) if self.status[i] != IN]
        eqs += [self.N_ex[j] for j in range(self.nN) if self.nin[j] < 0 or self.status[self.nin[j]] != IN]
        # restrict to unknowns that can be nonzero: an unknown appearing in a D row of E \ IN
        # is still possible (cancellation), so keep all
        nG = self.nG
        basis = self._nullspace(eqs, nG)
        if not basis:
            return None
        vals = [[sum((c * b[a] for a, c in self.D_ex[i].items()), Fraction(0)) for b in basis] for i in inside]
        coeffs = self._positive_combination(vals)
        if coeffs is None:
            return None
        g = [sum((c * b[a] for c, b in zip(coeffs, basis)), Fraction(0)) for a in range(nG)]
        head = self._check_head(g)
        return head

    def _nullspace(self, eqs: list[dict], n: int) -> list[list[Fraction]]:
        if flint is not None:
            dens = [lcm(*(c.denominator for c in row.values())) if row else 1 for row in eqs]
            flat = [0] * (max(len(eqs), 1) * n)
            for r, row in enumerate(eqs):
                for a, c in row.items():
                    flat[r * n + a] = int(c * dens[r])
            Z = flint.fmpz_mat(max(len(eqs), 1), n, flat)
            K, nullity = Z.nullspace()
            return [[Fraction(int(K[a, j])) for a in range(n)] for j in range(nullity)]
        R, pivots = rref([[row.get(a, Fraction(0)) for a in range(n)] for row in eqs], n)
        free = [a for a in range(n) if a not in set(pivots)]
        basis = []
        for f in free:
            v = [Fraction(0)] * n
            v[f] = Fraction(1)
            for r, p in zip(R, pivots):
                v[p] = -r[f]
            basis.append(v)
        return basis

    def _positive_combination(self, vals: list[list[Fraction]]) -> list[Fraction] | None:
        k = len(vals[0]) if vals else 0
        if k == 0:
            return None
        if k == 1:
            for s in (1, -1):
                if all(s * v[0] > 0 for v in vals):
                    return [Fraction(s)]
            return None
        import highspy

        np = self.np
        h = quiet_highs()
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = k, len(vals)
        lp.col_cost_ = np.zeros(k)
        lp.col_lower_ = np.full(k, -1e6)
        lp.col_upper_ = np.full(k, 1e6)
        lp.row_lower_ = np.ones(len(vals))
        lp.row_upper_ = np.full(len(vals), highspy.kHighsInf)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.arange(0, k * len(vals) + 1, k, dtype=np.int32)
        lp.a_matrix_.index_ = np.tile(np.arange(k, dtype=np.int32), len(vals))
        lp.a_matrix_.value_ = np.array([float(x) for row in vals for x in row])
        h.passModel(lp)
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        x = h.getSolution().col_value
        for den in (10**3, 10**6, 10**9):
            c = [Fraction(v).limit_denominator(den) for v in x]
            if all(sum((a * b for a, b in zip(row, c)), Fraction(0)) > 0 for row in vals):
                return c
        return None

    def _check_head(self, g: list[Fraction]) -> dict | None:
        """Exact: D = g·Q′ ≥ 0 with ≤ m positive points, N = g·P′ zero off supp D."""
        gd = {self.gpts[a]: v for a, v in enumerate(g) if v}
        Dv = {e: sum((c * g[a] for a, c in self.D_ex[i].items()), Fraction(0)) for i, e in enumerate(self.points)}
        Nv = {e: sum((c * g[a] for a, c in self.N_ex[j].items()), Fraction(0)) for j, e in enumerate(self.npts)}
        Dd = {e: v for e, v in Dv.items() if v}
        Nd = {e: v for e, v in Nv.items() if v}
        if not Dd or any(v < 0 for v in Dd.values()) or len(Dd) > self.m:
            return None
        if any(e not in Dd for e in Nd):
            return None
        return {"g": gd, "D": Dd, "N": Nd}
