"""TOML function specs (`proofs/*.toml`): data only, parsed with tomllib, never executed.

A spec names an integer parameter (or a graph) and a sum template in the expression
language of `parse.py`.  The template is expanded by a small placeholder substitution
of our own (`{j}`, `{i}`, `{e}`, `{d}`, `{a_j}`, `{prefix_j}`, ...; a whitelist, no
`str.format`), and each expanded term is parsed with `parse.parse_expression` (the
AST whitelist).  The format is documented in docs/spec-format.md.

Terms are parsed one at a time and their heads concatenated in order, which gives the
same MultiHead as parsing the whole sum (a sum's value is the ordered concatenation of
its operands' heads) while staying linear in the number of terms: one long sum would
hit the recursion limit of Python's AST construction near 3,000 operands.
"""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple

from headfusion.spec.model import MultiHead
from headfusion.spec.expressions import SpecError, parse_expression

if TYPE_CHECKING:
    from headfusion.spec.model import Spec

MAX_SPEC_BYTES = 1_000_000
MAX_PARAMETER = 1_000_000
MAX_TERMS = 100_000
MAX_EXPANSION_CHARS = 5_000_000
MAX_PREFIX = 2_000
MAX_VERTEX = 100_000
MAX_NAME_CHARS = 64

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*\Z")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
PLACEHOLDER_BODY = re.compile(
    r"(?:(?P<prefix>prefix)_(?P<pvar>[a-z][a-z0-9]*)"
    r"|(?P<seq>[a-z][a-z0-9]*)_(?P<sidx>[a-z][a-z0-9]*)"
    r"|(?P<var>[a-z][a-z0-9]*)(?:(?P<sign>[+-])(?P<offset>[0-9]+))?)\Z"
)
RANGE = re.compile(r"\s*j\s*=\s*(?P<lo>[^.]+?)\s*\.\.\s*(?P<hi>.+?)\s*\Z")
BOUND = re.compile(r"(?:(?P<lit>[0-9]+)|(?P<var>[a-z][a-z0-9]*)(?:\s*(?P<sign>[+-])\s*(?P<offset>[0-9]+))?)\Z")
RESERVED = frozenset({"i", "j", "e", "prefix", "q"})

TOP_KEYS = frozenset({"name", "title", "description", "parameter", "graph", "function"})
PARAMETER_KEYS = frozenset({"name", "min", "max", "default", "description"})
FUNCTION_KEYS = frozenset({"sum", "term", "constant", "per_term"})
GRAPH_KEYS = frozenset({"generator", "edges"})


@dataclass(frozen=True)
class Generator:
    """A whitelisted networkx generator, called with the number of vertices n."""

    networkx_name: str
    min_vertices: int
    edges_for: Callable[[int], int]  # number of edges on n vertices: the size check before generating


GENERATORS: dict[str, Generator] = {
    "complete_graph": Generator("complete_graph", 2, lambda n: n * (n - 1) // 2),
    "cycle_graph": Generator("cycle_graph", 3, lambda n: n),
    "path_graph": Generator("path_graph", 2, lambda n: n - 1),
    "star_graph": Generator("star_graph", 2, lambda n: n - 1),  # networkx star_graph(n-1): centre + n-1 leaves
    "wheel_graph": Generator("wheel_graph", 4, lambda n: 2 * (n - 1)),
}


class ParameterRange(NamedTuple):
    """The integer parameter of a spec: its name, range and default."""

    name: str
    min: int
    max: int
    default: int


@dataclass(frozen=True)
class TomlSpec:
    """A validated TOML spec document (before the parameter is chosen)."""

    path: str
    name: str
    title: str
    description: str
    parameter: ParameterRange | None
    sum_kind: str  # "range" | "edges"
    range_bounds: tuple[str, str] | None  # the two bound texts of "j = A..B"
    term: str
    constant: str | None
    per_term: dict[str, object]
    generator: str | None
    edges: tuple[tuple[int, int], ...] | None
    source: str = ""  # the full TOML text (embedded in certificates)


# -- reading and validating the document -----------------------------------------------------


def read_toml_spec(path_text: str) -> TomlSpec:
    """Read and validate a TOML spec file (structure only; SpecError on anything malformed)."""
    path = Path(path_text)
    where = path_text
    if not path.is_file():
        raise SpecError(f"spec file not found: {path_text}")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SpecError(f"{where}: cannot read the file ({exc.strerror})") from None
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecError(f"{where}: spec file larger than {MAX_SPEC_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError(f"{where}: not valid UTF-8") from None
    return parse_toml_text(text, where)


def parse_toml_text(text: str, where: str) -> TomlSpec:
    """Validate the text of a TOML spec (structure only; SpecError on anything malformed)."""
    if len(text.encode("utf-8")) > MAX_SPEC_BYTES:
        raise SpecError(f"{where}: spec larger than {MAX_SPEC_BYTES} bytes")
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise SpecError(f"{where}: TOML nested too deeply") from None
    _check_keys(data, TOP_KEYS, "the top level", where)

    name = _string(data, "name", where, "the top level")
    if not NAME.match(name) or len(name) > MAX_NAME_CHARS:
        raise SpecError(
            f"{where}: 'name' must be 1-{MAX_NAME_CHARS} letters, digits, '_' or '-' (it names output files), got {name!r}"
        )
    title = _string(data, "title", where, "the top level", default=name)
    description = _string(data, "description", where, "the top level", default="")

    parameter = _read_parameter(data.get("parameter"), where)
    function = data.get("function")
    if function is None:
        raise SpecError(f"{where}: missing table [function]")
    if not isinstance(function, dict):
        raise SpecError(f"{where}: 'function' must be a table [function]")
    _check_keys(function, FUNCTION_KEYS, "[function]", where)
    sum_text = _string(function, "sum", where, "[function]")
    term = _string(function, "term", where, "[function]")
    if not term.strip():
        raise SpecError(f"{where}: [function] 'term' is empty")
    constant_value = function.get("constant")
    constant = None if constant_value is None else _number_text(constant_value, where, "[function] constant")

    per_term_table = function.get("per_term", {})
    if not isinstance(per_term_table, dict):
        raise SpecError(f"{where}: [function] 'per_term' must be a table [function.per_term]")
    per_term: dict[str, object] = {}
    for key, value in per_term_table.items():
        if not IDENTIFIER.match(key) or key in RESERVED or (parameter and key == parameter.name):
            raise SpecError(
                f"{where}: per-term name {key!r} must be lower-case letters/digits, start with a letter, "
                f"and not be one of {', '.join(sorted(RESERVED))} or the parameter name"
            )
        per_term[key] = _per_term_value(value, where, key)

    graph = data.get("graph")
    generator: str | None = None
    edges: tuple[tuple[int, int], ...] | None = None
    range_bounds: tuple[str, str] | None = None
    if sum_text.strip() == "edges":
        sum_kind = "edges"
        if graph is None:
            raise SpecError(f"{where}: sum = \"edges\" needs a table [graph] with 'generator' or 'edges'")
        generator, edges = _read_graph(graph, where, parameter)
    else:
        sum_kind = "range"
        match = RANGE.match(sum_text)
        if not match:
            raise SpecError(f"{where}: [function] sum must be \"j = A..B\" or \"edges\", got {sum_text!r}")
        range_bounds = (match.group("lo"), match.group("hi"))
        for bound in range_bounds:
            _check_bound(bound, parameter, where)
        if graph is not None:
            raise SpecError(f"{where}: a [graph] table is only used with sum = \"edges\"")

    return TomlSpec(
        where, name, title, description, parameter, sum_kind, range_bounds, term, constant, per_term, generator, edges, text
    )


def _check_keys(table: dict, allowed: frozenset[str], section: str, where: str) -> None:
    for key in table:
        if key not in allowed:
            raise SpecError(f"{where}: unknown key {key!r} in {section} (allowed: {', '.join(sorted(allowed))})")


def _string(table: dict, key: str, where: str, section: str, default: str | None = None) -> str:
    value = table.get(key)
    if value is None:
        if default is None:
            raise SpecError(f"{where}: missing string field {key!r} in {section}")
        return default
    if not isinstance(value, str):
        raise SpecError(f"{where}: field {key!r} in {section} must be a string, got {_type_name(value)}")
    return value


def _integer(table: dict, key: str, where: str, section: str) -> int:
    if key not in table:
        raise SpecError(f"{where}: missing integer field {key!r} in {section}")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"{where}: field {key!r} in {section} must be an integer, got {_type_name(value)}")
    return value


def _type_name(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", Decimal: "a float", str: "a string", list: "an array", dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _read_parameter(table: object, where: str) -> ParameterRange | None:
    if table is None:
        return None
    if not isinstance(table, dict):
        raise SpecError(f"{where}: 'parameter' must be a table [parameter]")
    _check_keys(table, PARAMETER_KEYS, "[parameter]", where)
    name = _string(table, "name", where, "[parameter]")
    if not IDENTIFIER.match(name) or name in RESERVED:
        raise SpecError(
            f"{where}: [parameter] name must be lower-case letters/digits starting with a letter "
            f"and not one of {', '.join(sorted(RESERVED))}, got {name!r}"
        )
    low = _integer(table, "min", where, "[parameter]")
    high = _integer(table, "max", where, "[parameter]")
    default = _integer(table, "default", where, "[parameter]")
    if "description" in table:
        _string(table, "description", where, "[parameter]")
    if not 1 <= low <= default <= high <= MAX_PARAMETER:
        raise SpecError(
            f"{where}: [parameter] needs 1 <= min <= default <= max <= {MAX_PARAMETER}, "
            f"got min = {low}, default = {default}, max = {high}"
        )
    return ParameterRange(name, low, high, default)


def _number_text(value: object, where: str, what: str) -> str:
    """An exact number or an expression fragment as expression-language text."""
    if isinstance(value, bool):
        raise SpecError(f"{where}: {what} must be a number or a string, got a boolean")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise SpecError(f"{where}: {what} must be finite, got {value}")
        exact = Fraction(value)
        return str(exact.numerator) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"
    if isinstance(value, str):
        if not value.strip():
            raise SpecError(f"{where}: {what} is an empty string")
        return value
    raise SpecError(f"{where}: {what} must be a number or a string, got {_type_name(value)}")


def _per_term_value(value: object, where: str, key: str) -> object:
    if isinstance(value, list):
        if not value:
            raise SpecError(f"{where}: per-term array {key!r} is empty")
        if len(value) > MAX_TERMS:
            raise SpecError(f"{where}: per-term array {key!r} longer than {MAX_TERMS} entries")
        return tuple(_number_text(v, where, f"entry {n} of per-term array {key!r}") for n, v in enumerate(value, 1))
    return _number_text(value, where, f"per-term value {key!r}")


def _check_bound(text: str, parameter: ParameterRange | None, where: str) -> None:
    match = BOUND.match(text)
    if not match:
        raise SpecError(f"{where}: range bound {text!r} must be an integer, the parameter, or the parameter +/- an integer")
    var = match.group("var")
    if var is not None and (parameter is None or var != parameter.name):
        known = f"the parameter is '{parameter.name}'" if parameter else "the spec has no [parameter]"
        raise SpecError(f"{where}: range bound {text!r} uses unknown name '{var}' ({known})")


def _bound_value(text: str, parameter_value: int | None) -> int:
    match = BOUND.match(text)
    assert match is not None
    if match.group("lit") is not None:
        return int(match.group("lit"))
    assert parameter_value is not None
    offset = int(match.group("offset") or 0)
    return parameter_value + offset if match.group("sign") != "-" else parameter_value - offset


def _read_graph(
    graph: object, where: str, parameter: ParameterRange | None
) -> tuple[str | None, tuple[tuple[int, int], ...] | None]:
    if not isinstance(graph, dict):
        raise SpecError(f"{where}: 'graph' must be a table [graph]")
    _check_keys(graph, GRAPH_KEYS, "[graph]", where)
    if ("generator" in graph) == ("edges" in graph):
        raise SpecError(f"{where}: [graph] needs exactly one of 'generator' and 'edges'")
    if "generator" in graph:
        name = _string(graph, "generator", where, "[graph]")
        full = name if name.endswith("_graph") else f"{name}_graph"
        if full not in GENERATORS:
            allowed = ", ".join(sorted(g.removesuffix("_graph") for g in GENERATORS))
            raise SpecError(f"{where}: unknown graph generator {name!r} (allowed: {allowed})")
        if parameter is None:
            raise SpecError(f"{where}: graph generator {name!r} needs a [parameter] for the number of vertices")
        if parameter.min < GENERATORS[full].min_vertices:
            raise SpecError(
                f"{where}: {name!r} needs at least {GENERATORS[full].min_vertices} vertices, "
                f"but [parameter] min = {parameter.min}"
            )
        return full, None
    return None, _read_edges(graph["edges"], where)


def _read_edges(value: object, where: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list) or not value:
        raise SpecError(f"{where}: [graph] edges must be a non-empty array of [i, j] pairs")
    if len(value) > MAX_TERMS:
        raise SpecError(f"{where}: [graph] has more than {MAX_TERMS} edges")
    seen: set[tuple[int, int]] = set()
    for n, edge in enumerate(value, 1):
        if (
            not isinstance(edge, list)
            or len(edge) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in edge)
        ):
            raise SpecError(f"{where}: [graph] edge {n} must be a pair of integers [i, j], got {edge!r}")
        i, j = edge
        if not (1 <= i <= MAX_VERTEX and 1 <= j <= MAX_VERTEX):
            raise SpecError(f"{where}: [graph] edge {n} {edge!r}: vertices are numbered 1..{MAX_VERTEX}")
        if i == j:
            raise SpecError(f"{where}: [graph] edge {n} {edge!r} is a loop")
        pair = (min(i, j), max(i, j))
        if pair in seen:
            raise SpecError(f"{where}: [graph] edge {n} {edge!r} repeats an edge")
        seen.add(pair)
    return tuple(sorted(seen))


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
    if spec.sum_kind == "range":
        assert spec.range_bounds is not None
        low, high = (_bound_value(b, value) for b in spec.range_bounds)
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


# -- public entry points ------------------------------------------------------------------


def load_toml_spec(path_text: str, d: int | None) -> "Spec":
    """Load a TOML spec at parameter value d (the spec's default when None) as a Spec."""
    from headfusion.spec.model import Spec

    return toml_spec_at(read_toml_spec(path_text), path_text, d)


def load_toml_text(text: str, where: str, d: int | None) -> "Spec":
    """A TOML spec given by its full text (as embedded in a certificate) at parameter value d."""
    return toml_spec_at(parse_toml_text(text, where), where, d)


def toml_spec_at(spec: TomlSpec, where: str, d: int | None) -> "Spec":
    """The Spec of a validated TOML spec at parameter value d."""
    from headfusion.spec.model import Spec

    expansion = expand(spec, d)
    model = build_model(expansion)
    value = expansion.value
    slug = spec.name if value is None or spec.parameter is None else f"{spec.name}_{spec.parameter.name}{value}"
    return Spec(where, value, "toml", substitute_title(spec, value), slug, model, spec.source)


def toml_expression(path_text: str, d: int | None = None) -> str:
    """The spec at parameter value d as one expression string of the command-line language."""
    return expand(read_toml_spec(path_text), d).expression()


def toml_parameter_range(path_text: str) -> ParameterRange | None:
    """(name, min, max, default) of the spec's integer parameter, or None if it has none."""
    return read_toml_spec(path_text).parameter
