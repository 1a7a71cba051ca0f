"""The validated TOML spec document: its limits, tables and checks (data only, never executed).

`document_from_data` turns the tables tomllib decoded from a spec (`spec/toml.py` reads and
decodes the text) into a `TomlSpec`, raising SpecError on anything malformed; the sum
template is expanded later (`spec/toml_expand.py`).  The format is documented in
docs/spec-format.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Callable, NamedTuple

from headfusion.spec.cost import MAX_DIGITS
from headfusion.spec.display import printable
from headfusion.spec.errors import ResourceLimit
from headfusion.spec.expressions import SpecError, did_you_mean

MAX_PARAMETER = 1_000_000
MAX_TERMS = 100_000
MAX_VERTEX = 100_000
MAX_NAME_CHARS = 64

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*\Z")
RANGE = re.compile(r"\s*j\s*=\s*(?P<lo>[^.]+?)\s*\.\.\s*(?P<hi>.+?)\s*\Z")
BOUND = re.compile(r"(?:(?P<lit>[0-9]+)|(?P<var>[a-z][a-z0-9]*)(?:\s*(?P<sign>[+-])\s*(?P<offset>[0-9]+))?)\Z")
RESERVED = frozenset({"i", "j", "e", "prefix", "q"})

TOP_KEYS = frozenset({"name", "title", "description", "parameter", "graph", "function"})
PARAMETER_KEYS = frozenset({"name", "min", "max", "default", "description"})
FUNCTION_KEYS = frozenset({"sum", "term", "constant", "per_term", "expression"})
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
    name: str | None  # None: the spec is named after its file (spec/toml.py)
    title: str
    description: str
    parameter: ParameterRange | None
    sum_kind: str  # "range" | "edges" | "expression" (a fixed function: `term` holds the expression)
    range_bounds: tuple[str, str] | None  # the two bound texts of "j = A..B"
    term: str
    constant: str | None
    per_term: dict[str, object]
    generator: str | None
    edges: tuple[tuple[int, int], ...] | None
    source: str = ""  # the full TOML text (embedded in certificates)


def document_from_data(data: dict, text: str, where: str) -> TomlSpec:
    """Validate the tables decoded from a TOML spec's text (structure only; SpecError on anything malformed)."""
    _check_keys(data, TOP_KEYS, "the top level", where)

    name = _optional_string(data, "name", where, "the top level")
    if name is not None:
        check_name(name, f"{where}: 'name'")
    title = _optional_string(data, "title", where, "the top level")
    description = _string(data, "description", where, "the top level", default="")

    parameter = _read_parameter(data.get("parameter"), where)
    function = data.get("function")
    if function is None:
        raise SpecError(f"{where}: missing table [function]")
    if not isinstance(function, dict):
        raise SpecError(f"{where}: 'function' must be a table [function]")
    _check_keys(function, FUNCTION_KEYS, "[function]", where)
    if "expression" in function:
        return _fixed_function(data, function, text, where, name, title, description, parameter)
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

    title = printable(title) if title is not None else default_title(sum_kind, range_bounds, term, constant, parameter)
    return TomlSpec(  # the title is shown everywhere: no control text
        where, name, title, description, parameter, sum_kind, range_bounds, term, constant, per_term, generator, edges, text
    )


def _fixed_function(data: dict, function: dict, text: str, where: str, name: str | None, title: str | None,
                    description: str, parameter: ParameterRange | None) -> TomlSpec:
    """`[function] expression = "..."`: one fixed function, in the command-line language, with no sum and no parameter."""
    others = sorted(k for k in function if k != "expression")
    if others:
        raise SpecError(f"{where}: [function] 'expression' is the whole function: leave out {', '.join(others)} "
                        "(or write a sum with 'sum' and 'term' instead)")
    if parameter is not None or data.get("graph") is not None:
        raise SpecError(f"{where}: [function] 'expression' is a fixed function: it takes no "
                        + ("[parameter]" if parameter is not None else "[graph]") + " (write a sum with 'sum' and 'term' for a family)")
    expression = _string(function, "expression", where, "[function]")
    if not expression.strip():
        raise SpecError(f"{where}: [function] 'expression' is empty")
    if "{" in expression or "}" in expression:
        raise SpecError(f"{where}: [function] 'expression' has no placeholders ({{...}}): it is one fixed function")
    shown = printable(title) if title is not None else printable(" ".join(expression.split()))
    return TomlSpec(where, name, shown, description, None, "expression", None, expression, None, {}, None, None, text)


def default_title(sum_kind: str, bounds: tuple[str, str] | None, term: str, constant: str | None,
                  parameter: ParameterRange | None) -> str:
    """The sum written out, true of whatever term the author wrote: "sum over j = 1..{d} of sigmoid(q_j)".

    Placeholders other than the parameter lose their braces (q{j} reads q_j); the parameter keeps
    them, to be replaced by its value.
    """
    keep = parameter.name if parameter is not None else None

    def is_parameter(body: str) -> bool:
        return re.split(r"[+-]", body)[0].strip() == keep

    def placeholder(match: re.Match[str]) -> str:
        var, body = match.group(1), match.group(2).replace(" ", "")
        if is_parameter(body):
            return match.group(0)
        if body.startswith("prefix_"):
            return f"(q_1 + ... + q_{body.removeprefix('prefix_')})"
        body = body if IDENTIFIER.match(body.replace("_", "")) else f"({body})"
        return f"q_{body}" if var else body

    def plain(text: str) -> str:
        return re.sub(r"(q?)\{([^{}]*)\}", placeholder, text)

    if sum_kind == "edges":
        over = "the edges (i, j), i < j,"
    else:
        over = "j = " + "..".join("{" + b + "}" if is_parameter(b) else b for b in bounds)
    return (f"{plain(constant)} + " if constant is not None else "") + f"sum over {over} of {plain(term.strip())}"


def check_name(name: str, what: str) -> str:
    """A name for output files: 1-64 letters, digits, '_' or '-' (SpecError otherwise)."""
    if not NAME.match(name) or len(name) > MAX_NAME_CHARS:
        raise SpecError(f"{what} must be 1-{MAX_NAME_CHARS} letters, digits, '_' or '-' (it names output files), got {name!r}")
    return name


def _check_keys(table: dict, allowed: frozenset[str], section: str, where: str) -> None:
    for key in table:
        if key not in allowed:
            near = did_you_mean(str(key), sorted(allowed))  # "[paramter]" is a section name mistyped
            kind = "section" if isinstance(table[key], dict) else "key"
            home = ("; it belongs at the top level of the file, before the first [section]"
                    if key in TOP_KEYS and allowed is not TOP_KEYS and not isinstance(table[key], dict) else "")
            raise SpecError(f"{where}: unknown {kind} {key!r} in {section}{near} (allowed: {', '.join(sorted(allowed))}){home}")


def _string(table: dict, key: str, where: str, section: str, default: str | None = None) -> str:
    value = table.get(key)
    if value is None:
        if default is None:
            raise SpecError(f"{where}: missing string field {key!r} in {section}")
        return default
    if not isinstance(value, str):
        raise SpecError(f"{where}: field {key!r} in {section} must be a string, got {_type_name(value)}")
    return value


def _optional_string(table: dict, key: str, where: str, section: str) -> str | None:
    return None if table.get(key) is None else _string(table, key, where, section)


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
        sign, digits, exponent = value.as_tuple()
        if len(digits) > MAX_DIGITS or abs(int(exponent)) > MAX_DIGITS:  # 1e99999999: refused before Fraction
            raise ResourceLimit(f"{where}: {what} has more than {MAX_DIGITS} digits (limit on every number)")
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


def bound_value(text: str, parameter_value: int | None) -> int:
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

