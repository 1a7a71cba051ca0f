"""Template context for the structural lower bounds: residue classes (LK) and rigid edges (LE).

Both are printed in full: each class with its sum, each tree edge with its witness and its face
limit.  The arithmetic here is display only (the top face of Q′_B along a witness, shifted to
start at the edge's first end); the kernel is what checks.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Any

from headfusion.proof.evidence import support_size
from headfusion.render.orders import MAX_RULE_CHECKS, edge_follows_rule
from headfusion.render.tex import as_fraction, frac_tex, rows_shown, tex_int, tex_poly, tex_t_coef, tex_vector

MAX_CLASS_ROWS = 256
MAX_EDGE_ROWS = 512
MAX_FACE_TERMS = 12


def _rho_tex(r: object, k: object, t_scale: int) -> str:
    """One entry ρ_c = r·e^{k/L} of a tilt: '2', 'e', '2 e^{1/2}', '1'."""
    r, power = as_fraction(r), Fraction(int(k), t_scale)
    parts = [] if r == 1 and power else [frac_tex(r)]
    if power:
        parts.append("e" if power == 1 else rf"e^{{{frac_tex(power) if power.denominator == 1 else f'{power.numerator}/{power.denominator}'}}}")
    return " ".join(parts)


def _tilt_tex(r: object, s: int, t_scale: int, name: str) -> str | None:
    """ρ_c = r·e^{s/L} as 'x_1 ↦ ρ x_1', None for ρ = 1."""
    if as_fraction(r) == 1 and s == 0:
        return None
    return rf"{name}\mapsto {_rho_tex(r, s, t_scale)}\,{name}"


def tilt_vector_tex(tilt: list, t_scale: int) -> str:
    """ρ_B = (ρ_1, …, ρ_r), ρ_c = r_c·e^{s_c/L}, as a vector: (1) when there is no tilt."""
    return "(" + ",".join(_rho_tex(r, k, t_scale) for r, k in tilt) + ")"


def _lattice_tex(basis: list[list[int]]) -> str:
    rank = len(basis)
    if all(basis[r][c] == 0 for r in range(rank) for c in range(rank) if r != c):
        return r"\times".join(rf"{basis[r][r]}\mathbb{{Z}}" for r in range(rank))
    return r"\langle " + ",".join(tex_vector(row) for row in basis) + r"\rangle"


def shape_entries(claims: dict[str, dict], cid: str) -> tuple[int, list[tuple[int, dict]]] | None:
    """(t_scale, [(shape index, entry)] for the shapes a per-shape claim covers), or None when the claim is absent."""
    claim, exp = claims.get(cid), claims.get("exp-form")
    if claim is None or exp is None:
        return None
    return int(exp["evidence"].get("t_scale", 1)), [(s, item) for s, item in enumerate(claim["evidence"]["shapes"]) if item is not None]


def classes_context(summary: dict, claims: dict[str, dict]) -> dict | None:
    """The class-sum tables of `lower:classes`, one per shape that uses LK."""
    found = shape_entries(claims, "lower:classes")
    if found is None:
        return None
    (t_scale, entries), claim, exp = found, claims["lower:classes"], claims["exp-form"]
    shapes = []
    for s, item in entries:
        rank = len(item["lattice"])
        names = [f"x_{{{i + 1}}}" for i in range(rank)]
        tilts = [t for c, (r, k) in enumerate(item["tilt"]) if (t := _tilt_tex(r, int(k), t_scale, names[c]))]
        rows = [{"rep": tex_vector(rep), "sum": tex_t_coef([(int(k), as_fraction(c)) for k, c in total], t_scale) or "0"}
                for rep, total in item["sums"][:rows_shown(len(item["sums"]), MAX_CLASS_ROWS)]]
        shapes.append({"index": s + 1, "lattice": _lattice_tex(item["lattice"]), "index_value": tex_int(len(item["sums"])),
                       "tilt": ",\\ ".join(tilts) if tilts else None, "rho": tilt_vector_tex(item["tilt"], t_scale), "rows": rows,
                       "more": len(item["sums"]) - rows_shown(len(item["sums"]), MAX_CLASS_ROWS)})
    # the bound block by block: max(V_B, K_B) (Lemma LK, mixed with L5), as the kernel computes it
    newton = claims.get("lower:newton", {}).get("evidence", {}).get("shapes", [])
    coprime = claims.get("coprime", {}).get("evidence", {}).get("shapes", [])
    factors: dict[int, int] = {}
    mixed = False  # some block counts its vertices (V_B > K_B), as the kernel decides
    for block in exp["evidence"]["blocks"]:
        s = int(block["shape"])
        item = claim["evidence"]["shapes"][s]
        vertices = (len(newton[s].get("vertices", [])) if newton[s].get("method") == "vertices"
                    else 2 ** len(coprime[s]["factors"]))  # a parallelepiped of binomials (Lemma LZ)
        value = max(len(item["sums"]) if item is not None else 1, vertices)
        mixed |= vertices > (len(item["sums"]) if item is not None else 1)
        factors[value] = factors.get(value, 0) + 1
    product = r"\cdot ".join(str(k) if n == 1 else f"{k}^{{{n}}}" for k, n in sorted(factors.items(), reverse=True))
    bound = tex_int(summary["residue_class_bound"])
    return {"shapes": shapes, "bound": bound, "product": product if product != bound else None,
            "tilted": any(shape["tilt"] for shape in shapes),
            "nblocks": len(exp["evidence"]["blocks"]), "mixed": mixed}


def _face_tex(terms: list, u: list[int], t_scale: int) -> dict[str, Any]:
    """A face polynomial divided by x^u (so that it starts at the edge's end u)."""
    shifted = [[[int(a) - b for a, b in zip(e[:-1], u)] + [e[-1]], c] for e, c in terms]
    return {"tex": tex_poly(shifted, t_scale) if len(terms) <= MAX_FACE_TERMS else None, "terms": len(terms)}


def edges_context(summary: dict, claims: dict[str, dict]) -> dict | None:
    """The spanning trees of rigid edges of `lower:edges`: per edge its ends, witness, length and face limit."""
    claim, exp = claims.get("lower:edges"), claims.get("exp-form")
    if claim is None or exp is None:
        return None
    t_scale = int(exp["evidence"].get("t_scale", 1))
    shapes, outside = [], non_vertices(claims)
    for s, item in enumerate(claim["evidence"]["shapes"]):
        shape = exp["evidence"]["shapes"][s]
        rows = []
        for u, w, c in item["edges"][:rows_shown(len(item["edges"]), MAX_EDGE_ROWS)]:
            def level(e: list) -> int:
                return sum(int(a) * int(b) for a, b in zip(c, e[:-1]))

            top = max(level(e) for e, _ in shape["Q"])
            face_q = [[e, v] for e, v in shape["Q"] if level(e) == top]
            face_p = [[e, v] for e, v in shape["P"] if level(e) == top]
            P, Q = _face_tex(face_p, u, t_scale), _face_tex(face_q, u, t_scale)
            limit = (rf"\frac{{{P['tex']}}}{{{Q['tex']}}}" if P["tex"] is not None and Q["tex"] is not None
                     else rf"\text{{{P['terms']} over {Q['terms']} terms}}")
            below = [level(e) for e, _ in shape["Q"] if level(e) < top]
            rows.append({"u": tex_vector(u), "w": tex_vector(w), "witness": tex_vector(c),
                         "length": gcd(*(int(b) - int(a) for a, b in zip(u, w))), "limit": limit,
                         "margin": top - max(below) if below else "--"})
        off = outside[s] if s < len(outside) else []
        shapes.append({"index": s + 1, "rows": rows, "total": len(item["edges"]), "more": len(item["edges"]) - rows_shown(len(item["edges"]), MAX_EDGE_ROWS),
                       "certified": tex_int(len(item["edges"]) + 1),
                       "support": len({tuple(e[:-1]) for e, _ in shape["Q"]}), "non_vertices": non_vertices_tex(off) if off else None})
    rule = _orders_rule(claim["evidence"]["shapes"], exp["evidence"]["shapes"])
    caption = r"Spanning trees of rigid edges on the certified vertices (Lemma~\ref{lem:LE})." + (
        rf" Every witness has the form $\omega_\ell=\pi(\ell)-\pi({rule})$ for a ranking $\pi$ of $\{{1,\dots,{rule}\}}$ with one tie"
        r" (two coordinates of one rank); breaking the tie either way gives two orders that differ by an adjacent transposition,"
        r" whose order witnesses single out $p_0$ and $p_1$, one each." if rule else "")
    return {"shapes": shapes, "caption": caption, "bound": tex_int(summary["rigid_edge_bound"]), "vertices": tex_int(summary["newton_vertices"]),
            "support": tex_int(summary["rigid_edge_bound"] and support_size(exp["evidence"]))}


def _orders_rule(edges: list, shapes: list) -> int | None:
    """r + 1 when every tree edge's witness is an order with one tie whose two orders single out its ends (else None)."""
    ranks = set()
    for item, shape in zip(edges, shapes):
        support = list({tuple(e[:-1]) for e, _ in shape["Q"]})
        if len(item["edges"]) * len(support) > MAX_RULE_CHECKS or not all(edge_follows_rule(u, w, c, support) for u, w, c in item["edges"]):
            return None
        ranks |= {len(c) + 1 for _, _, c in item["edges"]}
    return ranks.pop() if len(ranks) == 1 and min(ranks) > 2 else None


MAX_NON_VERTICES = 16  # non-vertex points of supp Q′_B named in the text


def non_vertices(claims: dict[str, dict]) -> list[list[tuple[int, ...]]]:
    """Per shape, the points of supp Q′_B that are not among the vertices listed in lower:newton (sorted)."""
    exp = claims.get("exp-form", {}).get("evidence", {})
    newton = claims.get("lower:newton", {}).get("evidence", {}).get("shapes", [])
    out = []
    for shape, nb in zip(exp.get("shapes", []), newton):
        vertices = {tuple(int(x) for x in v) for v, _ in nb.get("vertices", [])}
        out.append(sorted({tuple(int(x) for x in e[:-1]) for e, _ in shape["Q"]} - vertices))
    return out


def non_vertices_tex(points: list[tuple[int, ...]]) -> str:
    """'the point $(1,1)$' / 'the points $(1,0)$, $(1,1)$' / '… and 12 more'."""
    shown = ", ".join(f"${tex_vector(list(p))}$" for p in points[:MAX_NON_VERTICES])
    more = f" and {len(points) - MAX_NON_VERTICES} more" if len(points) > MAX_NON_VERTICES else ""
    return ("the point " if len(points) == 1 else "the points ") + shown + more
