"""Spec parsing: expression strings, family names and TOML paths → MultiHead.

User input is data.  Expressions are parsed with `ast.parse` and walked with a
whitelist of node types; nothing is evaluated by Python or sympy.  Decimal literals
are read from their source text, so `0.1` is exactly 1/10.

No silent text: the whole text is the function.  Python's tokenizer would drop a
comment (`# ...`), join lines at a backslash and NFKC-normalise look-alike letters
(`ｑ1`, `𝐪1` → `q1`), so an expression must be printable ASCII without `#` or a backslash;
anything else is refused with its column (decision: look-alikes such as `−` U+2212 or
`×` are refused, not mapped, so the text a certificate shows is the text parsed).
Every number is bounded while it is read (`spec.cost.MAX_DIGITS`), before any power or
product is computed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Union

from headfusion.spec.cost import MAX_BITS, MAX_DIGITS, MAX_VARIABLES, too_many_digits
from headfusion.spec.display import printable
from headfusion.spec.errors import InputError, ResourceLimit
from headfusion.spec.flatsum import sum_groups
from headfusion.spec.numbers import Weight
from headfusion.spec.model import Atom, Head, Key, MultiHead

MAX_EXPRESSION_CHARS = 200_000
MAX_ABS_EXPONENT = 64
VARIABLE = re.compile(r"q([1-9][0-9]*)\Z")


class SpecError(InputError):
    """Bad user input: the message is one line for stderr (exit code 2)."""


@dataclass(frozen=True)
class Affine:
    """A logit: Σ coeffs[j]·q_j + bias + log(log_arg)."""

    coeffs: tuple[tuple[int, Fraction], ...] = ()
    bias: Fraction = Fraction(0)
    log_arg: Fraction = Fraction(1)

    def add(self, other: "Affine", sign: int = 1) -> "Affine":
        merged: dict[int, Fraction] = dict(self.coeffs)
        for j, c in other.coeffs:
            merged[j] = merged.get(j, Fraction(0)) + sign * c
        log_arg = self.log_arg * other.log_arg ** sign
        return Affine(_clean(merged), self.bias + sign * other.bias, log_arg)

    def times(self, factor: Fraction) -> "Affine":
        if self.log_arg != 1 and factor.denominator != 1:
            raise SpecError("log(r) may only be multiplied by integers (the weight must stay rational)")
        if abs(factor) > MAX_ABS_EXPONENT and self.log_arg != 1:
            raise SpecError(f"multiple of log(r) too large (limit {MAX_ABS_EXPONENT})")
        if self.log_arg != 1 and _bits(self.log_arg) * abs(factor) > MAX_BITS:
            raise ResourceLimit(f"a multiple of log(r) would have more than {MAX_DIGITS} digits (limit on every number)")
        return Affine(
            _clean({j: c * factor for j, c in self.coeffs}),
            self.bias * factor,
            self.log_arg ** int(factor) if self.log_arg != 1 else Fraction(1),
        )

    def key(self) -> Key:
        return tuple((j - 1, c) for j, c in self.coeffs)

    def weight(self) -> Weight:
        return Weight(self.log_arg, self.bias)


def _bits(value: Fraction) -> int:
    return max(abs(value.numerator).bit_length(), value.denominator.bit_length())


def _bounded(value: "Value", text: str) -> "Value":
    """value, after checking that every number in it has at most about MAX_DIGITS digits."""
    if isinstance(value, Fraction):
        numbers: list[Fraction] = [value]
    elif isinstance(value, Affine):
        numbers = [c for _, c in value.coeffs] + [value.bias, value.log_arg]
    else:
        numbers = [value.constant] + [s for s, _ in value.terms]
    if any(too_many_digits(x) for x in numbers):
        raise ResourceLimit(f"a number in {_short_text(text)} has more than {MAX_DIGITS} digits (limit on every number)")
    return value


def did_you_mean(name: str, known) -> str:
    """ "; did you mean 'sigmoid'?" for a near miss (difflib), else ""."""
    import difflib

    close = difflib.get_close_matches(name.lower(), [k.lower() for k in known], n=1, cutoff=0.6)
    match = next((k for k in known if close and k.lower() == close[0]), None)
    return f"; did you mean '{match}'?" if match else ""


def _short_text(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _clean(coeffs: dict[int, Fraction]) -> tuple[tuple[int, Fraction], ...]:
    return tuple(sorted((j, c) for j, c in coeffs.items() if c != 0))


@dataclass(frozen=True)
class HeadTerm:
    """An unfinished head: logits (affine forms) and values; keys fixed once d is known."""

    logits: tuple[Affine, ...]
    values: tuple[Fraction, ...]
    label: str


@dataclass(frozen=True)
class Combination:
    """constant + Σ scale·head."""

    constant: Fraction = Fraction(0)
    terms: tuple[tuple[Fraction, HeadTerm], ...] = field(default=())

    def add(self, other: "Combination", sign: int = 1) -> "Combination":
        return Combination(
            self.constant + sign * other.constant,
            self.terms + tuple((sign * s, h) for s, h in other.terms),
        )

    def times(self, factor: Fraction) -> "Combination":
        return Combination(self.constant * factor, tuple((s * factor, h) for s, h in self.terms))


Value = Union[Fraction, Affine, Combination]


def _as_affine(value: Value) -> Affine:
    if isinstance(value, Fraction):
        return Affine(bias=value)
    if isinstance(value, Affine):
        return value
    raise SpecError("a head (sigmoid/tanh/attn) cannot appear inside a logit")


def _as_combination(value: Value) -> Combination:
    if isinstance(value, Fraction):
        return Combination(constant=value)
    if isinstance(value, Combination):
        return value
    raise SpecError("a bare logit is not a function of heads: wrap it in sigmoid(...), tanh(...) or attn(...)")


class _Evaluator:
    """Walks a whitelisted AST and builds exact values."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.single_line = "\n" not in source and "\r" not in source
        self.encoded = source.encode("utf-8")
        self.max_variable = 0

    def value(self, node: ast.AST) -> Value:
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            return self._sum(node)
        if isinstance(node, ast.Constant):
            return self._constant(node)
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.value(node.operand)
            return operand if isinstance(node.op, ast.UAdd) else _negate(operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return self._product(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self._quotient(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return self._power(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor):
            raise SpecError(f"'^' in {_short_text(self._text(node))} is not a power here: write ** (e.g. 2**3)")
        if isinstance(node, ast.BinOp):
            raise SpecError(f"unsupported operator in {_short_text(self._text(node))} (allowed: + - * / and ** of numbers)")
        raise SpecError(f"unsupported syntax: {_describe(node)}")

    def _sum(self, node: ast.BinOp) -> Value:
        # Long sums are left-nested BinOps: walk the spine iteratively, not recursively.
        operands: list[tuple[int, ast.AST]] = []
        current: ast.AST = node
        while isinstance(current, ast.BinOp) and isinstance(current.op, (ast.Add, ast.Sub)):
            operands.append((1 if isinstance(current.op, ast.Add) else -1, current.right))
            current = current.left
        operands.append((1, current))
        total: Value = Fraction(0)
        for sign, operand in reversed(operands):
            total = _add(total, self.value(operand), sign)
        return total

    def _constant(self, node: ast.Constant) -> Fraction:
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise SpecError(f"unsupported constant {self._text(node)}")
        if isinstance(node.value, int):
            if abs(node.value).bit_length() > MAX_BITS:
                raise ResourceLimit(f"an integer with more than {MAX_DIGITS} digits (limit on every number)")
            return Fraction(node.value)
        text = self._text(node)
        mantissa, _, exponent = text.lower().replace("_", "").partition("e")
        if len(mantissa) > MAX_DIGITS or (exponent and len(exponent.lstrip("+-0")) > 4) or (
            exponent and abs(int(exponent)) > MAX_DIGITS
        ):
            raise ResourceLimit(f"the number {_short_text(text)} has more than {MAX_DIGITS} digits (limit on every number)")
        try:
            return Fraction(text.replace("_", ""))
        except (ValueError, ZeroDivisionError):
            raise SpecError(f"cannot read the number {text!r} exactly") from None

    def _name(self, node: ast.Name) -> Affine:
        match = VARIABLE.match(node.id)
        if not match:
            if node.id in FUNCTIONS or node.id in ("exp", "sin", "cos"):
                raise SpecError(f"'{node.id}' must be called with an argument")
            raise SpecError(f"unknown variable '{node.id}' (variables are q1, q2, ...)")
        if len(match.group(1)) > len(str(MAX_VARIABLES)) or int(match.group(1)) > MAX_VARIABLES:
            raise ResourceLimit(f"variable {_short_text(node.id)} is beyond q{MAX_VARIABLES}, the limit on variables")
        index = int(match.group(1))
        self.max_variable = max(self.max_variable, index)
        return Affine(coeffs=((index, Fraction(1)),))

    def _product(self, node: ast.BinOp) -> Value:
        left, right = self.value(node.left), self.value(node.right)
        if isinstance(left, Fraction) and isinstance(right, Fraction):
            return _bounded(left * right, self._text(node))
        if isinstance(right, Fraction):
            return _bounded(_scale(left, right), self._text(node))
        if isinstance(left, Fraction):
            return _bounded(_scale(right, left), self._text(node))
        if isinstance(left, Affine) and isinstance(right, Affine):
            raise SpecError(f"nonlinear logit: {self._text(node)} (logits must be affine in q)")
        raise SpecError(f"products of heads are not supported: {self._text(node)}")

    def _quotient(self, node: ast.BinOp) -> Value:
        left, right = self.value(node.left), self.value(node.right)
        if not isinstance(right, Fraction):
            raise SpecError(f"division by a non-constant: {self._text(node)}")
        if right == 0:
            raise SpecError(f"division by zero: {self._text(node)}")
        return _bounded(left / right if isinstance(left, Fraction) else _scale(left, 1 / right), self._text(node))

    def _power(self, node: ast.BinOp) -> Fraction:
        base, exponent = self.value(node.left), self.value(node.right)
        if not (isinstance(base, Fraction) and isinstance(exponent, Fraction) and exponent.denominator == 1):
            raise SpecError(f"only rational numbers to integer powers are allowed: {self._text(node)}")
        if abs(exponent) > MAX_ABS_EXPONENT:
            raise SpecError(f"exponent too large (limit {MAX_ABS_EXPONENT}): {self._text(node)}")
        if base == 0 and exponent < 0:
            raise SpecError(f"division by zero: {self._text(node)}")
        if _bits(base) * abs(int(exponent)) > MAX_BITS + 64:
            raise ResourceLimit(f"{_short_text(self._text(node))} has more than {MAX_DIGITS} digits (limit on every number)")
        return _bounded(base ** int(exponent), self._text(node))

    def _call(self, node: ast.Call) -> Value:
        if not isinstance(node.func, ast.Name):
            raise SpecError(f"unsupported call: {self._text(node.func)}")
        name = node.func.id
        if name == "exp":
            raise SpecError("unknown function 'exp': exp(...) is not a head; write sigmoid(L) for 1/(1 + exp(-L)), tanh(L) or attn([...], [...]); "
                            "a weight e^b is a bias b inside a logit, e.g. sigmoid(q1 + 1/2)")
        if name not in FUNCTIONS:
            raise SpecError(f"unknown function '{name}'{did_you_mean(name, FUNCTIONS)} (allowed: {', '.join(sorted(FUNCTIONS))})")
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise SpecError(f"{name}() takes plain positional arguments")
        expected = 2 if name == "attn" else 1
        if len(node.args) != expected:
            raise SpecError(f"{name}() takes {expected} argument{'s' if expected > 1 else ''}, got {len(node.args)}")
        label = self._text(node)
        if name == "log":
            arg = self.value(node.args[0])
            if not isinstance(arg, Fraction):
                raise SpecError(f"log() takes a rational number, got {self._text(node.args[0])}")
            if arg <= 0:
                raise SpecError(f"log of a non-positive number: {label}")
            return Affine(log_arg=arg)
        if name == "attn":
            return self._attn(node, label)
        logit = _as_affine(self.value(node.args[0]))
        if name == "sigmoid":
            head = HeadTerm((logit, Affine()), (Fraction(1), Fraction(0)), label)
        else:  # tanh(ℓ) = 2σ(2ℓ) − 1 = (e^{2ℓ} − 1)/(e^{2ℓ} + 1)
            head = HeadTerm((logit.times(Fraction(2)), Affine()), (Fraction(1), Fraction(-1)), label)
        return Combination(terms=((Fraction(1), head),))

    def _attn(self, node: ast.Call, label: str) -> Combination:
        logits_node, values_node = node.args
        if not isinstance(logits_node, ast.List) or not isinstance(values_node, ast.List):
            raise SpecError("attn() takes two bracketed lists: attn([L1, ..., Ln], [v1, ..., vn])")
        if len(logits_node.elts) != len(values_node.elts):
            raise SpecError(
                f"attn() lists differ in length: {len(logits_node.elts)} logits, {len(values_node.elts)} values"
            )
        if not logits_node.elts:
            raise SpecError("attn() needs at least one atom")
        logits = tuple(_as_affine(self.value(e)) for e in logits_node.elts)
        values = []
        for e in values_node.elts:
            v = self.value(e)
            if not isinstance(v, Fraction):
                raise SpecError(f"attn() values must be rational numbers, got {self._text(e)}")
            values.append(v)
        return Combination(terms=((Fraction(1), HeadTerm(logits, tuple(values), label)),))

    def _text(self, node: ast.AST) -> str:
        """Source text of a node; sliced directly on one-line input (get_source_segment re-splits every call)."""
        if self.single_line and getattr(node, "end_col_offset", None) is not None:
            return self.encoded[node.col_offset : node.end_col_offset].decode("utf-8")  # offsets are in UTF-8 bytes
        return ast.get_source_segment(self.source, node) or type(node).__name__


FUNCTIONS = frozenset({"sigmoid", "tanh", "attn", "log"})


def _describe(node: ast.AST) -> str:
    names = {
        ast.Attribute: "attribute access",
        ast.Lambda: "lambda",
        ast.ListComp: "comprehension",
        ast.GeneratorExp: "comprehension",
        ast.SetComp: "comprehension",
        ast.DictComp: "comprehension",
        ast.Subscript: "subscript",
        ast.Compare: "comparison",
        ast.BoolOp: "boolean operator",
        ast.List: "list outside attn()",
        ast.Tuple: "tuple",
        ast.NamedExpr: "assignment expression",
    }
    return names.get(type(node), type(node).__name__)


def _negate(value: Value) -> Value:
    return _scale(value, Fraction(-1)) if not isinstance(value, Fraction) else -value


def _scale(value: Value, factor: Fraction) -> Value:
    if isinstance(value, Fraction):
        return value * factor
    return value.times(factor)


def _add(left: Value, right: Value, sign: int) -> Value:
    if isinstance(left, Fraction) and isinstance(right, Fraction):
        return left + sign * right
    if isinstance(left, Combination) or isinstance(right, Combination):
        if isinstance(left, Affine) or isinstance(right, Affine):
            raise SpecError("a logit (affine form in q) cannot be added to a head; wrap it in sigmoid(...) or attn(...)")
        return _as_combination(left).add(_as_combination(right), sign)
    return _as_affine(left).add(_as_affine(right), sign)


_HINTS = {"\u2212": "-", "\u00d7": "*", "\u00b7": "*", "\u2217": "*", "\u03c3": "sigmoid"}


def _check_characters(source: str) -> None:
    """No silent text: printable ASCII only, no comment (#) and no line continuation (\\)."""
    for column, ch in enumerate(source, 1):
        if ch == "#":
            raise SpecError(f"'#' at column {column}: comments are not allowed, the whole text is the function")
        if ch == "\\":
            raise SpecError(f"'\\' at column {column}: line continuations are not allowed")
        if ch in "\t\n\r":
            continue
        if not " " <= ch <= "~":
            hint = f" (write '{_HINTS[ch]}')" if ch in _HINTS else ""
            raise SpecError(
                f"character U+{ord(ch):04X} at column {column}: expressions are printable ASCII only{hint}"
            )


class _TooDeep(Exception):
    """Python's parser gave up on the nesting (RecursionError, MemoryError) — not on the syntax."""


_DEPTH_LIMIT = ("expression nested too deeply for Python's parser (about 200 nested brackets, or about 2,500 operators in one chain "
                "other than a sum; a flat sum of terms is split, so its length is limited only by "
                f"{MAX_EXPRESSION_CHARS:,} characters)")


def _parse(source: str) -> ast.Expression:
    """ast.parse in eval mode: SpecError on a syntax error (with its column), _TooDeep when the parser's depth runs out."""
    try:
        return ast.parse(source, mode="eval")
    except SyntaxError as exc:
        if "too many nested parentheses" in str(exc.msg):
            raise SpecError(_DEPTH_LIMIT) from None
        glued = re.search(r"(?<![\w.])(\d+(?:\.\d+)?)([A-Za-z_]\w*)", source)
        hint = f" (write {glued[1]}*{glued[2]}: a product needs *)" if glued and "literal" in str(exc.msg) else ""
        raise SpecError(f"malformed expression: {exc.msg} at column {exc.offset}{hint}") from None
    except (RecursionError, MemoryError):
        raise _TooDeep from None
    except ValueError as exc:  # e.g. a null character (refused before, by _check_characters)
        raise SpecError(f"malformed expression: {exc}") from None


def parse_expression(text: str, dimension: int | None = None) -> MultiHead:
    """Parse an expression over q1..qN into a MultiHead (AST whitelist, exact numbers)."""
    if not isinstance(text, str) or not text.strip():
        raise SpecError("empty expression")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise SpecError(f"expression longer than {MAX_EXPRESSION_CHARS} characters")
    source = text.strip()
    _check_characters(source)
    evaluator = _Evaluator(source)
    try:
        value = evaluator.value(_parse(source).body)
    except _TooDeep:  # a long flat sum: its groups of terms one at a time (spec/flatsum.py)
        groups = sum_groups(source)
        if groups is None:
            raise SpecError(_DEPTH_LIMIT) from None
        value = Fraction(0)
        for group in groups:  # each with its own evaluator: a head's label is sliced from its group's text
            part = _Evaluator(group)
            value = _add(value, part.value(_parse(group).body), 1)
            evaluator.max_variable = max(evaluator.max_variable, part.max_variable)
    except RecursionError:
        raise SpecError("expression nested too deeply") from None
    combination = _as_combination(value)
    if not combination.terms:
        raise SpecError("the expression contains no head (sigmoid, tanh or attn)")
    needed = max(evaluator.max_variable, 1)
    if dimension is None:
        dimension = needed
    elif dimension < needed:
        raise SpecError(f"--d {dimension} is smaller than the largest variable q{needed} used")
    heads = tuple(
        Head(
            tuple(Atom(logit.key(), logit.weight(), value) for logit, value in zip(h.logits, h.values)),
            printable(h.label),  # a label is shown (analyze, LaTeX): the author's text without control characters
        )
        for _, h in combination.terms
    )
    scales = tuple(s for s, _ in combination.terms)
    return MultiHead(dimension, heads, scales, combination.constant, description=source)

