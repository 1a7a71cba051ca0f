"""Lower bounds a reader checks by hand (DESIGN §8): residue classes (LK) and rigid edges (LE).

claim          lemma  recomputed here
lower:classes  LK     per shape, the class sums of Q′_B(ρ⊙x) modulo M_B (upper-triangular basis; tilt
                      ρ_c = r_c·t^(s_c), r_c > 0; at most MAX_TILT_DIGITS), in Q[t^±]; all equal to one c_B ≠ 0 gives K_B = [Λ_B : M_B],
                      and with L5 on the other blocks (LP) m*(F) ≥ Π_B max(V_B, K_B).
lower:edges    LE     per shape, a spanning tree of the vertices of lower:newton by edges [u, w] whose witness c
                      is maximised on supp Q′_B exactly at the points of [u, w], with max_c P′_B ≤ max_c Q′_B and
                      P′_B,c not a constant multiple of Q′_B,c; with |supp Q′| > V, m*(F) ≥ V + 1.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from headfusion.kernel import statements as say
from headfusion.kernel.base import MAX_POINTS, integer, rational, rational_json, require, within
from headfusion.kernel.poly import add, mul, x_groups
from headfusion.kernel.refutation import _point

Point = tuple[int, ...]
MAX_TILT_DIGITS = 10_000_000  # Σ over the terms of the tilted Q′_B of one claim of Σ_c |e_c|·digits(r_c): about 15 s at worst


def tilt_digits(Q: dict, tilt: list[tuple[Fraction, int]]) -> list[int]:
    """Per term e of Q, Σ_c |e_c|·digits(r_c): the size of its tilt factor Π_c r_c^(e_c), the work `class_sums` does on it."""
    sizes = [len(str(r.numerator)) + len(str(r.denominator)) if r != 1 else 0 for r, _ in tilt]
    return [sum(abs(v) * size for v, size in zip(e[:-1], sizes)) for e in Q]


def class_sums(Q: dict, basis: list[list[int]], tilt: list[tuple[Fraction, int]]) -> dict[Point, dict[int, Fraction]]:
    """Class ↦ Σ over its points e of the coefficient of x^e in Q(ρ⊙x), ρ_c = r_c·t^(s_c), as {power of t: rational}.

    A class of Λ/M is named by its representative with 0 ≤ e_c < M_cc, reached by subtracting
    multiples of the basis rows in order (the basis is upper triangular with a positive diagonal).
    """
    within(max(tilt_digits(Q, tilt), default=0), 10**5, "digits of a tilted coefficient")
    sums: dict[Point, dict[int, Fraction]] = {}
    for e, c in Q.items():
        x = list(e[:-1])
        coefficient = c * prod((r**v for v, (r, _) in zip(x, tilt)), start=Fraction(1))
        power = e[-1] + sum(v * s for v, (_, s) in zip(x, tilt))
        for row, b in enumerate(basis):
            step = x[row] // b[row]
            x = [a - step * y for a, y in zip(x, b)]
        group = sums.setdefault(tuple(x), {})
        group[power] = group.get(power, Fraction(0)) + coefficient
    return {k: {p: c for p, c in sorted(v.items()) if c} for k, v in sums.items()}


def check_classes(model: object, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Lemma LK per shape (class sums recomputed exactly), mixed with L5 over the blocks: Π_B max(V_B, K_B)."""
    exp, newton = facts["exp-form"], facts["lower:newton"]
    require(len(ev["shapes"]) == len(exp["shapes"]), "one residue-class entry per shape expected")
    indices = []
    work = sum(sum(tilt_digits(Q, [(rational(r), 0) for r, _ in item["tilt"]])) for item, (*_, Q) in zip(ev["shapes"], exp["shapes"]) if item)
    within(work, MAX_TILT_DIGITS, "digits of the tilted coefficients of the residue classes (terms × digits × exponent)")
    for i, (item, (_, _, rank, _, Q)) in enumerate(zip(ev["shapes"], exp["shapes"])):
        if item is None:
            indices.append(1)
            continue
        basis = [list(_point(row, rank)) for row in item["lattice"]]
        require(len(basis) == rank and all(basis[r][r] >= 1 and not any(basis[r][:r]) for r in range(rank)),
                f"shape {i}: the lattice basis must be upper triangular with a positive diagonal")
        tilt = [(rational(r), integer(s)) for r, s in item["tilt"]]
        require(len(tilt) == rank and all(r > 0 for r, _ in tilt), f"shape {i}: one positive tilt per coordinate expected")
        index = prod(basis[r][r] for r in range(rank))
        within(index, MAX_POINTS, "classes of a residue-class claim")
        sums = class_sums(Q, basis, tilt)
        table = [[list(rep), [[k, rational_json(c)] for k, c in total.items()]] for rep, total in sorted(sums.items())]
        require(item["sums"] == table and len(sums) == index, f"shape {i}: the listed class sums differ from those of Q'_B(rho x)")
        first = next(iter(sums.values()))
        require(first and all(s == first for s in sums.values()), f"shape {i}: the class sums are not all equal and nonzero")
        indices.append(index)
    vertices = [v for v, _ in newton["shapes"]]
    bound = prod(max(vertices[s], indices[s]) for s in exp["blocks"])
    lk = [k for k, item in zip(indices, ev["shapes"]) if item is not None]
    require(lk, "no shape with residue classes")
    mixed = any(vertices[s] > indices[s] for s in exp["blocks"])  # some block counts its vertices (L5): lower:newton is used
    return {"bound": bound, "indices": indices}, ["coprime", "exp-form", "lemma:LK"] + ["lower:newton"] * mixed, say.classes(lk, bound, mixed)


def _on_segment(p: Point, u: Point, w: Point) -> bool:
    """p lies on the segment [u, w] (integer arithmetic: parallel to w − u, between the ends)."""
    d, e = [b - a for a, b in zip(u, w)], [b - a for a, b in zip(u, p)]
    parallel = all(e[j] * d[k] == e[k] * d[j] for j in range(len(d)) for k in range(j))
    along = sum(a * b for a, b in zip(e, d))
    return parallel and 0 <= along <= sum(a * a for a in d)


def check_edges(model: object, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """Lemma LE: a spanning tree of rigid edges for every shape, and |supp Q′| > V, give m* ≥ V + 1."""
    exp, newton = facts["exp-form"], facts["lower:newton"]
    require(len(ev["shapes"]) == len(exp["shapes"]), "one rigid-edge entry per shape expected")
    total = 0
    for i, (item, (_, _, rank, P, Q), (_, vertices)) in enumerate(zip(ev["shapes"], exp["shapes"], newton["shapes"])):
        require(vertices is not None, f"shape {i}: rigid edges need the vertices of Newt(Q'_B) listed in lower:newton")
        require(len(item["edges"]) == len(vertices) - 1, f"shape {i}: a spanning tree of {len(vertices)} vertices has {len(vertices) - 1} edges")
        within(len(item["edges"]) * (len(P) + len(Q) + len(vertices)), 50 * MAX_POINTS, "witness comparisons")
        Qx, Px, part = x_groups(Q), x_groups(P), {v: v for v in vertices}  # part: the tree's component of each vertex
        for edge in item["edges"]:
            u, w, c = (_point(x, rank) for x in edge)
            require(u in vertices and w in vertices and u != w, f"shape {i}: edge {list(u)}–{list(w)}: ends are not two vertices of lower:newton")
            level = lambda e: sum(a * b for a, b in zip(c, e))  # noqa: E731
            top = max(level(e) for e in Qx)
            face = [e for e in Qx if level(e) == top]
            require(u in face and w in face and all(_on_segment(e, u, w) for e in face),
                    f"shape {i}: witness {list(c)} does not expose exactly the edge {list(u)}–{list(w)}")
            require(all(level(e) <= top for e in Px), f"shape {i}: P'_B rises above Q'_B along {list(c)} (F unbounded)")
            Pc, Qc = ({e: v for e, v in R.items() if level(e[:-1]) == top} for R in (P, Q))
            q0, p0 = ({(0,) * rank + (k,): v for k, v in R.get(u, {}).items()} for R in (Qx, Px))
            # F_c = P′_c/Q′_c is constant iff P′_c = κ·Q′_c, κ = p0/q0 (coefficients at the vertex u)
            require(add(mul(Pc, q0), mul(Qc, p0), Fraction(-1)), f"shape {i}: the face limit along {list(c)} is constant: the edge is not rigid")
            require(part[u] != part[w], f"shape {i}: the edges contain a cycle")
            part = {v: part[w] if k == part[u] else k for v, k in part.items()}
        total += len(item["edges"])
    support = prod(len(x_groups(exp["shapes"][s][4])) for s in exp["blocks"])
    V = newton["count"]
    require(support > V, f"|supp Q'| = {support} equals V = {V}: Lemma LE gives nothing beyond L5")
    return {"bound": V + 1}, ["coprime", "exp-form", "lemma:LE", "lower:newton"], say.edges(total, V, support)
