"""The face-limit lower bound of the certificate document (Lemma L6), as template context.

Each function of the face-limit tree is written up to an additive constant: a two-atom head as
a scaled σ, a longer head as the quotient Σ v μ e^⟨k,q⟩ / Σ μ e^⟨k,q⟩ with every weight and value
shown; each inner function lists its two limits with their functions and bounds.  Display only:
the kernel is what checks.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.render.tex import as_fraction, coef_prefix, frac_tex, tex_int, tex_linear, tex_note

MAX_FACE_ROWS = 64
MAX_FACE_HEADS = 4
MAX_FACE_ATOMS = 6  # atoms of a head written out as a quotient in a face-limit form


def _face_head_tex(scale: Fraction, atoms: list) -> str | None:
    """One head of a canonical form [key, coef, bias, value], up to an additive constant."""
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
    if len(atoms) > MAX_FACE_ATOMS:
        return rf"(\text{{a head with {len(atoms)} atoms}})"

    def power(key: list, bias: object) -> str:  # μ e^{<k,q>} with μ = coef·e^{bias}: the exponent
        text, b = (tex_linear(key) if key else ""), as_fraction(bias)
        if b:
            text = (text + (" - " if b < 0 else " + ") if text else ("-" if b < 0 else "")) + frac_tex(abs(b))
        return text

    def quotient_sum(items: list[tuple[Fraction, str]]) -> str:
        out = ""
        for c, e in items:
            if c:
                out += (coef_prefix(c, not out) + f"e^{{{e}}}") if e else (("-" if c < 0 else "") if not out else (" - " if c < 0 else " + ")) + frac_tex(abs(c))
        return out or "0"

    numerator = quotient_sum([(as_fraction(c) * as_fraction(v), power(k, b)) for k, c, b, v in atoms])
    denominator = quotient_sum([(as_fraction(c), power(k, b)) for k, c, b, _ in atoms])
    prefix = "" if scale == 1 else ("-" if scale == -1 else frac_tex(scale))
    return prefix + rf"\frac{{{numerator}}}{{{denominator}}}"


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
    """The face-limit lower bound (claim `lower:face`): the face tree, or the producer's notes when absent."""
    claim = claims.get("lower:face")
    notes = [tex_note(n) for n in cert.get("metadata", {}).get("notes", []) if "face" in str(n)]
    if claim is None:
        return {"present": False, "note": "; ".join(notes) or None}
    nodes = claim["evidence"].get("nodes", [])
    rows = []
    for i, node in enumerate(nodes[:MAX_FACE_ROWS]):
        direction, inner = node.get("direction"), node.get("direction") is not None
        row = {"index": i, "form": tex_face_form(node.get("form", [])), "inner": inner, "bound": tex_int(node["bound"])}
        if inner:
            plus, minus = nodes[int(node["plus"])], nodes[int(node["minus"])]
            row.update(direction=tex_linear(direction, r"\mathbf{1}"), plus=str(node["plus"]), minus=str(node["minus"]),
                       plus_form=tex_face_form(plus.get("form", [])), minus_form=tex_face_form(minus.get("form", [])),
                       plus_bound=tex_int(plus["bound"]), minus_bound=tex_int(minus["bound"]))
        rows.append(row)
    return {
        "present": True,
        "bound": tex_int(nodes[0]["bound"]) if nodes else "?",
        "rows": rows,
        "total": len(nodes),
        "more": max(0, len(nodes) - MAX_FACE_ROWS),
        "note": None,
    }
