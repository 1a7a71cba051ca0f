"""Grid bounds on T(R) for triangle and K_4 factors (Lemmas W14, K4GRID, M12, Theorem K35; proofs-grids.md, DESIGN §11).

entry  lemma   recomputed here
grid   W14     R divisible by W(m) = (m_0+m_1)²(m_0+m_2)²(m_1+m_2) for positive monomials m_i = c_i·x^(e_i)·t^(s_i)
               with e_1 − e_0, e_2 − e_0 linearly independent (the substitution is injective on the lattice): T(R) ≥ 14.
       K4GRID  R divisible by Π_{i<j≤3}(m_i + m_j), e_1 − e_0, e_2 − e_0, e_3 − e_0 independent: T(R) ≥ 30.
       K35     the same, and M12's finite core enumerated here for the given level sets (four integers with odd gaps
               per variable): every admissible index set has ≥ 12 points, so 7 + 12 + 12 + 7 > 34 and T(R) ≥ 35.
Why the substitution may be any injective one: multiplication by W(m) keeps each coset of the sublattice the e_i − e_0
span, and on a coset the scaling x_i ↦ c_i·x_i turns a multiple of W(m) into a multiple of W (a bijection on terms).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

from headfusion.kernel.base import integer, require
from headfusion.kernel.checks import _rank
from headfusion.kernel.poly import Poly, divide, mul, poly_from_json

FIELDS = {"method", "lemma", "vertices", "levels"}
K4 = tuple(((i, j), 1) for i, j in combinations(range(4), 2))
PATTERNS = {"W14": (((0, 1), 2), ((0, 2), 2), ((1, 2), 1)), "K4GRID": K4, "K35": K4}  # edges of the pattern, multiplicity
VALUES = {"W14": 14, "K4GRID": 30, "K35": 35}


def _line_ok(points: list[tuple[int, int]]) -> bool:
    """M12 (3)–(5) on one line: ≥ 2 points in strictly opposite order, at odd index distance when exactly 2."""
    points = sorted(points)
    return (len(points) >= 2 and all(a < c and b > d for (a, b), (c, d) in zip(points, points[1:]))
            and (len(points) > 2 or (points[1][0] - points[0][0]) % 2 == 1))


@lru_cache(maxsize=2)
def m12_least(parity: int) -> int:
    """The least size of an index set S ⊆ {0..3}³ with i + j + k ≡ parity whose lines in all three directions pass _line_ok
    and which uses every index in every coordinate (M12 (1)–(5)): each z-line is chosen among its admissible antichains."""
    cells = list(product(range(4), repeat=2))
    lines = [[s for n in range(2, 5) for s in combinations(cells, n) if all((i + j + k) % 2 == parity for i, j in s) and _line_ok(list(s))]
             for k in range(4)]
    least = 65
    for choice in product(*lines):
        S = [(i, j, k) for k, line in enumerate(choice) for i, j in line]
        if len(S) < least and all(_line_ok([(j, k) for i2, j, k in S if i2 == i]) and _line_ok([(i2, k) for i2, j2, k in S if j2 == i])
                                  for i in range(4)):
            least = len(S)
    return least


def grid(R: Poly, item: dict, rank: int) -> int:
    """W14, K4GRID or K35: identify the pattern by its vertex monomials, divide exactly, and (K35) enumerate M12's core."""
    lemma = item["lemma"]
    require(lemma in PATTERNS, "a grid entry names W14, K4GRID or K35")
    n = 1 + max(j for (_, j), _ in PATTERNS[lemma])
    require(isinstance(item["vertices"], list) and len(item["vertices"]) == n, f"{lemma} needs {n} vertex monomials")
    images = [poly_from_json(m, rank + 1) for m in item["vertices"]]
    require(all(len(m) == 1 and min(m.values()) > 0 for m in images), f"{lemma}: a vertex image must be one positive monomial")
    e = [next(iter(m))[:-1] for m in images]
    require(_rank([[Fraction(a - b) for a, b in zip(v, e[0])] for v in e[1:]]) == n - 1,
            f"{lemma}: the substitution is not injective on the lattice (e_i − e_0 dependent)")
    pattern: Poly = {(0,) * (rank + 1): Fraction(1)}
    for (i, j), k in PATTERNS[lemma]:
        for _ in range(k):
            pattern = mul(pattern, {**images[i], **images[j]})
    require(divide(R, pattern) is not None, f"{lemma}: the polynomial is not divisible by the pattern's product of binomials")
    if lemma != "K35":
        require(item["levels"] is None, f"{lemma} carries no level sets")
        return VALUES[lemma]
    levels = item["levels"]
    require(isinstance(levels, list) and len(levels) == 3 and all(isinstance(v, list) and len(v) == 4 for v in levels),
            "M12 needs four levels in each of three variables")
    require(all(integer(b) - integer(a) > 0 and (b - a) % 2 == 1 for v in levels for a, b in zip(v, v[1:])),
            "M12 needs levels increasing with odd gaps (alternating parity)")
    require(7 + 2 * min(m12_least(0), m12_least(1)) + 7 > 34, "M12's core has a set of fewer than 11 points")
    return VALUES[lemma]
