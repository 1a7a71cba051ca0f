"""The fused (product) head of an exponential form, atom by atom (DESIGN §2, upper bounds).

One atom per tuple (k_B)_B of keys of the blocks' heads: weight Π_B q_B(k_B) and value
c + Σ_B p_B(k_B)/q_B(k_B), where p_B/q_B are the block head's numerator and denominator
coefficients at x^{k_B}.  Two exact paths give the same atoms:

* weights with e^b (coefficients in Q[t^±]): products of t-polynomials (`_t_atoms`);
* rational weights (every coefficient a constant in t, as for W_d): integer arithmetic
  on per-block tables (`_rational_tables`).  Weights multiply as integer numerator and
  denominator, values add over one common denominator, and blocks are pre-combined in
  chunks so each atom costs one multiplication, one addition and two gcds.

`atom_texts` writes the atoms as the exact text `json.dumps(..., indent=2)` gives them,
one atom at a time, so lists of 10^6 atoms stream in bounded memory (`proof.analysis`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from itertools import product as cartesian
from math import gcd, lcm, prod
from typing import Callable, Iterator

from headfusion.algebra.exact import t_ratio_to_json
from headfusion.algebra.expform import MAX_LISTED_ATOMS, ExpForm, TooLarge, multihead_polys, x_support
from headfusion.algebra.laurent import LPoly, exact_divide
from headfusion.spec.numbers import rational_to_json

MAX_STREAMED_ATOMS = 1 << 20  # atoms written by a streamed list (W_20: 1,048,576 atoms)
MAX_STREAMED_ENTRIES = 24 << 20  # atoms × dimension (key entries) of a streamed list
MAX_LISTED_ENTRIES = 24 << 16  # atoms × dimension of a list held in memory
CHUNK = 4096  # blocks are pre-combined into tables of at most this many entries

TPolyDict = dict[int, Fraction]


@dataclass(frozen=True)
class FusedAtom:
    """One atom of the fused head: exact weight w(t) and value num(t)/den(t)."""

    block_coords: tuple[tuple[int, ...], ...]
    weight: TPolyDict
    value_num: TPolyDict
    value_den: TPolyDict


def check_list_size(form: ExpForm, streamed: bool) -> None:
    """Refuse (TooLarge, one line) an atom list beyond the limits of its output mode."""
    atoms, dimension = form.upper_bound, max(form.model.dimension, 1)
    limit, entries = (MAX_STREAMED_ATOMS, MAX_STREAMED_ENTRIES) if streamed else (MAX_LISTED_ATOMS, MAX_LISTED_ENTRIES)
    if atoms > limit:
        where = "" if streamed else " in memory (--json streams up to {:,})".format(MAX_STREAMED_ATOMS)
        raise TooLarge(f"the fused head has {atoms} atoms; atom lists are limited to {limit}{where}: "
                       "use --no-atoms-list for the structural answer")
    if atoms * dimension > entries:
        raise TooLarge(f"the fused head's atom list has {atoms} keys of {dimension} entries; lists are limited to "
                       f"{entries} key entries: use --no-atoms-list for the structural answer")


# -- the t-polynomial path (weights with e^b) ---------------------------------------------


def _t_mul(a: TPolyDict, b: TPolyDict) -> TPolyDict:
    out: TPolyDict = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, Fraction(0)) + x * y
    return {k: v for k, v in out.items() if v}


def _t_add(a: TPolyDict, b: TPolyDict) -> TPolyDict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, Fraction(0)) + v
    return {k: v for k, v in out.items() if v}


def _per_block(form: ExpForm) -> list[list[tuple[tuple[int, ...], TPolyDict, TPolyDict]]]:
    """Per block, (k, q_B(k), p_B(k)) for the keys k of the block's head in sorted order."""
    per_block = []
    for block in form.blocks:
        den = x_support(block.head_denominator)
        num = x_support(block.head_numerator)
        per_block.append([(k, den[k], num.get(k, {})) for k in sorted(den)])
    return per_block


def _t_atoms(form: ExpForm) -> Iterator[FusedAtom]:
    constant = {0: form.constant} if form.constant else {}
    for choice in cartesian(*_per_block(form)):
        weight: TPolyDict = {0: Fraction(1)}
        value_num, value_den = constant, {0: Fraction(1)}
        for _, q, p in choice:
            weight = _t_mul(weight, q)
            value_num = _t_add(_t_mul(value_num, q), _t_mul(p, value_den))  # value += p/q
            value_den = _t_mul(value_den, q)
        yield FusedAtom(tuple(k for k, _, _ in choice), weight, value_num, value_den)


# -- the rational path ----------------------------------------------------------------------


def _rational_blocks(form: ExpForm) -> list[list[tuple[tuple[int, ...], Fraction, Fraction]]] | None:
    """Per block, (k, weight q_B(k), value p_B(k)/q_B(k)) when every coefficient is free of t, else None."""
    out = []
    for entries in _per_block(form):
        rows = []
        for k, q, p in entries:
            if set(q) != {0} or not set(p) <= {0}:
                return None
            rows.append((k, q[0], p.get(0, Fraction(0)) / q[0]))
        out.append(rows)
    return out


def _fast_atoms(form: ExpForm, blocks: list) -> Iterator[FusedAtom]:
    for choice in cartesian(*blocks):
        weight = prod((w for _, w, _ in choice), start=Fraction(1))
        value = form.constant + sum((v for _, _, v in choice), start=Fraction(0))
        yield FusedAtom(tuple(k for k, _, _ in choice), {0: weight}, {0: value} if value else {}, {0: Fraction(1)})


def fused_atoms(form: ExpForm) -> Iterator[FusedAtom]:
    """Atoms of the fused head, in lexicographic order of block coordinates (L1 merged)."""
    blocks = _rational_blocks(form)
    return _t_atoms(form) if blocks is None else _fast_atoms(form, blocks)


def fused_atom_json(form: ExpForm, atom: FusedAtom) -> dict:
    """JSON {key, weight, value} of a fused atom; keys in the user's q coordinates."""
    return {
        "key": [rational_to_json(v) for v in form.key(atom.block_coords)],
        "weight": t_ratio_to_json(atom.weight, {0: Fraction(1)}, form.t_scale),
        "value": t_ratio_to_json(atom.value_num, atom.value_den, form.t_scale),
    }


Entry = tuple[object, int, int, int]  # (key piece, weight numerator, weight denominator, value numerator)


def _key_segments(form: ExpForm) -> tuple[list, list[list[int]]] | None:
    """The q indices whose key entries each block writes (in key order), or None if blocks interleave.

    Block B writes its own variables and the unused variables after them (constant: the
    heads' base); `head` lists the unused variables before the first block's.
    """
    owner: dict[int, int] = {}
    for b, block in enumerate(form.blocks):
        for j in block.variables:
            owner[j] = b
    owners = [owner[j] for j in sorted(owner)]
    if owners != sorted(owners):
        return None
    head: list[int] = []
    columns: list[list[int]] = [[] for _ in form.blocks]
    current = None
    for j in range(form.model.dimension):
        current = owner.get(j, current)
        (head if current is None else columns[current]).append(j)
    return head, columns


def _rational_tables(form: ExpForm, piece: Callable[[list], object], join: Callable[[object, object], object]):
    """(L, offset, chunk tables) for the rational path, or None when it does not apply.

    An atom is the combination of one entry per table: key pieces joined, weights
    multiplied, value numerators added; its value is (offset + Σ value numerators)/L.
    """
    blocks = _rational_blocks(form)
    segments = _key_segments(form) if blocks is not None else None
    if blocks is None or segments is None:
        return None
    head, columns = segments
    L = lcm(form.constant.denominator, *(v.denominator for rows in blocks for _, _, v in rows))
    base = form.base
    tables: list[list[Entry]] = []
    current: list[Entry] = [(piece([base.get(j, Fraction(0)) for j in head]), 1, 1, 0)]
    for block, rows, cols in zip(form.blocks, blocks, columns):
        entries: list[Entry] = []
        for k, w, v in rows:
            shifted = tuple(c + s for c, s in zip(k, block.shift))
            moved = dict(zip(block.variables, block.basis.point(shifted))) if any(shifted) else {}
            values = [base.get(j, Fraction(0)) + moved.get(j, Fraction(0)) for j in cols]
            entries.append((piece(values), w.numerator, w.denominator,
                            v.numerator * (L // v.denominator)))
        if len(current) * len(entries) > CHUNK:
            tables.append(current)
            current = [(piece([]), 1, 1, 0)]
        current = [(join(a[0], b[0]), a[1] * b[1], a[2] * b[2], a[3] + b[3]) for a in current for b in entries]
    tables.append(current)
    return L, form.constant.numerator * (L // form.constant.denominator), tables


def _combined(tables: list[list[Entry]], join: Callable[[object, object], object]) -> Iterator[Entry]:
    """Entries of the product of tables (all but the last combined recursively), in order."""
    if len(tables) == 1:
        yield from tables[0]
        return
    last = tables[-1]
    for a in _combined(tables[:-1], join):
        ka, wa, da, va = a
        for kb, wb, db, vb in last:
            yield join(ka, kb), wa * wb, da * db, va + vb


def _ratio(num: int, den: int) -> tuple[int, int]:
    g = gcd(num, den)
    return (num // g, den // g) if g > 1 else (num, den)


def atom_dicts(form: ExpForm) -> Iterator[dict]:
    """`fused_atom_json` of every atom, in order (integer arithmetic when the weights are rational)."""
    fast = _rational_tables(form, lambda values: tuple(rational_to_json(v) for v in values), lambda a, b: a + b)
    if fast is None:
        for atom in fused_atoms(form):
            yield fused_atom_json(form, atom)
        return
    L, offset, tables = fast
    for key, wn, wd, vn in _combined(tables, lambda a, b: a + b):
        wn, wd = _ratio(wn, wd)
        vn, vd = _ratio(vn + offset, L)
        yield {"key": list(key), "weight": wn if wd == 1 else f"{wn}/{wd}", "value": vn if vd == 1 else f"{vn}/{vd}"}


def _scalar(value: object) -> str:
    return str(value) if isinstance(value, int) else json.dumps(value)


def atom_texts(form: ExpForm, indent: int) -> Iterator[str]:
    """Each atom as `json.dumps(indent=2)` writes a list item at `indent` spaces (no separators)."""
    pad, inner = " " * indent, " " * (indent + 2)
    sep = ",\n" + inner + "  "
    open_, middle, close = f"{pad}{{\n{inner}\"key\": [\n{inner}  ", f"\n{inner}],\n{inner}\"weight\": ", f"\n{pad}}}"
    empty = f"{pad}{{\n{inner}\"key\": [],\n{inner}\"weight\": "

    def text(key: str, weight: str, value: str) -> str:
        start = open_ + key + middle if key else empty
        return f"{start}{weight},\n{inner}\"value\": {value}{close}"

    fast = _rational_tables(form, lambda values: sep.join(_scalar(rational_to_json(v)) for v in values),
                            lambda a, b: (a + sep + b if b else a) if a else b)
    if fast is None:
        for atom in atom_dicts(form):
            yield text(sep.join(_scalar(k) for k in atom["key"]), _scalar(atom["weight"]), _scalar(atom["value"]))
        return
    L, offset, tables = fast
    for key, wn, wd, vn in _combined(tables, lambda a, b: (a + sep + b if b else a) if a else b):
        if wd != 1:
            wn, wd = _ratio(wn, wd)
        if L != 1:
            vn, vd = _ratio(vn + offset, L)
            value = str(vn) if vd == 1 else f'"{vn}/{vd}"'
        else:
            value = str(vn + offset)
        yield text(key, str(wn) if wd == 1 else f'"{wn}/{wd}"', value)


# -- the fused head as polynomials ---------------------------------------------------------


def fused_head_polys(form: ExpForm) -> tuple[LPoly, LPoly, tuple[int, ...]]:
    """(N, D) of the fused head over the concatenated block coordinates plus t.

    Returns also the offsets of each block's coordinates.  Only for heads small enough
    to list (raises TooLarge otherwise).
    """
    if form.upper_bound > MAX_LISTED_ATOMS:
        raise TooLarge(f"the fused head has {form.upper_bound} atoms; explicit lists are limited to {MAX_LISTED_ATOMS}")
    widths = [b.rank for b in form.blocks]
    offsets = tuple(sum(widths[:i]) for i in range(len(widths)))
    nvars = sum(widths) + 1
    num: dict[tuple[int, ...], Fraction] = {}
    den: dict[tuple[int, ...], Fraction] = {}
    for atom in fused_atoms(form):
        x = tuple(c for coords in atom.block_coords for c in coords)
        # value·weight = value_num·weight/value_den; value_den divides weight exactly (both are Π q_B).
        vw = _t_div_exact(_t_mul(atom.value_num, atom.weight), atom.value_den)
        for k, c in atom.weight.items():
            den[x + (k,)] = c
        for k, c in vw.items():
            num[x + (k,)] = c
    return LPoly(nvars, num), LPoly(nvars, den), offsets


def _t_div_exact(a: TPolyDict, b: TPolyDict) -> TPolyDict:
    """a / b for Laurent polynomials in t when b divides a (here b is a product of weights)."""
    if not a:
        return {}
    if len(b) == 1:
        (kb, cb), = b.items()
        return {k - kb: c / cb for k, c in a.items()}
    pa = LPoly(1, {(k,): c for k, c in a.items()})
    pb = LPoly(1, {(k,): c for k, c in b.items()})
    quotient = exact_divide(pa, pb)
    if quotient is None:
        raise ArithmeticError("value denominator does not divide the weight")
    return {e[0]: c for e, c in quotient.terms.items()}


def identity_holds(form: ExpForm) -> bool:
    """Exact check N·Q = D·P (coefficient comparison) for the fused head against Σ of heads."""
    N, D, _ = fused_head_polys(form)
    P, Q = multihead_polys(form)
    return (N * Q - D * P).terms == {}
