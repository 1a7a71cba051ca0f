"""Evidence for the kernel, built from the producers' results (untrusted: the kernel replays it).

Everything is in the format of `headfusion.kernel`: polynomials as [[exponent, coefficient]]
in block lattice coordinates with the t-exponent last, keys sparse and 1-based.
"""

from __future__ import annotations

from copy import deepcopy
from fractions import Fraction
from typing import Any

import sympy

from headfusion.algebra.expform import Block, ExpForm, x_support
from headfusion.algebra.laurent import LPoly
from headfusion.bounds.engine import FunctionBounds
from headfusion.bounds.graphs import block_graph
from headfusion.bounds.grids import M12_LEVELS
from headfusion.bounds.multiples import Multiple, product_of
from headfusion.bounds.lower import NewtonBound, binomial_generators
from headfusion.bounds.polytope import newton_graph, rank
from headfusion.bounds.structural import StructuralBounds
from headfusion.bounds.tournament4 import theorem_k_instance
from headfusion.kernel.base import MAX_TERMS
from headfusion.spec.errors import ResourceLimit

MAX_BEZOUT_DEGREE = 2048  # the cost model's limit for blocks that are not products of binomials
from headfusion.spec.numbers import rational_to_json


def poly_json(p: dict) -> list:
    """The JSON of a polynomial as the kernel reads it (kernel.poly.poly_from_json), terms sorted."""
    return [[list(e), rational_to_json(c)] for e, c in sorted(p.items())]


def _shape_key(block: Block) -> tuple:
    return (block.basis, block.P_reduced, block.Q_reduced)


def block_shapes(form: ExpForm) -> tuple[list[Block], list[int]]:
    """Distinct blocks up to renaming of variables (one representative each) and each block's shape index."""
    shapes: dict[tuple, int] = {}
    representatives: list[Block] = []
    assignment = []
    for block in form.blocks:
        key = _shape_key(block)
        if key not in shapes:
            shapes[key] = len(representatives)
            representatives.append(block)
        assignment.append(shapes[key])
    return representatives, assignment


def exp_form_evidence(form: ExpForm) -> dict:
    """Per shape: lattice basis and P′_B, Q′_B; per block: its shape, heads and variables."""
    shapes, assignment = block_shapes(form)
    return {
        "t_scale": form.t_scale,
        "shapes": [
            {"denominator": b.basis.denominator, "rows": [[[j, v] for j, v in row] for row in b.basis.rows],
             "P": poly_json(b.P_reduced.terms), "Q": poly_json(b.Q_reduced.terms)}
            for b in shapes
        ],
        "blocks": [
            {"shape": s, "heads": list(b.head_indices), "variables": [j + 1 for j in b.variables]}
            for b, s in zip(form.blocks, assignment)
        ],
    }


def support_size(exp_form: dict) -> int:
    """|supp Q′| read off exp-form evidence (as stored in a certificate): Π over blocks of |supp Q′_B| (distinct x-exponents)."""
    size = 1
    for block in exp_form["blocks"]:
        size *= len({tuple(e[:-1]) for e, _ in exp_form["shapes"][int(block["shape"])]["Q"]})
    return size


def _is_kernel_binomial(f: LPoly) -> bool:
    """Two x-exponents with a primitive difference, one coefficient a t-monomial (Lemma LC)."""
    groups = x_support(f)
    if len(groups) != 2:
        return False
    (u, cu), (v, cv) = sorted(groups.items())
    from math import gcd

    return gcd(*(a - b for a, b in zip(u, v))) == 1 and (len(cu) == 1 or len(cv) == 1)


BEZOUT_TRIES = 12  # substitutions tried before certify gives up on a factor


_BEZOUT_MEMO: dict[tuple[LPoly, LPoly], dict] = {}  # certify asks for a form's evidence several times (claims, refutations)
MAX_BEZOUT_MEMO = 256


def _separating(f: LPoly, nvars: int, offset: int) -> list[int]:
    """The substitution x ↦ y^a of the `offset`-th try: a_c > Σ_{k<c} a_k·width_k separates f's exponent differences."""
    groups = list(x_support(f))
    widths = [max(e[c] for e in groups) - min(e[c] for e in groups) for c in range(nvars)]
    a: list[int] = []
    for c in range(nvars):
        a.append(1 + (offset if c else 0) + sum(a[k] * widths[k] for k in range(c)))
    return a


def bezout_refusal(form: ExpForm) -> str | None:
    """Why certify would refuse this function's lowest-terms evidence (a Bézout identity with P′(y^a) beyond
    MAX_BEZOUT_DEGREE, the first refusal of `_bezout_at`), read off the factors already computed; None when none."""
    shapes, _ = block_shapes(form)
    for b in shapes:
        for f in b.factors:
            if f.in_denominator - f.in_gcd and not _is_kernel_binomial(f.poly):
                a = _separating(f.poly, b.P_reduced.nvars - 1, 0)
                merged: dict[tuple[int, int], Fraction] = {}
                for e, c in b.P_reduced.terms.items():  # as `_bezout_at` substitutes: exponents that meet are added
                    k = (sum(x * w for x, w in zip(e[:-1], a)), e[-1])
                    merged[k] = merged.get(k, Fraction(0)) + c
                levels = [k for (k, _), c in merged.items() if c]
                degree = max(levels) - min(levels) if levels else 0
                if degree > MAX_BEZOUT_DEGREE:
                    return (f"the coprimality evidence needs a Bezout identity with P' of degree {degree} "
                            f"(limit {MAX_BEZOUT_DEGREE})")
    return None


def bezout(P: LPoly, f: LPoly) -> dict:
    """A, B with A·P(y^a) + B·f(y^a) a nonzero monomial (memoised), a separating f's exponent differences (Lemma LC)."""
    key = (P, f)
    if key not in _BEZOUT_MEMO:
        if len(_BEZOUT_MEMO) >= MAX_BEZOUT_MEMO:
            _BEZOUT_MEMO.clear()
        _BEZOUT_MEMO[key] = _bezout(P, f)
    return deepcopy(_BEZOUT_MEMO[key])  # a certificate may be changed by its reader: the memo stays as computed


def _bezout(P: LPoly, f: LPoly) -> dict:
    """A, B with A·P(y^a) + B·f(y^a) a nonzero monomial, a separating f's exponent differences (Lemma LC).

    A substitution can merge terms so that P(y^a) and f(y^a) share a factor although P and f
    do not (σ(q1) + σ(q1+q2) + tanh(q2) with a = (1, 1)); larger separating a are then tried.
    """
    for offset in range(BEZOUT_TRIES):
        found = _bezout_at(P, f, _separating(f, P.nvars - 1, offset))  # separating f's exponent differences (the kernel's test)
        if found is not None:
            return found
    raise ResourceLimit(f"no Bezout identity for a factor of Q' in {BEZOUT_TRIES} substitutions; "
                        "certify cannot prove lowest terms for this function yet (analyze answers it)")


def _bezout_at(P: LPoly, f: LPoly, a: list[int]) -> dict | None:
    """The Bézout evidence for the substitution x ↦ y^a, or None when P(y^a) and f(y^a) share a factor."""
    y, t = sympy.symbols("y t")

    def substituted(p: LPoly) -> tuple[sympy.Expr, int, int]:
        terms: dict[tuple[int, int], Fraction] = {}
        for e, c in p.terms.items():  # distinct x-exponents may meet at one power of y: add
            k = (sum(x * w for x, w in zip(e[:-1], a)), e[-1])
            terms[k] = terms.get(k, Fraction(0)) + c
        ly, lt = min(k for k, _ in terms), min(k for _, k in terms)
        expr = sum(sympy.Rational(c.numerator, c.denominator) * y ** (k - ly) * t ** (s - lt) for (k, s), c in terms.items())
        return expr, ly, lt

    if not any(e[-1] for e in P.terms) and not any(e[-1] for e in f.terms):  # rational coefficients: flint's xgcd, fast
        return _bezout_rational(P, f, a)
    p, py, pt = substituted(P)
    q, qy, qt = substituted(f)
    if sympy.degree(p, y) > MAX_BEZOUT_DEGREE:  # an exact gcdex this large takes minutes
        raise ResourceLimit(f"the coprimality evidence needs a Bezout identity with P' of degree {sympy.degree(p, y)} "
                            f"(limit {MAX_BEZOUT_DEGREE}); analyze answers this function, certify cannot yet")
    work = (sympy.degree(p, y) + 1) * (sympy.degree(q, y) + 1)
    if work > MAX_TERMS:  # the kernel would refuse to multiply A·P'(y^a): say so now, not after the solve
        raise ResourceLimit(f"the coprimality evidence for a factor of degree {sympy.degree(q, y)} needs {work} term pairs; "
                            f"the verification limit is {MAX_TERMS}")
    A, B, g = sympy.gcdex(sympy.Poly(p, y, domain="QQ(t)"), sympy.Poly(q, y, domain="QQ(t)"))
    if g.degree() != 0:
        return None
    A_expr, B_expr = sympy.together(A.as_expr()), sympy.together(B.as_expr())
    den = sympy.lcm(sympy.fraction(A_expr)[1], sympy.fraction(B_expr)[1])
    result = []
    for expr, sy, st in ((A_expr, py, pt), (B_expr, qy, qt)):
        scaled = sympy.expand(sympy.cancel(expr * den))
        terms = sympy.Poly(scaled, y, t).terms() if scaled != 0 else []
        result.append(poly_json({(k - sy, s - st): Fraction(int(c.p), int(c.q)) for (k, s), c in terms}))
    return {"substitution": a, "A": result[0], "B": result[1]}


def _bezout_rational(P: LPoly, f: LPoly, a: list[int]) -> dict | None:
    """The Bézout evidence for x ↦ y^a when P′ and f have rational coefficients (no t): flint's exact xgcd over Q.

    s·p + r·q = 1 for p = y^{−low}·P(y^a), q = y^{−low}·f(y^a), so A = y^{−low_p}·s and B = y^{−low_q}·r (the kernel's check)."""
    from math import lcm

    import flint

    def substituted(poly: LPoly) -> tuple["flint.fmpq_poly", int]:
        terms: dict[int, Fraction] = {}
        for e, c in poly.terms.items():  # distinct x-exponents may meet at one power of y: add
            k = sum(x * w for x, w in zip(e[:-1], a))
            terms[k] = terms.get(k, Fraction(0)) + c
        low = min(terms)
        if max(terms) - low > MAX_BEZOUT_DEGREE:  # as below: the cost model's limit, named
            raise ResourceLimit(f"the coprimality evidence needs a Bezout identity of degree {max(terms) - low} "
                                f"(limit {MAX_BEZOUT_DEGREE}); analyze answers this function, certify cannot yet")
        dense = [flint.fmpq(0)] * (max(terms) - low + 1)
        for k, c in terms.items():
            dense[k - low] += flint.fmpq(c.numerator, c.denominator)
        return flint.fmpq_poly(dense), low

    (p, low_p), (q, low_q) = substituted(P), substituted(f)
    work = (p.degree() + 1) * (q.degree() + 1)
    if work > MAX_TERMS:  # the kernel would refuse to multiply A·P'(y^a): say so now, not after the solve
        raise ResourceLimit(f"the coprimality evidence for a factor of degree {q.degree()} needs {work} term pairs; "
                            f"the verification limit is {MAX_TERMS}")
    g, s, r = p.xgcd(q)
    if g.degree() != 0:
        return None
    den = lcm(1, *(int(c.q) for c in s.coeffs() + r.coeffs()))  # integer A, B (the identity's constant becomes den)
    result = []
    for cofactor, low in ((s, low_p), (r, low_q)):
        result.append(poly_json({(k - low, 0): Fraction(int(c.p) * den // int(c.q)) for k, c in enumerate(cofactor.coeffs()) if c != 0}))
    return {"substitution": a, "A": result[0], "B": result[1]}


def coprimality_evidence(form: ExpForm) -> dict:
    """Per shape: the factors of Q′_B that remain after the gcd, each with its reason (Lemma LC)."""
    shapes, _ = block_shapes(form)
    out = []
    for b in shapes:
        factors = []
        for f in b.factors:
            remaining = f.in_denominator - f.in_gcd
            if not remaining:
                continue
            item: dict[str, Any] = {"poly": poly_json(f.poly.terms), "multiplicity": remaining}
            if _is_kernel_binomial(f.poly):
                item["reason"] = "binomial"
            else:
                item.update({"reason": "bezout", **bezout(b.P_reduced, f.poly)})
            factors.append(item)
        out.append({"factors": factors})
    return {"shapes": out}


def construction_evidence(form: ExpForm) -> dict:
    """Per shape: the block head N_B/D_B (a construction's when one was found, DESIGN §10, with how it was found;
    else lowest terms when that is a head, else the naive product)."""
    shapes, _ = block_shapes(form)
    return {"heads": [{"N": poly_json(b.head_numerator.terms), "D": poly_json(b.head_denominator.terms),
                       **({"found": b.construction_kind} if b.construction_kind else {})} for b in shapes]}


def newton_evidence(bound: NewtonBound, coprime: dict, listed: bool = False) -> dict:
    """Per shape: "graph" for a simple graph's tournament (its zonotope's vertices counted, Lemma LG), "parallelepiped"
    when Q′_B's factors are independent binomials, else vertices with witnesses.

    `listed`: vertices with witnesses for every shape (the rigid-edge claim spans them).
    """
    shapes, assignment = block_shapes(bound.form)
    out = []
    for i, b in enumerate(shapes):
        if not listed and block_graph(bound.form, b) is not None:
            out.append({"method": "graph"})
            continue
        factors = coprime["shapes"][i]["factors"]
        if not listed and _independent(factors):
            out.append({"method": "parallelepiped"})
            continue
        nb = bound.blocks[assignment.index(i)]
        if nb.vertices is not None:
            vertices = nb.vertices.vertices
        else:  # counted as a zonotope: the kernel wants the vertices themselves
            vertices = newton_graph(sorted(x_support(b.Q_reduced)), binomial_generators(b), with_edges=False).vertices
        out.append({"method": "vertices", "vertices": [[list(v), list(c)] for v, c in vertices]})
    return {"shapes": out}


def _independent(factors: list) -> bool:
    """The factors of Q′_B are binomials with independent exponent differences (a parallelepiped, Lemma LZ)."""
    directions = []
    for item in factors:
        exps = sorted({tuple(e[:-1]) for e, _ in item["poly"]})
        directions.append(tuple(x - y for x, y in zip(exps[0], exps[-1])) if len(exps) == 2 else None)
    return None not in directions and rank(directions) == len(directions)


def canonical_json(form: tuple) -> list:
    """JSON of a producer canonical form (the kernel's canonical layout)."""
    return [
        [rational_to_json(scale),
         [[[[j + 1, rational_to_json(v)] for j, v in key], rational_to_json(c), rational_to_json(e), rational_to_json(val)]
          for key, c, e, val in atoms]]
        for scale, atoms in form
    ]


def multiple_json(m: Multiple, rank: int) -> dict:
    """A μ certificate as kernel.multiples reads it (nested for slices)."""
    if m.method == "vertices":
        return {"method": "vertices", "vertices": [[list(v), list(c)] for v, c in m.vertices]}
    if m.method == "hexagon":
        return {"method": "hexagon", "factors": [poly_json(f) for f in m.factors]}
    if m.method == "two-adic":
        binomials = lambda bs: [[a, rational_to_json(c), s] for a, c, s in bs]  # noqa: E731
        return {"method": "two-adic", "levels": binomials(m.levels), "modulus": m.modulus, "class": binomials(m.klass)}
    if m.method == "grid":
        return {"method": "grid", "lemma": m.lemma, "vertices": [poly_json({e: c}) for e, c in m.images],
                "levels": [list(v) for v in M12_LEVELS] if m.lemma == "K35" else None}
    assert m.inner is not None
    Y, Z = product_of(m.inside, rank + 1), product_of(m.outside, rank + 1)
    if m.method == "three-slices":
        assert m.lines is not None
        return {"method": "three-slices", "A": poly_json(Y), "f": [poly_json(dict(f)) for f, _ in m.outside], "omega": list(m.omega),
                "mu": multiple_json(m.inner, rank), "projection": [list(row) for row in m.projection],
                "lines": multiple_json(m.lines, len(m.projection))}
    return {"method": "slices", "A": poly_json(Y), "B": poly_json(Z), "omega": list(m.omega), "point": [1] * rank,
            "roots": [[rational_to_json(r), k] for r, k in m.roots], "mu": multiple_json(m.inner, rank)}


def multiples_evidence(bounds: FunctionBounds) -> dict:
    """Per shape: the LH/LS certificate of its block, or null (L5 alone)."""
    shapes, assignment = block_shapes(bounds.form)
    out = []
    for i, b in enumerate(shapes):
        m = bounds.multiples[assignment.index(i)]
        out.append(None if m is None else multiple_json(m, b.rank))
    return {"shapes": out}


CLAIM_OF = {"LK": "lower:classes", "LU": "lower:unit-roots", "LG": "lower:graph", "LE": "lower:edges", "LH": "lower:hexagon", "LS": "lower:slices", "LD": "lower:faces",
            "V3": "lower:three-slices", "V2": "lower:two-adic", "K": "lower:theorem-k", "R": "lower:line",
            "PB": "lower:pair-biased",
            "P4": "lower:two-scales",
            "K35": "lower:grid"}


def direction_json(direction: tuple) -> list:
    """A direction in q as the kernel reads it: [[j, v], …], 1-based, integers."""
    return [[j + 1, int(v)] for j, v in direction]


def lower_claims(bounds: FunctionBounds, table: dict[tuple, int] | None, listed: bool = False) -> list[tuple[str, dict]]:
    """lower:newton and the claim of the strongest lemma (none more: L5 alone) as (id, evidence).

    `table` maps the canonical form of a face function to its entry in the top-level LD table (None: F itself)."""
    lemma = bounds.best[1]
    coprime = coprimality_evidence(bounds.form)
    out = [("lower:newton", newton_evidence(bounds.newton, coprime, listed=listed or lemma == "LE"))]
    if bounds.graph is not None and lemma != "LE":  # a graph's paragraph, also when another lemma is stronger
        out.append(("lower:graph", {}))
    if lemma == "LK":
        out.append(("lower:classes", classes_evidence(bounds.form, bounds.structure)))
    elif lemma == "LU":
        assert bounds.unit_roots is not None
        out.append(("lower:unit-roots", bounds.unit_roots.evidence()))
    elif lemma == "LE":
        out.append(("lower:edges", edges_evidence(bounds.form, bounds.structure)))
    elif lemma in ("LH", "LS", "V3", "V2", "K35"):
        out.append((CLAIM_OF[lemma], multiples_evidence(bounds)))
    elif lemma == "K":
        out.append(("lower:theorem-k", theorem_k_instance(bounds.form)))
    elif lemma == "LD":
        assert bounds.faces is not None  # at the top the claim carries the table; a face function's cites it
        out.append(("lower:faces", faces_evidence(bounds) if table is None else
                    {"faces": [[direction_json(f.direction), table[f.form]] for f in bounds.faces.faces]}))
    elif lemma == "R":
        out.append(("lower:line", line_evidence(bounds)))
    elif lemma in ("PB", "P4"):
        assert bounds.one_line is not None
        out.append((CLAIM_OF[lemma], bounds.one_line.evidence()))
    return out


def line_evidence(bounds: FunctionBounds) -> dict:
    """lower:line (Lemma R): the direction u and f_u's entry — its own exp-form, coprime, lower:newton, strongest lemma
    and, when certify found one, the refutation tree over f_u's box (which then gives the bound)."""
    line = bounds.line
    assert line is not None
    sub = bounds.table[line.form]
    claims = [["exp-form", exp_form_evidence(sub.form)], ["coprime", coprimality_evidence(sub.form)]]
    claims += [[cid, ev] for cid, ev in lower_claims(sub, {})]
    value, lemma = sub.best
    by = "lower:newton" if lemma == "L5" else CLAIM_OF[lemma]
    if line.tree is not None:
        claims.append(["refutation", line.tree])
        value, by = line.tree["atoms"] + 1, "refutation"
    return {"direction": direction_json(line.direction), "function": {"form": canonical_json(line.form), "claims": claims, "bound": value, "by": by}}


def face_table(bounds: FunctionBounds) -> tuple[list[dict], dict[tuple, int]]:
    """The LD table of a certificate: every face function reached from F's family, dependencies first, each with
    its own exp-form, coprime, lower:newton and strongest claim; and form ↦ index."""
    order: list[tuple] = []
    index: dict[tuple, int] = {}

    def visit(form: tuple) -> None:
        if form in index:
            return
        sub = bounds.table.get(form) if form else None
        if sub is not None and sub.best[1] == "LD" and sub.faces is not None:
            for face in sub.faces.faces:
                visit(face.form)
        index[form] = len(order)
        order.append(form)

    assert bounds.faces is not None
    for face in bounds.faces.faces:
        visit(face.form)
    entries = []
    for form in order:
        sub = bounds.table.get(form) if form else None
        if sub is None:  # a constant
            entries.append({"form": [], "claims": [], "bound": 1, "by": None})
            continue
        claims = [["exp-form", exp_form_evidence(sub.form)], ["coprime", coprimality_evidence(sub.form)]]
        claims += [[cid, ev] for cid, ev in lower_claims(sub, index)]
        value, lemma = sub.best
        entries.append({"form": canonical_json(form), "claims": claims, "bound": value, "by": "lower:newton" if lemma == "L5" else CLAIM_OF[lemma]})
    return entries, index


def faces_evidence(bounds: FunctionBounds) -> dict:
    """lower:faces for F: the table of face functions and F's family of pairwise disjoint faces."""
    entries, index = face_table(bounds)
    assert bounds.faces is not None
    return {"functions": entries, "faces": [[direction_json(f.direction), index[f.form]] for f in bounds.faces.faces]}


def head_evidence(m: int, atoms_list: list[dict]) -> dict:
    """An explicit head (dense q keys from the search) as sparse kernel atoms."""
    head = []
    for atom in atoms_list:
        key = [[j + 1, v] for j, v in enumerate(atom["key"]) if v not in (0, "0")]
        head.append({"key": key, "weight": atom["weight"], "value": atom["value"]})
    return {"atoms": m, "head": head}


def poly_of(data: list, nvars: int) -> dict[tuple[int, ...], Fraction]:
    """Kernel polynomial from its JSON (for producers that need the kernel's exact P′, Q′)."""
    from headfusion.kernel.poly import poly_from_json

    return poly_from_json(data, nvars)


def classes_evidence(form: ExpForm, structure: StructuralBounds) -> dict:
    """Per shape: the residue classes of Lemma LK (lattice basis, tilt, class-sum table), or null."""
    shapes, assignment = block_shapes(form)
    out = []
    for i in range(len(shapes)):
        found = structure.classes[assignment.index(i)]
        out.append(None if found is None else {
            "lattice": [list(row) for row in found.basis],
            "tilt": [[rational_to_json(r), s] for r, s in found.tilt],
            "sums": [[list(rep), [[k, rational_to_json(c)] for k, c in total]] for rep, total in found.sums],
        })
    return {"shapes": out}


def edges_evidence(form: ExpForm, structure: StructuralBounds) -> dict:
    """Per shape: the spanning tree of rigid edges of Lemma LE, each [u, w, witness]."""
    shapes, assignment = block_shapes(form)
    assert structure.edges is not None
    return {"shapes": [{"edges": [[list(e.u), list(e.w), list(e.witness)] for e in structure.edges.trees[assignment.index(i)]]}
                       for i in range(len(shapes))]}
