"""Does lemma LT (Newton-tight heads, DESIGN.md §4) pay against the Boolean refutation search?

    python benchmarks/bench_newton_tight.py [--only NAME] [--cap SECONDS] [--seed N] [--run-known]

Questions: the triangle tournament at m = 6 and the 4-cycle tournament C_4 at m = 14; for both
m = V = #vertices of Newt(Q′), so a head with ≤ m atoms has exactly V atoms (L5) and LT
decides the question.

LT route, per question:
  1. Newt(Q′) exactly (integer arithmetic): facets by brute force over r-subsets of supp Q′,
     vertices (on facets whose normals span rank r), edges (common facet normals of rank r−1).
  2. Deformations P of Newt(Q′): one vertex p_σ per vertex v_σ of Newt(Q′) with
     p_τ − p_σ = ℓ·prim(v_τ − v_σ), ℓ ∈ Z≥0, along every edge (σ, τ); enumerated exhaustively by
     backtracking over the edge graph, one per translation class (each coordinate's minimum 0),
     kept when width_c(P) ≤ G_c, G = search_box(P′, Q′, m) (the L3 box of g).
     Checks: every deformation found is verified against the normal fan (p_σ maximises every
     facet normal u of Newt(Q′) at v_σ over P, i.e. the fan of Newt(Q′) refines that of P);
     all are distinct; the Minkowski sums Σ ℓ_i [0, z_i] over the edge lines z_i that fit the
     box are all among them (a zonotope whose 2-faces are parallelograms, e.g. C_4, has no
     other deformations, so there the two counts must agree).
  3. One LP per deformation: unknowns g_a, a ∈ P ∩ Z^r; (g·Q′)_e ≥ 1 on the V forced points
     p_σ + v_σ, (g·Q′)_e = 0 and (g·P′)_e = 0 everywhere else.  Any feasible LP would be a
     V-atom head (up to rounding).
  LT seconds = enumeration + all LPs.  When the LPs do not fit in --cap seconds, a uniform
  random sample (seeded) is solved within the cap and the total is EXTRAPOLATED (mean LP time
  × #deformations, with a ±2 s.e. range); the table marks such figures with "~" and the
  notes say what was measured and what was extrapolated.

Boolean route: solving/refute.py `refute(P′, Q′, m, deadline=now + cap)`, single process.
For C_4 it is known to take far longer than any sensible cap (a 2-worker run projected
> 1,810 s; DESIGN §4: undecided after 25 min), so by default that figure is cited, not re-run;
--run-known runs it anyway for at most --cap seconds and reports "> cap" if it does not close.

MEASUREMENT, NOT EVIDENCE: the LPs are solved in floating point by HiGHS (highspy) without
exact repair; an "infeasible" here is not a Farkas certificate and a "feasible" is not a
checked head.  Only the geometry (vertices, edges, deformations, box) is exact.

Sanity check (printed, per question): with the one non-vertex ("centre") term of Q′ removed
from Q′ and from P′, (P″, Q″) is itself a head on the V vertices, so the point deformation
(g a monomial) must be LP-feasible (DESIGN §4 for the triangle).  (Removing the centre from Q′
alone would leave the N-row of P′'s centre term, e.g. 3·x^(1,1) for the triangle, nonzero, and
the point LP would be infeasible for that reason.)  The unmodified point LP is shown too.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import time
from fractions import Fraction
from math import gcd

import numpy as np

from headfusion.algebra.expform import exponential_form
from headfusion.bounds.polytope import newton_graph, rank
from headfusion.kernel.checks import check_exp_form, combined
from headfusion.kernel.model import model_from_json
from headfusion.kernel.refutation import search_box
from headfusion.proof.evidence import exp_form_evidence
from headfusion.solving.refute import refute
from headfusion.spec.load import load_spec

PROOFS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "proofs")

# name, spec file, d, m, known Boolean figure (cited unless --run-known)
QUESTIONS = [
    ("triangle", "tournament_complete.toml", 3, 6, None),
    ("C_4", "tournament_cycle.toml", 4, 14, (1810.0, "2-worker run, projected > 1,810 s")),
]

Point = tuple[int, ...]


# ---------------------------------------------------------------------------- data
def pq(spec_path: str, d: int) -> tuple[dict, dict]:
    """P′, Q′ exactly as the kernel uses them (exponent tuples end with the t-power 0)."""
    spec = load_spec(spec_path, d)
    form = exponential_form(spec.model)
    model = model_from_json(form.model.to_json())
    facts, _, _ = check_exp_form(model, exp_form_evidence(form), {})
    return combined(model, facts)


# ---------------------------------------------------------------------------- exact geometry
def det(rows: list[list[int]]) -> int:
    """Determinant of a small integer matrix (Fraction elimination)."""
    n = len(rows)
    if n == 0:
        return 1
    a = [[Fraction(x) for x in r] for r in rows]
    sign, result = 1, Fraction(1)
    for c in range(n):
        piv = next((i for i in range(c, n) if a[i][c] != 0), None)
        if piv is None:
            return 0
        if piv != c:
            a[c], a[piv] = a[piv], a[c]
            sign = -sign
        result *= a[c][c]
        for i in range(c + 1, n):
            f = a[i][c] / a[c][c]
            if f:
                a[i] = [x - f * y for x, y in zip(a[i], a[c])]
    return int(sign * result)


def primitive(v) -> Point:
    g = 0
    for x in v:
        g = gcd(g, int(x))
    return tuple(int(x) // g for x in v) if g else tuple(int(x) for x in v)


def dot(a, b) -> int:
    return sum(x * y for x, y in zip(a, b))


class Polytope:
    """Newt(S) for S ⊂ Z^r full-dimensional: facets (primitive outward normal u, h), vertices, edges."""

    def __init__(self, support: list[Point]):
        self.support = sorted(set(support))
        r = self.r = len(self.support[0])
        facets = set()
        for sub in itertools.combinations(self.support, r):
            diffs = [[x - y for x, y in zip(p, sub[0])] for p in sub[1:]]
            n = tuple((-1) ** i * det([row[:i] + row[i + 1 :] for row in diffs]) for i in range(r))
            if not any(n):
                continue
            c = dot(n, sub[0])
            vals = [dot(n, s) for s in self.support]
            if all(v <= c for v in vals):
                u = primitive(n)
            elif all(v >= c for v in vals):
                u = primitive(tuple(-x for x in n))
            else:
                continue
            facets.add((u, max(dot(u, s) for s in self.support)))
        self.facets = sorted(facets)
        on = {s: [u for u, h in self.facets if dot(u, s) == h] for s in self.support}
        self.vertices = [s for s in self.support if on[s] and rank(on[s]) == r]
        self.rays = [on[v] for v in self.vertices]  # rays of v's normal cone
        self.edges = []
        for i, j in itertools.combinations(range(len(self.vertices)), 2):
            common = [u for u in self.rays[i] if u in self.rays[j]]
            if common and rank(common) == r - 1:
                self.edges.append((i, j))
        # an interior vector of each normal cone (sum of its rays)
        self.witness = [tuple(sum(c) for c in zip(*rays)) for rays in self.rays]


# ---------------------------------------------------------------------------- deformations
def deformations(poly: Polytope, box: tuple[int, ...]):
    """All integer deformations of poly, translation-normalised, with width_c ≤ box_c.

    Yields tuples (p_σ for σ in poly.vertices), each a tuple of ints, min over each coordinate 0.
    p_τ − p_σ = ℓ·prim(v_τ − v_σ), ℓ ∈ Z≥0, on every edge (backtracking over the edge graph).
    """
    V, r, verts = len(poly.vertices), poly.r, poly.vertices
    nbr = {i: {} for i in range(V)}
    for i, j in poly.edges:
        d = primitive(tuple(b - a for a, b in zip(verts[i], verts[j])))
        nbr[i][j] = tuple(-x for x in d)  # direction from j to i
        nbr[j][i] = d  # direction from i to j
    # vertex order: greedy, most already-placed neighbours first (closes 2-faces early)
    order, placed = [0], {0}
    while len(order) < V:
        nxt = max((k for k in range(V) if k not in placed), key=lambda k: (sum(j in placed for j in nbr[k]), -k))
        order.append(nxt)
        placed.add(nxt)
    pos = {k: n for n, k in enumerate(order)}
    plan = []  # for each vertex after the root: [(earlier vertex, direction earlier→this)]
    for k in order[1:]:
        earlier = sorted((j for j in nbr[k] if pos[j] < pos[k]), key=lambda j: pos[j])
        assert earlier, "edge graph disconnected?"
        earlier = [(j, nbr[k][j]) for j in earlier]
        # two earlier neighbours on non-parallel lines fix p_k: q = p_j0 + ℓ0·d0 = p_j1 + ℓ1·d1
        pin = None
        for (j0, d0), (j1, d1) in itertools.combinations(earlier, 2):
            for c1, c2 in itertools.combinations(range(r), 2):
                dt = -d0[c1] * d1[c2] + d1[c1] * d0[c2]
                if dt:
                    pin = (j0, d0, j1, d1, c1, c2, dt)
                    break
            if pin:
                break
        plan.append((k, earlier, pin))
    p: list = [None] * V
    p[order[0]] = (0,) * r

    def multiple(diff, d):  # diff = k·d with k ∈ Z≥0 ?
        c = next(c for c in range(r) if d[c])
        if diff[c] % d[c]:
            return False
        k = diff[c] // d[c]
        return k >= 0 and all(x == k * y for x, y in zip(diff, d))

    def rec(step, lo, hi):
        if step == len(plan):
            yield tuple(tuple(x - m for x, m in zip(q, lo)) for q in p)
            return
        k, earlier, pin = plan[step]
        if pin is not None:  # one candidate: intersect the two lines (Cramer on coordinates c1, c2)
            j0, d0, j1, d1, c1, c2, dt = pin
            a, b = p[j1][c1] - p[j0][c1], p[j1][c2] - p[j0][c2]
            num = -a * d1[c2] + d1[c1] * b
            if num % dt or num // dt < 0:
                return
            q = tuple(x + num // dt * y for x, y in zip(p[j0], d0))
            nlo = tuple(min(a, b) for a, b in zip(lo, q))
            nhi = tuple(max(a, b) for a, b in zip(hi, q))
            if any(h - l > s for l, h, s in zip(nlo, nhi, box)):
                return
            if all(multiple(tuple(a - b for a, b in zip(q, p[j])), d) for j, d in earlier):
                p[k] = q
                yield from rec(step + 1, nlo, nhi)
                p[k] = None
            return
        j0, d0 = earlier[0]
        base = p[j0]
        ell = 0
        while True:
            q = tuple(b + ell * x for b, x in zip(base, d0))
            nlo = tuple(min(a, b) for a, b in zip(lo, q))
            nhi = tuple(max(a, b) for a, b in zip(hi, q))
            if any(h - l > s for l, h, s in zip(nlo, nhi, box)):
                break  # larger ℓ only widens further along d0
            if all(multiple(tuple(a - b for a, b in zip(q, p[j])), d) for j, d in earlier[1:]):
                p[k] = q
                yield from rec(step + 1, nlo, nhi)
                p[k] = None
            ell += 1

    yield from rec(0, p[order[0]], p[order[0]])


def is_deformation(poly: Polytope, defo) -> bool:
    """Independent check: for every vertex σ and every ray u of its normal cone, p_σ maximises u."""
    for s, rays in enumerate(poly.rays):
        for u in rays:
            if dot(u, defo[s]) != max(dot(u, q) for q in defo):
                return False
    return True


def zonotope_sums(poly: Polytope, box: tuple[int, ...]) -> tuple[set, int]:
    """Σ ℓ_i [0, z_i] over the edge lines z_i of poly that fit the box, as vertex tuples."""
    lines = sorted({primitive(d) if next(x for x in d if x) > 0 else primitive(tuple(-x for x in d))
                    for d in (tuple(b - a for a, b in zip(poly.vertices[i], poly.vertices[j])) for i, j in poly.edges)})
    width = [tuple(abs(x) for x in z) for z in lines]
    out = set()

    def rec(i, ell, used):
        if i == len(lines):
            pts = []
            for c in poly.witness:
                q = [0] * poly.r
                for l, z in zip(ell, lines):
                    if dot(c, z) > 0:
                        q = [a + l * b for a, b in zip(q, z)]
                    elif dot(c, z) == 0:
                        return  # witness not generic for this line (not a zonotope fan)
                pts.append(q)
            lo = [min(q[c] for q in pts) for c in range(poly.r)]
            out.add(tuple(tuple(x - m for x, m in zip(q, lo)) for q in pts))
            return
        l = 0
        while all(u + l * w <= s for u, w, s in zip(used, width[i], box)):
            rec(i + 1, ell + [l], [u + l * w for u, w in zip(used, width[i])])
            l += 1

    rec(0, [], [0] * poly.r)
    return out, len(lines)


# ---------------------------------------------------------------------------- the LT LP
def quiet_highs():
    from headfusion.solving.farkas import quiet_highs as silent_highs

    h = silent_highs()
    h.setOptionValue("threads", 1)
    return h


def lattice_points(poly: Polytope, defo) -> np.ndarray:
    """P ∩ Z^r for P = conv(defo) = {x : ⟨u, x⟩ ≤ max_σ ⟨u, p_σ⟩ for the facet normals u of poly}."""
    hi = np.max(np.array(defo), axis=0)
    grids = np.meshgrid(*[np.arange(h + 1) for h in hi], indexing="ij")
    pts = np.stack([g.ravel() for g in grids], axis=1)
    U = np.array([u for u, _ in poly.facets])
    H = np.array([max(dot(u, q) for q in defo) for u, _ in poly.facets])
    return pts[np.all(pts @ U.T <= H, axis=1)]


def lt_lp(P: dict, Q: dict, poly: Polytope, defo) -> tuple[str, int, int]:
    """Solve the LP of one deformation: (status, #unknowns, #rows)."""
    import highspy

    A = lattice_points(poly, defo)
    r = poly.r
    qs = [(np.array(s[:-1]), float(c)) for s, c in Q.items()]  # drop the t-power (0)
    ps = [(np.array(s[:-1]), float(c)) for s, c in P.items()]
    top = A.max(axis=0) + np.max(np.array([s for s, _ in qs + ps]), axis=0) + 1
    strides = np.array([int(np.prod(top[c + 1 :])) for c in range(r)])
    forced = np.array([dot(strides, tuple(a + b for a, b in zip(q, v))) for q, v in zip(defo, poly.vertices)])
    cols = np.arange(len(A))
    blocks = []  # (row keys, cols, values) for D then N
    for terms in (qs, ps):
        keys = np.concatenate([(A + s) @ strides for s, _ in terms])
        vals = np.concatenate([np.full(len(A), c) for _, c in terms])
        blocks.append((keys, np.tile(cols, len(terms)), vals))
    row_lo, row_hi, r_idx, c_idx, v_all = [], [], [], [], []
    nrow = 0
    for side, (keys, cc, vv) in enumerate(blocks):
        uniq, inv = np.unique(keys, return_inverse=True)
        is_forced = np.isin(uniq, forced)
        if side == 0:
            lo = np.where(is_forced, 1.0, 0.0)
            hi = np.where(is_forced, highspy.kHighsInf, 0.0)
            keep = np.ones(len(uniq), bool)
        else:  # N rows: zero off the forced points, free on them (dropped)
            keep = ~is_forced
            lo = hi = np.zeros(len(uniq))
        new_id = np.full(len(uniq), -1)
        new_id[keep] = nrow + np.arange(int(keep.sum()))
        sel = keep[inv]
        r_idx.append(new_id[inv][sel])
        c_idx.append(cc[sel])
        v_all.append(vv[sel])
        row_lo.append(lo[keep])
        row_hi.append(hi[keep])
        nrow += int(keep.sum())
    r_idx, c_idx, v_all = np.concatenate(r_idx), np.concatenate(c_idx), np.concatenate(v_all)
    perm = np.lexsort((c_idx, r_idx))
    r_idx, c_idx, v_all = r_idx[perm], c_idx[perm], v_all[perm]
    starts = np.searchsorted(r_idx, np.arange(nrow + 1))
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(A), nrow
    lp.col_cost_ = np.zeros(len(A))
    lp.col_lower_ = np.full(len(A), -inf)
    lp.col_upper_ = np.full(len(A), inf)
    lp.row_lower_ = np.concatenate(row_lo)
    lp.row_upper_ = np.concatenate(row_hi)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = starts.astype(np.int32)
    lp.a_matrix_.index_ = c_idx.astype(np.int32)
    lp.a_matrix_.value_ = v_all.astype(np.float64)
    h = quiet_highs()
    h.passModel(lp)
    h.run()
    ms = h.getModelStatus()
    if ms == highspy.HighsModelStatus.kInfeasible:
        status = "infeasible"
    elif ms == highspy.HighsModelStatus.kOptimal:
        status = "feasible"
    else:
        status = h.modelStatusToString(ms)
    return status, len(A), nrow


# ---------------------------------------------------------------------------- the two routes
def lt_route(name: str, P: dict, Q: dict, m: int, cap: float, rng: random.Random, notes: list) -> dict:
    t0 = time.monotonic()
    poly = Polytope([e[:-1] for e in Q])
    V = len(poly.vertices)
    box = search_box(P, Q, m)
    defos = list(deformations(poly, box))
    t_enum = time.monotonic() - t0
    # checks of the enumeration (not timed as part of the route)
    ref = len(newton_graph([e[:-1] for e in Q], with_edges=False).vertices)
    assert ref == V, f"{name}: vertex count {V} disagrees with bounds/polytope.py ({ref})"
    assert len(set(defos)) == len(defos), f"{name}: duplicate deformations"
    bad = sum(not is_deformation(poly, d) for d in defos)
    assert bad == 0, f"{name}: {bad} enumerated tuples fail the normal-fan check"
    zsums, nlines = zonotope_sums(poly, box)
    missing = len(zsums - set(defos))
    assert missing == 0, f"{name}: {missing} zonotope sums not among the deformations"
    notes.append(
        f"{name}: Newt(Q′) has V = {V} vertices (= bounds/polytope.py), {len(poly.edges)} edges, "
        f"{len(poly.facets)} facets; m = {m} {'= V' if m == V else '≠ V (LT answers only m = V!)'}; "
        f"g-box {box}; {len(defos)} deformations enumerated in {t_enum:.2f} s, all pass the "
        f"normal-fan check, all distinct; {len(zsums)} zonotope sums Σℓ_i[0,z_i] over the "
        f"{nlines} edge lines fit the box, all among them"
        + (" (equal counts: every deformation is a zonotope)" if len(zsums) == len(defos) else "")
    )
    # LPs: all if they fit in the cap, else a uniform random sample within the cap
    idx = list(range(len(defos)))
    rng.shuffle(idx)
    counts: dict[str, int] = {}
    times = []
    t_lp0 = time.monotonic()
    biggest = (0, 0)
    for i in idx:
        if time.monotonic() - t_lp0 > cap:
            break
        s = time.monotonic()
        status, ncol, nrow = lt_lp(P, Q, poly, defos[i])
        times.append(time.monotonic() - s)
        counts[status] = counts.get(status, 0) + 1
        biggest = max(biggest, (ncol, nrow))
    solved = len(times)
    lp_time = sum(times)
    complete = solved == len(defos)
    if complete:
        lt_seconds, lt_text = t_enum + lp_time, f"{t_enum + lp_time:.2f}"
    else:
        mean = lp_time / solved
        se = float(np.std(times, ddof=1) / np.sqrt(solved)) if solved > 1 else float("nan")
        est_mean = t_enum + mean * len(defos)
        lt_seconds, lt_text = est_mean, f"~{est_mean:.0f}"
        notes.append(
            f"{name}: MEASURED {solved} of {len(defos)} LPs (uniform random sample, seed) in "
            f"{lp_time:.1f} s, mean {1000 * mean:.2f} ms ± {1000 * se:.2f} (s.e.), largest LP {biggest[0]} unknowns "
            f"× {biggest[1]} rows; EXTRAPOLATED LT total = enumeration {t_enum:.1f} s + mean × "
            f"{len(defos)} = {est_mean:.0f} s (95% range {t_enum + (mean - 2 * se) * len(defos):.0f}–"
            f"{t_enum + (mean + 2 * se) * len(defos):.0f} s)"
        )
    if complete:
        notes.append(f"{name}: all {solved} LPs solved ({lp_time:.2f} s), largest {biggest[0]} unknowns × {biggest[1]} rows")
    return {
        "V": V, "defs": len(defos), "solved": solved, "counts": counts, "lt_seconds": lt_seconds,
        "lt_text": lt_text, "complete": complete,
    }


def boolean_route(name: str, P: dict, Q: dict, m: int, cap: float, known, run_known: bool, notes: list) -> tuple[float, str, bool]:
    """(seconds or lower bound, text, is_lower_bound)."""
    if known is not None and not run_known:
        notes.append(f"{name}: Boolean route not re-run; cited: {known[1]} (--run-known runs it for --cap s)")
        return known[0], f">{known[0]:.0f}*", True
    start = time.monotonic()
    result = refute(P, Q, m, deadline=time.time() + cap, verify=False)
    secs = time.monotonic() - start
    st = result.stats
    notes.append(
        f"{name}: Boolean route {result.status} in {secs:.2f} s (nodes {st.get('nodes', 0)}, "
        f"LPs {st.get('lp_solves', 0)}, leaves {dict(st.get('leaves', {}))})"
    )
    if result.status == "unknown":
        return secs, f">{secs:.0f} (cap)", True
    return secs, f"{secs:.2f} {result.status}", False


# ---------------------------------------------------------------------------- sanity check
def sanity_check(name: str, spec: str, d: int) -> str:
    """Positive control: drop Q′'s one non-vertex term (and P′'s term there); the point deformation is a head."""
    P, Q = pq(os.path.join(PROOFS, spec), d)
    poly = Polytope([e[:-1] for e in Q])
    centre = [e for e in Q if e[:-1] not in poly.vertices]
    assert len(centre) == 1, centre
    c = centre[0]
    Q2 = {e: v for e, v in Q.items() if e != c}
    P2 = {e: v for e, v in P.items() if e != c}
    poly2 = Polytope([e[:-1] for e in Q2])
    point = tuple((0,) * poly2.r for _ in poly2.vertices)
    status, _, _ = lt_lp(P2, Q2, poly2, point)
    ok = status == "feasible"
    status_orig, _, _ = lt_lp(P, Q, poly, point)
    return (
        f"sanity: {name} with centre x^{c[:-1]} removed from Q′ and P′ (V = {len(poly2.vertices)}): "
        f"point deformation LP {status} -> {'OK' if ok else 'FAILED'} "
        f"(with the centre term kept: {status_orig})"
    )


# ---------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated question names (triangle, C_4)")
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per route per question (default 120)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the LP sample")
    parser.add_argument("--run-known", action="store_true", help="run the Boolean route (≤ cap) even where a figure is cited")
    args = parser.parse_args()
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    names = {q[0] for q in QUESTIONS}
    if only - names:
        parser.error(f"unknown question(s) {sorted(only - names)}; choose from {sorted(names)}")
    t_start = time.monotonic()
    notes: list[str] = []
    rows = []
    for name, spec, d, m, known in QUESTIONS:
        if only and name not in only:
            continue
        P, Q = pq(os.path.join(PROOFS, spec), d)
        lt = lt_route(name, P, Q, m, args.cap, random.Random(args.seed), notes)
        b_secs, b_text, b_lower = boolean_route(name, P, Q, m, args.cap, known, args.run_known, notes)
        ratio = lt["lt_seconds"] / b_secs if b_secs > 0 else float("inf")
        if b_lower:
            ratio_text = f"<{ratio:.2f}" if lt["complete"] else f"~<{ratio:.2f}"
        else:
            ratio_text = f"{ratio:.1f}" if lt["complete"] else f"~{ratio:.1f}"
        c = lt["counts"]
        other = sum(v for k, v in c.items() if k not in ("infeasible", "feasible"))
        rows.append((name, m, lt["V"], lt["defs"], lt["solved"], c.get("infeasible", 0), c.get("feasible", 0),
                     other, lt["lt_text"], b_text, ratio_text))
        if c.get("feasible", 0):
            notes.append(f"{name}: {c['feasible']} LP(s) FLOAT-FEASIBLE: candidate {lt['V']}-atom head(s), check exactly!")
    header = (f"{'question':9} {'m':>3} {'V':>3} {'#defs in box':>12} {'LPs':>6} {'infeas':>6} {'feas':>5} "
              f"{'other':>5} {'LT s':>9} {'Boolean s':>14} {'LT/Bool':>8}")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r[0]:9} {r[1]:>3} {r[2]:>3} {r[3]:>12} {r[4]:>6} {r[5]:>6} {r[6]:>5} {r[7]:>5} "
              f"{r[8]:>9} {r[9]:>14} {r[10]:>8}")
    print()
    print("~ = extrapolated from a sample (see notes); * = cited, not re-run; LPs are floating point (HiGHS).")
    for n in notes:
        print("note:", n)
    for name, spec, d, m, known in QUESTIONS:
        if not only or name in only:
            print(sanity_check(name, spec, d))
    print(f"total wall time {time.monotonic() - t_start:.1f} s (single process; machine shared with another job)")


if __name__ == "__main__":
    main()
