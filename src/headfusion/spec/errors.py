"""The one exception hierarchy of headfusion (re-exported as `headfusion.InputError`, ...).

    HeadfusionError
    ├── InputError    bad input: a spec, an option, a file, an API argument.  The CLI prints
    │                 its one-line message and exits 2; nothing has been written.
    └── CheckFailed   the input was fine but a check failed: a certificate does not verify,
                      LaTeX failed, two solvers disagree.  The CLI exits 1.

Every message is one line, the same in the CLI and the API.  `SpecError` (the parser),
`TooLarge` (the cost model and the exact engine) and `RenderError` (rendering) are
subclasses.  This module lives in the statement layer so that spec/ can raise it; it
imports nothing.
"""

from __future__ import annotations


class HeadfusionError(Exception):
    """Base class of every error headfusion raises on purpose (one-line message)."""


class InputError(HeadfusionError, ValueError):
    """Bad input (a spec, an option, a path, an argument's type or range): CLI exit code 2."""


class CheckFailed(HeadfusionError):
    """A check failed on well-formed input (verification, LaTeX, solver disagreement): CLI exit code 1."""


class ResourceLimit(InputError):
    """An input whose cost exceeds a documented limit, refused before the work (CLI exit 2).

    The message names the limit and the way around it (a smaller d, --no-atoms-list, --timeout).
    """


class DeadlineExceeded(ResourceLimit):
    """A wall-clock guard (`headfusion.guards.deadline`) fired: a command that answers "unknown" on a timeout catches this one."""

