"""Gallina text for the exact data of a certificate: rationals, exponents, polynomials, trees.

Every literal is written with its scope (`%Q`) or inside a file that opens Z_scope, so that Coq reads
exactly the number the certificate holds.  Every number is checked to be one (an int, or a Fraction) before it is
written: the certificate is untrusted, and a string printed as it stands would be Gallina text, not data (a tree leaf
["layer", "0). Definition mstar_ge … := True. …"] redefined m* and made coqc accept m*(F) ≥ 8 for a function with
m* = 7).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Iterable, Sequence

from headfusion.kernel.base import rational
from headfusion.spec.errors import InputError

Poly = dict[tuple[int, ...], Fraction]


def strip_t(p: dict) -> Poly:
    """A polynomial in (x, t) without its power of t, which must be 0 (rational weights only)."""
    if any(e[-1] for e in p):
        raise InputError("a polynomial with powers of t (weights e^b): not exported")
    return {e[:-1]: c for e, c in p.items()}


def comment_text(value: object, limit: int = 200) -> str:
    """Text from the certificate made safe inside a Coq comment: printable ASCII, no comment delimiters, no quotes.

    Coq lexes string literals inside comments, so a quote could swallow the comment's end; "(*" and "*)" would nest or
    close it.  What a certificate says is data: it must never become Coq commands."""
    return re.sub(r'[^\x20-\x7e]|\(\*|\*\)|"', " ", str(value))[:limit]


def number(value: object) -> int:
    """An integer from the certificate, refused (InputError) unless it is one: only numbers become Gallina literals."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"not an integer: {str(value)[:40]!r}")
    return value


def natural(value: object) -> str:
    """A natural number argument (an index of the tree's data)."""
    if number(value) < 0:
        raise InputError(f"not a natural number: {value}")
    return str(value)


def q(value: Fraction | int) -> str:
    """A rational as Coq's Q: n%Q for an integer, (n#d)%Q for a fraction."""
    if not isinstance(value, Fraction):
        value = Fraction(number(value))
    if value.denominator == 1:
        return f"({value.numerator})%Q" if value < 0 else f"{value.numerator}%Q"
    return f"({value.numerator}#{value.denominator})%Q"


def z(value: int) -> str:
    """An integer argument (negative ones in parentheses)."""
    return f"({value})" if number(value) < 0 else str(value)


def zlist(values: Iterable[int]) -> str:
    """A list of integers (Z_scope is open in the generated file)."""
    return "[" + "; ".join(str(number(v)) for v in values) + "]"


def qlist(values: Iterable[Fraction]) -> str:
    """A list of rationals."""
    return "[" + "; ".join(q(v) for v in values) + "]"


def nlist(values: Iterable[int]) -> str:
    """A list of naturals."""
    return "[" + "; ".join(f"{natural(v)}%nat" for v in values) + "]"


def poly(p: Poly) -> str:
    """A polynomial as its list of terms, in lexicographic order of exponents (deterministic)."""
    return "[" + "; ".join(f"({zlist(e)}, {q(c)})" for e, c in sorted(p.items())) + "]"


def wrap(items: Sequence[str], indent: str = "  ") -> str:
    """A Coq list of long items, one per line."""
    if not items:
        return "[]"
    return "[\n" + ";\n".join(indent + item for item in items) + "\n]"


def tree(nodes: list, ranks: dict[int, int] | None = None, index: int = 0) -> str:
    """The nested Coq term of a refutation tree given as the certificate's flat list (split, count, layer, farkas,
    image, interior).  `ranks`: each image leaf's target node → its rank among targets in replay order; a target is
    wrapped in Keep (its fact is recorded once it closes) and an image leaf names its target by that rank.

    Iterative, so a deep tree does not exhaust Python's stack."""
    ranks = ranks or {}
    out: list[str] = []
    stack: list[object] = [index]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node = nodes[item]  # type: ignore[index]
        kind = node[0]
        if item in ranks:
            out.append("(Keep ")
            stack.append(")")
        if kind == "split":
            out.append(f"(S1 {z(node[1][0])} " if len(node[1]) == 1 else f"(Split {zlist(node[1])} ")
            stack += [")", node[3], " ", node[2]]
        elif kind == "count":
            out.append("Count")
        elif kind == "layer":
            out.append(f"(Layer {natural(node[1])})")
        elif kind == "image":
            out.append(f"(Image {ranks[node[1]]} {natural(node[2])})")
        elif kind == "interior":
            combination = "; ".join(f"({zlist(f)}, {q(rational(c))})" for f, c in node[2])
            out.append(f"(Interior {zlist(node[1])} [{combination}])")
        else:
            out.append(f"(Farkas {natural(node[1])})")
    return "".join(out)


def replay_ranks(nodes: list, targets: set[int]) -> dict[int, int]:
    """Each target's rank in the order the replay closes nodes (IN child first, then OUT child, then the node).

    Iterative, so a deep tree does not exhaust Python's stack; a node reached twice (a cycle) is refused."""
    ranks: dict[int, int] = {}
    seen: set[int] = set()
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        index, done = stack.pop()
        node = nodes[index]
        if not done:
            if index in seen:
                raise InputError(f"refutation node {index} reached twice")
            seen.add(index)
        if node[0] == "split" and not done:
            stack += [(index, True), (node[2], False), (node[3], False)]  # popped: IN child, OUT child, the split
            continue
        if index in targets:
            ranks[index] = len(ranks)
    return ranks


def multiplier(side: str, e: list[int], lam: Fraction) -> str:
    """One entry (row, λ) of a Farkas vector: Dz/Nz for an integer λ, Dq/Nq for a fraction (HFTree)."""
    if side not in ("D", "N"):
        raise InputError(f"a Farkas row on side {str(side)[:10]!r} (D or N)")
    row = side
    if lam.denominator == 1:
        return f"{row}z {zlist(e)} {z(lam.numerator)}"
    return f"{row}q {zlist(e)} {z(lam.numerator)} {lam.denominator}"
