"""User-written formulas (titles, expression specs) typeset in math mode, safely.

`formula_tex` reads a title such as "W_3(q) = sigmoid(q_1) + ... + sigmoid(q_3)" or an expression
such as "sigmoid(q1) + sigmoid(2*q1)" token by token and writes LaTeX math: sigmoid → \\sigma,
tanh → \\tanh, attn → \\operatorname{attn}, log → \\log, q1 and q_1 → q_{1}, W_3 → W_{3}, "..." → \\dots.
Only whitelisted tokens (letters, digits, operators, brackets) are written; any other
character makes it return None, and the caller shows the text escaped in text mode instead.
So raw user text never reaches math mode.  Long sums are cut to their first and last terms.
"""

from __future__ import annotations

import re

MAX_TERMS = 8  # top-level terms of one side of an equation shown before cutting
KEEP_HEAD, KEEP_TAIL = 3, 2  # terms kept at the front and the end of a cut sum
MAX_TOKENS = 400  # longer texts are not typeset as formulas

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<name>[A-Za-z]+\d*(?:_(?:\{?[A-Za-z0-9]+\}?))?)"
    r"|(?P<op>\*\*|\.\.\.|…|[-+*/^=(),\[\]σ−·]))"
)
_FUNCTIONS = {"sigmoid": r"\sigma", "σ": r"\sigma", "tanh": r"\tanh", "attn": r"\operatorname{attn}", "log": r"\log", "exp": r"\exp"}
_OPS = {"+": "+", "-": "-", "−": "-", "=": "=", "(": "(", ")": ")", "[": "[", "]": "]", ",": ",", "/": "/", "...": r"\dots", "…": r"\dots", "·": r"\cdot "}


def _tokens(text: str) -> list[tuple[str, str]] | None:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        if len(out) > MAX_TOKENS:
            return None
    return out


def _name_tex(name: str) -> str:
    if name in _FUNCTIONS:
        return _FUNCTIONS[name]
    m = re.fullmatch(r"q_?\{?(\d+)\}?", name)
    if m:
        return f"q_{{{int(m.group(1))}}}"
    base, _, sub = name.partition("_")
    body = base if len(base) == 1 else rf"\mathrm{{{base}}}"
    if sub:
        sub = sub.strip("{}")
        body += f"_{{{sub}}}"
    return body


def _split_terms(tokens: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Top-level (bracket depth 0) terms, each starting with its sign when it has one."""
    terms: list[list[tuple[str, str]]] = [[]]
    depth = 0
    for tok in tokens:
        if tok[1] in "([":
            depth += 1
        elif tok[1] in ")]":
            depth -= 1
        if depth == 0 and tok[0] == "op" and tok[1] in ("+", "-", "−") and terms[-1]:
            terms.append([])
        terms[-1].append(tok)
    return terms


def _cut(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    terms = _split_terms(tokens)
    if len(terms) <= MAX_TERMS:
        return tokens
    out = [t for term in terms[:KEEP_HEAD] for t in term] + [("op", "+"), ("op", "...")]
    return out + [t for term in terms[-KEEP_TAIL:] for t in term]


def formula_tex(text: object) -> str | None:
    """Math-mode LaTeX for a formula written in the expression language (None when it is not one)."""
    if not isinstance(text, str) or not text.strip():
        return None
    tokens = _tokens(text)
    if not tokens:
        return None
    depth = 0
    for _, value in tokens:
        depth += value in "([" and 1 or 0
        depth -= value in ")]" and 1 or 0
        if depth < 0:
            return None
    if depth != 0:
        return None
    sides: list[list[tuple[str, str]]] = [[]]
    for tok in tokens:
        if tok == ("op", "="):
            sides.append([])
        else:
            sides[-1].append(tok)
    pieces = []
    for side in sides:
        piece = _side_tex(_cut(side))
        if piece is None:
            return None
        pieces.append(piece)
    return "=".join(pieces)


def _side_tex(tokens: list[tuple[str, str]]) -> str | None:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if kind == "num":
            out.append(value)
        elif kind == "name":
            out.append(_name_tex(value))
        elif value in ("*",):
            prev = tokens[i - 1] if i else None
            if prev is not None and prev[0] == "num" and nxt is not None and (nxt[0] == "name" or nxt[1] in "(σ"):
                pass  # 2*q1 -> 2q_{1}
            else:
                out.append(r"\cdot ")
        elif value in ("**", "^"):
            if nxt is None or nxt[0] not in ("num", "name"):
                return None
            out.append("^{" + (nxt[1] if nxt[0] == "num" else _name_tex(nxt[1])) + "}")
            i += 1
        elif value in _OPS:
            out.append(_OPS[value])
        elif value == "σ":
            out.append(r"\sigma")
        else:
            return None
        i += 1
    return "".join(out)
