"""Specs with parameters: expressions whose numbers may be names (a, b, c, …), and grids of them.

`member_text(text, values)` substitutes the values for the parameter names — only in NAME tokens of
Python's tokenizer, never inside another word or a number — and the result is parsed by the ordinary
expression parser (the AST whitelist).  `parse_grid` reads ranges such as `a=1..8 b=a+1..8` (a bound
may name an earlier integer parameter, plus or minus an integer) and lists of exact non-negative
rationals such as `r=1/2,2,3` (read as data into Fractions, never evaluated); `grid_points` enumerates them.

`pair_family(text, names)` is the statement layer of the family theorem (Theorem P, DESIGN §9): it
decides, from the template's syntax tree alone, that every member is σ(a·q1) + σ(b·q1), for the two
parameter names given, and returns the lift G(u1, u2) = σ(u1) + σ(u2), of which F_{a,b}(q) = G(aq, bq).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from headfusion.spec.expressions import FUNCTIONS, VARIABLE, SpecError, parse_expression
from headfusion.spec.model import Spec

NAME = re.compile(r"[a-z][a-z0-9]{0,15}\Z")
RESERVED = FUNCTIONS | {"exp", "sin", "cos"}
MAX_VALUE = 10**6  # a parameter value
MAX_GRID_POINTS = 10_000  # points of one grid
MAX_TEMPLATE_CHARS = 2_000
MAX_LIST_VALUES = 64  # values of one listed range (r=1/2,2,3)
MAX_RANGE_CHARS = 1_000
BOUND = re.compile(r"\s*(?:(?P<int>\d+)|(?P<name>[a-z][a-z0-9]{0,15})\s*(?:(?P<sign>[+-])\s*(?P<offset>\d+))?)\s*\Z")
LISTED = re.compile(r"\s*(?P<name>[a-z][a-z0-9]{0,15})\s*=\s*(?P<values>[0-9/, ]+?)\s*\Z")
RATIONAL = re.compile(r"\s*(?P<num>\d{1,7})\s*(?:/\s*(?P<den>\d{1,7})\s*)?\Z")
RANGE = re.compile(r"\s*(?P<name>[a-z][a-z0-9]{0,15})\s*=\s*(?P<low>[^.]+?)\s*\.\.\s*(?P<high>.+?)\s*\Z")
PAIR_LIFT = "sigmoid(q1) + sigmoid(q2)"


def check_name(name: str) -> str:
    """A parameter name: lower-case letters and digits, starting with a letter, not a variable or function."""
    if not isinstance(name, str) or not NAME.match(name) or VARIABLE.match(name) or name in RESERVED:
        raise SpecError(f"parameter name {str(name)[:20]!r}: use lower-case letters/digits starting with a letter, "
                        f"not q1, q2, ... nor {', '.join(sorted(RESERVED))}")
    return name


def _name_tokens(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of every NAME token of a one-line template (SpecError if it does not tokenize)."""
    if not isinstance(text, str) or not text.strip():
        raise SpecError("empty expression")
    if len(text) > MAX_TEMPLATE_CHARS or "\n" in text or "\r" in text:
        raise SpecError(f"a parameterised expression is one line of at most {MAX_TEMPLATE_CHARS} characters")
    try:
        return [(t.start[1], t.end[1], t.string) for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type == tokenize.NAME]
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        raise SpecError(f"malformed expression: {exc}") from None


def names_used(text: str) -> list[str]:
    """The names of a template that are neither variables nor functions, in order of first use."""
    out: list[str] = []
    for _, _, name in _name_tokens(text):
        if not VARIABLE.match(name) and name not in FUNCTIONS | {"exp", "sin", "cos"} and name not in out:
            out.append(name)
    return out


Value = int | Fraction  # a parameter's value: an integer, or an exact rational from a list


def _checked_value(name: str, value: object) -> Value:
    """value as a parameter value: an integer in 0..MAX_VALUE, or a Fraction with numerator and denominator within it."""
    if isinstance(value, Fraction) and value.denominator == 1:
        value = int(value)
    if isinstance(value, Fraction):
        if 0 <= value.numerator <= MAX_VALUE and value.denominator <= MAX_VALUE:
            return value
    elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_VALUE:
        return value
    raise SpecError(f"parameter {name} = {str(value)[:20]}: an integer in 0..{MAX_VALUE}, or a fraction p/q of such integers, is needed")


def point_data(values: dict[str, Value]) -> dict[str, int | str]:
    """A point as JSON data: integers as numbers, other rationals as 'p/q' strings."""
    return {k: v if isinstance(v, int) else str(v) for k, v in values.items()}


def _whole_argument(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] stands alone between '(' or '[' or ',' and ')' or ']' or ',' (a whole argument)."""
    before, after = text[:start].rstrip()[-1:], text[end:].lstrip()[:1]
    return before in ("(", "[", ",") and after in (")", "]", ",")


def member_text(text: str, values: dict[str, Value]) -> str:
    """The template with each parameter's NAME tokens replaced by its value (SpecError on an unknown or unused name).

    A fraction is written p/q where it is a whole argument (log(r) → log(1/2)) and (p/q) elsewhere, so that
    r*q1 → (1/2)*q1 and a^r keep their meaning."""
    values = {check_name(name): _checked_value(name, value) for name, value in values.items()}
    used = names_used(text)
    unknown = [n for n in used if n not in values]
    if unknown:
        raise SpecError(f"unknown name '{unknown[0]}' in the expression (parameters given: {', '.join(values) or 'none'})")
    unused = [n for n in values if n not in used]
    if unused:
        raise SpecError(f"parameter {unused[0]} does not occur in the expression")
    out = text
    for start, end, name in reversed(_name_tokens(text)):
        if name in values:
            value = values[name]
            written = str(value) if isinstance(value, int) or _whole_argument(text, start, end) else f"({value})"
            out = out[:start] + written + out[end:]
    return out


@dataclass(frozen=True)
class Range:
    """One parameter's range: each bound an integer or an earlier parameter plus an offset, or a list of values."""

    name: str
    low: tuple[str | None, int]  # (earlier parameter or None, integer)
    high: tuple[str | None, int]
    listed: tuple[Value, ...] | None = None  # r=1/2,2,3: these values, in the order given (low and high unused)

    def values(self, point: dict[str, Value]) -> range | tuple[Value, ...]:
        if self.listed is not None:
            return self.listed
        low, high = ((point[n] if n else 0) + k for n, k in (self.low, self.high))
        return range(max(low, 0), high + 1)


def _listed(name: str, text: str) -> Range:
    """r=1/2,2,3: a list of 2 to MAX_LIST_VALUES distinct non-negative rationals, parsed as data (SpecError otherwise)."""
    items = text.split(",")
    if len(items) < 2:
        raise SpecError(f"{name}: a list has at least two values (r=1/2,2); a range of integers is {name}=LOW..HIGH")
    if len(items) > MAX_LIST_VALUES:
        raise SpecError(f"{name}: a list has at most {MAX_LIST_VALUES} values, got {len(items)}")
    values: list[Value] = []
    for item in items:
        match = RATIONAL.match(item)
        if not match:
            raise SpecError(f"{name}: a listed value is an integer or a fraction p/q (e.g. r=1/2,2,3), got {item.strip()[:20]!r}")
        den = int(match.group("den") or 1)
        if den == 0:
            raise SpecError(f"{name}: the value {item.strip()} has denominator 0")
        value = Fraction(int(match.group("num")), den)
        value = _checked_value(name, int(value) if value.denominator == 1 else value)
        if value in values:
            raise SpecError(f"{name}: the value {value} is listed twice")
        values.append(value)
    return Range(name, (None, 0), (None, 0), tuple(values))


def _bound(text: str, earlier: list[str], where: str, listed: tuple[str, ...] | list[str] = ()) -> tuple[str | None, int]:
    match = BOUND.match(text)
    if not match:
        raise SpecError(f"{where}: a bound is an integer or an earlier parameter ± an integer (e.g. a+1), got {text!r}")
    for digits in (match.group("int"), match.group("offset")):  # the limit named, not "not an integer" (issue 41)
        if digits and (len(digits) > len(str(MAX_VALUE)) or int(digits) > MAX_VALUE):
            raise SpecError(f"{where}: a bound or offset is at most {MAX_VALUE:,} ({len(str(MAX_VALUE))} digits, the "
                            f"largest parameter value), got {digits[:20]}{'…' if len(digits) > 20 else ''}")
    if match.group("int"):
        return None, int(match.group("int"))
    name = match.group("name")
    if name in listed:
        raise SpecError(f"{where}: {name} is a list of values; a bound names an integer parameter defined before it")
    if name not in earlier:
        raise SpecError(f"{where}: {name} is not a parameter defined before it")
    offset = int(match.group("offset") or 0)
    return name, -offset if match.group("sign") == "-" else offset


def parse_grid(items: list[str]) -> list[Range]:
    """Ranges 'a=1..8', 'b=a+1..8', 'r=1/2,2,3', … in order (SpecError on anything else)."""
    if not items:
        raise SpecError("a grid needs at least one range such as a=1..8")
    ranges: list[Range] = []
    for item in items:
        fits = isinstance(item, str) and len(item) <= MAX_RANGE_CHARS
        match = RANGE.match(item) if fits and ".." in item else LISTED.match(item) if fits else None
        if not match:
            raise SpecError(f"a range looks like a=1..8, b=a+1..8 or r=1/2,2,3 (at most {MAX_RANGE_CHARS} characters), "
                            f"got {str(item)[:40]!r}")
        name = match.group("name")
        if name in [r.name for r in ranges]:
            raise SpecError(f"parameter {name} has two ranges")
        if "values" in match.groupdict():
            ranges.append(_listed(name, match.group("values")))
            continue
        earlier = [r.name for r in ranges if r.listed is None]  # a bound names an integer parameter, not a listed one
        listed = [r.name for r in ranges if r.listed is not None]
        ranges.append(Range(name, _bound(match.group("low"), earlier, item, listed), _bound(match.group("high"), earlier, item, listed)))
    return ranges


def grid_points(ranges: list[Range]) -> list[dict[str, Value]]:
    """Every point of the grid in lexicographic order, a list in its given order (SpecError above MAX_GRID_POINTS, or when empty)."""
    points: list[dict[str, Value]] = [{}]
    for r in ranges:
        if sum(len(r.values(p)) for p in points) > MAX_GRID_POINTS:  # counted before the points are made
            raise SpecError(f"the grid has more than {MAX_GRID_POINTS} points")
        points = [{**p, r.name: v} for p in points for v in r.values(p)]
        if len(points) > MAX_GRID_POINTS:
            raise SpecError(f"the grid has more than {MAX_GRID_POINTS} points")
        if any(v > MAX_VALUE for p in points for v in p.values()):
            raise SpecError(f"a parameter value exceeds {MAX_VALUE}")
    if not points or not points[0]:
        raise SpecError("the grid is empty")
    return points


def _scaled_sigmoid(node: ast.AST, name: str) -> bool:
    """node is sigmoid(name*q1) or sigmoid(q1*name)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sigmoid"
            and len(node.args) == 1 and not node.keywords):
        return False
    arg = node.args[0]
    if not (isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mult)):
        return False
    sides = [arg.left, arg.right]
    return all(isinstance(s, ast.Name) for s in sides) and sorted(s.id for s in sides) == sorted([name, "q1"])


def pair_family(text: str, names: list[str]) -> tuple[Spec, str, str]:
    """(the lift G as a spec, the family's title, a slug) — SpecError unless every member is σ(a·q1) + σ(b·q1).

    The decision is made on the syntax tree of the template, with a and b the two names: the theorem
    (Theorem P) is then stated for all positive integers a ≠ b.
    """
    if not isinstance(names, list) or len(names) != 2 or names[0] == names[1]:
        raise SpecError("the theorem for a whole family names two distinct parameters: --every a,b")
    a, b = (check_name(n) for n in names)
    _name_tokens(text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        raise SpecError("malformed expression") from None
    body = tree.body
    if not (isinstance(body, ast.BinOp) and isinstance(body.op, ast.Add) and _scaled_sigmoid(body.left, a)
            and _scaled_sigmoid(body.right, b)):
        raise SpecError(f"the theorem for every {a} ≠ {b} is proved for sigmoid({a}*q1) + sigmoid({b}*q1) only "
                        "(Theorem P; with biases, each member is decided by Theorem Pβ: certify one member), "
                        "or run `headfusion atlas` over a grid")
    lift = Spec(PAIR_LIFT, None, "expression", PAIR_LIFT, "pair_lift", parse_expression(PAIR_LIFT))
    return lift, f"sigmoid({a}*q1) + sigmoid({b}*q1)", f"sigmoid_{a}_q1_sigmoid_{b}_q1_every_{a}_{b}"


def _biased_sigmoid(node: ast.AST, scale: str) -> str | None:
    """The bias name β if node is sigmoid(scale*q1 + β) (either order of the sum and of the product), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sigmoid"
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.BinOp)
            and isinstance(node.args[0].op, ast.Add)):
        return None
    arg = node.args[0]
    for scaled, bias in ((arg.left, arg.right), (arg.right, arg.left)):
        product_node = ast.Call(ast.Name("sigmoid", ast.Load()), [scaled], [])
        if _scaled_sigmoid(product_node, scale) and isinstance(bias, ast.Name):
            return bias.id
    return None


def _signed_term(node: ast.AST) -> tuple[int, ast.AST]:
    """(+1, node) or (−1, the operand of a leading minus)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -1, node.operand
    return 1, node


def biased_pair_family(text: str, names: list[str]) -> tuple[Spec, str, str, list[str]]:
    """(the lift G, title, slug, [a, b, β1, β2]) — SpecError unless every member is ±σ(a·q1 + β1) ± σ(b·q1 + β2).

    Theorem Pβ for the whole family: the template's syntax tree is ±sigmoid(a*q1 + b1) ± sigmoid(b*q1 + b2)
    with a, b the two scale names given and b1, b2 two further distinct names (real biases, never
    substituted); the lift is G(u1, u2) = ±σ(u1) ± σ(u2), of which F(q) = G(a·q + β1, b·q + β2).  The
    names may be given as a,b (the biases then read from the template) or as a,b,b1,b2.
    """
    if not isinstance(names, list) or len(names) not in (2, 4):
        raise SpecError("the theorem for every pair and bias names the two scales: --every a,b (or a,b,b1,b2)")
    a, b = (check_name(n) for n in names[:2])
    _name_tokens(text)
    try:
        body = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        raise SpecError("malformed expression") from None
    shape = (f"±sigmoid({a}*q1 + b1) ± sigmoid({b}*q1 + b2) with two bias names b1 ≠ b2 (Theorem Pβ; a weight other than ±1, "
             "a constant or a third term is not covered: certify one member, or run `headfusion atlas` over a grid)")
    if not (isinstance(body, ast.BinOp) and isinstance(body.op, (ast.Add, ast.Sub))):
        raise SpecError(f"the theorem for every {a} ≠ {b} and every bias is proved for {shape}")
    (s1, left), (s2, right) = _signed_term(body.left), _signed_term(body.right)
    s2 = -s2 if isinstance(body.op, ast.Sub) else s2
    biases = [_biased_sigmoid(left, a), _biased_sigmoid(right, b)]
    if None in biases or a == b or len({a, b, *biases}) != 4 or any(check_name(n) != n for n in biases):  # type: ignore[arg-type]
        raise SpecError(f"the theorem for every {a} ≠ {b} and every bias is proved for {shape}")
    every = [a, b, *biases]
    if len(names) == 4 and names != every:
        raise SpecError(f"--every {','.join(names)} does not name the template's scales and biases {','.join(every)}")
    lift_text = f"{'-' if s1 < 0 else ''}sigmoid(q1) {'-' if s2 < 0 else '+'} sigmoid(q2)"
    lift = Spec(lift_text, None, "expression", lift_text, "pair_lift", parse_expression(lift_text))
    title = f"{'-' if s1 < 0 else ''}sigmoid({a}*q1 + {biases[0]}) {'-' if s2 < 0 else '+'} sigmoid({b}*q1 + {biases[1]})"
    slug = re.sub(r"[^a-z0-9]+", "_", title.replace("-", " minus ")).strip("_") + f"_every_{a}_{b}_{biases[0]}_{biases[1]}"
    return lift, title, slug, every  # type: ignore[return-value]
