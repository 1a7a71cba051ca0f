"""How a block head was found, as the certificate says it (DESIGN §10; issue 41 items 2 and 8).

Two kinds are definitions the kernel checks (kernel.checks.check_construction, kernel.statements.FOUND):
a **uniform head** (one weight on every point of an interval of a lattice line, a multiple of Q′_B) and an
**interval head** (a multiple D_B = Q′_B·g with a positive weight on every point of an interval of a
lattice line).  The others ("blocks", "search") are the producer's note: printed as such, outside what is
proved and replayed.  A checked kind is printed with the identity behind it and the product head it beats.
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from headfusion.kernel.statements import FOUND, NOTED
from headfusion.render.tex import tex_int

NOTES = {"blocks": "found as a product of heads of parts of the block's heads",
         "search": (r"found by the construction search: a MIP over the cofactor $g$ of $D_B=Q'_B\cdot g$ "
                    r"(floats), whose chosen support was then solved again exactly")}  # one per kernel.statements.NOTED
MAX_SUMSET = 100_000  # product heads larger than this are not counted for the comparison


def _monomial(step: tuple[int, ...]) -> str:
    """x^δ in the block's lattice coordinates x_1, …, x_r."""
    return "".join(f"x_{{{j + 1}}}" + (f"^{{{v}}}" if v != 1 else "") for j, v in enumerate(step) if v)


def product_atoms(model: dict, heads: list[int]) -> int | None:
    """|supp Π_h D_h|, the product head of a block: the sumset of its heads' key sets (positive weights never cancel)."""
    keysets = [{tuple(sorted((int(j), str(v)) for j, v in a["key"])) for a in model["heads"][h]["atoms"]} for h in heads]
    if prod(len(k) for k in keysets) > MAX_SUMSET:
        return None
    total: set[tuple] = {()}
    for keys in keysets:
        parsed = [{j: Fraction(v) for j, v in k} for k in keys]
        total = {tuple(sorted(_add(dict(s), p).items())) for s in total for p in parsed}
    return len(total)


def _add(a: dict, b: dict) -> dict:
    """The sum of two sparse keys {j: v}."""
    for j, v in b.items():
        a[j] = a.get(j, 0) + v
    return {j: v for j, v in a.items() if v}


def provenance(found: str | None, points: list[tuple[int, ...]], product: int | None) -> dict:
    """{"found": the checked definition with its identity, "note": the producer's unchecked note} for one block head."""
    if found in NOTED:
        return {"found": "", "note": f"the producer's note, not checked by the kernel: {NOTES[found]}"}
    if not FOUND.get(found or ""):
        return {"found": "", "note": ""}
    step = tuple(b - a for a, b in zip(points[0], points[1])) if len(points) > 1 else (1,)
    y, L = _monomial(step), len(points)
    beats = f"; it beats the product head $\\prod_h D_h$ of ${tex_int(product)}$ atoms" if product and product > L else ""
    if found == "uniform":
        text = (rf"a uniform head (checked by the kernel: one weight $c$ on every point of an interval of a lattice line, "
                rf"$D_B=c\,(1+y+\dots+y^{{{L - 1}}})$, that is $(y-1)\,D_B=c\,(y^{{{L}}}-1)$ with $y={y}$ up to a monomial, and $Q'_B\mid D_B$){beats}")
    else:
        text = (rf"an interval head (checked by the kernel: $D_B=Q'_B\cdot g$ has a positive weight at $y^e$ for every "
                rf"$e=0,\dots,{L - 1}$, $y={y}$ up to a monomial, so $N_B=g\,P'_B$ of degree at most ${L - 1}$ has its support inside){beats}")
    return {"found": text, "note": ""}
