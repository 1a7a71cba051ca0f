"""LaTeX escaping for anything that came from a user (spec text, titles, labels)."""

from __future__ import annotations

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
}


def latex_escape(text: object) -> str:
    """Text made safe for LaTeX body text: every special character is neutralised."""
    out = "".join(_SPECIALS.get(ch, ch) for ch in str(text))
    # non-ASCII stays (inputenc utf8), but control characters never reach TeX
    return "".join(ch for ch in out if ch >= " " or ch == "\n")
