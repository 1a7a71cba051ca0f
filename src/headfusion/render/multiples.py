"""Template context for bounds on T(R) entry by entry: three slices (V3), 2-adic classes (V2), and their nested entries.

A μ entry may nest others of any kind (V3 bounds T(Y) and T(Γ_*Y) by entries of their own; LS bounds its Y by one).
`entry_rows` flattens an entry into numbered rows, parent first, each naming the polynomial it bounds, the lemma, the
lemma's data and the bound, citing the rows below it.  The numbers follow the kernel's arithmetic on the same evidence
(display only: the certificate was replayed by the kernel before it was written).
"""

from __future__ import annotations

from fractions import Fraction
from headfusion.kernel.poly import Poly, divide, poly_from_json
from headfusion.kernel.grids import PATTERNS, VALUES
from headfusion.kernel.threeslices import oriented, projected
from headfusion.render.edgenames import Namer, block_namer, collapsed, edge_names, merged_note, pattern_vertices
from headfusion.render.structure import shape_entries
from headfusion.render.tex import tex_int, tex_poly, tex_rational, tex_vector
from headfusion.kernel.statements import plural

MAX_POLY_TERMS = 12  # a polynomial is written out up to this many terms, else named by its number of terms
MAX_ROWS = 40
LEMMA_OF_METHOD = {"vertices": "L5", "hexagon": "LH", "slices": "LS", "three-slices": "V3", "two-adic": "V2"}


def _json(p: Poly) -> list:
    """A kernel polynomial as certificate JSON terms (exponent lists, rationals as int or "p/q")."""
    return [[list(e), c.numerator if c.denominator == 1 else f"{c.numerator}/{c.denominator}"] for e, c in sorted(p.items())]


def _poly(p: Poly, t_scale: int) -> str:
    """The polynomial in math mode, or, when long, its number of terms."""
    return f"${tex_poly(_json(p), t_scale)}$" if len(p) <= MAX_POLY_TERMS else f"{len(p)} terms"


def _theta(item: dict, rank: int) -> tuple[int, tuple[int, ...], Fraction, int]:
    """(ϑ, ε, r, s) of a V3 entry: ϑ = 4 when 1 + r·t^s·x^ε divides Y, as the kernel decides it."""
    Y = poly_from_json(item["A"], rank + 1)
    omega = tuple(int(w) for w in item["omega"])
    (d1, r1, s1), (d2, r2, s2) = (oriented(poly_from_json(f, rank + 1), omega) for f in item["f"])
    eps = tuple(a - b for a, b in zip(d1, d2))
    edge = {(0,) * (rank + 1): Fraction(1), eps + (s1 - s2,): r1 / r2}
    return (4 if divide(Y, edge) is not None else 3), eps, r1 / r2, s1 - s2


def entry_lemma(item: dict) -> str:
    """The lemma an entry applies (a grid entry names its own: W14, K4GRID or K35; a two-adic entry with a class is CD)."""
    if item["method"] == "two-adic" and item.get("class"):
        return "CD"
    return item["lemma"] if item["method"] == "grid" else LEMMA_OF_METHOD[item["method"]]


def entry_value(item: dict, rank: int) -> int:
    """The bound a μ entry proves, from the entry alone (the kernel's arithmetic of kernel.multiples; display only)."""
    method = item["method"]
    if method == "vertices":
        return len(item["vertices"])
    if method == "hexagon":
        return 7
    if method == "two-adic":
        return (len(item["class"]) + 1 if item["class"] else 1) * 2 ** len(item["levels"])
    if method == "grid":
        return VALUES[item["lemma"]]
    if method == "slices":
        return (sum(int(k) for _, k in item["roots"]) + 1) * entry_value(item["mu"], rank)
    t_y, t_g, theta = three_slice_values(item, rank)
    return min(4 * t_y, 3 * t_y + t_g, 2 * t_y + max(t_y, theta * t_g))


def three_slice_values(item: dict, rank: int) -> tuple[int, int, int]:
    """(T_Y, T_Γ, ϑ) of a V3 entry: the bounds its nested entries prove, and 3 or 4 (display only)."""
    return entry_value(item["mu"], rank), entry_value(item["lines"], len(item["projection"])), _theta(item, rank)[0]


def _named(p: Poly, t_scale: int, namer: Namer | None) -> str:
    """A factor of a graph block by its edges and number of terms, else as _poly shows it."""
    edges = edge_names(namer, p)
    if edges is None:
        return _poly(p, t_scale)
    note = merged_note(namer)
    listed = r",\,".join(edges)
    return (rf"the edges ${listed}$" if edges else "a monomial") + f" ({note + ', ' if note else ''}{plural(len(p), 'term')})"


def entry_rows(R: Poly, item: dict, rank: int, t_scale: int, what: str, rows: list[dict], namer: Namer | None = None) -> int:
    """Append the rows of the entry bounding T(R) (this row first, then those it cites) and return its bound; `namer`
    names a graph block's factors by their edges."""
    if len(rows) >= MAX_ROWS:
        return entry_value(item, rank)
    row: dict = {"label": len(rows) + 1, "what": what, "lemma": entry_lemma(item)}
    rows.append(row)
    method = item["method"]
    if method == "vertices":
        row["data"] = f"{len(item['vertices'])} certified {'vertex' if len(item['vertices']) == 1 else 'vertices'} (listed in the JSON certificate)"
    elif method == "hexagon":
        row["data"] = "divisible by " + ", ".join(f"${tex_poly(f, t_scale)}$" for f in item["factors"]) + " (a tilted hexagon)"
    elif method == "two-adic":
        row["data"] = _two_adic(item, t_scale)
    elif method == "grid":
        row["data"] = grid_data(item, t_scale, _grid_vertices(item, rank, namer))
    elif method == "slices":
        Y = poly_from_json(item["A"], rank + 1)
        roots = ", ".join(rf"$-{tex_rational(r)}$" + (rf" (${k}$ times)" if int(k) > 1 else "") for r, k in item["roots"])
        n = sum(int(k) for _, k in item["roots"])
        inner = entry_rows(Y, item["mu"], rank, t_scale, rf"$Y$ of row {row['label']}", rows, namer)
        row["data"] = (rf"$\omega={tex_vector(item['omega'])}$, $x'={tex_vector(item['point'])}$, its $Y$: {_named(Y, t_scale, namer)}, "
                       rf"$Z$: {_named(poly_from_json(item['B'], rank + 1), t_scale, namer)}, negative roots {roots}; "
                       rf"$\mathcal{{T}}(Y)\ge{tex_int(inner)}$ (row {row['label'] + 1}), so $({n}+1)\cdot{tex_int(inner)}$")
    else:
        row["data"] = _three_slices(R, item, rank, t_scale, row, rows, namer)
    value = entry_value(item, rank)
    row["value"] = tex_int(value)
    return value


def _binomials(entries: list, t_scale: int) -> str:
    """The binomials 1 + c·t^s·x^a of a V2/CD entry, each with the 2-adic valuation of a."""
    return ", ".join(rf"${tex_poly(_json({(0, 0): Fraction(1), (int(a), int(s)): Fraction(c)}), t_scale)}$ ($v_2={(int(a) & -int(a)).bit_length() - 1}$)"
                     for a, c, s in entries)


def _two_adic(item: dict, t_scale: int) -> str:
    """The data of a V2 row (distinct 2-adic levels) or a CD row (a class modulo A on top of the levels below v₂(A))."""
    j = len(item["levels"])
    levels = f"divisible by {_binomials(item['levels'], t_scale)}" if j else "no level below it"
    if not item["class"]:
        return rf"{levels}, distinct valuations, so at least $2^{{{j}}}$"
    n = len(item["class"])
    return (rf"$A={item['modulus']}$: divisible by {_binomials(item['class'], t_scale)}, of scales $A\cdot$odd with distinct moduli;"
            rf" levels below $v_2(A)$: {levels}; so at least $({n}+1)\cdot2^{{{j}}}$")


def _three_slices(R: Poly, item: dict, rank: int, t_scale: int, row: dict, rows: list[dict], namer: Namer | None) -> str:
    """The data of a V3 row; the rows of T_Y and T_Γ follow it.  Γ is written by its rows (a small matrix is unreadable in a
    table)."""
    Y = poly_from_json(item["A"], rank + 1)
    f1, f2 = (poly_from_json(f, rank + 1) for f in item["f"])
    omega = tuple(int(w) for w in item["omega"])
    theta, eps, ratio, power = _theta(item, rank)
    gamma = [tuple(int(v) for v in r) for r in item["projection"]]
    image = projected(Y, gamma)
    here = row["label"]
    t_y = entry_rows(Y, item["mu"], rank, t_scale, rf"$Y$ of row {here}", rows, namer)
    at_gamma = len(rows) + 1
    inner_namer = None if namer is None else collapsed(namer, gamma, eps)
    t_g = entry_rows(image, item["lines"], len(gamma), t_scale, rf"$\Gamma_*Y$ of row {here}", rows, inner_namer)
    matrix = ", ".join(f"${tex_vector(list(r))}$" for r in gamma)
    why = (rf"$1+{tex_poly(_json({eps + (power,): ratio}), t_scale)}$ divides $Y$" if theta == 4
           else r"no factor $1+z$ of $Y$")
    return (rf"$\omega={tex_vector(list(omega))}$; $f_1={tex_poly(_json(f1), t_scale)}$, $f_2={tex_poly(_json(f2), t_scale)}$; "
            rf"$\varepsilon={tex_vector(list(eps))}$; its $Y$: {_named(Y, t_scale, namer)}; $\mathcal{{T}}_Y={tex_int(t_y)}$ (row {here + 1}); "
            rf"$\Gamma$ with the rows {matrix}; "
            rf"$\Gamma_*Y$: {_named(image, t_scale, inner_namer)}; $\mathcal{{T}}_\Gamma={tex_int(t_g)}$ (row {at_gamma}); "
            rf"$\vartheta={theta}$ ({why}); so $\min({4 * t_y},{3 * t_y + t_g},{2 * t_y + max(t_y, theta * t_g)})$")


def _grid_vertices(item: dict, rank: int, namer: Namer | None) -> str:
    """The sentence saying which graph vertices the pattern's monomials stand for, when each m_i + m_j is then a monomial
    times an edge binomial 1 + x^δ (every m_i has coefficient 1; δ reads as ±(q_a − q_b)); else ''."""
    monomials = [tuple(poly_from_json(m, rank + 1).items())[0] for m in item["vertices"]]
    vertices = pattern_vertices(namer, [e[:-1] for e, _ in monomials])
    if not vertices or any(c != 1 or e[-1] for e, c in monomials):
        return ""
    merged = merged_note(namer)
    return (rf", standing for the vertices {', '.join(vertices)} in this order{' (' + merged + ')' if merged else ''}: each $m_i+m_j$ is"
            r" a monomial times the binomial of the edge between the vertices of $m_i$ and $m_j$")


def grid_data(item: dict, t_scale: int, vertices: str = "") -> str:
    """A grid row: the pattern's vertex monomials (then `vertices`, the graph vertices they stand for) and its factors
    (W14's doubled edges squared); a factor is a group, so a line breaks between factors, never inside one."""
    names = [f"$m_{i}={tex_poly(m, t_scale)}$" for i, m in enumerate(item["vertices"])]
    edges = r"\,\allowbreak".join(rf"{{(m_{i}+m_{j})" + (f"^{k}" if k > 1 else "") + "}" for (i, j), k in PATTERNS[item["lemma"]])
    core = (r"; M12's core (index sets in $\{0..3\}^3$) enumerated by the kernel: at least 12 points, so $7+12+12+7>34$"
            if item["lemma"] == "K35" else "")
    return f"{', '.join(names)}{vertices}; ${edges}$ divides it (exact division){core}"


def entries_context(summary: dict, claims: dict[str, dict], cid: str, bound_key: str | None) -> dict | None:
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
        shape = exp["shapes"][s]
        variables = next((b["variables"] for b in exp["blocks"] if b["shape"] == s), None)
        namer = None if variables is None else block_namer(shape["rows"], int(shape["denominator"]), variables)
        value = entry_rows(Q, item, rank, t_scale, rf"$Q'_B$, shape {s + 1}", rows, namer)
        shapes.append({"index": s + 1, "rows": rows[start:], "value": tex_int(value)})
    bound = summary.get(bound_key) if bound_key else claims[cid]["statement"].rsplit(r"\ge ", 1)[-1].rstrip("$.")
    return {"shapes": shapes, "bound": tex_int(bound) if isinstance(bound, int) else bound, "rows": len(rows)}
