"""LaTeX-safe text and exact numbers: the snippets every part of a certificate is built from.

Text that came from a user (spec text, titles, head labels, the command line) is escaped by
`latex_escape`/`tex_text` (non-ASCII made safe too), so it can never run as TeX.  Exact JSON
numbers (ints, "p/q", sympy text such as "3*exp(1/2)") become math-mode LaTeX, huge integers
shown as 2^{k} or by their leading digits; keys, vectors and polynomials in Q[x, t^±] are
written out term by term.  Everything here is pure: strings in, strings out.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Iterable, Sequence

from headfusion.spec.numbers import rational_from_json

MAX_DENSE_DIMENSION = 8  # keys as vectors up to this dimension, else as sparse sums


# -- user text ------------------------------------------------------------------------------

_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "%": r"\%",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "[": "{[}",  # braced: after \\ or a macro a bare [ would open an optional argument
    "]": "{]}",
}


ROW_SLACK = 4  # a table cut at a cap prints these few rows too rather than end in "… 1 more"


def rows_shown(total: int, cap: int) -> int:
    """How many of `total` rows a table prints under `cap`: all of them when at most ROW_SLACK would be left over."""
    return total if total <= cap + ROW_SLACK else cap


def latex_escape(text: object) -> str:
    """Text made safe for LaTeX body text: every special character is neutralised."""
    out = "".join(_SPECIALS.get(ch, ch) for ch in str(text))
    # non-ASCII stays (inputenc utf8), but control characters never reach TeX
    return "".join(ch for ch in out if ch >= " " or ch == "\n")


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
    "′": r"\ensuremath{'}",
    "Λ": r"\ensuremath{\Lambda}",
    "∈": r"\ensuremath{\in}",
    "≠": r"\ensuremath{\ne}",
    "§": r"\S{}",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
}
_BREAK_AFTER = set("+-*/,= ")


def _char_tex(ch: str) -> str:
    if ch in "\t\n\r":
        return " "
    if ord(ch) < 32 or ord(ch) == 127:  # control characters never reach TeX
        return f"{{[}}U+{ord(ch):04X}{{]}}"
    if ord(ch) < 128:
        return latex_escape(ch)
    if ch in _UNICODE_TEX:
        return _UNICODE_TEX[ch]
    if ch.isalpha() and ord(ch) < 0x180:  # Latin-1 and Latin Extended-A letters: T1 + utf8 handle them
        return ch
    return f"{{[}}U+{ord(ch):04X}{{]}}"  # anything else is shown by code point, never passed to TeX raw


def tex_text(text: object) -> str:
    """User text for body text: escaped (`latex_escape`), non-ASCII made safe."""
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


def as_fraction(value: object) -> Fraction:
    """A JSON rational (int or "p/q") or a Fraction, as a Fraction."""
    return value if isinstance(value, Fraction) else rational_from_json(value)


def tex_rational(value: object) -> str:
    """A JSON rational (int or "p/q") in math mode."""
    try:
        f = as_fraction(value)
    except (ValueError, ZeroDivisionError):
        return r"\text{" + tex_breakable(value) + "}"
    return frac_tex(f)


def frac_tex(f: Fraction) -> str:
    """A Fraction in math mode: an integer as `tex_int`, else \\tfrac{p}{q}."""
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
        return frac_tex(value)
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
        return frac_tex(Fraction(value))
    if not isinstance(value, str):
        return r"\text{" + tex_breakable(value) + "}"
    try:
        return _node_tex(_NumberParser(value).parse())
    except (ValueError, ZeroDivisionError, IndexError):
        return r"\text{" + tex_breakable(value) + "}"  # shown literally, escaped


# -- keys, vectors, polynomials ----------------------------------------------------------------


def coef_prefix(c: Fraction, first: bool) -> str:
    """Coefficient in front of a symbol: '', '-', '2', ' + 2', ' - \\tfrac12'."""
    mag = abs(c)
    body = "" if mag == 1 else frac_tex(mag)
    if first:
        return ("-" if c < 0 else "") + body
    return (" - " if c < 0 else " + ") + body


def tex_linear(sparse: Iterable[Sequence[Any]], symbol: str = "q") -> str:
    """A sparse vector [[j (1-based), c], ...] as the linear form c q_j + … (0 when empty)."""
    parts = []
    for j, c in sorted(((int(j), as_fraction(c)) for j, c in sparse), key=lambda jc: jc[0]):
        if c == 0:
            continue
        parts.append(coef_prefix(c, not parts) + f"{symbol}_{{{j}}}")
    return "".join(parts) if parts else "0"


def tex_vector(values: Sequence[Any]) -> str:
    """A dense vector (JSON rationals) as a row vector; long ones as sparse sums of unit vectors 1_j."""
    if len(values) > MAX_DENSE_DIMENSION:
        return tex_linear(([j + 1, v] for j, v in enumerate(values) if as_fraction(v) != 0), r"\mathbf{1}")
    return "(" + ",".join(tex_rational(v) for v in values) + ")"


def _monomial(exponent: Sequence[int], names: Sequence[str]) -> str:
    parts = []
    for e, name in zip(exponent, names):
        if e == 0:
            continue
        parts.append(name if e == 1 else f"{name}^{{{e}}}")
    return " ".join(parts)


def _var_names(rank: int) -> list[str]:
    return [f"x_{{{i + 1}}}" for i in range(rank)]


def tex_t_coef(items: list[tuple[int, Fraction]], t_scale: int) -> str:
    """Σ c_k e^{k/L} (a coefficient in Q[t^±], t = e^{1/L}), no outer sign handling."""
    parts = []
    for k, c in items:
        power = "" if k == 0 else ("e" if Fraction(k, t_scale) == 1 else f"e^{{{_frac_inline(Fraction(k, t_scale))}}}")
        if power:
            parts.append(coef_prefix(c, not parts) + power)
        else:
            parts.append(("-" if c < 0 else "") + frac_tex(abs(c)) if not parts else (" - " if c < 0 else " + ") + frac_tex(abs(c)))
    return "".join(parts)


def tex_poly(terms: Sequence[Sequence[Any]], t_scale: int, names: Sequence[str] | None = None) -> str:
    """A polynomial [[exponent, coef], ...] (certificate format) whose last variable is t = e^{1/L}.

    Terms with one x-exponent are grouped: (e^{1/3} + e^{1/2}) x_1.
    """
    if not terms:
        return "0"
    nvars = len(terms[0][0])
    names = list(names) if names is not None else _var_names(nvars - 1)
    grouped: dict[tuple[int, ...], list[tuple[int, Fraction]]] = {}
    for exponent, coef in terms:
        c = as_fraction(coef)
        if c != 0:
            grouped.setdefault(tuple(int(e) for e in exponent[:-1]), []).append((int(exponent[-1]), c))
    parts: list[str] = []
    for x_exp in sorted(grouped, key=lambda e: (sum(e), sum(map(abs, e)), [-x for x in e])):  # by degree, then x_1 before x_2
        items = sorted(grouped[x_exp])
        x_part = _monomial(x_exp, names)
        first = not parts
        if len(items) == 1:
            k, c = items[0]
            t_part = "" if k == 0 else ("e" if Fraction(k, t_scale) == 1 else f"e^{{{_frac_inline(Fraction(k, t_scale))}}}")
            symbol = " ".join(p for p in (t_part, x_part) if p)
            if symbol:
                parts.append(coef_prefix(c, first) + symbol)
            else:
                mag = frac_tex(abs(c))
                parts.append(("-" if c < 0 else "") + mag if first else (" - " if c < 0 else " + ") + mag)
        else:
            inner = tex_t_coef(items, t_scale)
            body = rf"\left({inner}\right)" + (" " + x_part if x_part else "")
            parts.append(body if first else " + " + body)
    return "".join(parts) if parts else "0"


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


# -- claim statements ------------------------------------------------------------------------

_TEXT_MODE_MATH = re.compile(r"\d+\^\{\d+\}|\d+\\dots\\ \(\d+\\text\{ digits\}\)")


def math_safe_statement(statement: str) -> str:
    r"""A claim statement with big-number notation that sits in text mode (2^{1000}) put in math mode.

    proof/claims.py writes large counts as `2^{k}` or `digits\dots\ (n\text{ digits})`, which need math
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
