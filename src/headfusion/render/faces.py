"""Face functions written out for the certificate document: heads as σ, attn(·) or quotients (Lemma LD uses them).

A function is written exactly (with its constant, in F's variables) or up to an additive constant (a
canonical form): a two-atom head as a scaled σ, a longer head with unit weights as attn(·), any other as
the quotient Σ v μ e^⟨k,q⟩ / Σ μ e^⟨k,q⟩ with every weight and value shown.  Display only: the kernel is
what checks.
"""

from __future__ import annotations

from fractions import Fraction

from headfusion.render.tex import as_fraction, coef_prefix, frac_tex, tex_linear

MAX_FACE_ROWS = 64
MAX_FACE_HEADS = 8
MAX_FACE_ATOMS = 6  # atoms of a head written out as a quotient in a face-limit form


def _head_parts(scale: Fraction, atoms: list) -> tuple[Fraction, str | None, bool]:
    """One head of rows [key, coef, bias, value] as (constant, the rest, uses attn): exactly scale·H = constant + rest.

    A two-atom head is v_0 + (v_1 − v_0)σ(⟨k_1 − k_0, q⟩ + log(μ_1/μ_0)), its atoms ordered so that the
    multiple of σ is positive (σ(−z) = 1 − σ(z)) and its argument written with the positive terms first; a longer head with unit weights is
    attn([logits], [values]) as Table 2 defines it, any other the quotient Σ v μ e^⟨k,q⟩ / Σ μ e^⟨k,q⟩.
    """
    keys = {tuple((int(j), as_fraction(v)) for j, v in sorted(a[0], key=lambda jv: int(jv[0])) if as_fraction(v)) for a in atoms}
    if len(keys) == 1:  # one key: a constant, the weighted mean of the values when the weights are rational
        if len({as_fraction(a[2]) for a in atoms}) == 1:
            total = sum(as_fraction(a[1]) for a in atoms)
            return scale * sum(as_fraction(a[1]) * as_fraction(a[3]) for a in atoms) / total, None, False
        return Fraction(0), None, False  # shown up to a constant only (callers check `exact_form`)
    if len(atoms) == 2:
        def difference(a: list, b: list) -> dict[int, Fraction]:
            out: dict[int, Fraction] = {}
            for j, v in b[0]:
                out[int(j)] = out.get(int(j), Fraction(0)) + as_fraction(v)
            for j, v in a[0]:
                out[int(j)] = out.get(int(j), Fraction(0)) - as_fraction(v)
            return {j: v for j, v in sorted(out.items()) if v}

        first, second = atoms
        if scale * (as_fraction(second[3]) - as_fraction(first[3])) < 0:
            first, second = second, first
        (_, c0, e0, v0), (_, c1, e1, v1) = first, second
        a = scale * (as_fraction(v1) - as_fraction(v0))
        if a == 0:
            return scale * as_fraction(v0), None, False
        terms = sorted(difference(first, second).items(), key=lambda jv: (jv[1] < 0, jv[0]))  # positive terms first
        arg = "".join(coef_prefix(v, not i) + f"q_{{{j}}}" for i, (j, v) in enumerate(terms)) or "0"
        ratio = as_fraction(c1) / as_fraction(c0)
        shift = as_fraction(e1) - as_fraction(e0)
        if ratio != 1:
            arg += rf" + \log {frac_tex(ratio)}" if ratio.denominator == 1 else rf" + \log{frac_tex(ratio)}"
        if shift != 0:
            arg += (" - " if shift < 0 else " + ") + frac_tex(abs(shift))
        return scale * as_fraction(v0), coef_prefix(a, True) + rf"\sigma({arg})", False
    if len(atoms) > MAX_FACE_ATOMS:
        return Fraction(0), rf"(\text{{a head with {len(atoms)} atoms}})", False
    prefix = "" if scale == 1 else ("-" if scale == -1 else frac_tex(scale))
    if all(as_fraction(c) == 1 and as_fraction(b) == 0 for _, c, b, _ in atoms):
        logits = ",".join(tex_linear(k) for k, *_ in atoms)
        values = ",".join(frac_tex(as_fraction(v)) for *_, v in atoms)
        return Fraction(0), prefix + rf"\operatorname{{attn}}([{logits}],[{values}])", True

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
    return Fraction(0), prefix + rf"\dfrac{{{numerator}}}{{{denominator}}}", False


def _join(constant: Fraction | None, parts: list[str], total: int) -> str:
    """constant + parts (the first MAX_FACE_HEADS of `total`), with signs merged."""
    out = frac_tex(constant) if constant else ""
    for p in parts[:MAX_FACE_HEADS]:
        out += p if (p.startswith("-") and out) else ((" + " if out else "") + p)
    if total > MAX_FACE_HEADS:
        out += rf" + \dots\ (\text{{{total} heads}})"
    return out or "0"


def tex_face_form(form: list) -> str:
    """A canonical form (list of [scale, atoms]) as a sum of heads, up to constants."""
    parts = [text for scale, atoms in form if (text := _head_parts(as_fraction(scale), atoms)[1]) is not None]
    return _join(None, parts, len(parts)) if parts else r"\text{const.}"


def uses_attn(forms: list[list]) -> bool:
    """Some head of these forms is written attn(·) (the notation table then defines it)."""
    return any(_head_parts(as_fraction(scale), atoms)[2] for form in forms for scale, atoms in form)


def model_rows(model: object) -> list:
    """The kernel's model as a form [[scale, rows]] in the original variables (rows [key, coef, bias, value])."""
    return [[scale, [[[[j + 1, v] for j, v in a.key], a.coef, a.bias, a.value] for a in atoms]]
            for scale, atoms in model.heads]  # type: ignore[attr-defined]


def tex_exact_form(constant: Fraction, form: list) -> str | None:
    """constant + the heads of `form`, exactly (None when a constant part involves e^b and cannot be written)."""
    total, parts = constant, []
    for scale, atoms in form:
        keys = {tuple(sorted((int(j), as_fraction(v)) for j, v in a[0] if as_fraction(v))) for a in atoms}
        if len(keys) == 1 and len({as_fraction(a[2]) for a in atoms}) > 1 and len({as_fraction(a[3]) for a in atoms}) > 1:
            return None
        c, text, _ = _head_parts(as_fraction(scale), atoms)
        total += c
        if text is not None:
            parts.append(text)
    return _join(total, parts, len(parts)) if parts else frac_tex(total)
