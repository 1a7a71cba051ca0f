"""Template context for the composed lower bounds: disjoint faces (LD), the hexagon (LH), slices (LS).

LD is printed as the argument a reader follows: each face with its direction, its face function written
out exactly in F's variables, and the entry of the table of face functions that bounds it; the pairs of
faces with the three numbers of the disjointness test; and the table of face functions, each with its
bound and the lemma that gives it (its instance in a line).  LH and LS print their binomials and
factorisations.  The numbers of the disjointness test are computed with the kernel's own functions;
everything here is display only: the kernel is what checks.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from headfusion.render.faces import model_rows, tex_exact_form, tex_face_form, uses_attn
from headfusion.kernel.poly import poly_from_json
from headfusion.render.multiples import entry_lemma, entry_rows, entry_value
from headfusion.render.structure import shape_entries
from headfusion.render.tex import tex_int, tex_linear, tex_poly, tex_rational, tex_vector

MAX_FACE_ROWS = 40
MAX_PAIR_ROWS = 45  # the pair table is printed for at most 10 faces; beyond, its extremes are named
MAX_POLY_TERMS = 12
LEMMA_OF = {"lower:newton": "L5", "lower:classes": "LK", "lower:unit-roots": "LU", "lower:graph": "LG", "lower:edges": "LE", "lower:hexagon": "LH", "lower:slices": "LS",
            "lower:faces": "LD", "lower:three-slices": "V3", "lower:two-adic": "V2", "lower:theorem-k": "K", "lower:line": "R", "refutation": "LR",
            "lower:grid": "K35"}


def _direction(direction: list) -> str:
    return tex_linear(direction, r"\mathbf{1}")


def _exact_limit(cert: dict, direction: list) -> str | None:
    """F_u in F's own variables, exactly (None when a constant part cannot be written)."""
    from headfusion.kernel.model import face_limit, model_from_json

    limit = face_limit(model_from_json(cert["model"]), {int(j) - 1: Fraction(int(v)) for j, v in direction})
    return tex_exact_form(limit.constant, model_rows(limit))


def _levels(cert: dict, claims: dict[str, dict], directions: list[list]) -> list[list[dict]]:
    """Per direction, the kernel's levels ⟨u, ·⟩ on supp Q′_B of every block (as `lower:faces` computes them)."""
    from headfusion.kernel.checks import check_exp_form
    from headfusion.kernel.faces import levels
    from headfusion.kernel.model import model_from_json

    exp, _, _ = check_exp_form(model_from_json(cert["model"]), claims["exp-form"]["evidence"], {})
    return [levels(exp, {int(j) - 1: Fraction(int(v)) for j, v in d}) for d in directions]


def _number(x: Fraction) -> str:
    return tex_rational(x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}")


def _own_terms(exp: dict) -> str:
    """'its own Q′ has N terms' for a face function: Q′ = Π_B Q′_B over blocks on disjoint variables (kernel-checked exp-form)."""
    return rf"its own $Q'$ has ${tex_int(prod(len(exp['shapes'][int(b['shape'])]['Q']) for b in exp['blocks']))}$ terms"


def _instance(entry: dict) -> str:
    """The lemma that bounds a face function and its instance, in a line (LaTeX); V and Q′ are the face function's own."""
    claims = dict((cid, ev) for cid, ev in entry["claims"])
    by = entry["by"]
    if by is None:
        return "a constant"
    if by == "lower:newton":
        return rf"Lemma~\ref{{lem:L5}}: its own $\Newt(Q')$ has ${tex_int(entry['bound'])}$ certified vertices"
    if by == "lower:edges":
        edges = sum(len(s["edges"]) for s in claims[by]["shapes"])
        return (rf"Lemma~\ref{{lem:LE}}: a spanning tree of {edges} rigid edges on ${tex_int(entry['bound'] - 1)}$ vertices of its own"
                r" $\Newt(Q')$, and " + _own_terms(claims["exp-form"]))
    if by == "lower:classes":
        return rf"Lemma~\ref{{lem:LK}}: equal class sums, index {', '.join(str(len(s['sums'])) for s in claims[by]['shapes'] if s)}"
    if by == "lower:hexagon":
        return r"Lemmas~\ref{lem:LH} and~\ref{lem:LM}: a tilted hexagon divides each $Q'_B$ shown"
    if by == "lower:slices":
        return r"Lemmas~\ref{lem:LS} and~\ref{lem:LM}: " + "; ".join(_chain(s) for s in claims[by]["shapes"] if s)
    if by in ("lower:three-slices", "lower:two-adic", "lower:grid"):
        lemma = {"lower:three-slices": "V3", "lower:two-adic": "V2", "lower:grid": "K35"}[by]
        ranks = [len(s["rows"]) for s in claims["exp-form"]["shapes"]]
        return (rf"Lemmas~\ref{{lem:{lemma}}} and~\ref{{lem:LM}}: " + "; ".join(
            rf"$\mathcal{{T}}(Q'_B)\ge {tex_int(entry_value(s, ranks[k]))}$" for k, s in enumerate(claims[by]["shapes"]) if s))
    if by == "lower:unit-roots":
        return _unit_roots_instance(claims)
    if by == "lower:graph":
        return (rf"Lemmas~\ref{{lem:LG}} and~\ref{{lem:LE}}: its graph has ${tex_int(entry['bound'] - 1)}$ acyclic orientations"
                + _chromatic_note(entry["form"]) + r", every edge rigid, and " + _own_terms(claims["exp-form"]))
    if by == "lower:faces":
        faces = claims[by]["faces"]
        return rf"Lemma~\ref{{lem:LD}}: {len(faces)} disjoint faces, functions no.~" + ", ".join(str(k + 1) for _, k in faces)
    if by == "lower:theorem-k":
        return r"Lemma~\ref{lem:K}: the tournament function of $K_4$ plus a constant (its four source and four sink faces)"
    return rf"a refutation tree (Lemma~\ref{{lem:LR}}) for $m={int(by.split(':m')[1])}$"


def _chromatic_note(form: list) -> str:
    """The note ' (= |χ_G(−1)|, χ_G(k) = …)' for a face function that is a tournament (its heads' keys are q_i − q_j), else ''."""
    from headfusion.render.chromatic import chromatic, chromatic_tex

    try:
        edges = [tuple(sorted({int(j) for atom in head[1] for j, _ in atom[0]})) for head in form]
    except (TypeError, ValueError, IndexError):
        return ""
    names = sorted({j for e in edges for j in e})
    if not names or any(len(e) != 2 for e in edges):
        return ""
    index = {j: k for k, j in enumerate(names)}
    chi = chromatic(len(names), [(index[i], index[j]) for i, j in edges])
    return "" if chi is None else rf" ($=|\chi_G(-1)|$, $\chi_G(k)={chromatic_tex(chi)}$)"


def _unit_roots_instance(claims: dict) -> str:
    """Lemma LU's instance for a face function, in a line: its Q′, 𝒟 and L, and the numerator case when 𝒟/g = {2} (issue 34:
    "no positive binomial or trinomial is divisible by Q′" was false for Q′ = 1 + x³, bounded by the numerator case)."""
    from headfusion.render.unitroots import unit_roots_context

    ctx = unit_roots_context({cid: {"evidence": ev} for cid, ev in claims.items()})
    factors = "".join(rf"\Phi_{{{f['d']}}}" for f in ctx["factors"])
    unit = "" if ctx["unit"] == "1" else rf"({ctx['unit']})\cdot "
    text = (rf"Lemma~\ref{{lem:LU}}: $Q'={ctx['Q']}={unit}{factors}$; for $g=1,\dots,{ctx['lcm']}$, $\{{{ctx['orders']}\}}/g$ is never"
            r" $\{3\}$, $\{4\}$ or $\{6\}$")
    if ctx["halving"] is not None:
        text += (rf"; it is $\{{2\}}$ for $g={ctx['halving']}$, and $G=(1+x_{{1}}^{{{ctx['half']}}})P'/Q'$ has the term"
                 rf" ${ctx['term_tex']}$, ${ctx['half']}\nmid{ctx['term']}$ (the numerator case)")
    return text


def _value(item: dict) -> int:
    """The number a slice entry proves (as kernel.multiples computes it; display only)."""
    return entry_value(item, len(item["omega"]))


def _chain(item: dict) -> str:
    """'T(Q′_B) ≥ 4·3·7 = 84' for a slice entry (nested), 'T(Q′_B) ≥ 7 (hexagon)' for a hexagon."""
    factors, inner = [], item
    while inner["method"] == "slices":
        factors.append(str(sum(int(k) for _, k in inner["roots"]) + 1))
        inner = inner["mu"]
    last = {"hexagon": r"7\ (\text{hexagon})", "vertices": rf"{len(inner.get('vertices', []))}\ (\text{{vertices}})"}.get(
        inner["method"], rf"{entry_value(inner, len(item['omega']))}\ (\text{{Lemma {entry_lemma(inner)}}})")
    if not factors:
        return rf"$\mathcal{{T}}(Q'_B)\ge {last}$"
    product = r"\cdot ".join(factors)
    return rf"$\mathcal{{T}}(Q'_B)\ge {product}\cdot {last}={tex_int(_value(item))}$"


def faces_context(cert: dict, claims: dict[str, dict]) -> dict | None:
    """The disjoint faces of `lower:faces`: the faces, the pair test, and the table of face functions."""
    claim = claims.get("lower:faces")
    if claim is None:
        return None
    ev = claim["evidence"]
    functions, faces = ev["functions"], ev["faces"]
    rows = []
    for i, (direction, k) in enumerate(faces[:MAX_FACE_ROWS]):
        exact = _exact_limit(cert, direction)
        rows.append({"index": i + 1, "direction": _direction(direction), "limit": exact, "function": k + 1,  # numbered from 1 on the page (the JSON's list index + 1)
                     "bound": tex_int(functions[k]["bound"]), "lemma": LEMMA_OF.get(functions[k]["by"] or "", "")})
    levels = _levels(cert, claims, [d for d, _ in faces])
    tops = [sum((max(b.values()) for b in lv), Fraction(0)) for lv in levels]
    pairs = []
    for i in range(len(faces)):
        for j in range(i):
            both = sum((max(x + levels[j][b][e] for e, x in vi.items()) for b, vi in enumerate(levels[i])), Fraction(0))
            pairs.append((j + 1, i + 1, both, tops[j] + tops[i]))  # (i, j) of the lemma with i < j
    gap = min((total - both for _, _, both, total in pairs), default=None)
    table = [{"index": k + 1, "form": tex_face_form(f["form"]) if f["form"] else r"\text{const.}", "bound": tex_int(f["bound"]),
              "by": _instance(f)} for k, f in enumerate(functions[:MAX_FACE_ROWS])]
    counts: dict[int, int] = {}
    for _, k in faces:
        counts[functions[k]["bound"]] = counts.get(functions[k]["bound"], 0) + 1
    total = sum(functions[k]["bound"] for _, k in faces)
    return {
        "rows": rows, "nfaces": len(faces), "more": max(0, len(faces) - MAX_FACE_ROWS),
        "pairs": [{"i": i, "j": j, "both": _number(b), "sum": _number(t)} for i, j, b, t in pairs] if len(pairs) <= MAX_PAIR_ROWS else None,
        "npairs": len(pairs), "gap": _number(gap) if gap is not None else None,
        "functions": table, "nfunctions": len(functions), "more_functions": max(0, len(functions) - MAX_FACE_ROWS),
        "sum": " + ".join(f"{n}\\cdot {tex_int(b)}" if n > 1 else tex_int(b) for b, n in sorted(counts.items(), reverse=True)),
        "bound": tex_int(total), "exact": all(r["limit"] is not None for r in rows),
        "attn": uses_attn([f["form"] for f in functions[:MAX_FACE_ROWS]]),
    }


def hexagon_context(summary: dict, claims: dict[str, dict]) -> dict | None:
    """The three binomials of `lower:hexagon` per shape."""
    found = shape_entries(claims, "lower:hexagon")
    if found is None:
        return None
    t_scale, entries = found
    shapes = [{"index": s + 1, "factors": [tex_poly(f, t_scale) for f in item["factors"]]} for s, item in entries]
    return {"shapes": shapes, "bound": tex_int(summary["hexagon_bound"])}


def _named_factor(letter: str, shape: int, level: int, poly: list, t_scale: int) -> dict:
    """A factor of `lower:slices` by name (the table's cell) with its polynomial for the list below the table (None when long)."""
    name = f"{letter}_{{{shape}}}" if level == 0 else f"{letter}_{{{shape},{level + 1}}}"
    return {"name": name, "terms": len(poly), "cell": f"${name}$ ({len(poly)} terms)", "poly": tex_poly(poly, t_scale) if len(poly) <= MAX_POLY_TERMS else None}


def slices_context(summary: dict, claims: dict[str, dict]) -> dict | None:
    """The factorisations of `lower:slices`: per shape, one row per level of nesting, then the last factor's bound."""
    found = shape_entries(claims, "lower:slices")
    if found is None:
        return None
    t_scale, entries = found
    shapes = []
    for s, item in entries:
        rows, level, prev = [], item, item
        while level["method"] == "slices":
            depth = len(rows)
            rows.append({"omega": tex_vector(level["omega"]), "point": tex_vector(level["point"]),
                         "Y": _named_factor("Y", s + 1, depth, level["A"], t_scale), "Z": _named_factor("Z", s + 1, depth, level["B"], t_scale),
                         "factor": sum(int(k) for _, k in level["roots"]) + 1,
                         "roots": ", ".join(rf"$-{tex_rational(r)}$" + (rf" (${k}$ times)" if int(k) > 1 else "") for r, k in level["roots"])})
            prev, level = level, level["mu"]
        if level["method"] == "hexagon":
            last = {"kind": "hexagon", "factors": [tex_poly(f, t_scale) for f in level["factors"]]}
        elif level["method"] == "vertices":
            last = {"kind": "vertices", "count": len(level["vertices"])}
        else:  # a bound of another lemma (V3, V2): its rows, numbered from 1 under this shape
            rank, parent = len(item["omega"]), poly_from_json(prev["A"], len(item["omega"]) + 1)
            nested: list[dict] = []
            entry_rows(parent, level, rank, t_scale, rf"${rows[-1]['Y']['name']}$", nested)
            last = {"kind": "entry", "lemma": entry_lemma(level), "count": tex_int(entry_value(level, rank)), "rows": nested}
        shapes.append({"index": s + 1, "rows": rows, "last": last, "chain": _chain(item) if item["method"] == "slices" else None,
                       "value": tex_int(_value(item))})
    factors = [f for sh in shapes for row in sh["rows"] for f in (row["Y"], row["Z"])]
    return {"shapes": shapes, "bound": tex_int(summary["slice_bound"]), "nested": any(len(sh["rows"]) > 1 for sh in shapes),
            "factors": factors}


def graph_context(summary: dict, claims: dict[str, dict]) -> dict | None:
    """The paragraph of `lower:graph`: V (the graphs' acyclic orientations), |supp Q′| and the bound."""
    if "lower:graph" not in claims:
        return None
    exp = claims["exp-form"]["evidence"]
    support = 1
    for block in exp["blocks"]:
        support *= len({tuple(e[:-1]) for e, _ in exp["shapes"][int(block["shape"])]["Q"]})
    return {"vertices": tex_int(summary["newton_vertices"]), "support": tex_int(support), "bound": tex_int(summary["graph_bound"]),
            "nshapes": len(exp["shapes"])}
