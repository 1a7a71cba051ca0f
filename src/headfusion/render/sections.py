"""The mathematical sections of the certificate document, as template context.

Each function reads one claim's evidence from the certificate dict (exact JSON data, never
recomputed from the model) and returns the LaTeX snippets its section shows: the heads of the
model, the exponential form with its shapes, factors and blocks (L1-L4), the construction
behind the upper bound, and the Newton-polytope and face-limit lower bounds.  Long tables
and polynomials are cut at the display caps below.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from headfusion.render.tex import (
    MAX_DENSE_DIMENSION,
    as_fraction,
    coef_prefix,
    frac_tex,
    key_header,
    tex_int,
    tex_key,
    tex_linear,
    tex_note,
    tex_number,
    tex_poly,
    tex_ranges,
    tex_rational,
    tex_text,
    tex_tt,
    tex_vector,
)

# display caps: tables are cut after this many rows, polynomials shown in full up to this many terms
MAX_HEAD_ROWS = 12
MAX_ATOMS_PER_HEAD = 8
MAX_ATOM_ROWS = 64
MAX_VERTEX_ROWS = 64
MAX_FACE_ROWS = 64
MAX_POLY_TERMS = 40
MAX_BLOCK_ROWS = 12
MAX_SHAPES_SHOWN = 8
MAX_FACTORS_SHOWN = 12
MAX_FACE_HEADS = 4
MAX_FACTORED_BLOCKS = 8
MAX_FACTOR_TERMS = 12


def heads_context(cert: dict) -> dict:
    """The heads table: each head's label, scale and first atoms, and the constant."""
    model = cert["model"]
    heads = model["heads"]
    rows = []
    for index, head in enumerate(heads[:MAX_HEAD_ROWS], 1):
        atoms = head["atoms"]
        shown = atoms[:MAX_ATOMS_PER_HEAD]
        atom_rows = [
            {"logit": tex_linear(a["key"]), "weight": tex_number(a["weight"]), "value": tex_rational(a["value"])}
            for a in shown
        ]
        rows.append(
            {
                "index": index,
                "label": tex_tt(head.get("label", "") or f"head {index}"),
                "scale": tex_rational(head["scale"]),
                "atoms": atom_rows,
                "more_atoms": len(atoms) - len(shown),
            }
        )
    return {
        "rows": rows,
        "total": len(heads),
        "more": max(0, len(heads) - MAX_HEAD_ROWS),
        "constant": tex_rational(model.get("constant", 0)),
        "dimension": model["dimension"],
    }


def _shape_variables(basis: dict, variables: Sequence[int], names: Sequence[str] | None = None) -> list[str]:
    """x_i = e^{<b_i, q>} for each basis row, with the block's q indices."""
    den = int(basis["denominator"])
    out = []
    for i, row in enumerate(basis["rows"]):
        sparse = [[variables[int(local)] if int(local) < len(variables) else int(local) + 1, Fraction(int(v), den)] for local, v in row]
        name = names[i] if names is not None else f"x_{{{i + 1}}}"
        out.append(rf"{name}=e^{{{tex_linear(sparse)}}}")
    return out


def _x_support(poly: dict) -> list[tuple[int, ...]]:
    return sorted({tuple(int(x) for x in e[:-1]) for e, c in poly["terms"] if as_fraction(c) != 0})


def _factored_form(ev: dict, t_scale: int) -> dict | None:
    """Q' = Π_B Q'_B written out with per-block variables (first blocks and the last when many)."""
    blocks, shapes = ev.get("blocks", []), ev.get("shapes", [])
    if len(blocks) < 2:
        return None
    rank_one = all(len(sh["basis"]["rows"]) == 1 for sh in shapes)
    indices = list(range(len(blocks)))
    truncated = len(blocks) > MAX_FACTORED_BLOCKS
    if truncated:
        indices = indices[:3] + indices[-1:]
    factors, definitions = [], []
    for i in indices:
        shape = shapes[blocks[i]["shape"]]
        poly = shape["Q_reduced"]
        if len(poly["terms"]) > MAX_FACTOR_TERMS:
            return None
        rank = len(shape["basis"]["rows"])
        names = [f"x_{{{i + 1}}}"] if rank_one else [f"x_{{{i + 1},{r + 1}}}" for r in range(rank)]
        if len(poly["terms"]) <= 1:
            continue  # a unit (constant block): no factor
        factors.append(f"({tex_poly(poly, t_scale, names)})")
        definitions += _shape_variables(shape["basis"], blocks[i]["variables"], names)
    if not factors or (truncated and len(factors) < 4):
        return None
    if truncated:
        factors.insert(3, r"\cdots")
        definitions.insert(3 * (len(definitions) // 4), r"\dots")
    return {"product": "".join(factors), "definitions": r",\ ".join(definitions)}


def exp_form_context(cert: dict, claims: dict[str, dict]) -> dict | None:
    """The exponential form (claim `exp-form`): shapes, polynomials, factors, Newton data, blocks."""
    claim = claims.get("exp-form")
    if claim is None:
        return None
    ev = claim["evidence"]
    t_scale = int(ev.get("t_scale", 1))
    blocks = ev.get("blocks", [])
    heads = cert["model"]["heads"]
    shapes = []
    coprime = claims.get("coprime", {}).get("evidence", {}).get("shapes", [])
    newton = claims.get("lower:newton", {}).get("evidence", {}).get("shapes", [])
    members_of: dict[int, list[int]] = {}
    for i, b in enumerate(blocks):
        members_of.setdefault(int(b["shape"]), []).append(i)
    for s, shape in enumerate(ev.get("shapes", [])[:MAX_SHAPES_SHOWN]):
        members = members_of.get(s, [])
        rep = blocks[members[0]] if members else {"variables": [], "heads": []}
        rank = len(shape["basis"]["rows"])
        entry: dict[str, Any] = {
            "index": s + 1,
            "blocks": tex_ranges([i + 1 for i in members]),
            "nblocks": len(members),
            "rep_block": members[0] + 1 if members else None,
            "rep_variables": ", ".join(f"q_{{{j}}}" for j in rep["variables"]),
            "rep_heads": ", ".join(tex_tt(heads[h].get("label") or f"head {h + 1}") for h in rep["heads"][:6] if h < len(heads))
            + (r", \dots" if len(rep["heads"]) > 6 else ""),
            "rank": rank,
            "xvars": _shape_variables(shape["basis"], rep["variables"]),
            "shift": tex_vector(shape.get("shift", [])) if any(shape.get("shift", [])) else None,
            "reduced_is_head": bool(shape.get("reduced_is_head")),
            "same": shape["P"] == shape["P_reduced"] and shape["Q"] == shape["Q_reduced"],
        }
        for name in ("P", "Q", "P_reduced", "Q_reduced"):
            poly = shape[name]
            n = len(poly["terms"])
            entry[name + "_terms"] = n
            entry[name] = tex_poly(poly, t_scale) if n <= MAX_POLY_TERMS else None
        entry["support_size"] = len(_x_support(shape["Q_reduced"]))
        # coprimality (L4) per shape
        if s < len(coprime):
            cp = coprime[s]
            factors = []
            for f in cp["factors"][:MAX_FACTORS_SHOWN]:
                n = len(f["poly"]["terms"])
                factors.append(
                    {
                        "poly": tex_poly(f["poly"], t_scale) if n <= MAX_POLY_TERMS else None,
                        "terms": n,
                        "multiplicity": f["multiplicity"],
                        "primitive": f.get("irreducible") == "primitive binomial",
                        "reason": tex_text(f.get("irreducible", "")),
                    }
                )
            entry["factors"] = factors
            entry["more_factors"] = max(0, len(cp["factors"]) - MAX_FACTORS_SHOWN)
            entry["removed"] = cp.get("removed", 0)
        else:
            entry["factors"] = None
        # Newton polytope per shape
        if s < len(newton):
            entry["newton"] = _shape_newton(newton[s], shape)
        shapes.append(entry)
    block_rows = []
    for i, b in enumerate(blocks[:MAX_BLOCK_ROWS], 1):
        block_rows.append(
            {
                "index": i,
                "shape": b["shape"] + 1,
                "heads": tex_ranges([h + 1 for h in b["heads"]]),
                "variables": ", ".join(f"q_{{{j}}}" for j in b["variables"][:8]) + (r", \dots" if len(b["variables"]) > 8 else ""),
            }
        )
    return {
        "t_scale": t_scale,
        "t_text": None if t_scale == 1 else rf"t=e^{{1/{t_scale}}}",
        "nblocks": len(blocks),
        "nshapes": len(ev.get("shapes", [])),
        "shapes": shapes,
        "more_shapes": max(0, len(ev.get("shapes", [])) - MAX_SHAPES_SHOWN),
        "block_rows": block_rows,
        "more_blocks": max(0, len(blocks) - MAX_BLOCK_ROWS),
        "constant": tex_rational(cert["model"].get("constant", 0)),
        "factored": _factored_form(ev, t_scale),
    }


def _shape_newton(nb: dict, shape: dict) -> dict:
    out: dict[str, Any] = {"method": nb.get("method"), "count": tex_int(nb.get("count", 0))}
    if nb.get("method") == "explicit":
        support = _x_support(shape["Q_reduced"])
        rows = []
        for vertex, witness in nb.get("vertices", [])[:MAX_VERTEX_ROWS]:
            margin = None
            if len(support) <= 4096:
                value = sum(int(c) * int(v) for c, v in zip(witness, vertex))
                others = [sum(int(c) * int(u) for c, u in zip(witness, point)) for point in support if list(point) != list(vertex)]
                margin = value - max(others) if others else None
            rows.append({"vertex": tex_vector(vertex), "witness": tex_vector(witness), "margin": margin})
        out["rows"] = rows
        out["more"] = max(0, len(nb.get("vertices", [])) - MAX_VERTEX_ROWS)
    else:
        directions = nb.get("directions", [])
        out["directions"] = [tex_vector(d) for d in directions[:MAX_FACTORS_SHOWN]]
        out["more_directions"] = max(0, len(directions) - MAX_FACTORS_SHOWN)
        out["ndirections"] = len(directions)
    return out


def construction_context(claims: dict[str, dict]) -> dict | None:
    """The construction behind the upper bound (claim `upper`): its atom count and listed atoms."""
    claim = claims.get("upper")
    if claim is None:
        return None
    ev = claim["evidence"]
    atoms = ev.get("atoms_list")
    out: dict[str, Any] = {
        "atoms": tex_int(ev["atoms"]),
        "per_shape": [tex_int(a) for a in ev.get("per_shape_atoms", [])],
        "uses_reduced": list(ev.get("uses_reduced", [])),
        "listed": atoms is not None,
        "rows": [],
        "more": 0,
    }
    if atoms is not None:
        out["rows"] = [
            {"key": tex_key(a["key"]), "weight": tex_number(a["weight"]), "value": tex_number(a["value"])}
            for a in atoms[:MAX_ATOM_ROWS]
        ]
        out["more"] = max(0, len(atoms) - MAX_ATOM_ROWS)
        out["key_header"] = key_header(len(atoms[0]["key"]) if atoms else 0)
    return out


def newton_context(claims: dict[str, dict]) -> dict | None:
    """The Newton-polytope lower bound (claim `lower:newton`): vertex count and witnesses."""
    claim = claims.get("lower:newton")
    if claim is None:
        return None
    ev = claim["evidence"]
    listed = ev.get("vertex_witnesses", [])
    rows = []
    for w in listed[:MAX_VERTEX_ROWS]:
        try:
            value = sum(as_fraction(c) * as_fraction(v) for c, v in zip(w["witness"], w["vertex"]))
            pairing = frac_tex(value)
        except (ValueError, ZeroDivisionError):
            pairing = "?"
        rows.append({"vertex": tex_key(w["vertex"]), "witness": tex_vector(w["witness"]), "pairing": pairing})
    dimension = len(listed[0]["vertex"]) if listed else 0
    methods = sorted({s.get("method", "") for s in ev.get("shapes", [])})
    return {
        "count": tex_int(ev["count"]),
        "count_int": int(ev["count"]),
        "rows": rows,
        "listed": len(listed),
        "more": max(0, len(listed) - MAX_VERTEX_ROWS),
        "unlisted": int(ev["count"]) - len(listed) if len(listed) < int(ev["count"]) else 0,
        "zonotope": "zonotope" in methods,
        "vertex_header": r"\text{vertex } v" if dimension <= MAX_DENSE_DIMENSION else r"\text{vertex } v\text{ as }\langle v,q\rangle",
        "nshapes": len(ev.get("shapes", [])),
    }


def _face_head_tex(scale: Fraction, atoms: list) -> str | None:
    """One head of a canonical form, up to an additive constant."""
    if len(atoms) < 2:
        return None
    if len(atoms) == 2:
        (k0, c0, e0, v0), (k1, c1, e1, v1) = atoms
        a = scale * (as_fraction(v1) - as_fraction(v0))
        if a == 0:
            return None
        diff: dict[int, Fraction] = {}
        for j, v in k1:
            diff[int(j)] = diff.get(int(j), Fraction(0)) + as_fraction(v)
        for j, v in k0:
            diff[int(j)] = diff.get(int(j), Fraction(0)) - as_fraction(v)
        arg = tex_linear([[j, v] for j, v in diff.items() if v])
        ratio = as_fraction(c1) / as_fraction(c0)
        shift = as_fraction(e1) - as_fraction(e0)
        if ratio != 1:
            arg += rf" + \log {frac_tex(ratio)}" if ratio.denominator == 1 else rf" + \log{frac_tex(ratio)}"
        if shift != 0:
            arg += (" - " if shift < 0 else " + ") + frac_tex(abs(shift))
        return coef_prefix(a, True) + rf"\sigma({arg})"
    keys = ", ".join(tex_linear(k) for k, *_ in atoms[:4]) + (r", \dots" if len(atoms) > 4 else "")
    prefix = "" if scale == 1 else frac_tex(scale)
    return prefix + rf"\mathsf{{H}}_{{{len(atoms)}}}\langle {keys}\rangle"


def tex_face_form(form: list) -> str:
    """A canonical form (list of [scale, atoms]) as a sum of heads, up to constants."""
    parts = []
    for scale, atoms in form:
        text = _face_head_tex(as_fraction(scale), atoms)
        if text is not None:
            parts.append(text)
    if not parts:
        return r"\text{const.}"
    shown = parts[:MAX_FACE_HEADS]
    out = shown[0]
    for p in shown[1:]:
        out += p if p.startswith("-") else " + " + p
    if len(parts) > MAX_FACE_HEADS:
        out += rf" + \dots\ (\text{{{len(parts)} heads}})"
    return out


def faces_context(cert: dict, claims: dict[str, dict]) -> dict:
    """The face-limit lower bound (claim `lower:face`): the face tree, or only the note when absent."""
    claim = claims.get("lower:face")
    note = cert.get("summary", {}).get("face_limit_note")
    if claim is None:
        return {"present": False, "note": tex_note(note) if note else None}
    ev = claim["evidence"]
    nodes = ev.get("nodes", [])
    rows = []
    for i, node in enumerate(nodes[:MAX_FACE_ROWS]):
        direction = node.get("direction")
        rows.append(
            {
                "index": i,
                "form": tex_face_form(node.get("form", [])),
                "direction": "--" if direction is None else "$" + tex_linear(direction, "e") + "$",
                "plus": "--" if node.get("plus") is None else str(node["plus"]),
                "minus": "--" if node.get("minus") is None else str(node["minus"]),
                "bound": tex_int(node["bound"]),
                "leaf": direction is None,
            }
        )
    return {
        "present": True,
        "bound": tex_int(ev["bound"]),
        "rows": rows,
        "total": len(nodes),
        "more": max(0, len(nodes) - MAX_FACE_ROWS),
        "note": tex_note(note) if note else None,
    }

