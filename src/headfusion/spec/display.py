"""What a reader is shown of a spec: the author's text made printable, the function in canonical form.

Statement layer (standard library only).  A title or a head label is the author's text:
`printable` removes terminal escape sequences and every control, format or separator
character (carriage returns, ANSI colours, bidi overrides) and folds whitespace, so a
terminal, a JSON file and a LaTeX page show the same text, and nothing can hide or redraw
a line.  `function_text` writes the function from the parsed model, never from the
author's text: the expression language of the command line, which re-parses to the same
model (tests check the round trip).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from headfusion.spec.model import Head, MultiHead

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-character escapes, 8-bit CSI
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -~]|\x9b[0-?]*[ -/]*[@-~]")


def printable(text: str) -> str:
    """`text` without escape sequences or control/format characters; whitespace runs become one space."""
    text = _ESCAPES.sub("", str(text))
    kept = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())


def _number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _times(c: Fraction, what: str) -> str:
    return what if c == 1 else f"-{what}" if c == -1 else f"{_number(c)}*{what}"


def _signed(parts: list[str]) -> str:
    """Terms joined by + (a term that starts with a minus sign joined by −)."""
    text = " + ".join(parts)
    return text.replace("+ -", "- ")


def _logit(key: tuple, coef: Fraction, bias: Fraction) -> str:
    """⟨k, q⟩ + bias + log(coef): the logit of an atom of weight coef·e^bias."""
    parts = [_times(c, f"q{j + 1}") for j, c in key]
    parts += [_number(bias)] if bias else []
    parts += [f"log({_number(coef)})"] if coef != 1 else []
    return _signed(parts) or "0"


def head_text(head: Head) -> str:
    """One head: sigmoid(ℓ) or tanh(ℓ) when it has that shape, else attn([logits], [values])."""
    atoms = head.atoms
    if len(atoms) == 2 and not atoms[1].key and atoms[1].weight.coef == 1 and not atoms[1].weight.exponent:
        top = atoms[0]
        if (top.value, atoms[1].value) == (1, 0):
            return f"sigmoid({_logit(top.key, top.weight.coef, top.weight.exponent)})"
        if (top.value, atoms[1].value) == (1, -1) and top.weight.coef == 1:  # tanh(ℓ) = σ(2ℓ)·2 − 1
            return f"tanh({_logit(tuple((j, c / 2) for j, c in top.key), Fraction(1), top.weight.exponent / 2)})"
    logits = ", ".join(_logit(a.key, a.weight.coef, a.weight.exponent) for a in atoms)
    return f"attn([{logits}], [{', '.join(_number(a.value) for a in atoms)}])"


def function_text(model: MultiHead, limit: int = 160) -> str:
    """F in canonical form: Σ scale·head + constant, cut after about `limit` characters."""
    parts: list[str] = []
    length = 0
    for i, (scale, head) in enumerate(zip(model.scales, model.heads)):
        if length > limit:
            more = len(model.heads) - i
            return _signed(parts) + f" + ... ({more} more head{'s' if more > 1 else ''})"
        parts.append(_times(scale, head_text(head)))
        length += len(parts[-1]) + 3
    parts += [_number(model.constant)] if model.constant else []
    text = _signed(parts)
    return text if len(text) <= limit + 200 else text[:limit] + f" ... ({len(text)} characters)"
