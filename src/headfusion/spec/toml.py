"""TOML function specs (`proofs/*.toml`): data only, parsed with tomllib, never executed.

A spec names an integer parameter (or a graph) and a sum template in the expression
language of `parse.py`.  This module reads and decodes the text and holds the public
entry points; the document is validated in `spec/toml_document.py` and its template
expanded in `spec/toml_expand.py`.  The format is documented in docs/spec-format.md.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from headfusion.spec.expressions import SpecError
from headfusion.spec.toml_document import ParameterRange, TomlSpec, check_name, document_from_data
from headfusion.spec.toml_expand import build_model, expand, substitute_title

if TYPE_CHECKING:
    from headfusion.spec.model import Spec

MAX_SPEC_BYTES = 1_000_000


# -- reading the text --------------------------------------------------------------------------


def read_toml_spec(path_text: str) -> TomlSpec:
    """Read and validate a TOML spec file (structure only; SpecError on anything malformed)."""
    path = Path(path_text)
    where = path_text
    if path.is_dir():  # found, but a folder: "not found" would send the user looking for it
        raise SpecError(f"{path_text} is a folder, not a spec file (a spec file is a TOML file such as proofs/sigmoid_sum.toml)")
    if not path.is_file():
        raise SpecError(f"spec file not found: {path_text}")
    try:
        if path.stat().st_size > MAX_SPEC_BYTES:  # a 5 GB sparse file is refused by its size, not read
            raise SpecError(f"{where}: spec file larger than {MAX_SPEC_BYTES} bytes")
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SPEC_BYTES + 1)
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
    return document_from_data(data, text, where)


# -- public entry points ------------------------------------------------------------------


def load_toml_spec(path_text: str, d: int | None) -> "Spec":
    """Load a TOML spec at parameter value d (the spec's default when None) as a Spec."""
    from headfusion.spec.model import Spec

    spec = read_toml_spec(path_text)
    return toml_spec_at(spec, path_text, d, None if spec.name is not None else file_name(path_text))


def file_name(path_text: str) -> str:
    """The name a spec without `name` takes from its file: proofs/my_function.toml -> my_function."""
    return check_name(Path(path_text).name.removesuffix(".toml"), f"{path_text}: the file name (without .toml)")


def load_toml_text(text: str, where: str, d: int | None, name: str | None = None) -> "Spec":
    """A TOML spec given by its full text (as embedded in a certificate) at parameter value d.

    `name`: the name it took from its file (a certificate's spec `text`) when the text has no `name`.
    """
    return toml_spec_at(parse_toml_text(text, where), where, d, name)


def toml_spec_at(spec: TomlSpec, where: str, d: int | None, name: str | None = None) -> "Spec":
    """The Spec of a validated TOML spec at parameter value d (`name`: from the file, iff the text has none)."""
    from headfusion.spec.model import Spec

    if (spec.name is None) == (name is None):
        raise SpecError(f"{where}: " + ("the spec names itself ('name'): no second name" if name is not None
                                         else "no name: set 'name' or load it from a file"))
    if name is not None:
        check_name(name, f"{where}: the name")
    expansion = expand(spec, d)
    model = build_model(expansion)
    value = expansion.value
    base = spec.name or name
    slug = base if value is None or spec.parameter is None else f"{base}_{spec.parameter.name}{value}"
    return Spec(where, value, "toml", substitute_title(spec, value), slug, model, spec.source, name)


def toml_expression(path_text: str, d: int | None = None) -> str:
    """The spec at parameter value d as one expression string of the command-line language."""
    return expand(read_toml_spec(path_text), d).expression()


def toml_parameter_range(path_text: str) -> ParameterRange | None:
    """(name, min, max, default) of the spec's integer parameter, or None if it has none."""
    return read_toml_spec(path_text).parameter
