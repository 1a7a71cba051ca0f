"""Python API: `hf.analyze`, `hf.search`, `hf.certify`, `hf.verify` with typed results.

Results render themselves in Jupyter (`_repr_latex_`, `_repr_html_`).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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


def analyze(spec: str, d: int | None = None, atoms_list: bool = True) -> Analysis:
    """Exponential-family form, fused head and bounds of a spec (family name, expression or TOML path)."""
    from headfusion.proof.analysis import analyze as run
    from headfusion.spec.load import load_spec

    loaded = load_spec(spec, d)
    data = run(loaded, list_atoms=atoms_list)
    return Analysis(loaded.title, data["head_atom_terms"], data["lower_bound"], data["upper_bound"], data["minimum"], data)


def search(spec: str, atoms: int | None = None, d: int | None = None, timeout: float = 60.0, minimize: bool = False) -> Search:
    """Ask the solver for a head with at most `atoms` atoms, or (minimize=True) for the least one."""
    from headfusion.solving import solver as engine
    from headfusion.spec.load import load_spec

    model = load_spec(spec, d).model
    if minimize:
        result = engine.minimize(model, timeout=timeout)
        data = result.to_json()
        return Search(data["status"], data["minimum"], data)
    if atoms is None:
        raise ValueError("give atoms=M or minimize=True")
    data = engine.search(model, atoms, timeout=timeout).to_json()
    return Search(data["status"], None, data)


def certify(spec: str, d: int | None = None, out: str | Path = "out", pdf: bool | None = False,
            search: bool = True, search_timeout: float = 60.0) -> Certificate:
    """Write <slug>.json and <slug>.tex (and the PDF when pdf is True, or None with an engine present)."""
    from headfusion.proof.certify import certify as run
    from headfusion.render.write import write_certificate
    from headfusion.spec.load import load_spec

    loaded = load_spec(spec, d)
    command = ["headfusion", "certify", spec] + (["--d", str(d)] if d is not None else [])
    result = run(loaded, command, search=search, search_timeout=search_timeout)
    files = write_certificate(result.certificate, Path(out), result.queries, pdf=pdf)
    return Certificate(files, result.certificate)


def verify(certificate: str | Path | dict[str, Any]) -> Verification:
    """Replay every claim of a certificate with the kernel (a path or the loaded data)."""
    from headfusion.kernel.base import parse_json, read_certificate_text
    from headfusion.kernel.verify import verify_certificate

    data = certificate if isinstance(certificate, dict) else parse_json(read_certificate_text(str(certificate)))
    report = verify_certificate(json.loads(json.dumps(data)))
    return Verification(report.ok, [{"id": i, "kind": k, "ok": o != "failed", "outcome": o, "message": m} for i, k, o, m in report.rows])
