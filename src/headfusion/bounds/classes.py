"""Residue classes (Lemma LK, DESIGN §8): sublattices on whose classes Q′_B(ρ⊙x) sums to one number.

If the k class sums of Q̃ = Q′_B(ρ⊙x) modulo a sublattice M of index k are all one c ≠ 0, every
head D = g·Q′ has the same positive sum in every class, so at least k atoms.  This module only
finds (M, ρ); `kernel.structure.check_classes` recomputes the sums, and the search below uses
the kernel's own `class_sums` so that what is found is what the kernel will accept.

The tilt ρ_c = r_c·t^(s_c) (r_c > 0 rational) undoes weights such as log 2 or e^(1/2):
σ(q1 + 1/2) + σ(2q1 + 1) has Q′ = 1 + t x + t² x² + t³ x³ with t = e^(1/2), and ρ = 1/t gives
1 + x + x² + x³, whose sums modulo 4 are 1, 1, 1, 1.  Candidates come from the factors of Q′_B
whose support lies on a line: f = Σ_j a_j x^(u + j·v), j = 0..n, is balanced by ρ^v = (a_0/a_n)^(1/n).

Lattices searched: every diagonal k_1Z × … × k_rZ with Π k_c ≤ |supp Q′_B|, then (rank ≤ 3)
every Hermite normal form of index ≤ MAX_HNF_INDEX above the best diagonal one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import gcd, lcm, prod

import numpy as np
import sympy

from headfusion.algebra.expform import Block, ExpForm, x_support
from headfusion.kernel.base import SchemaError
from headfusion.kernel.structure import MAX_TILT_DIGITS, class_sums, tilt_digits

MAX_HNF_INDEX = 64
MAX_HNF_RANK = 3
MAX_CANDIDATES = 20_000  # lattices tried per tilt

Tilt = tuple[tuple[Fraction, int], ...]


@dataclass(frozen=True)
class ClassBound:
    """LK for one block: M (upper-triangular basis rows), the tilt and the table of class sums."""

    index: int
    basis: tuple[tuple[int, ...], ...]
    tilt: Tilt
    sums: tuple[tuple[tuple[int, ...], tuple[tuple[int, Fraction], ...]], ...]  # (class representative, Σ as t-polynomial)


def _tilted(Q: dict, tilt: Tilt) -> list[tuple[tuple[int, ...], dict[int, Fraction]]]:
    """Each x-exponent of Q with its coefficient in Q(ρ⊙x) (computed once per tilt; lattices only regroup)."""
    points: dict[tuple[int, ...], dict[int, Fraction]] = {}
    for e, c in Q.items():
        x = e[:-1]
        weight = c * prod((r**v for v, (r, _) in zip(x, tilt) if r != 1), start=Fraction(1))
        power = e[-1] + sum(v * s for v, (_, s) in zip(x, tilt))
        group = points.setdefault(x, {})
        group[power] = group.get(power, Fraction(0)) + weight
    return list(points.items())


def _balanced(points: list, basis: list[list[int]]) -> bool:
    """Whether the class sums modulo the lattice are all equal and nonzero (a fast pre-check of the kernel's)."""
    sums: dict[tuple[int, ...], dict[int, Fraction]] = {}
    for x, poly in points:
        x = list(x)
        for row, b in enumerate(basis):
            step = x[row] // b[row]
            if step:
                x = [a - step * y for a, y in zip(x, b)]
        group = sums.setdefault(tuple(x), {})
        for k, v in poly.items():
            group[k] = group.get(k, Fraction(0)) + v
    if len(sums) != prod(row[i] for i, row in enumerate(basis)):
        return False
    cleaned = [{k: v for k, v in s.items() if v} for s in sums.values()]
    return bool(cleaned[0]) and all(s == cleaned[0] for s in cleaned)


class _Points:
    """The tilted points as integer arrays (coefficients scaled to integers per power of t) for a fast `_balanced`;
    `exact` is None when their sums could exceed 2^52 (then the Fraction path above is used)."""

    def __init__(self, points: list):
        self.points = points
        powers = sorted({k for _, poly in points for k in poly})
        scale = lcm(1, *(v.denominator for _, poly in points for v in poly.values()))
        rows = [[int(poly.get(k, 0) * scale) for k in powers] for _, poly in points]
        big = max((abs(v) for row in rows for v in row), default=0) * max(len(points), 1)
        self.exact = None
        if points and big < 2**52:
            self.exact = (np.array([x for x, _ in points], dtype=np.int64).reshape(len(points), -1), np.array(rows, dtype=np.float64))

    def balanced(self, basis: list[list[int]]) -> bool:
        """`_balanced` for one basis (through `first_balanced`)."""
        return self.first_balanced(np.array([basis], dtype=np.int64)) == 0

    def first_balanced(self, bases: np.ndarray) -> int | None:
        """The position of the first balanced basis in an array (bases, rank, rank) of one index, or None.

        Each point is reduced to its class representative 0 ≤ x_r < M_rr, one integer in [0, index) (mixed radix),
        for all bases at once; the class sums are of integers below 2^52, exact in float64 (`exact` is None
        otherwise: then `_balanced` in Fractions, one basis at a time)."""
        if self.exact is None:
            return next((i for i, basis in enumerate(bases) if _balanced(self.points, basis.tolist())), None)
        points, coefficients = self.exact
        for start in range(0, len(bases), BATCH):
            matrices = bases[start:start + BATCH]  # (bases, rank, rank)
            count, rank = len(matrices), matrices.shape[1]
            x = np.broadcast_to(points, (count, *points.shape)).copy()  # (bases, points, rank)
            key, radix = np.zeros(x.shape[:2], dtype=np.int64), np.ones(count, dtype=np.int64)
            for row in range(rank):
                diagonal = matrices[:, row, row]
                step = x[:, :, row] // diagonal[:, None]
                x -= step[:, :, None] * matrices[:, row, None, :]
                key += x[:, :, row] * radix[:, None]
                radix *= diagonal
            index = int(radix[0])  # one index for all
            flat = (key + (np.arange(count, dtype=np.int64) * index)[:, None]).ravel()
            good = (np.bincount(flat, minlength=count * index).reshape(count, index) > 0).all(axis=1)
            nonzero = np.zeros(count, dtype=bool)
            for column in coefficients.T:
                sums = np.bincount(flat, weights=np.tile(column, count), minlength=count * index).reshape(count, index)
                good &= (sums == sums[:, :1]).all(axis=1)
                nonzero |= sums[:, 0] != 0
            hits = np.flatnonzero(good & nonzero)
            if len(hits):
                return start + int(hits[0])
        return None


BATCH = 2048  # bases reduced at once by `first_balanced`


def _diagonal(rank: int, ks: tuple[int, ...]) -> list[list[int]]:
    return [[ks[r] if c == r else 0 for c in range(rank)] for r in range(rank)]


def _factorisations(n: int, parts: int):
    """Every ordered factorisation n = d_1·…·d_parts into positive integers, in lexicographic order."""
    if parts == 1:
        yield (n,)
        return
    for d in range(1, n + 1):
        if n % d == 0:
            for rest in _factorisations(n // d, parts - 1):
                yield (d, *rest)


def _hermite_bases(rank: int, index: int):
    """Every upper-triangular Hermite basis of a sublattice of Z^rank with the given index, one array (bases, rank, rank)
    per diagonal: diagonals in lexicographic order, then the entries above it as itertools.product orders them (so the
    first basis of each array is the diagonal one)."""
    slots = [(r, c) for r in range(rank) for c in range(r + 1, rank)]
    for diagonal in _factorisations(index, rank):
        sizes = [diagonal[c] for _, c in slots]
        entries = np.indices(sizes).reshape(len(slots), -1).T  # row-major: the order of itertools.product
        bases = np.zeros((len(entries), rank, rank), dtype=np.int64)
        for r in range(rank):
            bases[:, r, r] = diagonal[r]
        for k, (r, c) in enumerate(slots):
            bases[:, r, c] = entries[:, k]
        yield bases


def best_lattice(Q: dict, rank: int, tilt: Tilt) -> tuple[list[list[int]], dict] | None:
    """The largest-index sublattice (diagonal first, then small Hermite forms) with balanced class sums.

    Candidates are screened on the tilted coefficients; the one kept has its table computed by the
    kernel's own `class_sums`, which is what `lower:classes` will recompute.
    """
    points = _tilted(Q, tilt)
    fast = _Points(points)
    support = [x for x, _ in points]
    size = len(support)
    widths = [max(e[c] for e in support) - min(e[c] for e in support) for c in range(rank)]
    per_axis = []
    for c in range(rank):  # a diagonal lattice is balanced only if each of its axes is
        ok = [k for k in range(2, widths[c] + 2) if fast.balanced(_diagonal(rank, tuple(k if i == c else 1 for i in range(rank))))]
        per_axis.append([1] + ok)
    best: list[list[int]] | None = None
    choices = sorted((ks for ks in product(*per_axis) if 1 < prod(ks) <= size), key=lambda ks: (-prod(ks), ks))
    for ks in choices[:MAX_CANDIDATES]:
        if fast.balanced(_diagonal(rank, ks)):
            best = _diagonal(rank, ks)
            break
    if 2 <= rank <= MAX_HNF_RANK:
        low = prod(row[i] for i, row in enumerate(best)) if best else 1
        tried = 0
        for index in range(min(MAX_HNF_INDEX, size), low, -1):
            found = None
            for bases in _hermite_bases(rank, index):  # in order, within the budget: the first balanced one a loop would find
                checked = bases[1:MAX_CANDIDATES - tried]  # the diagonal basis (first) was tried above
                first = fast.first_balanced(checked) if len(checked) else None
                if first is not None:
                    found = checked[first].tolist()
                    break
                tried += len(bases)
                if tried > MAX_CANDIDATES:
                    break
            if found is not None or tried > MAX_CANDIDATES:
                best = found or best
                break
    return (best, class_sums(Q, best, list(tilt))) if best is not None else None


def coprime_base(numbers: list[int]) -> list[int]:
    """Pairwise coprime integers > 1, none a perfect power, of which every number is a product of powers.

    No factorisation (a user's 81-digit semiprime would take hours): gcds split two numbers
    that share a factor until none do (the product of the numbers falls at every split), then
    integer roots undo perfect powers.  The logarithms of such a base are linearly independent
    over Q, so a tilt solved in these coordinates exists exactly when one exists over the primes.
    """
    base: list[int] = []
    todo = [abs(n) for n in numbers]
    while todo:
        a = todo.pop()
        if a <= 1:
            continue
        shared = next((i for i, b in enumerate(base) if gcd(a, b) > 1), None)
        if shared is None:
            base.append(a)
            continue
        b = base.pop(shared)
        g = gcd(a, b)
        todo += [g, a // g, b // g]
    return sorted({_root(b) for b in base})


def _root(n: int) -> int:
    """The least r with n = r^k (n > 1): exact integer roots, largest k first."""
    for k in range(n.bit_length(), 1, -1):
        r = sympy.integer_nthroot(n, k)[0]
        if r > 1 and r**k == n:
            return _root(r)
    return n


def _valuations(r: Fraction, base: list[int]) -> dict[int, int]:
    """Element of `base` ↦ its exponent in a positive rational (a product of powers of the base)."""
    out: dict[int, int] = {}
    for part, sign in ((r.numerator, 1), (r.denominator, -1)):
        for b in base:
            while part % b == 0:
                part //= b
                out[b] = out.get(b, 0) + sign
        assert part == 1, "a number outside its coprime base"
    return out


def tilt_candidates(block: Block) -> list[Tilt]:
    """The identity, and the tilt that balances every factor of Q′_B supported on a line (when one exists)."""
    rank = block.rank
    identity: Tilt = tuple((Fraction(1), 0) for _ in range(rank))
    lines = []  # (v, log_t, n, ratio): Σ_c v_c·log ρ_c = (log ratio + log_t·log t)/n, one per factor on a line
    for factor in block.factors:
        if factor.in_denominator == factor.in_gcd:
            continue
        groups = x_support(factor.poly)
        base = min(groups)
        steps = [tuple(a - b for a, b in zip(e, base)) for e in groups]
        g = gcd(*(x for s in steps for x in s))
        v = next((tuple(x // g for x in s) for s in steps if any(s)), None)
        if v is None or any(any(s[i] * v[j] != s[j] * v[i] for i in range(rank) for j in range(rank)) for s in steps):
            continue
        top = max(groups, key=lambda e: sum(a * b for a, b in zip(e, v)))
        n = sum((a - b) * c for a, b, c in zip(top, base, v)) // sum(c * c for c in v)
        low, high = groups[base], groups[top]
        if len(low) != 1 or len(high) != 1:
            continue
        (k0, c0), (kn, cn) = next(iter(low.items())), next(iter(high.items()))
        if c0 * cn <= 0:
            continue
        lines.append((v, k0 - kn, n, abs(c0 / cn)))
    if not lines:
        return [identity]
    primes = coprime_base([x for *_, ratio in lines for x in (ratio.numerator, ratio.denominator)])
    rows = [list(v) for v, *_ in lines]
    targets = [{"t": Fraction(k, n)} | {p: Fraction(e, n) for p, e in _valuations(ratio, primes).items()} for _, k, n, ratio in lines]
    keys = sorted({k for t in targets for k in t}, key=str)
    A = sympy.Matrix(rows)
    solution: dict[object, list[Fraction]] = {}
    for key in keys:
        b = sympy.Matrix([sympy.Rational(t.get(key, Fraction(0)).numerator, t.get(key, Fraction(0)).denominator) for t in targets])
        try:
            x, params = A.gauss_jordan_solve(b)
        except ValueError:  # the factors ask for incompatible tilts
            return [identity]
        x = x.subs({p: 0 for p in params})
        values = [Fraction(int(sympy.fraction(v)[0]), int(sympy.fraction(v)[1])) for v in x]
        if any(v.denominator != 1 for v in values):
            return [identity]
        solution[key] = values
    tilt = []
    for c in range(rank):
        r = prod((Fraction(p) ** int(solution[p][c]) for p in keys if p != "t"), start=Fraction(1))  # p: an element of the base
        tilt.append((r, int(solution["t"][c]) if "t" in solution else 0))
    return [identity] if tuple(tilt) == identity else [identity, tuple(tilt)]


def block_classes(block: Block) -> ClassBound | None:
    """The largest residue-class bound LK finds for one block (None: none above 1, or beyond what verify replays)."""
    if block.rank == 0:
        return None
    try:
        return _block_classes(block)
    except SchemaError:  # class sums the kernel would refuse to recompute (a tilt of huge powers): no LK claim
        return None


def untried_tilts(form: ExpForm) -> list[str]:
    """Notes on the blocks whose balancing tilt is not tried: its class sums would be over what verify replays."""
    notes, seen = [], set()
    for i, block in enumerate(form.blocks):
        if block.rank == 0 or block.Q_reduced in seen:
            continue
        seen.add(block.Q_reduced)
        work = [sum(tilt_digits(block.Q_reduced.terms, list(tilt))) for tilt in tilt_candidates(block)[1:]]
        notes += [f"residue classes of block {i + 1}: its balancing tilt was not tried (digits x exponents of the tilted "
                  f"coefficients {w:,}, over the verification limit {MAX_TILT_DIGITS:,})" for w in work if w > MAX_TILT_DIGITS]
    return notes


def _block_classes(block: Block) -> ClassBound | None:
    Q = block.Q_reduced.terms
    best: ClassBound | None = None
    for tilt in tilt_candidates(block):
        if sum(tilt_digits(Q, list(tilt))) > MAX_TILT_DIGITS:  # the kernel would refuse its class sums (`untried_tilts` says so)
            continue
        found = best_lattice(Q, block.rank, tilt)
        if found is None:
            continue
        basis, sums = found
        index = prod(row[i] for i, row in enumerate(basis))
        if best is None or index > best.index:
            table = tuple(sorted((rep, tuple(sorted(s.items()))) for rep, s in sums.items()))
            best = ClassBound(index, tuple(map(tuple, basis)), tilt, table)
    return best
