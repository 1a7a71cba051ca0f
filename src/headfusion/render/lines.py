"""Template context for Lemma R (claim `lower:line`): the line u, each head's keys and their levels ⟨k, u⟩, the function
f_u(t) = F(t·u) written out, and f_u's own claims as a sub-certificate (its Q′, its Newton bound, the lemma or the
refutation tree that bounds it).  Display only: the kernel (kernel/lines.py) is what checks.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.kernel.model import model_from_canonical, model_from_json, restrict
from headfusion.render.composition import _instance
from headfusion.render.faces import model_rows, tex_exact_form, tex_face_form
from headfusion.render.search import polys_of, tree_context
from headfusion.render.sections import _coprime_shape
from headfusion.render.tex import rows_shown, tex_int, tex_poly, tex_rational, tex_vector

MAX_HEAD_ROWS = 12
MAX_Q_TERMS = 40


def _tree_instance(entry: dict) -> str:
    """The refutation tree of f_u, in a line."""
    tree = dict((cid, ev) for cid, ev in entry["claims"])["refutation"]
    return (rf"Lemma~\ref{{lem:LR}}: a refutation tree of {tex_int(len(tree['tree']))} nodes over $f_u$'s own box closes for "
            rf"$m={tex_int(int(tree['atoms']))}$")


def _own_data(cert: dict, entry: dict, sub: dict) -> dict:
    """f_u's P′ and Q′ (one block of rank 1, coordinate x), the factors of Q′ with their lowest-terms evidence, and its
    refutation tree as the 1-D certificates print theirs (box, leaf counts, one worked leaf of each kind)."""
    exp = sub["exp-form"]
    t_scale = int(exp["t_scale"])
    if len(exp["blocks"]) != 1:
        return {"P": None, "factors": None, "tree": None, "tree_m": None}
    shape = exp["shapes"][int(exp["blocks"][0]["shape"])]
    tree = None
    if "refutation" in sub:
        ev = sub["refutation"]
        polys = polys_of(model_from_canonical(entry["form"]), exp)
        vertices = len(sub["lower:newton"]["shapes"][0].get("vertices", [])) or 2  # a segment: its two ends
        tree = tree_context(cert, int(ev["atoms"]), ev, vertices, polys)
    return {"P": tex_poly(shape["P"], t_scale) if len(shape["P"]) <= MAX_Q_TERMS else None,
            "factors": _coprime_shape(sub["coprime"]["shapes"][0], shape, t_scale), "tree": tree,
            "tree_m": tex_int(int(sub["refutation"]["atoms"])) if tree else None}


def line_context(cert: dict, claims: dict[str, dict]) -> dict | None:
    """The paragraph and tables of Lemma R, or None when the certificate has no `lower:line`."""
    claim = claims.get("lower:line")
    if claim is None:
        return None
    ev = claim["evidence"]
    model = model_from_json(cert["model"])
    u = {int(j) - 1: Fraction(int(v)) for j, v in ev["direction"]}
    heads = []
    for h, (_, atoms) in enumerate(model.heads[:rows_shown(len(model.heads), MAX_HEAD_ROWS)], 1):
        keys = sorted({a.key for a in atoms})
        levels = [sum((v * u.get(j, 0) for j, v in key), Fraction(0)) for key in keys]
        heads.append({"index": h, "vectors": ", ".join(tex_vector([dict(key).get(j, 0) for j in range(model.dimension)]) for key in keys),
                      "levels": ", ".join(tex_rational(x) for x in levels)})
    line = restrict(model, u)
    entry = ev["function"]
    sub = dict((cid, e) for cid, e in entry["claims"])
    exp = sub["exp-form"]
    shape = exp["shapes"][int(exp["blocks"][0]["shape"])] if len(exp["blocks"]) == 1 else None
    by = entry["by"]
    rows = [{"claim": "lower:newton", "text": r"Lemma~\ref{lem:L5}: its own $\Newt(Q')$ is a segment with $2$ vertices"}]
    for cid, _ in entry["claims"][3:]:  # the claim that gives the bound, and the lemmas whose words do not depend on it
        if cid == by or cid in ("lower:unit-roots", "lower:classes"):
            rows.append({"claim": cid, "text": _tree_instance(entry) if cid == "refutation" else _instance({**entry, "by": cid})})
    return {
        "direction": tex_vector([int(u.get(j, 0)) for j in range(model.dimension)]),
        "heads": heads, "more_heads": len(model.heads) - len(heads),
        "function": (tex_exact_form(line.constant, model_rows(line)) or tex_face_form(entry["form"])).replace("q_{1}", "t"),  # f_u's one variable
        "form": tex_face_form(entry["form"]),
        "Q": tex_poly(shape["Q"], int(exp["t_scale"])) if shape is not None and len(shape["Q"]) <= MAX_Q_TERMS else None,
        "rows": rows,
        "bound": tex_int(int(entry["bound"])),
        "by": _tree_instance(entry) if by == "refutation" else _instance(entry),
        **_own_data(cert, entry, sub),
    }
