"""Python API: `hf.analyze`, `hf.search`, `hf.certify`, `hf.verify` with typed results.

Results render themselves in Jupyter (`_repr_latex_`, `_repr_html_`).

Errors speak one language (`headfusion.errors`): bad input of any kind, wrong argument
types included, raises `headfusion.InputError` (the CLI's exit 2, with the same message);
a failed check raises `headfusion.CheckFailed` (the CLI's exit 1).  Arguments are checked
by `spec.options`, the same checks as the CLI's options, before any work.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from headfusion.spec import options
from headfusion.spec.errors import CheckFailed, InputError


def _tex_int(value: int | None) -> str:
    if value is None:
        return "?"
    text = str(value)
    return text if len(text) <= 24 else rf"2^{{{value.bit_length() - 1}}}" if value & (value - 1) == 0 else f"{text[:6]}\\dots"


@dataclass(frozen=True)
class Analysis:
    """`analyze` as an object: bounds, the fused head, and the raw JSON data."""

    title: str
    head_atom_terms: int
    lower_bound: int | None
    upper_bound: int
    minimum: int | None
    data: dict = field(repr=False)

    @property
    def atoms(self) -> list[dict] | None:
        """The fused head's atoms ({key, weight, value}), when listed."""
        return self.data["fused_head"].get("atoms_list")

    @property
    def lower_bound_method(self) -> str | None:
        """The lemma of the strongest lower bound: Newton (L5), face limits (L6), residue classes (LK) or rigid edges (LE)."""
        return self.data.get("lower_bound_method")

    @property
    def residue_classes(self) -> dict | None:
        """Lemma LK's instance (per block: lattice, tilt, class sums), when it gives a bound above Newton's."""
        return self.data.get("residue_classes")

    @property
    def rigid_edges(self) -> dict | None:
        """Lemma LE's instance (per block: tree edges with witnesses and face limits), when it applies."""
        return self.data.get("rigid_edges")

    def _repr_latex_(self) -> str:
        if self.minimum is not None:
            core = rf"m^*(F) = {_tex_int(self.minimum)}"
        else:
            core = rf"{_tex_int(self.lower_bound)} \le m^*(F) \le {_tex_int(self.upper_bound)}"
        return rf"${core}$ (multi-head cost: {self.head_atom_terms} head-atom terms)"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
            for k, v in (("function", self.title), ("head-atom terms", self.head_atom_terms),
                         ("lower bound", self.lower_bound), ("upper bound", self.upper_bound), ("minimum m*", self.minimum))
        )
        return f"<table>{rows}</table>"


@dataclass(frozen=True)
class Search:
    """A solver search (one m, or --minimize): status and the raw JSON data."""

    status: str
    minimum: int | None
    data: dict = field(repr=False)

    def _repr_latex_(self) -> str:
        if "atoms" in self.data and "steps" not in self.data:
            m = self.data["atoms"]
            return {"sat": rf"a head with $\le {m}$ atoms exists (checked exactly)",
                    "unsat": rf"z3 reports no head with $\le {m}$ atoms (solver evidence)"}.get(self.status, "unknown")
        return rf"$m^*(F) = {self.minimum}$" if self.minimum is not None else "undecided"


@dataclass(frozen=True)
class Certificate:
    """A written certificate: its files and its data."""

    files: dict[str, Path]
    data: dict = field(repr=False)

    @property
    def summary(self) -> dict:
        return self.data["summary"]

    def _repr_latex_(self) -> str:
        theorem = next(c for c in self.data["claims"] if c["id"] == "theorem")
        return f"Theorem: {theorem['statement']}"


@dataclass(frozen=True)
class Verification:
    """Outcome of re-checking a certificate: one entry per claim."""

    ok: bool
    claims: list[dict]

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(c['id'])}</td><td>{'ok' if c['ok'] else 'FAILED'}</td><td>{html.escape(c['message'])}</td></tr>"
            for c in self.claims
        )
        return f"<p>{'all claims re-check' if self.ok else 'REJECTED'}</p><table>{rows}</table>"


def analyze(spec: str, d: int | None = None, atoms_list: bool = True, timeout: float = 60.0) -> Analysis:
    """Exponential-family form, fused head and bounds of a spec (family name, expression or TOML path).

    `timeout`: seconds of wall clock, as the CLI's (InputError past it; enforced in the main thread).
    """
    from headfusion.guards import deadline
    from headfusion.proof.analysis import analyze as run
    from headfusion.spec.load import load_spec

    d = options.optional_d(d)
    atoms_list = options.flag(atoms_list, "atoms_list")
    timeout = options.timeout(timeout, "timeout")
    with _one_language(), deadline(timeout, "analyze"):
        loaded = load_spec(spec, d)
        data = run(loaded, list_atoms=atoms_list)
    return Analysis(loaded.title, data["head_atom_terms"], data["lower_bound"], data["upper_bound"], data["minimum"], data)


def search(spec: str, atoms: int | None = None, d: int | None = None, timeout: float = 60.0, minimize: bool = False) -> Search:
    """Ask the solver for a head with at most `atoms` atoms, or (minimize=True) for the least one."""
    from headfusion.solving import solver as engine
    from headfusion.spec.load import load_spec

    d = options.optional_d(d)
    timeout = options.timeout(timeout, "timeout")
    minimize = options.flag(minimize, "minimize")
    if (atoms is None) == (not minimize):
        raise InputError("give exactly one of atoms=M and minimize=True")
    if atoms is not None:
        atoms = options.count(atoms, "atoms")
    with _one_language():
        model = load_spec(spec, d).model
        if minimize:
            data = engine.minimize(model, timeout=timeout).to_json()
            return Search(data["status"], data["minimum"], data)
        data = engine.search(model, atoms, timeout=timeout).to_json()
    return Search(data["status"], None, data)


def certify(spec: str, d: int | None = None, out: str | Path = "out", pdf: bool | None = False,
            search: bool = True, search_timeout: float = 60.0, timeout: float = 3600.0) -> Certificate:
    """Write <slug>.json and <slug>.tex (and the PDF when pdf is True, or None with an engine present).

    `timeout`: seconds of wall clock for the computation, as the CLI's (InputError past it, nothing
    written; enforced in the main thread).
    """
    from headfusion.guards import deadline
    from headfusion.proof.certify import certify as run
    from headfusion.render.write import write_certificate
    from headfusion.spec.load import load_spec

    d = options.optional_d(d)
    out_dir = options.out_dir(out, "out")
    if pdf is not None:
        pdf = options.flag(pdf, "pdf")
    search = options.flag(search, "search")
    search_timeout = options.timeout(search_timeout, "search_timeout")
    timeout = options.timeout(timeout, "timeout")
    with _one_language():
        with deadline(timeout, "certify"):  # the computation only: the writes below are atomic
            loaded = load_spec(spec, d)
            command = ["headfusion", "certify", spec] + (["--d", str(d)] if d is not None else [])
            result = run(loaded, command, search=search, search_timeout=search_timeout)
        files = write_certificate(result.certificate, out_dir, result.queries, pdf=pdf)
    return Certificate(files, result.certificate)


def verify(certificate: str | Path | dict[str, Any], strict: bool = False, timeout: float | None = None) -> Verification:
    """Replay every claim of a certificate with the kernel (a path or the loaded data).

    InputError when it is not a bounded certificate, over the cost model's limits, or when the
    replay passes `timeout` seconds (default `proof.replay.DEFAULT_TIMEOUT`, 600) or 2 GB (the
    CLI's exit 2); with strict=True, CheckFailed when a claim fails (the CLI's exit 1), else
    `Verification.ok` is False.
    """
    from headfusion.kernel.base import SchemaError
    from headfusion.proof.replay import DEFAULT_TIMEOUT, verify_bounded

    if not isinstance(certificate, (str, Path, dict)):
        raise InputError(f"certificate must be a path or a dict, got {type(certificate).__name__}")
    timeout = options.timeout(DEFAULT_TIMEOUT if timeout is None else timeout, "timeout")
    try:
        report = verify_bounded(certificate, timeout)
    except SchemaError as exc:
        raise InputError(f"{certificate if not isinstance(certificate, dict) else 'certificate'}: {exc}") from None
    except OSError as exc:
        raise InputError(f"cannot read {certificate}: {exc.strerror or exc}") from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise InputError(f"not a certificate: {' '.join(str(exc).split()) or type(exc).__name__}") from None
    verification = Verification(report.ok, [{"id": i, "kind": k, "ok": o != "failed", "outcome": o, "message": m}
                                            for i, k, o, m in report.rows])
    if strict and not verification.ok:
        failed = next(c for c in verification.claims if not c["ok"])
        raise CheckFailed(f"certificate REJECTED: {failed['id']}: {failed['message']}")
    return verification


class _one_language:
    """Turn the stray exceptions of deep or huge inputs into InputError (the CLI's exit 2)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> bool:
        if isinstance(exc, RecursionError):
            raise InputError("input nested too deeply") from None
        if isinstance(exc, MemoryError):
            raise InputError("out of memory: use a smaller input or d, or atoms_list=False") from None
        return False
