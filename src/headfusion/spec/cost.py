"""The cost model: what an input asks for, estimated from the parsed model before any work.

`check_cost(model)` runs on every spec (`load_spec`) before the exponential form is built;
it is linear in the size of the model and refuses, with one line naming the limit and the
way around it, an input whose exact expansion would not fit in time or memory:

| quantity                                                    | limit                 |
|-------------------------------------------------------------|-----------------------|
| variables (the dimension d, the largest q index)            | MAX_VARIABLES         |
| digits of any rational (keys, weights, values, scales)      | MAX_DIGITS            |
| variables sharing one block (heads linked by variables)     | MAX_BLOCK_VARIABLES   |
| key width of a block along a variable, in lattice steps     | MAX_DEGREE            |
| t-degree of a block (t = e^(1/L), L the lcm of e^b denominators) | MAX_T_DEGREE     |

The key width is an estimate: along each variable the keys' coordinates, measured in units
of the gcd of their differences, summed over the block's heads (the degree of Q = Π D_h in
that variable).  The exact engine checks the exact lattice degrees again
(`algebra.expform.check_degrees`).  The parser bounds numbers while it reads them
(`bounded`), so `((10**64)**64)**64` is refused before it is computed.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm

from headfusion.spec.errors import ResourceLimit
from headfusion.spec.model import MultiHead, group_by_shared_variables

MAX_VARIABLES = 100_000
MAX_DIGITS = 1_000
MAX_BITS = 3_322  # ≈ MAX_DIGITS decimal digits
MAX_BLOCK_VARIABLES = 24
MAX_DEGREE = 2_048
MAX_BINOMIAL_DEGREE = 100_000  # blocks of two-key heads: 1 + x^n factors in closed form (cyclotomic)
MAX_T_DEGREE = 1_024


def too_many_digits(value: Fraction | int) -> bool:
    """True when the numerator or denominator has more than about MAX_DIGITS digits (by bit length)."""
    if isinstance(value, int):
        return abs(value).bit_length() > MAX_BITS
    return abs(value.numerator).bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS


def digits_refusal(what: str) -> ResourceLimit:
    return ResourceLimit(f"{what} has more than {MAX_DIGITS} digits (limit on every number of a spec)")


def check_dimension(d: int) -> None:
    """The number of variables (the --d of an expression or family) within the limit."""
    if d > MAX_VARIABLES:
        raise ResourceLimit(f"--d {d} exceeds the limit of {MAX_VARIABLES} variables: use a smaller d")


def check_cost(model: MultiHead) -> None:
    """Refuse (ResourceLimit, one line) a model whose exact analysis would exceed the limits."""
    check_dimension(model.dimension)
    _check_numbers(model)
    for heads, variables in _blocks(model):
        _check_block(model, heads, variables)


def _check_numbers(model: MultiHead) -> None:
    if too_many_digits(model.constant):
        raise digits_refusal("the constant")
    seen: set[int] = set()  # numbers shared between atoms (a family's weight 1) are checked once
    for head, scale in zip(model.heads, model.scales):
        if too_many_digits(scale):
            raise digits_refusal(f"the scale of {_label(head.label)}")
        for atom in head.atoms:
            for x in (*(c for _, c in atom.key), atom.weight.coef, atom.weight.exponent, atom.value):
                if id(x) not in seen:
                    if too_many_digits(x):
                        raise digits_refusal(f"a number in {_label(head.label)}")
                    seen.add(id(x))


def _label(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _blocks(model: MultiHead) -> list[tuple[list[int], list[int]]]:
    """Heads grouped by shared variables, as the exponential form groups them."""
    return group_by_shared_variables([sorted({j for atom in head.atoms for j, _ in atom.key}) for head in model.heads])


def _check_block(model: MultiHead, heads: list[int], variables: list[int]) -> None:
    first = _label(model.heads[heads[0]].label)
    if len(variables) > MAX_BLOCK_VARIABLES:
        raise ResourceLimit(
            f"{first} and the heads sharing its variables form one block over {len(variables)} variables; "
            f"the exact engine handles at most {MAX_BLOCK_VARIABLES} per block"
        )
    if len(heads) == 1 and len(model.heads[heads[0]].atoms) <= 2:
        # one head with at most two keys: along every variable its keys span one lattice step (L2), within
        # every degree limit; only its weights remain to be checked (the common case of sums over coordinates)
        _check_t_degree(model, heads, first)
        return
    # per variable: the gcd of all coordinate differences in the block (coordinates of a head
    # are taken relative to its first atom, missing coordinates are 0)
    steps: dict[int, Fraction] = {}
    for h in heads:
        atoms = model.heads[h].atoms
        for j in variables:
            coords = _coordinates(atoms, j)
            ref = coords[0]
            for c in coords:
                if c != ref:
                    steps[j] = _fraction_gcd(steps.get(j, Fraction(0)), abs(c - ref))
    # heads with two keys have binomial denominators, factored in closed form: a wider limit
    limit = MAX_BINOMIAL_DEGREE if all(len({a.key for a in model.heads[h].atoms}) <= 2 for h in heads) else MAX_DEGREE
    for j in variables:
        step = steps.get(j)
        if not step:
            continue
        degree = 0
        for h in heads:
            coords = _coordinates(model.heads[h].atoms, j)
            degree += (max(coords) - min(coords)) / step
        if degree > limit:
            raise ResourceLimit(
                f"{first}: the keys along q{j + 1} span {_short(degree)} lattice steps in one block "
                f"(limit {limit}); the exact engine cannot expand this yet"
            )
    _check_t_degree(model, heads, first)


def _check_t_degree(model: MultiHead, heads: list[int], first: str) -> None:
    """The powers of t = e^(1/L) that the block's weights e^b span, within MAX_T_DEGREE."""
    exponents = [a.weight.exponent for h in heads for a in model.heads[h].atoms]
    if not any(exponents):
        return
    scale = lcm(1, *(b.denominator for b in exponents))
    t_degree = sum((max(e) - min(e)) * scale for e in
                   ([a.weight.exponent for a in model.heads[h].atoms] for h in heads))
    if t_degree > MAX_T_DEGREE:
        raise ResourceLimit(
            f"{first}: the weights e^b of one block span {_short(t_degree)} powers of t = e^(1/{_short(scale)}) "
            f"(limit {MAX_T_DEGREE}); use weights with small denominators in b"
        )


def _coordinates(atoms: tuple, j: int) -> list[Fraction]:
    return [next((c for i, c in atom.key if i == j), Fraction(0)) for atom in atoms]


def _fraction_gcd(a: Fraction, b: Fraction) -> Fraction:
    """gcd of two non-negative rationals (the largest r with a/r, b/r integers)."""
    if not a:
        return b
    if not b:
        return a
    den = lcm(a.denominator, b.denominator)
    return Fraction(gcd(a.numerator * (den // a.denominator), b.numerator * (den // b.denominator)), den)


def _short(value: Fraction | int) -> str:
    text = str(int(value)) if Fraction(value).denominator == 1 else str(float(value))
    return text if len(text) <= 12 else f"about 10^{len(str(int(value))) - 1}"
