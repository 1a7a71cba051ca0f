"""Python API: `hf.analyze`, `hf.search`, `hf.certify`, `hf.explore`, `hf.verify` with typed results.

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


def _html_table(rows: list[tuple[str, object]], caption: str = "") -> str:
    cells = "".join(f"<tr><th style=\"text-align:left\">{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                    for k, v in rows)
    return (f"<p>{html.escape(caption)}</p>" if caption else "") + f"<table>{cells}</table>"


def _plain_int(value: int | None) -> str:
    if value is None:
        return "?"
    text = str(value)
    return text if len(text) <= 24 else f"2^{value.bit_length() - 1}" if value & (value - 1) == 0 else f"{text[:6]}... ({len(text)} digits)"


@dataclass(frozen=True)
class Analysis:
    """`analyze` as an object: bounds, the fused head, and the raw JSON data.  Jupyter shows it as a table."""

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

    @property
    def answer_kind(self) -> str:
        """As the CLI's --json: "proved" when the bounds meet (computed exactly), else "unknown"."""
        return "proved" if self.minimum is not None else "unknown"

    @property
    def statement(self) -> str:
        """m*(F) = 8, or 2 ≤ m*(F) ≤ 4 when the bounds do not meet (plain text)."""
        if self.minimum is not None:
            return f"m*(F) = {_plain_int(self.minimum)}"
        return f"{_plain_int(self.lower_bound)} ≤ m*(F) ≤ {_plain_int(self.upper_bound)}"

    def _repr_html_(self) -> str:
        return _html_table([("function (the spec's title)", self.title), ("head-atom terms", self.head_atom_terms),
                            ("lower bound", f"{_plain_int(self.lower_bound)} ({self.data.get('lower_bound_method')})"),
                            ("upper bound", f"{_plain_int(self.upper_bound)} ({self.data.get('upper_bound_method')})"),
                            ("minimum m*", "undecided by bounds" if self.minimum is None else _plain_int(self.minimum))],
                           self.statement)


@dataclass(frozen=True)
class Search:
    """A solver search (one m, or minimize): status and the raw JSON data.  An unsat is solver testimony."""

    status: str
    minimum: int | None
    data: dict = field(repr=False)

    @property
    def answer_kind(self) -> str:
        """As the CLI's --json: "found" (a head, checked exactly), "proved" (a refutation the kernel replayed),
        "testimony" (z3's unsat, not checked) or "unknown"."""
        if self.status == "sat" or (self.minimum is not None and "refutation" not in self.data):
            return "found" if self.status == "sat" else "testimony"
        if self.status == "unsat":
            return "proved" if self.data.get("refutation") else "testimony"
        return "unknown"

    @property
    def statement(self) -> str:
        """What the search says, in plain text, testimony marked as such."""
        if "atoms" in self.data and "steps" not in self.data:
            m = self.data["atoms"]
            return {"sat": f"a head with at most {m} atoms exists (checked exactly)",
                    "unsat": f"z3 reports no head with at most {m} atoms (solver testimony, not checked)"}.get(
                        self.status, f"undecided ({self.data.get('reason') or 'unknown'})")
        if self.minimum is None:
            return f"undecided ({self.data.get('reason') or 'unknown'})"
        return f"m*(F) = {self.minimum} (z3 refuted every smaller m: solver testimony, not checked)"

    def _repr_html_(self) -> str:
        return _html_table([("status", self.status), ("answer", self.statement)])


@dataclass(frozen=True)
class Certificate:
    """A written certificate: its files (json, tex, and pdf when built), its SMT-LIB queries, its data.

    Jupyter shows its theorem (LaTeX).
    """

    files: dict[str, Path]
    data: dict = field(repr=False)
    queries: dict[str, Path] = field(default_factory=dict)  # file name -> path of each m's SMT-LIB 2 query

    @property
    def summary(self) -> dict:
        return self.data["summary"]

    @property
    def answer_kind(self) -> str:
        """As the CLI's --json: "proved" when the kernel-checked bounds meet, else "unknown"."""
        return "proved" if self.data["summary"]["status"] == "proved" else "unknown"

    def _repr_latex_(self) -> str:
        theorem = next(c for c in self.data["claims"] if c["id"] == "theorem")
        return f"Theorem: {theorem['statement']}"


@dataclass(frozen=True)
class Verification:
    """Outcome of re-checking a certificate: one entry per claim.  Jupyter shows it as a table.

    Each claim's `outcome` is "checked" (replayed exactly), "testimony" (a solver's word, NOT
    checked), "undecided" or "failed"; `ok` is False only for "failed".
    """

    ok: bool
    claims: list[dict]

    def __repr__(self) -> str:  # a summary, not every claim (the list is in .claims)
        counts = {k: sum(c["outcome"] == k for c in self.claims) for k in ("checked", "testimony", "undecided", "failed")}
        return f"Verification(ok={self.ok}, claims: " + ", ".join(f"{n} {k}" for k, n in counts.items() if n) + ")"

    def _repr_html_(self) -> str:
        shown = {"checked": "checked", "testimony": "solver testimony, NOT checked", "undecided": "undecided",
                 "failed": "FAILED"}
        rows = "".join(
            f"<tr><td>{html.escape(c['id'])}</td><td>{html.escape(shown.get(c['outcome'], c['outcome']))}</td>"
            f"<td>{html.escape(c['message'])}</td></tr>"
            for c in self.claims
        )
        counts = {k: sum(c["outcome"] == k for c in self.claims) for k in shown}
        head = ("REJECTED" if not self.ok else
                f"{counts['checked']} claims checked" + (f", {counts['testimony']} solver testimony (not checked)"
                                                        if counts["testimony"] else ""))
        return f"<p>{html.escape(head)}</p><table>{rows}</table>"


def sigmoid(logit: Any) -> Any:
    """SymPy σ(L) for a spec: `hf.sigmoid(q1) + hf.sigmoid(2*q1)` (the same as `sympy.Function("sigmoid")(L)`)."""
    import sympy as sp

    return sp.Function("sigmoid")(logit)


def attn(logits: Any, values: Any) -> Any:
    """SymPy attn(...) over plain lists: `hf.attn([0, q1, 2*q1], [0, 1, 3])`.

    `sympy.Function("attn")` cannot take Python lists (SymPy fails inside its own code); this
    wraps them as `sympy.Tuple`, which the spec walk reads as attn's two bracketed lists.
    """
    import sympy as sp

    if not all(isinstance(x, (list, tuple)) for x in (logits, values)):
        raise InputError("attn(logits, values) takes two lists, e.g. hf.attn([0, q1], [0, 1])")
    return sp.Function("attn")(sp.Tuple(*logits), sp.Tuple(*values))


def spec_text(spec: object) -> str:
    """A spec argument as text: a string as it is, a SymPy expression walked node by node (never sympify)."""
    from headfusion.spec.sympy_input import is_sympy, sympy_to_text

    if isinstance(spec, str):
        return spec
    if isinstance(spec, Path):
        return str(spec)
    if is_sympy(spec):
        return sympy_to_text(spec)
    raise InputError(f"spec must be a string (family name, expression, .toml path), a Path or a SymPy expression, "
                     f"got {type(spec).__name__}")


def analyze(spec: Any, d: int | None = None, atoms_list: bool = True, timeout: float = 60.0) -> Analysis:
    """Exponential-family form, fused head and bounds of a spec (family name, expression, TOML path or SymPy).

    `timeout`: seconds of wall clock, as the CLI's (InputError past it; enforced in the main thread).
    """
    from headfusion.guards import deadline
    from headfusion.proof.analysis import analyze as run
    from headfusion.spec.load import load_spec

    d = options.optional_d(d)
    atoms_list = options.flag(atoms_list, "atoms_list")
    timeout = options.timeout(timeout, "timeout")
    with _one_language(), deadline(timeout, "analyze"):
        loaded = load_spec(spec_text(spec), d)
        data = run(loaded, list_atoms=atoms_list)
    return Analysis(loaded.title, data["head_atom_terms"], data["lower_bound"], data["upper_bound"], data["minimum"], data)


def search(spec: Any, atoms: int | None = None, d: int | None = None, timeout: float = 60.0, minimize: bool = False,
           refute: bool = False) -> Search:
    """Ask the solver for a head with at most `atoms` atoms, or (minimize=True) for the least one.

    `refute=True` (as `search --refute`, in this process): an exact refutation tree, replayed by the kernel before
    "unsat" is returned (`data["refutation"]`; answer_kind "proved"), or "unknown" past `timeout`."""
    from headfusion.solving import solver as engine
    from headfusion.spec.load import load_spec

    d = options.optional_d(d)
    timeout = options.timeout(timeout, "timeout")
    minimize = options.flag(minimize, "minimize")
    refute = options.flag(refute, "refute")
    if (atoms is None) == (not minimize):
        raise InputError("give exactly one of atoms=M and minimize=True")
    if refute and minimize:
        raise InputError("refute=True answers one m: give atoms=M, not minimize=True")
    if atoms is not None:
        atoms = options.count(atoms, "atoms")
    with _one_language():
        model = load_spec(spec_text(spec), d).model
        if refute:
            return _refuted(model, atoms, timeout)
        if minimize:
            data = engine.minimize(model, timeout=timeout).to_json()
            return Search(data["status"], data["minimum"], data)
        data = engine.search(model, atoms, timeout=timeout).to_json()
    return Search(data["status"], None, data)


def _refuted(model, atoms: int, timeout: float) -> Search:
    """`search(..., refute=True)`: the refutation producer in this process, then the kernel's replay (as the CLI)."""
    import time

    from headfusion.algebra.expform import exponential_form
    from headfusion.kernel.base import SchemaError
    from headfusion.kernel.refutation import replay
    from headfusion.proof.certify import kernel_question
    from headfusion.solving.refute import refute as produce

    P, Q, vertices = kernel_question(exponential_form(model))
    if any(e[-1] for e in list(P) + list(Q)):
        raise InputError("refute=True needs rational weights (no e^b weights)")
    try:
        result = produce(P, Q, atoms, deadline=time.time() + timeout, vertices=vertices)
        if result.status == "unsat":
            replay(P, Q, atoms, result.evidence, vertices)  # CheckFailed: never returned as a proof
    except SchemaError as exc:  # a box beyond the kernel's replay limit
        raise InputError(f"refute=True at m = {atoms}: {exc}") from None
    data = {"atoms": atoms, "status": result.status, "reason": result.stats.get("reason"),
            "refutation": {"atoms": atoms, **result.evidence} if result.status == "unsat" else None,
            "head": result.head, "stats": {k: v for k, v in result.stats.items() if k != "reason"}}
    return Search(result.status, None, data)


def certify(spec: Any, d: int | None = None, out: str | Path = "out", pdf: bool | None = False,
            search: bool = True, search_timeout: float = 60.0, timeout: float = 3600.0, every_d: bool = False,
            name: str | None = None, every: str | list[str] | None = None,
            refutation: str | Path | list[str | Path] | None = None) -> Certificate:
    """Write <slug>.json and <slug>.tex (and the PDF when pdf is True, or None with an engine present).

    `every_d=True`: the theorem for every d of a family F_d = c_d + Σ_j f(q_j) (`W`, `tanh-sum` or
    such a TOML spec; no `d`), as `certify --every-d`.  `name`: the output files are name.json,
    name.tex, ... (the certificate keeps its own slug).  `timeout`: seconds of wall clock for the
    computation, as the CLI's: the searches stop in time for the certificate of what is proved (the gap stated);
    InputError only when not even the bounds are done in time (enforced in the main thread).
    """
    from headfusion.guards import deadline
    from headfusion.proof.certify import certify as run, certify_every_d
    from headfusion.render.write import write_certificate
    from headfusion.spec.load import load_spec

    d = options.optional_d(d)
    out_dir = options.out_dir(out, "out")
    if pdf is not None:
        pdf = options.flag(pdf, "pdf")
    search = options.flag(search, "search")
    every_d = options.flag(every_d, "every_d")
    name = options.output_name(name, "name")
    search_timeout = options.timeout(search_timeout, "search_timeout")
    timeout = options.timeout(timeout, "timeout")
    if every_d and d is not None:
        raise InputError("every_d=True states the theorem for every d: leave out d")
    names = ([n.strip() for n in every.split(",")] if isinstance(every, str) else list(every)) if every is not None else None
    paths = [str(r) for r in ([refutation] if isinstance(refutation, (str, Path)) else refutation or [])]
    if names is not None and (every_d or d is not None or paths):
        raise InputError("every= states a theorem for every pair: leave out d, every_d and refutation")
    if paths and (every_d or not search):
        raise InputError("refutation= supplies a search result: it does not combine with every_d=True or search=False")
    with _one_language():
        with deadline(timeout, "certify"):  # the computation only: the writes below are atomic
            text = spec_text(spec)
            if names is not None:  # Theorem P for the family σ(a·q1) + σ(b·q1), as `certify --every a,b`
                from headfusion.proof.certify import certify_every_pair

                result = certify_every_pair(text, names, ["headfusion", "certify", text, "--every", ",".join(names)])
            elif every_d:
                result = certify_every_d(text, ["headfusion", "certify", text, "--every-d"])
            else:
                from headfusion.proof.certify import read_refutations

                loaded = load_spec(text, d)
                command = ["headfusion", "certify", text] + (["--d", str(d)] if d is not None else [])
                result = run(loaded, command, search=search, search_timeout=search_timeout, timeout=timeout,
                             guard=lambda seconds: deadline(seconds, "certify's searches"),  # the time limit leaves a certificate
                             refutations=read_refutations(paths) if paths else None)
        written = write_certificate(result.certificate, out_dir, result.queries, pdf=pdf, name=name)
    files = {k: v for k, v in written.items() if k in ("json", "tex", "pdf")}
    return Certificate(files, result.certificate, {k: v for k, v in written.items() if k not in files})


@dataclass(frozen=True)
class Exploration:
    """`explore` as an object: one row per parameter value (bounds, minimum, how it was decided, its answer kind)
    and the files written (none unless `out` was given).  Jupyter shows it as a table."""

    rows: list[dict]
    files: dict[str, Path] = field(default_factory=dict)

    def __repr__(self) -> str:  # a summary, not every row (the rows are in .rows)
        span = f"{self.rows[0]['d']}..{self.rows[-1]['d']}" if self.rows else "none"
        kinds = sorted({r["answer_kind"] for r in self.rows})
        return f"Exploration({len(self.rows)} rows, d = {span}, answers: {', '.join(kinds) or 'none'}, {len(self.files)} files)"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in ("d", "lower", "upper", "minimum", "answer", "decided by"))
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
                r["d"], _plain_int(r["lower_bound"]), _plain_int(r["upper_bound"]),
                "unknown" if r["minimum"] is None else _plain_int(r["minimum"]), r["answer_kind"], r["decided_by"])) + "</tr>"
            for r in self.rows)
        return f"<table><tr>{head}</tr>{body}</table>"


def explore(spec: Any, values: str | range, timeout: float = 30.0, out: str | Path | None = None,
            name: str | None = None) -> Exploration:
    """A table over a family's parameter (`W`, `tanh-sum` or a TOML spec with [parameter]), as `headfusion explore`.

    `values`: "1..6" or a range; `timeout`: search seconds per value where the bounds differ.
    With `out`, the table is also written there (csv, json, pgfplots, and PDF/PNG with LaTeX),
    named after the spec or `name`.
    """
    from headfusion.proof.explore import check_parameterised, explore as run, parameterised_title, parse_range
    from headfusion.render.explore import write_explore
    from headfusion.render.files import sanitize_slug
    from headfusion.spec.load import load_spec, resolve_spec_path

    timeout = options.timeout(timeout, "timeout")
    name = options.output_name(name, "name")
    out_dir = None if out is None else options.out_dir(out, "out")
    if isinstance(values, range) and values.step == 1 and len(values):
        values = f"{values.start}..{values.stop - 1}"
    if not isinstance(values, str):
        raise InputError(f"values must be a range of step 1 or a text such as '1..6', got {type(values).__name__}")
    with _one_language():
        text = spec_text(spec)
        text = resolve_spec_path(text.strip())[0] if text.strip().endswith(".toml") else text
        span = parse_range(values)
        check_parameterised(text)
        first = load_spec(text, span.start)
        rows = [r.to_json() for r in run(text, span, timeout)]
        files: dict[str, Path] = {}
        if out_dir is not None:
            slug = name or sanitize_slug(first.slug.rsplit("_", 1)[0] if first.d is not None else first.slug)
            files = write_explore(rows, out_dir, slug, parameterised_title(first))
    return Exploration(rows, files)


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
        if isinstance(exc, InputError) and "needs --d D" in str(exc):  # the API's words, not the CLI's option
            raise type(exc)(str(exc).replace("needs --d D", "needs d (e.g. hf.analyze('W', d=3))")) from None
        return False


@dataclass(frozen=True)
class Atlas:
    """`atlas` as an object: one row per grid point (as the CLI's --json rows) and each point's certificate data, in
    the grid's order.  Jupyter shows the rows as a table."""

    rows: list[dict]
    certificates: list[dict | None] = field(repr=False, default_factory=list)

    def _repr_html_(self) -> str:
        return _html_table([(str(r.get("point")), f"{r.get('status')}: {r.get('lower')}..{r.get('upper')}") for r in self.rows])


def atlas(spec: str, ranges: list[str] | tuple[str, ...], search_timeout: float = 60.0) -> Atlas:
    """One certificate per point of a grid, as `headfusion atlas SPEC a=1..8 b=a+1..8` computes them (in this process,
    nothing written; the CLI adds the files, resuming and Dask).  A point certify refuses is a row with its reason."""
    from headfusion.proof.atlas import atlas_spec, certify_point

    search_timeout = options.timeout(search_timeout, "search_timeout")
    if isinstance(ranges, str) or not isinstance(ranges, (list, tuple)) or not all(isinstance(r, str) for r in ranges):
        raise InputError("ranges: a list of strings such as ['a=1..3', 'b=a+1..4']")
    with _one_language():
        text = spec_text(spec)
        grid = atlas_spec(text, list(ranges))
        if grid.kind == "graphs":
            raise InputError("the map of all graphs is the CLI's `atlas --graphs N`")
        done = [certify_point(text, list(ranges), values, search_timeout) for values in grid.points()]
    return Atlas([d["row"] for d in done], [d["certificate"] for d in done])
