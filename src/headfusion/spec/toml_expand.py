"""Expansion of a TOML spec's sum template into expression texts, and the model they describe.

The template is expanded by a small placeholder substitution of our own (`{j}`, `{i}`,
`{e}`, `{d}`, `{a_j}`, `{prefix_j}`, ...; a whitelist, no `str.format`), and each expanded
term is parsed with `parse.parse_expression` (the AST whitelist).  The format is
documented in docs/spec-format.md.

Terms are parsed one at a time and their heads concatenated in order, which gives the
same MultiHead as parsing the whole sum (a sum's value is the ordered concatenation of
its operands' heads) while staying linear in the number of terms: one long sum would
hit the recursion limit of Python's AST construction near 3,000 operands.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from fractions import Fraction

from headfusion.spec.model import MultiHead
from headfusion.spec.expressions import SpecError, parse_expression
from headfusion.spec.toml_document import GENERATORS, MAX_TERMS, TomlSpec, bound_value

MAX_EXPANSION_CHARS = 5_000_000
MAX_PREFIX = 2_000

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
PLACEHOLDER_BODY = re.compile(
    r"(?:(?P<prefix>prefix)_(?P<pvar>[a-z][a-z0-9]*)"
    r"|(?P<seq>[a-z][a-z0-9]*)_(?P<sidx>[a-z][a-z0-9]*)"
    r"|(?P<var>[a-z][a-z0-9]*)(?:(?P<sign>[+-])(?P<offset>[0-9]+))?)\Z"
)


# -- templates ---------------------------------------------------------------------------


Segment = tuple[str, str, int]  # (kind, name, offset): kind "text" | "int" | "prefix" | "value"


def compile_template(
    text: str, integers: frozenset[str], values: frozenset[str], index: str, allow_prefix: bool, what: str
) -> tuple[Segment, ...]:
    """Split a template into literal text and whitelisted placeholders (SpecError otherwise)."""
    segments: list[Segment] = []
    position = 0
    for match in PLACEHOLDER.finditer(text):
        _literal(text[position : match.start()], segments, what)
        segments.append(_placeholder(match.group(1), integers, values, index, allow_prefix, what))
        position = match.end()
    _literal(text[position:], segments, what)
    return tuple(segments)


def _literal(text: str, segments: list[Segment], what: str) -> None:
    if "{" in text or "}" in text:
        raise SpecError(f"{what}: unbalanced brace in {text!r} (placeholders are written {{name}})")
    if text:
        segments.append(("text", text, 0))


def _placeholder(
    body: str, integers: frozenset[str], values: frozenset[str], index: str, allow_prefix: bool, what: str
) -> Segment:
    match = PLACEHOLDER_BODY.match(body.replace(" ", ""))
    allowed = sorted(integers) + ([f"prefix_{v}" for v in sorted(integers)] if allow_prefix else [])
    allowed += [f"{v}_{index}" for v in sorted(values)]
    hint = f"allowed here: {', '.join('{' + a + '}' for a in allowed)}"
    if match is None:
        raise SpecError(f"{what}: unknown placeholder {{{body}}} ({hint})")
    if match.group("prefix") and allow_prefix and match.group("pvar") in integers:
        return ("prefix", match.group("pvar"), 0)
    if match.group("seq") and match.group("seq") in values and match.group("sidx") == index:
        return ("value", match.group("seq"), 0)
    var = match.group("var")
    if var is not None and var in integers:
        offset = int(match.group("offset") or 0)
        return ("int", var, -offset if match.group("sign") == "-" else offset)
    raise SpecError(f"{what}: unknown placeholder {{{body}}} ({hint})")


class _Expander:
    """Fills compiled templates for one index assignment; keeps the running size in check."""

    def __init__(self, spec: TomlSpec, per_term: dict[str, object], index: str, integers: frozenset[str]) -> None:
        self.spec = spec
        self.index = index
        self.integers = integers
        self.prefixes: list[str] = [""]
        self.chars = 0
        self.value_templates: dict[str, tuple[Segment, ...]] = {}
        self.arrays: dict[str, tuple[str, ...]] = {}
        self.fragment_checked: set[str] = set()
        for name, value in per_term.items():
            what = f"{spec.path}: per-term value {name!r}"
            if isinstance(value, tuple):
                for v in value:
                    if "{" in v or "}" in v:
                        raise SpecError(f"{what}: array entries are plain expressions (no placeholders), got {v!r}")
                self.arrays[name] = tuple(f"({self._checked_fragment(v, what)})" for v in value)
            else:
                self.value_templates[name] = compile_template(str(value), integers, frozenset(), index, False, what)

    def _checked_fragment(self, fragment: str, what: str) -> str:
        if fragment in self.fragment_checked:
            return fragment
        try:
            ast.parse(fragment.strip(), mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise SpecError(f"{what}: {fragment!r} is not a well-formed expression") from None
        self.fragment_checked.add(fragment)
        return fragment

    def prefix(self, k: int, what: str) -> str:
        if k < 1:
            raise SpecError(f"{what}: {{prefix_...}} needs a positive index, got {k}")
        if k > MAX_PREFIX:
            raise SpecError(f"{what}: prefix sum over {k} variables exceeds the limit of {MAX_PREFIX}")
        while len(self.prefixes) <= k:
            n = len(self.prefixes)
            self.prefixes.append(f"q{n}" if n == 1 else f"{self.prefixes[-1]} + q{n}")
        return f"({self.prefixes[k]})"

    def fill(self, segments: tuple[Segment, ...], env: dict[str, int], what: str) -> str:
        parts: list[str] = []
        for kind, name, offset in segments:
            if kind == "text":
                parts.append(name)
            elif kind == "int":
                value = env[name] + offset
                if value < 0:
                    raise SpecError(f"{what}: placeholder {{{name}{offset:+d}}} is negative ({value}) at {self._at(env)}")
                parts.append(str(value))
            elif kind == "prefix":
                parts.append(self.prefix(env[name], what))
            else:
                parts.append(self.value(name, env, what))
        text = "".join(parts)
        self.chars += len(text)
        if self.chars > MAX_EXPANSION_CHARS:
            raise SpecError(f"{self.spec.path}: the expansion exceeds the limit of {MAX_EXPANSION_CHARS} characters")
        return text

    def value(self, name: str, env: dict[str, int], what: str) -> str:
        position = env[self.index]
        if name in self.arrays:
            entries = self.arrays[name]
            return entries[(position - 1) % len(entries)]  # arrays repeat cyclically
        segments = self.value_templates[name]
        fragment = self.fill(segments, env, f"{self.spec.path}: per-term value {name!r}")
        self._checked_fragment(fragment, f"{self.spec.path}: per-term value {name!r} at {self._at(env)}")
        return f"({fragment})"

    def _at(self, env: dict[str, int]) -> str:
        if self.index not in env:
            return ", ".join(f"{k} = {v}" for k, v in sorted(env.items())) or "no index"
        if self.index == "e":
            return f"edge {env['e']} = ({env['i']}, {env['j']})"
        return f"j = {env['j']}"


# -- expansion --------------------------------------------------------------------------


@dataclass(frozen=True)
class Expansion:
    """A spec at one parameter value: its terms (expression texts), constant and dimension."""

    spec: TomlSpec
    value: int | None
    terms: tuple[tuple[str, str], ...]  # (where, expression text)
    constant: str | None
    dimension: int

    def expression(self) -> str:
        """The whole function as one expression string of the command-line language."""
        parts = [f"({text})" for _, text in self.terms]
        if self.constant is not None:
            parts.append(f"({self.constant})")
        return " + ".join(parts)


def resolve_parameter(spec: TomlSpec, d: int | None) -> int | None:
    """The parameter value for --d (default from the spec; SpecError outside the range)."""
    parameter = spec.parameter
    if parameter is None:
        if d is not None:
            raise SpecError(f"{spec.path}: this spec has no [parameter], so --d is not accepted")
        return None
    if d is None:
        return parameter.default
    if not parameter.min <= d <= parameter.max:
        raise SpecError(
            f"{spec.path}: --d {d} is outside the range {parameter.min}..{parameter.max} of parameter '{parameter.name}'"
        )
    return d


def expand(spec: TomlSpec, d: int | None) -> Expansion:
    """Expand the sum template at parameter value d (default if None) into expression texts."""
    value = resolve_parameter(spec, d)
    parameter_names = frozenset({spec.parameter.name}) if spec.parameter else frozenset()
    if spec.sum_kind == "expression":  # a fixed function: the expression is the one term
        return Expansion(spec, None, (("the expression", spec.term),), None, 1)
    if spec.sum_kind == "range":
        assert spec.range_bounds is not None
        low, high = (bound_value(b, value) for b in spec.range_bounds)
        if low < 1:
            raise SpecError(f"{spec.path}: the sum starts at j = {low}; indices start at 1")
        if high < low:
            raise SpecError(f"{spec.path}: the sum j = {low}..{high} is empty")
        if high - low + 1 > MAX_TERMS:
            raise SpecError(f"{spec.path}: the sum has {high - low + 1} terms, more than the limit of {MAX_TERMS}")
        index, integers = "j", parameter_names | {"j"}
        envs = ({"j": j} for j in range(low, high + 1))
        natural = high
    else:
        edges = _graph_edges(spec, value)
        index, integers = "e", parameter_names | {"i", "j", "e"}
        envs = ({"i": i, "j": j, "e": e} for e, (i, j) in enumerate(edges, 1))
        natural = value if spec.generator is not None else max(j for _, j in edges)
    if value is not None and spec.parameter is not None:
        base = {spec.parameter.name: value}
    else:
        base = {}
    expander = _Expander(spec, spec.per_term, index, integers)
    term_what = f"{spec.path}: [function] term"
    term = compile_template(spec.term, integers, frozenset(spec.per_term), index, True, term_what)
    used = {name for kind, name, _ in term if kind == "value"}
    for name in spec.per_term:
        if name not in used:
            raise SpecError(f"{spec.path}: per-term value {name!r} is never used in the term (write {{{name}_{index}}})")
    terms = []
    for env in envs:
        env.update(base)
        terms.append((expander._at(env), expander.fill(term, env, term_what)))
    constant = None
    if spec.constant is not None:
        what = f"{spec.path}: [function] constant"
        segments = compile_template(spec.constant, parameter_names, frozenset(), index, False, what)
        constant = expander.fill(segments, dict(base), what)
    return Expansion(spec, value, tuple(terms), constant, natural)


def _graph_edges(spec: TomlSpec, n: int | None) -> tuple[tuple[int, int], ...]:
    if spec.edges is not None:
        return spec.edges
    assert spec.generator is not None and n is not None
    generator = GENERATORS[spec.generator]
    if n < generator.min_vertices:
        raise SpecError(f"{spec.path}: {spec.generator} needs at least {generator.min_vertices} vertices, got {n}")
    if generator.edges_for(n) > MAX_TERMS:
        raise SpecError(
            f"{spec.path}: {spec.generator} on {n} vertices has {generator.edges_for(n)} edges, "
            f"more than the limit of {MAX_TERMS}"
        )
    import networkx  # only for graph specs: its import takes a moment

    build = getattr(networkx, generator.networkx_name)
    graph = build(n - 1) if spec.generator == "star_graph" else build(n)
    edges = sorted({(min(u, v) + 1, max(u, v) + 1) for u, v in graph.edges()})
    assert graph.number_of_nodes() == n and len(edges) == generator.edges_for(n) and all(i < j for i, j in edges)
    return tuple(edges)


def build_model(expansion: Expansion) -> MultiHead:
    """Parse each expanded term with the AST-whitelist parser and concatenate the heads in order."""
    spec = expansion.spec
    heads: list = []
    scales: list[Fraction] = []
    constant = Fraction(0)
    dimension = expansion.dimension
    for where, text in expansion.terms:
        try:
            part = parse_expression(text)
        except SpecError as exc:
            raise SpecError(f"{spec.path}: term at {where}, {_short(text)}: {exc}") from None
        heads.extend(part.heads)
        scales.extend(part.scales)
        constant += part.constant
        dimension = max(dimension, part.dimension)
    if expansion.constant is not None:
        constant += _rational_constant(expansion.constant, spec.path)
    short = sum(len(t) for _, t in expansion.terms) <= 2000
    description = expansion.expression() if short else substitute_title(spec, expansion.value)
    return MultiHead(dimension, tuple(heads), tuple(scales), constant, description=description)


def _rational_constant(text: str, path: str) -> Fraction:
    try:
        probe = parse_expression(f"({text}) + sigmoid(q1)")  # a head makes it a function; its constant is ours
    except SpecError as exc:
        detail = "" if "logit" in str(exc) or "head" in str(exc) else f" ({exc})"
        raise SpecError(f"{path}: [function] constant {_short(text)} is not a rational number{detail}") from None
    if len(probe.heads) != 1:
        raise SpecError(f"{path}: [function] constant {_short(text)} must be a rational number, not a head")
    return probe.constant


def _short(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def substitute_title(spec: TomlSpec, value: int | None) -> str:
    """The title with {parameter} (and {parameter+k}) replaced by its value; other text verbatim."""
    if spec.parameter is None or value is None:
        return spec.title
    name = spec.parameter.name

    def replace(match: re.Match[str]) -> str:
        body = match.group(1).replace(" ", "")
        found = re.fullmatch(rf"{name}(?:([+-])([0-9]+))?", body)
        if not found:
            return match.group(0)
        offset = int(found.group(2) or 0)
        return str(value - offset if found.group(1) == "-" else value + offset)

    return PLACEHOLDER.sub(replace, spec.title)

