"""TOML function specs (`proofs/*.toml`): data only, parsed with tomllib, never executed."""

from __future__ import annotations

import tomllib
from pathlib import Path

from .parse import SpecError, parse_expression


def load_toml_spec(path_text: str, d: int | None):
    """Load a TOML spec: `name`, `title`, `description` and `expression`."""
    from .spec import Spec

    path = Path(path_text)
    if not path.is_file():
        raise SpecError(f"spec file not found: {path_text}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path_text}: not valid TOML ({exc})") from None
    expression = data.get("expression")
    if not isinstance(expression, str):
        raise SpecError(f"{path_text}: missing string field 'expression'")
    model = parse_expression(expression, d)
    name = str(data.get("name", path.stem))
    title = str(data.get("title", name))
    return Spec(path_text, d, "toml", title, name, model)
