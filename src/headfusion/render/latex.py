"""LaTeX rendering of certificates (Jinja2 → .tex, optional PDF via latexmk/pdflatex).

`render_latex` is pure and deterministic: the same certificate dict gives the same
bytes.  Everything the template shows is prepared here from the certificate alone
(exact JSON data); nothing is recomputed from the model.  Every string that came from
the user (spec text, title, head labels, the command line) goes through
`texutil.latex_escape`; claim statements are LaTeX written by `proof.py` and are
inserted as they are.

`write_certificate` is the only function here that does I/O: it writes the JSON, the
.tex and extra files atomically and, when a LaTeX engine is available, compiles the
PDF in a temporary directory.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

import jinja2

from headfusion.spec.numbers import rational_from_json
from headfusion.render.texutil import latex_escape

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
MAX_DENSE_DIMENSION = 8  # keys as vectors up to this dimension, else as sparse sums
MAX_FACE_HEADS = 4
LATEX_TIMEOUT = 600  # seconds per engine run

INSTALL_HINT = "apt-get install -y texlive-latex-base texlive-latex-recommended texlive-pictures latexmk"


class RenderError(Exception):
    """Rendering or compiling a certificate failed (one line, for stderr)."""


# -- user text ------------------------------------------------------------------------------

_UNICODE_TEX = {
    "σ": r"\ensuremath{\sigma}",
    "…": r"\dots{}",
    "−": "-",
    "–": "--",
    "—": "---",
    "≤": r"\ensuremath{\le}",
    "≥": r"\ensuremath{\ge}",
    "×": r"\ensuremath{\times}",
    "·": r"\ensuremath{\cdot}",
    "∑": r"\ensuremath{\sum}",
    "Σ": r"\ensuremath{\Sigma}",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
}
_BREAK_AFTER = set("+-*/,= ")


def _char_tex(ch: str) -> str:
    if ord(ch) < 128:
        return latex_escape(ch)
    if ch in _UNICODE_TEX:
        return _UNICODE_TEX[ch]
    if ch.isalpha() and ord(ch) < 0x180:  # Latin-1 and Latin Extended-A letters: T1 + utf8 handle them
        return ch
    return f"[U+{ord(ch):04X}]"  # anything else is shown by code point, never passed to TeX raw


def tex_text(text: object) -> str:
    """User text for body text: escaped (texutil.latex_escape), non-ASCII made safe."""
    return "".join(_char_tex(ch) for ch in str(text))


def tex_breakable(text: object) -> str:
    """Like `tex_text`, with line-break opportunities after operators (for long labels/titles)."""
    out = []
    for ch in str(text):
        out.append(_char_tex(ch))
        if ch in _BREAK_AFTER:
            out.append(r"\allowbreak{}")
    return "".join(out)


_LONG_NUMBER = re.compile(r"\d{25,}")


def _shorten_number(match: re.Match) -> str:
    digits = match.group(0)
    value = int(digits)
    if value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    if (value + 1) & value == 0:
        return f"2^{value.bit_length()}-1"
    return f"{digits[:8]}...({len(digits)} digits)"


def tex_note(text: object) -> str:
    """A free-text note (user- or tool-written): huge integers shortened, escaped, breakable."""
    return tex_breakable(_LONG_NUMBER.sub(_shorten_number, str(text)))


def tex_tt(text: object) -> str:
    """User text in typewriter type, breakable."""
    return r"\texttt{" + tex_breakable(text) + "}"


# -- numbers ---------------------------------------------------------------------------------

_INT_DIGITS_SHOWN = 30


def tex_int(value: int) -> str:
    """An exact integer for math mode; huge ones as 2^{k} or by their leading digits."""
    value = int(value)
    if value < 0:
        return "-" + tex_int(-value)
    bits = value.bit_length()
    if bits <= 96:
        text = str(value)
        if len(text) <= _INT_DIGITS_SHOWN:
            return _group_digits(text)
    if value & (value - 1) == 0:
        return f"2^{{{bits - 1}}}"
    if bits > 12000:  # str() of such integers is limited by the interpreter: describe by size
        return rf"\approx 2^{{{math.log2(value):.3f}}}"
    text = str(value)
    return rf"{text[:8]}\dots\ (\text{{{len(text)} digits}})"


def _group_digits(text: str) -> str:
    if len(text) <= 4:
        return text
    groups = []
    while text:
        groups.append(text[-3:])
        text = text[:-3]
    return r"\,".join(reversed(groups))


def log2_int(value: int) -> float:
    """log2 of a positive integer (exact for powers of two, big integers allowed)."""
    value = int(value)
    if value <= 0:
        raise ValueError("log2 of a non-positive integer")
    if value & (value - 1) == 0:
        return float(value.bit_length() - 1)
    return math.log2(value)


def _fraction(value: object) -> Fraction:
    return value if isinstance(value, Fraction) else rational_from_json(value)


def tex_rational(value: object) -> str:
    """A JSON rational (int or "p/q") in math mode."""
    try:
        f = _fraction(value)
    except (ValueError, ZeroDivisionError):
        return r"\text{" + tex_breakable(value) + "}"
    return _frac_tex(f)


def _frac_tex(f: Fraction) -> str:
    if f.denominator == 1:
        return tex_int(f.numerator)
    sign = "-" if f < 0 else ""
    return rf"{sign}\tfrac{{{abs(f.numerator)}}}{{{f.denominator}}}"


def _frac_inline(f: Fraction) -> str:
    """A rational for exponents: 1/2 rather than \\tfrac."""
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


# sympy-syntax numbers produced by exact.Weight.to_json / t_ratio_to_json:
#   "3", "3/2", "exp(1/2)", "3*exp(1/2)", "1 + 2*exp(1/2)", "(1 + exp(2))/(3*exp(1))"

_TOKEN = re.compile(r"\s*(?:(\d+)|(exp)|(.))")


class _NumberParser:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        for m in _TOKEN.finditer(text):
            if m.group(1):
                self.tokens.append(("int", m.group(1)))
            elif m.group(2):
                self.tokens.append(("exp", "exp"))
            elif m.group(3) and m.group(3).strip():
                if m.group(3) not in "+-*/()":
                    raise ValueError(f"unexpected character {m.group(3)!r}")
                self.tokens.append(("op", m.group(3)))
        self.pos = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            raise ValueError("malformed number")
        self.pos += 1
        return tok

    def parse(self) -> tuple:
        node = self.sum()
        if self.peek() is not None:
            raise ValueError("trailing input")
        return node

    def sum(self) -> tuple:
        terms = [("+", self.product())]
        while (tok := self.peek()) is not None and tok[1] in "+-" and tok[0] == "op":
            self.take()
            terms.append((tok[1], self.product()))
        return terms[0][1] if len(terms) == 1 and terms[0][0] == "+" else ("sum", terms)

    def product(self) -> tuple:
        node = self.unary()
        while (tok := self.peek()) is not None and tok[0] == "op" and tok[1] in "*/":
            self.take()
            right = self.unary()
            node = ("mul", node, right) if tok[1] == "*" else ("div", node, right)
        return node

    def unary(self) -> tuple:
        tok = self.peek()
        if tok is not None and tok == ("op", "-"):
            self.take()
            return ("neg", self.unary())
        return self.atom()

    def atom(self) -> tuple:
        tok = self.take()
        if tok[0] == "int":
            return ("num", Fraction(int(tok[1])))
        if tok[0] == "exp":
            self.take("(")
            inner = self.sum()
            self.take(")")
            return ("exp", inner)
        if tok == ("op", "("):
            inner = self.sum()
            self.take(")")
            return ("paren", inner)
        raise ValueError("malformed number")


def _rational_of(node: tuple) -> Fraction | None:
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "neg":
        inner = _rational_of(node[1])
        return None if inner is None else -inner
    if kind == "paren":
        return _rational_of(node[1])
    if kind in ("mul", "div"):
        a, b = _rational_of(node[1]), _rational_of(node[2])
        if a is None or b is None or (kind == "div" and b == 0):
            return None
        return a * b if kind == "mul" else a / b
    return None


def _node_tex(node: tuple) -> str:
    value = _rational_of(node)
    if value is not None:
        return _frac_tex(value)
    kind = node[0]
    if kind == "exp":
        exponent = _rational_of(node[1])
        if exponent is not None:
            return "e" if exponent == 1 else f"e^{{{_frac_inline(exponent)}}}"
        return rf"\exp\left({_node_tex(node[1])}\right)"
    if kind == "neg":
        return "-" + _node_tex(node[1])
    if kind == "paren":
        return rf"\left({_node_tex(node[1])}\right)"
    if kind == "mul":
        left, right = _node_tex(node[1]), _node_tex(node[2])
        if node[2][0] == "exp" and _rational_of(node[1]) is not None:
            return left + right  # 3e^{1/2}
        return rf"{left}\cdot {right}"
    if kind == "div":
        num = node[1][1] if node[1][0] == "paren" else node[1]
        den = node[2][1] if node[2][0] == "paren" else node[2]
        if num == den:
            return "1"  # (a)/(a): the JSON keeps the quotient unreduced
        return rf"\frac{{{_node_tex(num)}}}{{{_node_tex(den)}}}"
    if kind == "sum":
        parts = []
        for i, (sign, term) in enumerate(node[1]):
            text = _node_tex(term)
            if i == 0:
                parts.append(("-" if sign == "-" else "") + text)
            else:
                parts.append(f" {sign} {text}")
        return "".join(parts)
    raise ValueError("malformed number")


def tex_number(value: object) -> str:
    """An exact JSON number (int, "p/q", or sympy text such as "3*exp(1/2)") in math mode."""
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return _frac_tex(Fraction(value))
    if not isinstance(value, str):
        return r"\text{" + tex_breakable(value) + "}"
    try:
        return _node_tex(_NumberParser(value).parse())
    except (ValueError, ZeroDivisionError, IndexError):
        return r"\text{" + tex_breakable(value) + "}"  # shown literally, escaped


# -- keys, vectors, polynomials ----------------------------------------------------------------


def _coef_prefix(c: Fraction, first: bool) -> str:
    """Coefficient in front of a symbol: '', '-', '2', ' + 2', ' - \\tfrac12'."""
    mag = abs(c)
    body = "" if mag == 1 else _frac_tex(mag)
    if first:
        return ("-" if c < 0 else "") + body
    return (" - " if c < 0 else " + ") + body


def tex_linear(sparse: Iterable[Sequence[Any]], symbol: str = "q") -> str:
    """A sparse vector [[j (1-based), c], ...] as the linear form c q_j + … (0 when empty)."""
    parts = []
    for j, c in sorted(((int(j), _fraction(c)) for j, c in sparse), key=lambda jc: jc[0]):
        if c == 0:
            continue
        parts.append(_coef_prefix(c, not parts) + f"{symbol}_{{{j}}}")
    return "".join(parts) if parts else "0"


def tex_vector(values: Sequence[Any]) -> str:
    """A dense vector (JSON rationals) as a row vector; long ones as sparse sums of e_j."""
    if len(values) > MAX_DENSE_DIMENSION:
        return tex_linear(([j + 1, v] for j, v in enumerate(values) if _fraction(v) != 0), "e")
    return "(" + ",".join(tex_rational(v) for v in values) + ")"


def tex_key(values: Sequence[Any]) -> str:
    """A dense key in q coordinates: a vector when short, else the logit ⟨k,q⟩."""
    if len(values) > MAX_DENSE_DIMENSION:
        return tex_linear([j + 1, v] for j, v in enumerate(values) if _fraction(v) != 0)
    return tex_vector(values)


def key_header(dimension: int, name: str = "k") -> str:
    """Column header matching `tex_key`: the vector, or its logit for long keys."""
    return rf"\text{{key }}{name}" if dimension <= MAX_DENSE_DIMENSION else rf"\text{{logit }}\langle {name},q\rangle"


def _monomial(exponent: Sequence[int], names: Sequence[str]) -> str:
    parts = []
    for e, name in zip(exponent, names):
        if e == 0:
            continue
        parts.append(name if e == 1 else f"{name}^{{{e}}}")
    return " ".join(parts)


def _var_names(rank: int) -> list[str]:
    return [f"x_{{{i + 1}}}" for i in range(rank)]


def _t_coef_tex(items: list[tuple[int, Fraction]], t_scale: int) -> str:
    """Σ c_k e^{k/L} (a coefficient in Q[t^±], t = e^{1/L}), no outer sign handling."""
    parts = []
    for k, c in items:
        power = "" if k == 0 else ("e" if Fraction(k, t_scale) == 1 else f"e^{{{_frac_inline(Fraction(k, t_scale))}}}")
        if power:
            parts.append(_coef_prefix(c, not parts) + power)
        else:
            parts.append(("-" if c < 0 else "") + _frac_tex(abs(c)) if not parts else (" - " if c < 0 else " + ") + _frac_tex(abs(c)))
    return "".join(parts)


def tex_poly(poly: dict, t_scale: int, names: Sequence[str] | None = None) -> str:
    """{"nvars": n, "terms": [[exponent, coef], ...]} with last variable t = e^{1/L}.

    Terms with one x-exponent are grouped: (e^{1/3} + e^{1/2}) x_1.
    """
    nvars = int(poly["nvars"])
    names = list(names) if names is not None else _var_names(nvars - 1)
    grouped: dict[tuple[int, ...], list[tuple[int, Fraction]]] = {}
    for exponent, coef in poly["terms"]:
        c = _fraction(coef)
        if c != 0:
            grouped.setdefault(tuple(int(e) for e in exponent[:-1]), []).append((int(exponent[-1]), c))
    parts: list[str] = []
    for x_exp in sorted(grouped):
        items = sorted(grouped[x_exp])
        x_part = _monomial(x_exp, names)
        first = not parts
        if len(items) == 1:
            k, c = items[0]
            t_part = "" if k == 0 else ("e" if Fraction(k, t_scale) == 1 else f"e^{{{_frac_inline(Fraction(k, t_scale))}}}")
            symbol = " ".join(p for p in (t_part, x_part) if p)
            if symbol:
                parts.append(_coef_prefix(c, first) + symbol)
            else:
                mag = _frac_tex(abs(c))
                parts.append(("-" if c < 0 else "") + mag if first else (" - " if c < 0 else " + ") + mag)
        else:
            inner = _t_coef_tex(items, t_scale)
            body = rf"\left({inner}\right)" + (" " + x_part if x_part else "")
            parts.append(body if first else " + " + body)
    return "".join(parts) if parts else "0"


def _x_support(poly: dict) -> list[tuple[int, ...]]:
    return sorted({tuple(int(x) for x in e[:-1]) for e, c in poly["terms"] if _fraction(c) != 0})


def tex_ranges(indices: Sequence[int]) -> str:
    """1-based indices as '1--3, 5, 7--9'."""
    out: list[str] = []
    items = sorted(set(indices))
    i = 0
    while i < len(items):
        j = i
        while j + 1 < len(items) and items[j + 1] == items[j] + 1:
            j += 1
        out.append(str(items[i]) if i == j else f"{items[i]}--{items[j]}")
        i = j + 1
    return ", ".join(out)


# -- sections ------------------------------------------------------------------------------


def _claims_by_id(cert: dict) -> dict[str, dict]:
    return {c["id"]: c for c in cert.get("claims", [])}


def _heads_context(cert: dict) -> dict:
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


MAX_FACTORED_BLOCKS = 8
MAX_FACTOR_TERMS = 12


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


def _exp_form_context(cert: dict, claims: dict[str, dict]) -> dict | None:
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


def _construction_context(claims: dict[str, dict]) -> dict | None:
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


def _newton_context(claims: dict[str, dict]) -> dict | None:
    claim = claims.get("lower:newton")
    if claim is None:
        return None
    ev = claim["evidence"]
    listed = ev.get("vertex_witnesses", [])
    rows = []
    for w in listed[:MAX_VERTEX_ROWS]:
        try:
            value = sum(_fraction(c) * _fraction(v) for c, v in zip(w["witness"], w["vertex"]))
            pairing = _frac_tex(value)
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
        a = scale * (_fraction(v1) - _fraction(v0))
        if a == 0:
            return None
        diff: dict[int, Fraction] = {}
        for j, v in k1:
            diff[int(j)] = diff.get(int(j), Fraction(0)) + _fraction(v)
        for j, v in k0:
            diff[int(j)] = diff.get(int(j), Fraction(0)) - _fraction(v)
        arg = tex_linear([[j, v] for j, v in diff.items() if v])
        ratio = _fraction(c1) / _fraction(c0)
        shift = _fraction(e1) - _fraction(e0)
        if ratio != 1:
            arg += rf" + \log {_frac_tex(ratio)}" if ratio.denominator == 1 else rf" + \log{_frac_tex(ratio)}"
        if shift != 0:
            arg += (" - " if shift < 0 else " + ") + _frac_tex(abs(shift))
        return _coef_prefix(a, True) + rf"\sigma({arg})"
    keys = ", ".join(tex_linear(k) for k, *_ in atoms[:4]) + (r", \dots" if len(atoms) > 4 else "")
    prefix = "" if scale == 1 else _frac_tex(scale)
    return prefix + rf"\mathsf{{H}}_{{{len(atoms)}}}\langle {keys}\rangle"


def tex_face_form(form: list) -> str:
    """A canonical form (list of [scale, atoms]) as a sum of heads, up to constants."""
    parts = []
    for scale, atoms in form:
        text = _face_head_tex(_fraction(scale), atoms)
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


def _faces_context(cert: dict, claims: dict[str, dict]) -> dict:
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


def _flat_text(value: object, limit: int = 80) -> str:
    """A short escaped rendering of a JSON value (scalars, flat lists and dicts)."""
    if isinstance(value, dict):
        text = ", ".join(f"{k} {_plain(value[k])}" for k in sorted(value))
    elif isinstance(value, list):
        text = ", ".join(_plain(v) for v in value)
    else:
        text = _plain(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return tex_breakable(text)


def _plain(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "on", False: "off", None: "none"}[value]
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return str(value)


def _sha_tex(sha: object) -> str:
    text = str(sha or "")
    return r"\allowbreak{}".join(tex_text(text[i : i + 16]) for i in range(0, len(text), 16)) or "--"


def _box_shape_tex(shape: list) -> str:
    sizes = [int(n) for n in shape]
    if sizes and all(n == sizes[0] for n in sizes) and len(sizes) > 1:
        return rf"\{{0,\dots,{sizes[0] - 1}\}}^{{{len(sizes)}}}"
    return r"\times ".join(rf"\{{0,\dots,{n - 1}\}}" for n in sizes)


def _points(value: object) -> str:
    return f"{tex_text(value)} point" + ("" if value == 1 else "s")


def _box_text(box: object) -> str:
    """The L3 box of a search: {0,…,a}×… with its number of points (and the cofactor box)."""
    if isinstance(box, dict) and isinstance(box.get("shape"), list):
        text = "$" + _box_shape_tex(box["shape"]) + "$"
        if "points" in box:
            text += f" ({_points(box['points'])})"
        if isinstance(box.get("cofactor_shape"), list):
            text += "; cofactor box $" + _box_shape_tex(box["cofactor_shape"]) + "$"
            if "cofactor_points" in box:
                text += f" ({_points(box['cofactor_points'])})"
        return text
    if box is None:
        return "--"
    return r"\texttt{" + _flat_text(box, 120) + "}"


_SEARCH_SHOWN = {"status", "atoms", "solver", "query_sha256", "box", "head", "encoding", "smt2_file", "cross_check", "reason"}


def _search_context(claims_list: list[dict]) -> list[dict]:
    out = []
    for claim in claims_list:
        if claim.get("kind") != "search":
            continue
        ev = claim.get("evidence", {})
        solver = ev.get("solver", {}) or {}
        status = str(ev.get("status", ""))
        extra = [
            {"key": tex_text(key), "value": _flat_text(ev[key])}
            for key in sorted(ev)
            if key not in _SEARCH_SHOWN and (isinstance(ev[key], (str, int, float, bool, dict, list)) or ev[key] is None)
        ]
        cross = ev.get("cross_check")
        cross_text = None
        if isinstance(cross, dict):
            name = tex_text(cross.get("solver", "second solver"))
            version = tex_text(cross.get("version", ""))
            cstatus = str(cross.get("status", "?"))
            if cstatus in ("sat", "unsat", "unknown"):
                cross_text = rf"{name} {version} reports \emph{{{tex_text(cstatus)}}} on the same query"
                if cross.get("query_sha256"):
                    cross_text += rf" (portable dialect, SHA-256 \texttt{{{_sha_tex(cross['query_sha256'])}}})"
            else:
                cross_text = rf"{name}: {tex_text(cstatus)}"
                if cross.get("reason"):
                    cross_text += f" ({tex_breakable(cross['reason'])})"
        head = ev.get("head") if isinstance(ev.get("head"), dict) else None
        head_rows = []
        if head and isinstance(head.get("atoms_list"), list):
            head_rows = [
                {"key": tex_key(a["key"]), "weight": tex_number(a["weight"]), "value": tex_number(a["value"])}
                for a in head["atoms_list"][:MAX_ATOM_ROWS]
            ]
        out.append(
            {
                "id": tex_text(claim["id"]),
                "atoms": tex_text(ev.get("atoms", "?")),
                "status": tex_text(status),
                "status_raw": status,
                "solver": tex_text(solver.get("name", "solver")),
                "version": tex_text(solver.get("version", "?")),
                "box": _box_text(ev.get("box")),
                "sha": _sha_tex(ev.get("query_sha256")),
                "file": tex_tt(ev["smt2_file"]) if ev.get("smt2_file") else None,
                "encoding": tex_text(ev["encoding"]) if ev.get("encoding") is not None else None,
                "reason": tex_breakable(ev["reason"]) if ev.get("reason") else None,
                "cross": cross_text,
                "head_rows": head_rows,
                "head_more": max(0, len(head["atoms_list"]) - MAX_ATOM_ROWS) if head_rows else 0,
                "head_checked": bool(head.get("checked_exactly")) if head else False,
                "extra": extra,
                "statement": math_safe_statement(claim.get("statement", "")),
            }
        )
    return out


def dag_layout(claims_list: list[dict]) -> dict:
    """Deterministic layered layout of the claims DAG (left to right).

    Layer = longest path from a source (claims without dependencies).  Within a layer,
    nodes are ordered by the mean position of their dependencies (barycentre), ties by
    the order of the claims list; layers are centred vertically.
    """
    ids = [c["id"] for c in claims_list]
    index = {cid: i for i, cid in enumerate(ids)}
    deps_of = {c["id"]: [d for d in c.get("depends_on", []) if d in index] for c in claims_list}
    layer: dict[str, int] = {}

    def depth(cid: str, stack: tuple = ()) -> int:
        if cid in layer:
            return layer[cid]
        if cid in stack:
            raise RenderError(f"the claims graph has a cycle through {cid}")
        deps = deps_of[cid]
        value = 0 if not deps else 1 + max(depth(d, stack + (cid,)) for d in deps)
        layer[cid] = value
        return value

    for cid in ids:
        depth(cid)
    layers: dict[int, list[str]] = {}
    for cid in ids:
        layers.setdefault(layer[cid], []).append(cid)
    nlayers = max(layers) + 1 if layers else 0
    tallest = max((len(v) for v in layers.values()), default=1)
    users_of: dict[str, list[str]] = {cid: [] for cid in ids}
    for cid in ids:
        for d in deps_of[cid]:
            users_of[d].append(cid)
    y_of: dict[str, float] = {}

    def sweep() -> None:
        for lay in range(nlayers):
            members = layers.get(lay, [])
            if lay > 0:
                members = sorted(
                    members, key=lambda cid: (sum(y_of[d] for d in deps_of[cid]) / len(deps_of[cid]), index[cid])
                )
                layers[lay] = members
            offset = (tallest - len(members)) / 2
            for pos, cid in enumerate(members):
                y_of[cid] = offset + pos

    sweep()
    # sources next to the claims that use them (those without users last), then lay out again
    layers[0] = sorted(
        layers.get(0, []),
        key=lambda cid: (
            0 if users_of[cid] else 1,
            sum(y_of[u] for u in users_of[cid]) / len(users_of[cid]) if users_of[cid] else 0.0,
            index[cid],
        ),
    )
    sweep()
    nodes = []
    for cid in ids:
        lay = layer[cid]
        x, y = lay * 3.6, -y_of[cid] * 0.9
        nodes.append(
            {
                "name": f"n{index[cid]}",
                "place": f"(n{index[cid]}) at ({x:.2f},{y:.2f})",
                "label": tex_text(cid),
                "layer": lay,
                "kind": claims_list[index[cid]].get("kind", ""),
            }
        )
    edges = []
    for c in claims_list:
        for d in deps_of[c["id"]]:
            src, dst = f"n{index[d]}", f"n{index[c['id']]}"
            edges.append({"src": src, "dst": dst, "path": f"({src}.east) to[out=0,in=180] ({dst}.west)"})
    longest = max((len(c["id"]) for c in claims_list), default=4)
    return {"nodes": nodes, "edges": edges, "layers": nlayers, "width": f"{min(3.0, 0.2 * longest + 0.3):.1f}"}


def _series_context(cert: dict) -> dict | None:
    series = cert.get("series")
    if not series:
        return None
    out: dict[str, Any] = {}
    items = sorted(series, key=lambda s: int(s["d"]))
    ds = [int(item["d"]) for item in items]
    out["xlog"] = bool(ds) and min(ds) >= 1 and max(ds) > 16 * min(ds)
    for name in ("head_atom_terms", "lower_bound", "upper_bound"):
        coords = []
        for item in items:
            value = item.get(name)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                coords.append(f"({int(item['d'])},{log2_int(value):.4f})")
        out[name] = " ".join(coords)
    return out


_TEXT_MODE_MATH = re.compile(r"\d+\^\{\d+\}|\d+\\dots\\ \(\d+\\text\{ digits\}\)")


def math_safe_statement(statement: str) -> str:
    r"""A claim statement with big-number notation that sits in text mode (2^{1000}) put in math mode.

    proof.py writes large counts as `2^{k}` or `digits\dots\ (n\text{ digits})`, which need math
    mode; statements that place them in running text would not compile.  Only text-mode
    segments (outside unescaped $...$) are touched.
    """
    parts = re.split(r"(?<!\\)(\$)", statement)
    out, in_math = [], False
    for part in parts:
        if part == "$":
            in_math = not in_math
            out.append(part)
        elif in_math:
            out.append(part)
        else:
            out.append(_TEXT_MODE_MATH.sub(lambda m: "$" + m.group(0) + "$", part))
    return "".join(out)


def _claim_rows(claims_list: list[dict]) -> list[dict]:
    return [
        {
            "id": tex_text(c["id"]),
            "title": tex_text(c.get("title", "")),
            "kind": tex_text(c.get("kind", "")),
            "statement": math_safe_statement(c.get("statement", "")),
            "check": tex_text(c.get("check", "")),
            "deps": ", ".join(r"\texttt{" + tex_text(d) + "}" for d in c.get("depends_on", [])),
            "is_lemma": c.get("kind") == "lemma",
        }
        for c in claims_list
    ]


def _lemma_name(title: str) -> str:
    """'Lemma L1 (Merge)' -> 'Merge'."""
    m = re.search(r"\(([^()]*)\)\s*$", title)
    return m.group(1) if m else title


def build_context(cert: dict) -> dict:
    """Everything the template needs, as LaTeX snippets (pure function of the certificate)."""
    claims_list = list(cert.get("claims", []))
    claims = _claims_by_id(cert)
    summary = cert.get("summary", {})
    spec = cert.get("spec", {})
    theorem = claims.get("theorem", {})
    status = summary.get("status", theorem.get("evidence", {}).get("status", "bounds"))
    lower, upper = summary.get("lower_bound"), summary.get("upper_bound")
    solver_lower = theorem.get("evidence", {}).get("solver_lower")
    lemmas = [
        {
            "id": tex_text(c.get("evidence", {}).get("lemma", c["id"])),
            "title": tex_text(c.get("title", "")),
            "name": tex_text(_lemma_name(c.get("title", ""))),
            "statement": math_safe_statement(c["statement"]),
        }
        for c in claims_list
        if c.get("kind") == "lemma"
    ]
    metadata = cert.get("metadata", {})
    command = metadata.get("command", [])
    command_text = " ".join(shlex.quote(str(x)) for x in command) if isinstance(command, list) else str(command)
    versions = metadata.get("versions", {})
    slug = sanitize_slug(spec.get("slug", "certificate"))
    d = spec.get("d")
    return {
        "title": tex_breakable(spec.get("title", "")),
        "spec_text": tex_tt(spec.get("text", "")),
        "spec_kind": tex_text(spec.get("kind", "")),
        "spec_d": d,
        "slug": tex_text(slug),
        "slug_raw": slug,
        "format": tex_text(cert.get("format", "")),
        "status": status,
        "minimum": tex_int(summary["minimum"]) if summary.get("minimum") is not None else None,
        "lower": tex_int(lower) if lower is not None else None,
        "upper": tex_int(upper) if upper is not None else None,
        "solver_lower": tex_int(solver_lower) if solver_lower is not None else None,
        "search_lower": tex_int(max(lower or 0, solver_lower or 0)),
        "head_atom_terms": tex_int(summary.get("head_atom_terms", 0)),
        "nheads": tex_int(summary.get("heads", 0)),
        "dimension": tex_int(summary.get("dimension", 0)),
        "theorem_statement": math_safe_statement(theorem.get("statement", "")),
        "lemmas": lemmas,
        "lemma_ids": [lm["id"] for lm in lemmas],
        "heads": _heads_context(cert),
        "exp": _exp_form_context(cert, claims),
        "construction": _construction_context(claims),
        "newton": _newton_context(claims),
        "faces": _faces_context(cert, claims),
        "search": _search_context(claims_list),
        "search_note": tex_note(summary["search_note"]) if summary.get("search_note") else None,
        "claims": _claim_rows(claims_list),
        "claim_statements": {c["id"]: c.get("statement", "") for c in claims_list},
        "dag": dag_layout(claims_list),
        "series": _series_context(cert),
        "command": tex_breakable(command_text).replace("'", r"\textquotesingle{}").replace("`", r"\textasciigrave{}"),
        "versions": [{"name": tex_text(k), "version": tex_text(versions[k])} for k in sorted(versions)],
        "model_sha256": tex_text(claims.get("def:F", {}).get("evidence", {}).get("model_sha256", "")),
    }


# -- template --------------------------------------------------------------------------------

TEMPLATE_NAME = "certificate.tex.j2"


def _load_template(name: str) -> str:
    return resources.files("headfusion.templates").joinpath(name).read_text(encoding="utf-8")


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load_template),
        block_start_string="((*",
        block_end_string="*))",
        variable_start_string="(((",
        variable_end_string=")))",
        comment_start_string="((=",
        comment_end_string="=))",
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["e"] = latex_escape
    env.filters["latex_escape"] = latex_escape
    env.filters["tt"] = tex_tt
    return env


def render_latex(cert: dict) -> str:
    """The certificate as a LaTeX document (pure and deterministic)."""
    try:
        context = build_context(cert)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RenderError(f"malformed certificate: {type(exc).__name__}: {exc}") from None
    return _environment().get_template(TEMPLATE_NAME).render(**context)


# -- files and PDF -------------------------------------------------------------------------------

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


def sanitize_slug(slug: object) -> str:
    """A file-name-safe slug: [A-Za-z0-9_.-] only, no leading dot, never empty."""
    text = _SAFE.sub("_", str(slug)).lstrip(".")
    return text[:120] or "certificate"


def latex_engine() -> str | None:
    """"latexmk" or "pdflatex" when found on PATH, else None."""
    if shutil.which("pdflatex") is None:
        return None
    return "latexmk" if shutil.which("latexmk") is not None else "pdflatex"


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _first_latex_error(log: str) -> str:
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("!"):
            where = next((l.strip() for l in lines[i + 1 : i + 12] if re.match(r"l\.\d+", l)), "")
            return " ".join((line + (" (" + where + ")" if where else "")).split())
    return ""


def compile_pdf(tex_path: Path, engine: str) -> Path:
    """Compile tex_path (in its own directory) and return the PDF path; RenderError on failure."""
    workdir = tex_path.parent
    env = dict(os.environ)
    env.setdefault("SOURCE_DATE_EPOCH", "0")  # reproducible PDF dates
    env.setdefault("FORCE_SOURCE_DATE", "1")
    if engine == "latexmk":
        commands = [["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", tex_path.name]]
    else:
        commands = [["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex_path.name]] * 2
    for command in commands:
        try:
            proc = subprocess.run(
                command, cwd=workdir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                timeout=LATEX_TIMEOUT, env=env, check=False,
            )
        except subprocess.TimeoutExpired:
            raise RenderError(f"{command[0]} did not finish within {LATEX_TIMEOUT} s") from None
        except OSError as exc:
            raise RenderError(f"cannot run {command[0]}: {exc}") from None
        if proc.returncode != 0:
            log_path = tex_path.with_suffix(".log")
            log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
            error = _first_latex_error(log) or _first_latex_error(proc.stdout.decode("utf-8", "replace"))
            raise RenderError(f"LaTeX failed on {tex_path.name}: {error or f'{command[0]} exited with {proc.returncode}'}")
    pdf = tex_path.with_suffix(".pdf")
    if not pdf.exists():
        raise RenderError(f"{engine} produced no PDF for {tex_path.name}")
    return pdf


def write_certificate(
    cert: dict,
    out_dir: Path,
    extra_files: dict[str, str] | None = None,
    pdf: bool | None = None,
) -> dict[str, Path]:
    """Write <slug>.json, <slug>.tex, extra files and (optionally) <slug>.pdf into out_dir.

    Returns {"json": path, "tex": path, "pdf": path (when built), <extra name>: path, ...}.
    pdf=None builds the PDF when an engine is present, pdf=True requires it, pdf=False skips it.
    Every file is written atomically (temporary file in out_dir, then os.replace).
    """
    out_dir = Path(out_dir)
    slug = sanitize_slug(cert.get("spec", {}).get("slug", "certificate"))
    engine = latex_engine()
    if pdf is True and engine is None:
        raise RenderError(f"no LaTeX engine found: {INSTALL_HINT}")
    extra = dict(extra_files or {})
    for name in extra:
        if not isinstance(name, str) or _SAFE.search(name) or name.startswith(".") or not name:
            raise RenderError(f"unsafe extra file name: {name!r}")
        if name in (f"{slug}.json", f"{slug}.tex", f"{slug}.pdf"):
            raise RenderError(f"extra file name clashes with the certificate: {name}")
    tex = render_latex(cert)  # render before writing anything: no half-written certificate
    json_text = json.dumps(cert, indent=1) + "\n"
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    pdf_bytes: bytes | None = None
    if pdf is not False and engine is not None:
        with tempfile.TemporaryDirectory(prefix="headfusion-tex-") as tmp:
            tex_path = Path(tmp) / f"{slug}.tex"
            tex_path.write_text(tex, encoding="utf-8")
            pdf_bytes = compile_pdf(tex_path, engine).read_bytes()
    paths = {"json": out_dir / f"{slug}.json", "tex": out_dir / f"{slug}.tex"}
    _atomic_write(paths["json"], json_text.encode("utf-8"))
    written["json"] = paths["json"]
    _atomic_write(paths["tex"], tex.encode("utf-8"))
    written["tex"] = paths["tex"]
    for name in sorted(extra):
        path = out_dir / name
        _atomic_write(path, extra[name].encode("utf-8"))
        written[name] = path
    if pdf_bytes is not None:
        path = out_dir / f"{slug}.pdf"
        _atomic_write(path, pdf_bytes)
        written["pdf"] = path
    return written


# -- explore tables and plots ---------------------------------------------------------------

EXPLORE_COLUMNS = ("d", "heads", "head_atom_terms", "lower_bound", "lower_bound_method", "upper_bound", "minimum",
                   "decided_by", "search_note")


def explore_pgfplots(rows: list[dict], title: str) -> str:
    """A tikzpicture (pgfplots, log2 scale) of cost and single-head bounds over d, \\input-able anywhere."""
    def series(key: str) -> str:
        points = [f"({r['d']},{log2_int(r[key]):.4f})" for r in rows if r.get(key)]
        return " ".join(points)

    lines = [
        r"\begin{tikzpicture}",
        r"\begin{axis}[width=11cm,height=7cm,xlabel={$d$},ylabel={$\log_2$ atoms},legend pos=north west,"
        r"title={" + latex_escape(title) + r"},xtick=data,grid=major]",
        r"\addplot[blue,mark=*] coordinates {" + series("head_atom_terms") + r"};",
        r"\addlegendentry{multi-head: head-atom terms}",
        r"\addplot[red,mark=square*] coordinates {" + series("upper_bound") + r"};",
        r"\addlegendentry{single head: upper bound}",
        r"\addplot[black,dashed,mark=triangle*] coordinates {" + series("lower_bound") + r"};",
        r"\addlegendentry{single head: lower bound}",
    ]
    decided = series("minimum")
    if decided:
        lines += [r"\addplot[only marks,mark=o,mark size=4pt,green!50!black] coordinates {" + decided + r"};",
                  r"\addlegendentry{minimum $m^*$ (decided)}"]
    lines += [r"\end{axis}", r"\end{tikzpicture}", ""]
    return "\n".join(lines)


def write_explore(rows: list[dict], out_dir: Path, slug: str, title: str, png: bool = True) -> dict[str, Path]:
    """Write <slug>.explore.{csv,json}, the pgfplots figure (.pgf.tex) and, with a LaTeX engine, PDF and PNG."""
    import csv
    import io

    out_dir.mkdir(parents=True, exist_ok=True)
    slug = sanitize_slug(slug)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(EXPLORE_COLUMNS)
    for row in rows:
        writer.writerow(["" if row.get(c) is None else row[c] for c in EXPLORE_COLUMNS])
    figure = explore_pgfplots(rows, title)
    files = {
        "csv": (out_dir / f"{slug}.explore.csv", buffer.getvalue()),
        "json": (out_dir / f"{slug}.explore.json", json.dumps({"title": title, "rows": rows}, indent=1) + "\n"),
        "pgfplots": (out_dir / f"{slug}.explore.pgf.tex", figure),
    }
    paths: dict[str, Path] = {}
    for kind, (path, text) in files.items():
        _atomic_write(path, text.encode("utf-8"))
        paths[kind] = path
    engine = latex_engine()
    if png and engine is not None:
        document = "\n".join([
            r"\documentclass{article}",
            r"\usepackage[paperwidth=12.5cm,paperheight=8.5cm,margin=2mm]{geometry}",
            r"\usepackage{pgfplots}\pgfplotsset{compat=1.16}\pagestyle{empty}",
            r"\begin{document}\centering", figure, r"\end{document}", "",
        ])
        with tempfile.TemporaryDirectory() as tmp:
            tex = Path(tmp) / f"{slug}.explore.tex"
            tex.write_text(document, encoding="utf-8")
            pdf = compile_pdf(tex, engine)
            _atomic_write(out_dir / pdf.name, pdf.read_bytes())
            paths["pdf"] = out_dir / pdf.name
            if shutil.which("pdftoppm"):
                subprocess.run(["pdftoppm", "-png", "-r", "110", "-singlefile", str(pdf), str(Path(tmp) / "plot")],
                               check=True, stdin=subprocess.DEVNULL, capture_output=True, timeout=LATEX_TIMEOUT)
                png_path = out_dir / f"{slug}.explore.png"
                _atomic_write(png_path, (Path(tmp) / "plot.png").read_bytes())
                paths["png"] = png_path
    return paths
