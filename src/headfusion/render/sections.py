"""The mathematical sections of the certificate document, as template context.

Each function reads one claim's evidence from the certificate dict (exact JSON data in the
format `headfusion-certificate/3`) and returns the LaTeX snippets its section shows: the
heads of the model, the exponential form P′_B/Q′_B per shape with its lattice basis, the
coprimality certificates of Lemma LC (with the remainders of binomials), the block heads behind
the upper bound, and the Newton-polytope lower bound (face limits are in `faces`).  Long tables
and polynomials are cut at the display caps below.  The only arithmetic done here is for display
(substituted polynomials of a Bézout identity, remainders, margins of witnesses); the kernel is
what checks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from headfusion.kernel.checks import substitute
from headfusion.kernel.poly import add, divide, mul, poly_from_json
from headfusion.kernel.statements import FOUND
from headfusion.render.chromatic import block_edges, graph_chromatic_tex, local_graph
from headfusion.render.notation import formula_tex
from headfusion.render.orders import is_order_witness
from headfusion.render.provenance import product_atoms, provenance
from headfusion.render.tex import (
    as_fraction,
    coef_prefix,
    rows_shown,
    tex_int,
    tex_linear,
    tex_number,
    tex_poly,
    tex_ranges,
    tex_rational,
    tex_t_coef,
    tex_tt,
    tex_vector,
)

# display caps: tables are cut after this many rows, polynomials shown in full up to this many terms
MAX_HEAD_ROWS = 12
MAX_ATOMS_PER_HEAD = 32
MAX_ATOM_ROWS = 48
MAX_VERTEX_ROWS = 64
MAX_POLY_TERMS = 40
MAX_DISPLAY_TERMS = 8  # longer polynomials are set in running text, where lines can break
MAX_BLOCK_ROWS = 12
MAX_SHAPES_SHOWN = 8
MAX_FACTORS_SHOWN = 12
MAX_FACTORED_BLOCKS = 8
MAX_FACTOR_TERMS = 12
MAX_BEZOUT_TERMS = 16


def _head_signature(head: dict) -> tuple[tuple, list[int]]:
    """A head up to renaming of variables (scale, atoms with local variable numbers), and its variables."""
    variables = sorted({int(j) for a in head["atoms"] for j, _ in a["key"]})
    local = {j: i for i, j in enumerate(variables)}
    atoms = tuple(
        (tuple((local[int(j)], str(as_fraction(c))) for j, c in sorted(a["key"], key=lambda jc: int(jc[0]))), str(a["weight"]), str(a["value"]))
        for a in head["atoms"]
    )
    return (str(head["scale"]), atoms), variables


def _generic_linear(key: list, variable: str) -> str:
    """A one-variable key written with a generic variable name (q_j)."""
    parts = []
    for _, c in key:
        c = as_fraction(c)
        if c != 0:
            parts.append(coef_prefix(c, not parts) + variable)
    return "".join(parts) if parts else "0"


def _label_tex(label: object, fallback: str) -> str:
    """A head's label (the parser's text of the head) as a formula, or escaped typewriter text."""
    formula = formula_tex(label) if label else None
    return f"${formula}$" if formula else tex_tt(label or fallback)


def heads_context(cert: dict) -> dict:
    """The heads table: every head, or, when there are more than MAX_HEAD_ROWS, one row per family of heads
    equal up to renaming their variable (W_1000: one row "heads 1--1000, σ(q_j)")."""
    model = cert["model"]
    heads = model["heads"]
    groups: dict[tuple, list[tuple[int, list[int]]]] = {}
    for index, head in enumerate(heads, 1):
        signature, variables = _head_signature(head)
        key = signature if len(heads) > MAX_HEAD_ROWS and len(variables) == 1 else (index,)
        groups.setdefault(key, []).append((index, variables))
    rows = []
    for members in list(groups.values())[:MAX_HEAD_ROWS]:
        first = heads[members[0][0] - 1]
        generic = len(members) > 1
        shown = first["atoms"][:rows_shown(len(first["atoms"]), MAX_ATOMS_PER_HEAD)]
        atom_rows = [
            {
                "logit": _generic_linear(a["key"], "q_{j}") if generic else tex_linear(a["key"]),
                "weight": tex_number(a["weight"]),
                "value": tex_rational(a["value"]),
            }
            for a in shown
        ]
        indices = [i for i, _ in members]
        label = _label_tex(first.get("label", ""), f"head {indices[0]}")
        if generic:  # one variable each: the first head's variable written q_j
            js = tex_ranges([v[0] for _, v in members]).replace("--", r",\dots,")
            label = label.replace(f"q_{{{members[0][1][0]}}}", "q_{j}") + rf", $j={js}$"
        rows.append(
            {
                "index": tex_ranges(indices),
                "count": len(members),
                "label": label,
                "scale": tex_rational(first["scale"]),
                "atoms": atom_rows,
                "more_atoms": len(first["atoms"]) - len(shown),
            }
        )
    return {
        "rows": rows,
        "total": len(heads),
        "families": len(groups),
        "collapsed": len(groups) < len(heads),
        "more": max(0, len(groups) - MAX_HEAD_ROWS),
        "more_heads": sum(len(m) for m in list(groups.values())[MAX_HEAD_ROWS:]),
        "constant": tex_rational(model.get("constant", 0)),
        "dimension": model["dimension"],
    }


# -- lattice coordinates ------------------------------------------------------------------------


def _q_key(shape: dict, variables: Sequence[int], exponent: Sequence[int]) -> list[list]:
    """The q-coordinates (sparse, 1-based) of the lattice point Σ_i e_i b_i of a shape's basis in a block."""
    den = int(shape["denominator"])
    key: dict[int, Fraction] = {}
    for e, row in zip(exponent, shape["rows"]):
        for local, v in row:
            j = variables[int(local)] if int(local) < len(variables) else int(local) + 1
            key[j] = key.get(j, Fraction(0)) + Fraction(int(e) * int(v), den)
    return [[j, v] for j, v in sorted(key.items()) if v]


def _shape_variables(shape: dict, variables: Sequence[int], names: Sequence[str] | None = None) -> list[str]:
    """x_i = e^{<b_i, q>} for each basis row, with the block's q indices."""
    out = []
    for i in range(len(shape["rows"])):
        unit = [1 if k == i else 0 for k in range(len(shape["rows"]))]
        name = names[i] if names is not None else f"x_{{{i + 1}}}"
        out.append(rf"{name}=e^{{{tex_linear(_q_key(shape, variables, unit))}}}")
    return out


def _x_groups(terms: list) -> dict[tuple[int, ...], list[tuple[int, Fraction]]]:
    """x-exponent -> [(t-exponent, coefficient)], sorted."""
    groups: dict[tuple[int, ...], list[tuple[int, Fraction]]] = {}
    for e, c in terms:
        if as_fraction(c) != 0:
            groups.setdefault(tuple(int(x) for x in e[:-1]), []).append((int(e[-1]), as_fraction(c)))
    return {k: sorted(v) for k, v in sorted(groups.items())}


def _poly_or_count(terms: list, t_scale: int, names: Sequence[str] | None = None, cap: int = MAX_POLY_TERMS) -> dict:
    return {"tex": tex_poly(terms, t_scale, names) if len(terms) <= cap else None, "terms": len(terms)}


# -- exponential form, lowest terms, Newton polytopes --------------------------------------------


def _factored_form(ev: dict, t_scale: int) -> dict | None:
    """Q' = Π_B Q'_B written out with per-block variables (first blocks and the last when many)."""
    blocks, shapes = ev.get("blocks", []), ev.get("shapes", [])
    if len(blocks) < 2:
        return None
    rank_one = all(len(sh["rows"]) == 1 for sh in shapes)
    indices = list(range(len(blocks)))
    truncated = len(blocks) > MAX_FACTORED_BLOCKS
    if truncated:
        indices = indices[:3] + indices[-1:]
    factors, definitions = [], []
    for i in indices:
        shape = shapes[blocks[i]["shape"]]
        if len(shape["Q"]) > MAX_FACTOR_TERMS:
            return None
        rank = len(shape["rows"])
        names = [f"x_{{{i + 1}}}"] if rank_one else [f"x_{{{i + 1},{r + 1}}}" for r in range(rank)]
        if len(_x_groups(shape["Q"])) <= 1:
            continue  # a unit (constant block): no factor
        factors.append(f"({tex_poly(shape['Q'], t_scale, names)})")
        definitions += _shape_variables(shape, blocks[i]["variables"], names)
    if not factors or (truncated and len(factors) < 4):
        return None
    if truncated:
        factors.insert(3, r"\cdots")
        definitions.insert(3 * (len(definitions) // 4), r"\dots")
    return {"product": "".join(factors), "definitions": r",\ ".join(definitions)}


def _binomial_difference(terms: list) -> list[int] | None:
    groups = sorted(_x_groups(terms))
    if len(groups) != 2:
        return None
    return [x - y for x, y in zip(groups[1], groups[0])]


def _bezout_tex(item: dict, P: list, rank: int, t_scale: int) -> dict:
    """The Bézout identity of a factor, with P′(y^a), f(y^a) and the monomial they combine to."""
    a = [int(x) for x in item["substitution"]]
    Pa = substitute(poly_from_json(P, rank + 1), a)
    fa = substitute(poly_from_json(item["poly"], rank + 1), a)
    A, B = poly_from_json(item["A"], 2), poly_from_json(item["B"], 2)
    combo = add(mul(A, Pa), mul(B, fa))
    y = ["y"]

    def show(poly: Any) -> str | None:
        terms = [[list(e), c] for e, c in sorted(poly.items())] if isinstance(poly, dict) else poly
        return tex_poly(terms, t_scale, y) if len(terms) <= MAX_BEZOUT_TERMS else None

    sizes = [len(p) for p in (Pa, fa, item["A"], item["B"])]
    return {
        "a": tex_vector(a),
        "y_of_x": r",\ ".join(f"x_{{{i + 1}}}=y^{{{v}}}" if v != 1 else f"x_{{{i + 1}}}=y" for i, v in enumerate(a)),
        "P": show(Pa), "f": show(fa), "A": show(item["A"]), "B": show(item["B"]), "result": show(combo),
        "long": max(sizes) > MAX_DISPLAY_TERMS,  # set in running text, where a line can break
    }


def _dual(delta: list[int]) -> list[int] | None:
    """An integer vector η with ⟨η, δ⟩ = 1 (δ primitive): a unit vector when δ has an entry ±1, else by Euclid."""
    for i, x in enumerate(delta):
        if abs(x) == 1:
            return [x if j == i else 0 for j in range(len(delta))]
    eta, g = [0] * len(delta), 0
    for i, x in enumerate(delta):  # keep g = ⟨eta, δ⟩ = gcd of the entries so far
        if x == 0:
            continue
        if g == 0:
            eta[i], g = (1 if x > 0 else -1), abs(x)
            continue
        a, b, u0, u1, v0, v1 = g, x, 1, 0, 0, 1  # extended Euclid: u·g + v·x = gcd(g, x)
        while b:
            q = a // b
            a, b, u0, u1, v0, v1 = b, a - q * b, u1, u0 - q * u1, v1, v0 - q * v1
        if a < 0:
            a, u0, v0 = -a, -u0, -v0
        eta = [u0 * e for e in eta]
        eta[i] += v0
        g = a
    return eta if g == 1 else None


def _remainder(f: dict, P: list, t_scale: int) -> dict[str, Any]:
    """For a binomial f = φ0 x^p0 + φ1 x^p1 with monomial coefficients: η, the root −φ0/φ1 of x^(p1−p0), and
    the remainder r_f = Σ P′_p ρ^⟨η,p⟩ x^(p − ⟨η,p⟩(p1 − p0)) (display arithmetic; the kernel checks by division)."""
    groups = _x_groups(f["poly"])
    (p0, phi0), (p1, phi1) = sorted(groups.items())
    names = [rf"\varphi_0={tex_t_coef(phi0, t_scale)}", rf"\varphi_1={tex_t_coef(phi1, t_scale)}"]
    out: dict[str, Any] = {"monomial": "$" + (names[0] if len(phi0) == 1 else names[1]) + "$", "remainder": None, "remainder_terms": None}
    delta = [b - a for a, b in zip(p0, p1)]
    eta = _dual(delta)
    if len(phi0) != 1 or len(phi1) != 1 or eta is None:
        return out
    (k0, c0), (k1, c1) = phi0[0], phi1[0]
    ratio, shift = -c0 / c1, k0 - k1  # x^δ = ratio·t^shift makes f vanish
    terms: dict[tuple[int, ...], Fraction] = {}
    for e, c in P:
        x, j = [int(v) for v in e[:-1]], sum(a * b for a, b in zip(eta, (int(v) for v in e[:-1])))
        key = tuple(a - j * b for a, b in zip(x, delta)) + (int(e[-1]) + j * shift,)
        terms[key] = terms.get(key, Fraction(0)) + as_fraction(c) * ratio**j
    kept = [[list(k), v] for k, v in sorted(terms.items()) if v]
    out.update(eta=tex_vector(eta), root=tex_t_coef([(shift, ratio)], t_scale),
               remainder=tex_poly(kept, t_scale) if len(kept) <= MAX_POLY_TERMS else None,
               remainder_terms=len(kept))
    return out


def _coprime_shape(entry: dict, shape: dict, t_scale: int) -> dict:
    rank = len(shape["rows"])
    factors = []
    for f in entry["factors"][:MAX_FACTORS_SHOWN]:
        item: dict[str, Any] = {
            "poly": _poly_or_count(f["poly"], t_scale), "multiplicity": int(f["multiplicity"]), "reason": f["reason"],
        }
        if f["reason"] == "binomial":
            diff = _binomial_difference(f["poly"])
            item["difference"] = tex_vector(diff) if diff is not None else "?"
            item.update(_remainder(f, shape["P"], t_scale))
        else:
            item["bezout"] = _bezout_tex(f, shape["P"], rank, t_scale)
        factors.append(item)
    return {
        "factors": factors,
        "binomials": [f for f in factors if f["reason"] == "binomial"],
        "bezouts": [f for f in factors if f["reason"] != "binomial"],
        "more": max(0, len(entry["factors"]) - MAX_FACTORS_SHOWN),
    }


def _newton_shape(nb: dict, shape: dict, coprime: dict | None, graph: tuple | None = None) -> dict:
    """Per shape: its graph (Lemma LG), a parallelepiped (its binomial directions) or the vertex table with witnesses and margins."""
    out: dict[str, Any] = {"method": nb.get("method")}
    if nb.get("method") == "graph" and graph is not None:
        from headfusion.kernel.graphs import acyclic_orientations

        n, edges = graph
        out.update(edges=", ".join(f"{i}{j}" if max(i, j) < 10 else f"{i}\\text{{-}}{j}" for i, j in edges), nedges=len(edges),
                   count=tex_int(acyclic_orientations(*local_graph(graph))), chromatic=graph_chromatic_tex(graph))
    elif nb.get("method") == "vertices":
        support = list(_x_groups(shape["Q"]))
        rows = []
        for vertex, witness in nb.get("vertices", [])[:MAX_VERTEX_ROWS]:
            margin = None
            if len(support) <= 4096:
                value = sum(int(c) * int(v) for c, v in zip(witness, vertex))
                others = [sum(int(c) * int(u) for c, u in zip(witness, p)) for p in support if list(p) != [int(x) for x in vertex]]
                margin = value - max(others) if others else None
            rows.append({"vertex": tex_vector(vertex), "witness": tex_vector(witness), "margin": margin})
        listed = nb.get("vertices", [])
        rank = len(listed[0][1]) if listed else 0
        out.update(rows=rows, count=tex_int(len(listed)), more=max(0, len(listed) - MAX_VERTEX_ROWS),
                   orders=(rf"$\omega_\ell=\pi(\ell)-\pi({rank + 1})$ for a permutation $\pi$ of $\{{1,\dots,{rank + 1}\}}$, read off as"
                           rf" the ranks of $\omega_1,\dots,\omega_{{{rank}}},0$" if rank > 1 and all(is_order_witness(w) for _, w in listed) else None))
    else:
        factors = (coprime or {}).get("factors", [])
        directions = [_binomial_difference(f["poly"]) for f in factors]
        out["directions"] = [tex_vector(d) for d in directions[:MAX_FACTORS_SHOWN] if d is not None]
        out["more_directions"] = max(0, len(directions) - MAX_FACTORS_SHOWN)
        out["k"] = len(directions)
        out["count"] = tex_int(2 ** len(directions))
    return out


def exp_form_context(cert: dict, claims: dict[str, dict]) -> dict | None:
    """The exponential form (claim `exp-form`) per shape, with its factors (`coprime`) and Newton data."""
    claim = claims.get("exp-form")
    if claim is None:
        return None
    ev = claim["evidence"]
    t_scale = int(ev.get("t_scale", 1))
    blocks = ev.get("blocks", [])
    heads = cert["model"]["heads"]
    coprime = claims.get("coprime", {}).get("evidence", {}).get("shapes", [])
    newton = claims.get("lower:newton", {}).get("evidence", {}).get("shapes", [])
    members_of: dict[int, list[int]] = {}
    for i, b in enumerate(blocks):
        members_of.setdefault(int(b["shape"]), []).append(i)
    shapes = []
    for s, shape in enumerate(ev.get("shapes", [])[:MAX_SHAPES_SHOWN]):
        members = members_of.get(s, [])
        rep = blocks[members[0]] if members else {"variables": [], "heads": []}
        entry: dict[str, Any] = {
            "index": s + 1,
            "blocks": tex_ranges([i + 1 for i in members]),
            "nblocks": len(members),
            "rep_block": members[0] + 1 if members else None,
            "rep_variables": ", ".join(f"q_{{{j}}}" for j in rep["variables"]),
            "rep_heads": ", ".join(_label_tex(heads[h].get("label"), f"head {h + 1}") for h in rep["heads"][:6] if h < len(heads))
            + (r", \dots" if len(rep["heads"]) > 6 else ""),
            "rank": len(shape["rows"]),
            "xvars": _shape_variables(shape, rep["variables"]),
            "P": _poly_or_count(shape["P"], t_scale),
            "Q": _poly_or_count(shape["Q"], t_scale),
            "support_size": len(_x_groups(shape["Q"])),
            "long": max(len(shape["P"]), len(shape["Q"])) > MAX_DISPLAY_TERMS,
            "factors": _coprime_shape(coprime[s], shape, t_scale) if s < len(coprime) else None,
        }
        graph = block_edges(heads, rep["heads"]) if s < len(newton) and newton[s].get("method") == "graph" else None
        entry["newton"] = _newton_shape(newton[s], shape, coprime[s] if s < len(coprime) else None, graph) if s < len(newton) else None
        shapes.append(entry)
    block_rows = _block_rows(blocks)
    return {
        "t_scale": t_scale,
        "t_text": None if t_scale == 1 else rf"t=e^{{1/{t_scale}}}",
        "nblocks": len(blocks),
        "nshapes": len(ev.get("shapes", [])),
        "shapes": shapes,
        "more_shapes": max(0, len(ev.get("shapes", [])) - MAX_SHAPES_SHOWN),
        "block_rows": block_rows,
        "more_blocks": max(0, _block_runs(blocks) - MAX_BLOCK_ROWS),
        "constant": tex_rational(cert["model"].get("constant", 0)),
        "factored": _factored_form(ev, t_scale),
        "parallelepiped": any(s.get("method") == "parallelepiped" for s in newton),
    }


def _runs(blocks: list[dict]) -> list[list[int]]:
    """Consecutive blocks of one shape with one variable and one head each form a run; others stand alone."""
    runs: list[list[int]] = []
    for i, b in enumerate(blocks):
        simple = len(b["variables"]) == 1 and len(b["heads"]) == 1
        if runs and simple and blocks[runs[-1][-1]]["shape"] == b["shape"] and all(
            len(blocks[k]["variables"]) == 1 and len(blocks[k]["heads"]) == 1 for k in runs[-1]
        ):
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _block_runs(blocks: list[dict]) -> int:
    return len(_runs(blocks))


def _block_rows(blocks: list[dict]) -> list[dict]:
    """The block table, a run of blocks (one head on one variable each) shown as one row."""
    rows = []
    for run in _runs(blocks)[:MAX_BLOCK_ROWS]:
        first = blocks[run[0]]
        if len(run) == 1:
            variables = ", ".join(f"q_{{{j}}}" for j in first["variables"][:8]) + (r", \dots" if len(first["variables"]) > 8 else "")
        else:
            variables = f"q_{{{blocks[run[0]]['variables'][0]}}}" + r",\dots," + f"q_{{{blocks[run[-1]]['variables'][0]}}}" + r"\text{ (one each)}"
        rows.append(
            {
                "index": tex_ranges([i + 1 for i in run]),
                "shape": first["shape"] + 1,
                "heads": tex_ranges([h + 1 for i in run for h in blocks[i]["heads"]]),
                "variables": variables,
            }
        )
    return rows


# -- construction --------------------------------------------------------------------------------


def _value_tex(num: list[tuple[int, Fraction]], den: list[tuple[int, Fraction]], t_scale: int) -> str:
    """N-coefficient / D-coefficient of one key (polynomials in t = e^{1/L})."""
    if not num:
        return "0"
    if len(den) == 1:
        k, c = den[0]
        return tex_t_coef([(j - k, v / c) for j, v in num], t_scale)
    return rf"\frac{{{tex_t_coef(num, t_scale)}}}{{{tex_t_coef(den, t_scale)}}}"


def construction_context(claims: dict[str, dict], model: dict | None = None) -> dict | None:
    """The construction behind the upper bound (claim `upper`): the block head N_B/D_B of each shape, with how it was found."""
    claim = claims.get("upper")
    exp = claims.get("exp-form", {}).get("evidence", {})
    if claim is None or not exp:
        return None
    t_scale = int(exp.get("t_scale", 1))
    blocks = exp.get("blocks", [])
    heads = []
    for s, (head, shape) in enumerate(zip(claim["evidence"]["heads"][:MAX_SHAPES_SHOWN], exp["shapes"])):
        rep = next((b for b in blocks if int(b["shape"]) == s), {"variables": [], "heads": []})
        D, N = _x_groups(head["D"]), _x_groups(head["N"])
        rows = [
            {
                "lattice": tex_vector(list(x)),
                "key": tex_linear(_q_key(shape, rep["variables"], x)),
                "weight": tex_t_coef(D[x], t_scale),
                "value": _value_tex(N.get(x, []), D[x], t_scale),
            }
            for x in list(D)[:rows_shown(len(D), MAX_ATOM_ROWS)]
        ]
        found = head.get("found")
        cofactor = None
        shown = provenance(found, list(D), product_atoms(model, rep["heads"]) if model and found in FOUND else None)
        if found:  # D_B = Q′_B·g: one line instead of a table (the kernel checked N_B·Q′_B = D_B·P′_B, so g exists)
            nvars = len(head["D"][0][0]) if head["D"] else 1
            g = divide(poly_from_json(head["D"], nvars), poly_from_json(shape["Q"], nvars))
            cofactor = None if g is None else _poly_or_count([[list(e), str(c)] for e, c in sorted(g.items())], t_scale)
        heads.append(
            {
                "index": s + 1,
                **shown,
                "cofactor": cofactor,
                "atoms": tex_int(len(D)),
                "lowest": head["N"] == shape["P"] and head["D"] == shape["Q"],
                "N": _poly_or_count(head["N"], t_scale),
                "D": _poly_or_count(head["D"], t_scale),
                "rows": rows,
                "more": len(D) - len(rows),
                "rep_variables": ", ".join(f"q_{{{j}}}" for j in rep["variables"]),
            }
        )
    atoms = tex_int(_atoms_of(claim["evidence"]["heads"], blocks))
    product = _product_tex([len(_x_groups(h["D"])) for h in claim["evidence"]["heads"]], blocks)
    return {
        "atoms": atoms,
        "heads": heads,
        "more": max(0, len(claim["evidence"]["heads"]) - MAX_SHAPES_SHOWN),
        "nblocks": len(blocks),
        "product": product if product != atoms else None,
    }


def _atoms_of(heads: list[dict], blocks: list[dict]) -> int:
    """Π_B |supp D_B| over the blocks (Lemma LP)."""
    out = 1
    for b in blocks:
        out *= len(_x_groups(heads[int(b["shape"])]["D"]))
    return out


def _product_tex(sizes: list[int], blocks: list[dict]) -> str:
    """The product Π_B |supp D_B| as powers per shape: 2^{1000}, 7, 3^{2}\\cdot 4."""
    counts: dict[int, int] = {}
    for b in blocks:
        counts[int(b["shape"])] = counts.get(int(b["shape"]), 0) + 1
    parts = [str(sizes[s]) if n == 1 else f"{sizes[s]}^{{{n}}}" for s, n in sorted(counts.items())]
    return r"\cdot ".join(parts) if parts else "1"
