"""Template context for bounds on T(R) entry by entry: three slices (V3), 2-adic classes (V2), and their nested entries.

A μ entry may nest others of any kind (V3 bounds T(Y) and T(Γ_*Y) by entries of their own; LS bounds its Y by one).
`entry_rows` flattens an entry into numbered rows, parent first, each naming the polynomial it bounds, the lemma, the
lemma's data and the bound, citing the rows below it.  The numbers follow the kernel's arithmetic on the same evidence
(display only: the certificate was replayed by the kernel before it was written).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from headfusion.kernel.poly import Poly, divide, poly_from_json
from headfusion.kernel.threeslices import oriented, projected
from headfusion.render.structure import shape_entries
from headfusion.render.tex import tex_int, tex_poly, tex_rational, tex_vector

MAX_POLY_TERMS = 12  # a polynomial is written out up to this many terms, else named by its number of terms
MAX_ROWS = 40
LEMMA_OF_METHOD = {"vertices": "L5", "hexagon": "LH", "slices": "LS", "three-slices": "V3", "two-adic": "V2"}


def _json(p: Poly) -> list:
    """A kernel polynomial as certificate JSON terms (exponent lists, rationals as int or "p/q")."""
    return [[list(e), c.numerator if c.denominator == 1 else f"{c.numerator}/{c.denominator}"] for e, c in sorted(p.items())]


Namer = Callable[[Poly], "str | None"]  # a long polynomial's name (a product of a graph's edge binomials), or None


def _poly(p: Poly, t_scale: int, name: Namer | None = None) -> str:
    """The polynomial in math mode, or, when long, its name (if it has one) and its number of terms."""
    if len(p) <= MAX_POLY_TERMS:
        return f"${tex_poly(_json(p), t_scale)}$"
    called = name(p) if name is not None else None
    return f"{called} ({len(p)} terms)" if called else f"{len(p)} terms"


def edge_namer(exp: dict, coprime: dict | None, s: int) -> Namer:
    """Names a polynomial of shape s by the graph edges whose binomials (factors of Q′_B) it is a unit times the product
    of: a binomial whose exponent difference is ±(e_i − e_j) in q (through the lattice basis) is the edge ij."""
    shape = exp["shapes"][s]
    variables = next((b["variables"] for b in exp["blocks"] if int(b["shape"]) == s), [])
    rank = len(shape["rows"])
    factors = [] if coprime is None else [f for f in coprime["shapes"][s]["factors"] if len(f["poly"]) == 2]

    def edge(f: dict) -> str | None:
        (a, _), (b, _) = sorted(f["poly"])
        q: dict[int, Fraction] = {}
        for c, row in zip((y - x for x, y in zip(a[:-1], b[:-1])), shape["rows"]):
            for j, v in row:
                q[int(variables[int(j)])] = q.get(int(variables[int(j)]), Fraction(0)) + Fraction(c * int(v), int(shape["denominator"]))
        ends = sorted((j, v) for j, v in q.items() if v)
        if len(ends) != 2 or {v for _, v in ends} != {1, -1}:
            return None
        (i, _), (j, _) = ends
        return f"{i}{j}" if j < 10 else rf"\{{{i},{j}\}}"

    def name(p: Poly) -> str | None:
        edges, rest = [], p
        for f in factors:
            poly, label = poly_from_json(f["poly"], rank + 1), edge(f)
            while label is not None and len(rest) > 1 and (quotient := divide(rest, poly)) is not None:
                rest, edges = quotient, edges + [label]
        if len(rest) != 1 or not edges:
            return None
        return "the product of the binomials of the edges $" + ",\\ ".join(sorted(edges)) + "$"
    return name


def _theta(item: dict, rank: int) -> tuple[int, tuple[int, ...], Fraction, int]:
    """(ϑ, ε, r, s) of a V3 entry: ϑ = 4 when 1 + r·t^s·x^ε divides Y, as the kernel decides it."""
    Y = poly_from_json(item["A"], rank + 1)
    omega = tuple(int(w) for w in item["omega"])
    (d1, r1, s1), (d2, r2, s2) = (oriented(poly_from_json(f, rank + 1), omega) for f in item["f"])
    eps = tuple(a - b for a, b in zip(d1, d2))
    edge = {(0,) * (rank + 1): Fraction(1), eps + (s1 - s2,): r1 / r2}
    return (4 if divide(Y, edge) is not None else 3), eps, r1 / r2, s1 - s2


def entry_value(item: dict, rank: int) -> int:
    """The bound a μ entry proves, from the entry alone (the kernel's arithmetic of kernel.multiples; display only)."""
    method = item["method"]
    if method == "vertices":
        return len(item["vertices"])
    if method == "hexagon":
        return 7
    if method == "two-adic":
        return 2 ** len(item["orders"])
    if method == "slices":
        return (sum(int(k) for _, k in item["roots"]) + 1) * entry_value(item["mu"], rank)
    t_y, t_g, theta = entry_value(item["mu"], rank), entry_value(item["lines"], len(item["projection"])), _theta(item, rank)[0]
    return min(4 * t_y, 3 * t_y + t_g, 2 * t_y + max(t_y, theta * t_g))


def entry_rows(R: Poly, item: dict, rank: int, t_scale: int, what: str, rows: list[dict], name: Namer | None = None) -> int:
    """Append the rows of the entry bounding T(R) (this row first, then those it cites) and return its bound; `name`
    names the long polynomials of the block's own coordinates (not those of a projection Γ)."""
    if len(rows) >= MAX_ROWS:
        return entry_value(item, rank)
    row: dict = {"label": len(rows) + 1, "what": what, "lemma": LEMMA_OF_METHOD[item["method"]]}
    rows.append(row)
    method = item["method"]
    if method == "vertices":
        row["data"] = f"{len(item['vertices'])} certified {'vertex' if len(item['vertices']) == 1 else 'vertices'} (listed in the JSON certificate)"
    elif method == "hexagon":
        row["data"] = "divisible by " + ", ".join(f"${tex_poly(f, t_scale)}$" for f in item["factors"]) + " (a tilted hexagon)"
    elif method == "two-adic":
        orders = [int(k) for k in item["orders"]]
        row["data"] = (r"divisible by $\Phi_{2^\varkappa}=1+x^{2^{\varkappa-1}}$ for $\varkappa\in\{" + ", ".join(map(str, orders)) + r"\}$, "
                       rf"so at least $2^{{{len(orders)}}}$")
    elif method == "slices":
        Y = poly_from_json(item["A"], rank + 1)
        roots = ", ".join(rf"$-{tex_rational(r)}$" + (rf" (${k}$ times)" if int(k) > 1 else "") for r, k in item["roots"])
        n = sum(int(k) for _, k in item["roots"])
        inner = entry_rows(Y, item["mu"], rank, t_scale, rf"$Y$ of row {row['label']}", rows, name)
        row["data"] = (rf"$\omega={tex_vector(item['omega'])}$, $x'={tex_vector(item['point'])}$, its $Y$: {_poly(Y, t_scale, name)}, "
                       rf"$Z$: {_poly(poly_from_json(item['B'], rank + 1), t_scale, name)}, negative roots {roots}; "
                       rf"$\mathcal{{T}}(Y)\ge{tex_int(inner)}$ (row {row['label'] + 1}), so $({n}+1)\cdot{tex_int(inner)}$")
    else:
        row["data"] = _three_slices(R, item, rank, t_scale, row, rows, name)
    value = entry_value(item, rank)
    row["value"] = tex_int(value)
    return value


def _three_slices(R: Poly, item: dict, rank: int, t_scale: int, row: dict, rows: list[dict], name: Namer | None) -> str:
    """The data of a V3 row; the rows of T_Y and T_Γ follow it.  Γ is written by its rows (a small matrix is unreadable in a
    table), and Γ_*Y, when long, by what it is: Γ_* is a ring homomorphism, so it maps Y's edge binomials one by one."""
    Y = poly_from_json(item["A"], rank + 1)
    f1, f2 = (poly_from_json(f, rank + 1) for f in item["f"])
    omega = tuple(int(w) for w in item["omega"])
    theta, eps, ratio, power = _theta(item, rank)
    gamma = [tuple(int(v) for v in r) for r in item["projection"]]
    image = projected(Y, gamma)
    here = row["label"]
    t_y = entry_rows(Y, item["mu"], rank, t_scale, rf"$Y$ of row {here}", rows, name)
    at_gamma = len(rows) + 1
    t_g = entry_rows(image, item["lines"], len(gamma), t_scale, rf"$\Gamma_*Y$ of row {here}", rows)
    matrix = ", ".join(f"${tex_vector(list(r))}$" for r in gamma)
    y_name = name(Y) if name is not None and len(Y) > MAX_POLY_TERMS else None
    image_text = (f"the product of the images of those edge binomials ({len(image)} terms)" if y_name and len(image) > MAX_POLY_TERMS
                  else _poly(image, t_scale))
    why = (rf"$1+{tex_poly(_json({eps + (power,): ratio}), t_scale)}$ divides $Y$" if theta == 4
           else r"no factor $1+z$ of $Y$")
    return (rf"$\omega={tex_vector(list(omega))}$; $f_1={tex_poly(_json(f1), t_scale)}$, $f_2={tex_poly(_json(f2), t_scale)}$; "
            rf"$\varepsilon={tex_vector(list(eps))}$; its $Y$: {_poly(Y, t_scale, name)}; $\mathcal{{T}}_Y={tex_int(t_y)}$ (row {here + 1}); "
            rf"$\Gamma$ with the rows {matrix}; "
            rf"$\Gamma_*Y$: {image_text}; $\mathcal{{T}}_\Gamma={tex_int(t_g)}$ (row {at_gamma}); "
            rf"$\vartheta={theta}$ ({why}); so $\min({4 * t_y},{3 * t_y + t_g},{2 * t_y + max(t_y, theta * t_g)})$")


def entries_context(summary: dict, claims: dict[str, dict], cid: str, bound_key: str) -> dict | None:
    """Per shape of the claim `cid` (lower:three-slices or lower:two-adic): its rows, and the claim's bound."""
    found = shape_entries(claims, cid)
    if found is None:
        return None
    t_scale, entries = found
    exp = claims["exp-form"]["evidence"]
    shapes, rows = [], []  # rows numbered across the shapes
    for s, item in entries:
        rank = len(exp["shapes"][s]["rows"])
        Q = poly_from_json(exp["shapes"][s]["Q"], rank + 1)
        start = len(rows)
        namer = edge_namer(exp, claims.get("coprime", {}).get("evidence"), s)
        value = entry_rows(Q, item, rank, t_scale, rf"$Q'_B$, shape {s + 1}", rows, namer)
        shapes.append({"index": s + 1, "rows": rows[start:], "value": tex_int(value)})
    return {"shapes": shapes, "bound": tex_int(summary[bound_key]), "rows": len(rows)}
