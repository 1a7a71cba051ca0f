"""Terms of nonnegative multiples (DESIGN §9): the hexagon (LH) and slices (LS), over blocks (LM).

μ(R) is the least number of terms of a nonzero Laurent polynomial D with nonnegative coefficients and
R | D.  A head of F has D = g·Q′ with positive coefficients (L4), so m*(F) ≥ μ(Q′); for blocks on
disjoint variables μ(Π_B Q′_B) ≥ Π_B μ(Q′_B) (Lemma LM), and μ(Q′_B) ≥ V_B (L5).

claim          lemma   recomputed here, per shape (null: L5 alone)
lower:hexagon  LH      binomials f_k = φ_k x^(u_k) + ψ_k x^(u_k+δ_k), k = 1..3, φ_k, ψ_k > 0 multiples of powers
                       of t, with δ_1, δ_2 independent, δ_3 = ε_1δ_1 + ε_2δ_2 (ε = ±1) and λ_3 = λ_1^ε_1·λ_2^ε_2
                       (λ_k = ψ_k/φ_k), and f_1f_2f_3 | Q′_B: μ_B ≥ 7.
lower:slices   LS      Q′_B = unit·A·B, supp A on one level of an integer functional ω, a rational point x′ > 0,
                       and B(x′ ⊙ s^ω) ≠ 0 divisible by Π_i (s + ρ_i)^(k_i), distinct ρ_i > 0: μ_B ≥ (Σ k_i + 1)·μ(A),
                       μ(A) from its own entry — vertices (L5 witnesses on supp A), hexagon (LH), slices (nested).
lower:grid     W14/K35 every entry a grid or a hexagon: the pattern's vertex monomials and exact division (kernel.grids).
Grid entries may also stand inside LS, V3 and V2 entries.  All state m*(F) ≥ Π_B max(V_B, μ_B) (LM with L5 on the other blocks).
"""

from __future__ import annotations

from fractions import Fraction
from math import prod

from headfusion.kernel import grids, statements as say, threeslices, twoadic
from headfusion.kernel.base import MAX_POINTS, integer, rational, require, within
from headfusion.kernel.checks import _rank, vertices_of
from headfusion.kernel.poly import Poly, binomial, divide, mul, poly_from_json, unit_multiple, x_groups
from headfusion.kernel.refutation import _point

FIELDS = {"vertices": {"method", "vertices"}, "hexagon": {"method", "factors"},
          "slices": {"method", "A", "B", "omega", "point", "roots", "mu"}, "three-slices": threeslices.FIELDS, "two-adic": twoadic.FIELDS,
          "grid": grids.FIELDS}
METHODS = {"LH": ("hexagon",), "LS": ("slices", "hexagon"), "V3": ("three-slices", "slices", "hexagon"),
           "V2": ("two-adic", "three-slices", "slices", "hexagon"),
           "grid": ("grid", "hexagon")}  # a claim's own method first, then those its blocks may also use (grid: also in LS, V3, V2)
for _methods in ("LS", "V3", "V2"):
    METHODS[_methods] += ("grid",)
LEMMA_OF_METHOD = (("LS", "slices"), ("LH", "hexagon"), ("V3", "three-slices"), ("V2", "two-adic"), ("L5", "vertices"),
                   ("CD", "class-descartes"),
                   ("W14", "grid:W14"), ("K4GRID", "grid:K4GRID"), ("K35", "grid:K35"))
MAX_NESTING = 12  # slices of slices
MAX_SLICE_DEGREE = 2_000  # span of y in Z(x′·y^ω): each root costs a division of this length
MAX_ROOT_WORK = 500_000  # span × Σ k·digits(ρ): the digits a quotient's last coefficient may reach (issue 34: ~8 s at the limit)


def hexagon(R: Poly, factors: object, rank: int) -> int:
    """Lemma LH: three binomials of a tilted hexagon divide R, so μ(R) ≥ 7."""
    require(isinstance(factors, list) and len(factors) == 3, "the hexagon needs three binomials")
    fs = [poly_from_json(f, rank + 1) for f in factors]
    (d1, r1, s1), (d2, r2, s2), (d3, r3, s3) = (binomial(f) for f in fs)
    require(_rank([[Fraction(x) for x in d1], [Fraction(x) for x in d2]]) == 2, "the directions δ_1, δ_2 are not independent")
    signs = [(a, b) for a in (1, -1) for b in (1, -1) if all(z == a * x + b * y for x, y, z in zip(d1, d2, d3))]
    require(len(signs) == 1, "δ_3 is not ±δ_1 ± δ_2")
    (a, b), = signs
    require(r3 == r1**a * r2**b and s3 == a * s1 + b * s2, "the coefficient ratios are not those of a tilted hexagon")
    require(divide(R, mul(mul(fs[0], fs[1]), fs[2])) is not None, "the three binomials do not divide the polynomial")
    return 7


def slices(R: Poly, item: dict, rank: int, used: set, depth: int) -> int:
    """Lemma LS: R = unit·A·B, A on one ω-level, B(x′ ⊙ s^ω) with r negative roots: μ(R) ≥ (r + 1)·μ(A)."""
    require(depth < MAX_NESTING, f"slices nested deeper than {MAX_NESTING}")
    A, B = poly_from_json(item["A"], rank + 1), poly_from_json(item["B"], rank + 1)
    require(unit_multiple(R, mul(A, B)), "the polynomial is not a unit times A·B")
    omega, point = _point(item["omega"], rank), [rational(v) for v in item["point"]]
    require(len({sum(w * x for w, x in zip(omega, e)) for e in x_groups(A)}) == 1, "supp A is not on one level of ω")
    require(len(point) == rank and all(p > 0 for p in point), "the point x′ must have one positive rational per coordinate")
    digits = [len(str(p.numerator)) + len(str(p.denominator)) for p in point]
    within(sum(abs(x) * d for e in B for x, d in zip(e[:-1], digits)), 10**5, "digits of B at the point")
    at: Poly = {}  # B(x′ ⊙ s^ω) in (s, t)
    for e, c in B.items():
        k = (sum(w * x for w, x in zip(omega, e[:-1])), e[-1])
        at[k] = at.get(k, 0) + c * prod((p**x for p, x in zip(point, e[:-1])), start=Fraction(1))
    at = {k: c for k, c in at.items() if c}
    require(at, "B vanishes identically on the curve x′ ⊙ s^ω")
    span = max(k for k, _ in at) - min(k for k, _ in at)
    within(span, MAX_SLICE_DEGREE, "degree of Z(x′·y^ω)")
    require(isinstance(item["roots"], list), "the roots must be a list")
    roots = [(rational(rho), integer(k)) for rho, k in item["roots"]]
    # a division by (s + p/q) grows its quotient's coefficients by digits(p/q) per step: bound that before any division
    within(span * sum(max(k, 0) * (len(str(rho.numerator)) + len(str(rho.denominator))) for rho, k in roots), MAX_ROOT_WORK,
           "degree × digits of the roots of a slice claim")
    seen, r = set(), 0
    for rho, k in roots:
        require(rho > 0 and rho not in seen and 1 <= k, f"root -{rho}: a negative root needs ρ > 0, once, multiplicity ≥ 1")
        within(r + k, MAX_POINTS, "roots of a slice claim")
        for _ in range(k):
            at = divide(at, {(1, 0): Fraction(1), (0, 0): rho})  # type: ignore[assignment]
            require(at is not None, f"B(x′·s^ω) is not divisible by (s + {rho})^{k}")
        seen.add(rho)
        r += k
    return (r + 1) * mu(A, item["mu"], rank, used, depth + 1)


def mu(R: Poly, item: object, rank: int, used: set, depth: int = 0) -> int:
    """A lower bound for μ(R) from its entry: vertices (L5), hexagon (LH), slices (LS), three slices (V3), 2-adic classes (V2) or a grid;
    `used` collects the methods."""
    require(isinstance(item, dict) and item.get("method") in FIELDS and set(item) == FIELDS[item["method"]],
            "a multiple bound needs a method (vertices, hexagon, slices, three-slices, two-adic, grid) and exactly its fields")
    used.add(item["method"])
    if item["method"] == "vertices":
        return len(vertices_of(list(x_groups(R)), item["vertices"], rank, "vertices of a factor"))
    if item["method"] == "hexagon":
        return hexagon(R, item["factors"], rank)
    if item["method"] == "three-slices":
        return threeslices.three_slices(R, item, rank, used, depth, mu)
    if item["method"] == "two-adic":
        return twoadic.two_adic(R, item, rank, used)
    if item["method"] == "grid":
        value = grids.grid(R, item, rank)
        used.add(f"grid:{item['lemma']}")
        return value
    return slices(R, item, rank, used, depth)


def check_multiples(lemma: str, model: object, ev: dict, facts: dict) -> tuple[dict, list[str], str]:
    """lower:hexagon (LH; every entry a hexagon), lower:slices (LS; some entry slices, others hexagons), lower:three-slices
    (V3) or lower:two-adic (V2), mixed with L5 over the blocks (LM); the lemmas of nested entries are dependencies too."""
    exp, newton = facts["exp-form"], facts["lower:newton"]
    methods = METHODS[lemma]
    require(isinstance(ev["shapes"], list) and len(ev["shapes"]) == len(exp["shapes"]), "one entry per shape expected")
    mus, used = [], set()
    for i, (item, (_, _, rank, _, Q)) in enumerate(zip(ev["shapes"], exp["shapes"])):
        require(item is None or (isinstance(item, dict) and item.get("method") in methods), f"shape {i}: not a {' or '.join(methods)} entry")
        mus.append(1 if item is None else mu(Q, item, rank, used))
    require(methods[0] in {item["method"] for item in ev["shapes"] if item is not None}, f"no shape with a {methods[0]} entry")
    vertices = [v for v, _ in newton["shapes"]]
    bound = prod(max(vertices[s], mus[s]) for s in exp["blocks"])
    mixed = any(vertices[s] > mus[s] for s in exp["blocks"])
    lemmas = [f"lemma:{name}" for name, method in LEMMA_OF_METHOD if method in used | ({"slices"} if lemma == "V3" else set())]  # V3's proof is LS's
    deps = ["coprime", "exp-form", "lemma:LM"] + lemmas + ["lower:newton"] * mixed
    entries = [(m, item) for m, item in zip(mus, ev["shapes"]) if item is not None]
    return {"bound": bound, "mu": mus}, deps, say.multiples(lemma, len(entries), sorted({m for m, _ in entries}), bound,
                                                           [d[6:] for d in lemmas if d != "lemma:L5"] + ["LM"], mixed)
