"""Complete finite search for smaller single heads (DESIGN §4, L2–L4), solved by z3 (`headfusion search`).

Untrusted by design: the question is the SMT-LIB text of `smtlib.query_text` (hashed,
reproducible); a SAT answer is turned into an exact head and re-checked here with
Laurent-polynomial arithmetic (N·Q′ = D·P′, D > 0, supp N ⊆ supp D); an UNSAT answer
is the solver's word, reported as such.  z3 and cvc5 are imported lazily.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

from headfusion.spec.numbers import rational_to_json
from headfusion.algebra.laurent import LPoly
from headfusion.solving.smtlib import (
    Exp,
    GenerationTimeout,
    NotRational,
    Options,
    Problem,
    problem_from_form,
    query_sha256,
    query_text,
)

MAX_BOX_POINTS = 120_000  # larger boxes are reported "unknown" (query text would be hundreds of MB)
GUARD_SLACK = 0.5  # seconds after the z3 timeout before the wall-clock guard interrupts
CUBE_LITERALS = 3  # parallel mode: 2^3 cubes shared by the worker processes


@dataclass(frozen=True)
class HeadAtom:
    """One atom of a found head: key in q coordinates, exact weight and value."""

    key: tuple[Fraction, ...]
    weight: Fraction
    value: Fraction

    def to_json(self) -> dict:
        """{key, weight, value} as in `analyze`."""
        return {
            "key": [rational_to_json(v) for v in self.key],
            "weight": rational_to_json(self.weight),
            "value": rational_to_json(self.value),
        }


@dataclass
class SearchResult:
    """Outcome of one question "is m*(F) ≤ m?"."""

    status: str  # "sat" | "unsat" | "unknown"
    atoms: int
    seconds: float
    solver_name: str
    solver_version: str
    box_shape: tuple[int, ...]
    box_points: int
    query_sha256: str | None
    query_text: str | None
    encoding: str
    head_atoms: list[HeadAtom] | None = None
    reason: str | None = None
    g_shape: tuple[int, ...] | None = None
    lattice_keys: list[Exp] | None = None  # keys of the head in lattice coordinates
    checked: bool | None = None  # SAT: exact identity check passed
    cross_check: dict | None = None
    jobs: int = 1
    options: dict | None = None  # the smtlib.Options fields: Options(**options) regenerates the query

    def to_json(self) -> dict:
        """JSON-ready summary (without the query text)."""
        out: dict = {
            "status": self.status,
            "atoms": self.atoms,
            "seconds": round(self.seconds, 3),
            "solver": {"name": self.solver_name, "version": self.solver_version},
            "encoding": self.encoding,
            "options": self.options,
            "box": {"shape": list(self.box_shape), "points": self.box_points},
            "query_sha256": self.query_sha256,
        }
        if self.g_shape is not None:
            out["box"]["cofactor_shape"] = list(self.g_shape)
            out["box"]["cofactor_points"] = _prod(self.g_shape)
        if self.jobs > 1:
            out["jobs"] = self.jobs
        if self.head_atoms is not None:
            out["head"] = {
                "atoms": len(self.head_atoms),
                "checked_exactly": self.checked,
                "atoms_list": [a.to_json() for a in self.head_atoms],
            }
        if self.reason:
            out["reason"] = self.reason
        if self.cross_check is not None:
            out["cross_check"] = self.cross_check
        return out


def _prod(shape: Sequence[int]) -> int:
    out = 1
    for n in shape:
        out *= n
    return out


def z3_version() -> str:
    """Version string of the installed z3."""
    import z3

    return z3.get_version_string()


def _form_of(model_or_form: object):
    from headfusion.algebra.expform import ExpForm, exponential_form

    return model_or_form if isinstance(model_or_form, ExpForm) else exponential_form(model_or_form)  # type: ignore[arg-type]


# -- solving --------------------------------------------------------------------------------


def _model_values(model) -> dict[str, Fraction]:
    """Exact values of the Real constants of a z3 model."""
    values: dict[str, Fraction] = {}
    for decl in model.decls():
        if decl.arity() == 0:
            value = model[decl]
            if hasattr(value, "as_fraction"):
                values[decl.name()] = value.as_fraction()
    return values


def _solve_text(text: str, timeout: float, cube: Sequence[tuple[str, bool]] = ()) -> tuple[str, dict[str, Fraction], str]:
    """(status, real values, reason) for the query text (plus cube literals) under a wall-clock limit.

    Uses a fresh z3 context, the solver's own `timeout` and a timer that interrupts the
    context slightly later, so a long propagation cannot overrun the limit.
    """
    import z3

    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", max(1, int(timeout * 1000)))
    guard = threading.Timer(timeout + GUARD_SLACK, ctx.interrupt)
    guard.daemon = True
    guard.start()
    try:
        solver.from_string(text)
        for name, polarity in cube:
            literal = z3.Bool(name, ctx)
            solver.add(literal if polarity else z3.Not(literal))
        answer = solver.check()
        if answer == z3.sat:
            return "sat", _model_values(solver.model()), ""
        if answer == z3.unsat:
            return "unsat", {}, ""
        return "unknown", {}, f"z3: {solver.reason_unknown()}"
    except z3.Z3Exception as exc:  # interrupted while parsing, or out of memory
        return "unknown", {}, f"z3: {exc}"
    finally:
        guard.cancel()


def _mp_context():
    """fork where available (children inherit the query text without copying), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _child(conn, text: str, timeout: float, cube: tuple[tuple[str, bool], ...], solver: str) -> None:
    try:
        solve = _solve_text_cvc5 if solver == "cvc5" else _solve_text
        conn.send(solve(text, timeout, cube))
    except BaseException as exc:  # report, never hang the parent
        conn.send(("unknown", {}, f"solver process failed: {exc}"))
    finally:
        conn.close()


def cubes_for(problem: Problem, literals: int = CUBE_LITERALS) -> list[tuple[tuple[str, bool], ...]]:
    """All 2^literals assignments of s at the first box points: an exhaustive case split.

    Soundness: every assignment of the split variables satisfies exactly one cube, so
    the query is satisfiable iff some cube (query ∧ cube) is.
    """
    from itertools import product as cartesian

    from headfusion.solving.smtlib import box_points

    names = []
    for k in box_points(problem.box_shape):
        names.append("s_" + "_".join(str(v) for v in k) if k else "s")
        if len(names) == literals:
            break
    return [tuple(zip(names, bits)) for bits in cartesian((True, False), repeat=len(names))]


def solve_isolated(
    text: str,
    timeout: float,
    cubes: Sequence[tuple[tuple[str, bool], ...]] = ((),),
    jobs: int = 1,
    solver: str = "z3",
) -> tuple[str, dict[str, Fraction], str]:
    """Solve query ∧ cube for each cube in child processes (at most `jobs` at a time).

    The first SAT wins; all UNSAT gives UNSAT; otherwise unknown.  Every child is
    killed at the deadline, so neither a long preprocessing step nor a memory blow-up
    inside z3 can make the caller wait longer than `timeout` (plus process start-up).
    """
    from multiprocessing.connection import wait

    ctx = _mp_context()
    deadline = time.monotonic() + timeout
    queue = list(cubes)
    running: dict = {}
    reasons: list[str] = []
    unsat = 0
    try:
        while queue or running:
            while queue and len(running) < jobs:
                cube = queue.pop(0)
                receiver, sender = ctx.Pipe(duplex=False)
                process = ctx.Process(
                    target=_child, args=(sender, text, max(0.05, deadline - time.monotonic()), cube, solver), daemon=True
                )
                process.start()
                sender.close()
                running[receiver] = process
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "unknown", {}, "time limit reached"
            for receiver in wait(list(running), timeout=remaining):
                process = running.pop(receiver)
                try:
                    status, values, reason = receiver.recv()
                except (EOFError, OSError):
                    status, values, reason = "unknown", {}, f"solver process died (exit code {process.exitcode})"
                receiver.close()
                process.join()
                if status == "sat":
                    return status, values, ""
                if status == "unsat":
                    unsat += 1
                else:
                    reasons.append(reason)
        if unsat == len(cubes):
            return "unsat", {}, ""
        return "unknown", {}, reasons[0] if reasons else "unknown"
    finally:
        for receiver, process in running.items():
            process.kill()
            process.join()
            receiver.close()


# -- heads from models ----------------------------------------------------------------------


def _coefficients(problem: Problem, options: Options, values: dict[str, Fraction]) -> tuple[dict[Exp, Fraction], dict[Exp, Fraction]]:
    """(D, N) as exact dicts from the solver's values (cofactor: D = g·Q′, N = g·P′)."""
    def parse(name: str, prefix: str) -> Exp | None:
        if name == prefix:
            return ()
        if not name.startswith(prefix + "_"):
            return None
        return tuple(int(v) for v in name[len(prefix) + 1 :].split("_"))

    D: dict[Exp, Fraction] = {}
    N: dict[Exp, Fraction] = {}
    if options.encoding == "cofactor":
        g = {e: v for name, v in values.items() if (e := parse(name, "g")) is not None and v}
        for j, c in g.items():
            for e, q in problem.Q.items():
                k = tuple(a + b for a, b in zip(j, e))
                D[k] = D.get(k, Fraction(0)) + c * q
            for e, p in problem.P.items():
                k = tuple(a + b for a, b in zip(j, e))
                N[k] = N.get(k, Fraction(0)) + c * p
    else:
        for name, v in values.items():
            if (e := parse(name, "w")) is not None:
                D[e] = v
            elif (e := parse(name, "u")) is not None:
                N[e] = v
    return {k: v for k, v in D.items() if v}, {k: v for k, v in N.items() if v}


def check_head(P: dict[Exp, Fraction], Q: dict[Exp, Fraction], D: dict[Exp, Fraction], N: dict[Exp, Fraction]) -> bool:
    """Exact check that (N, D) is a head for F = P/Q: N·Q = D·P, every D_k > 0, supp N ⊆ supp D."""
    if not D or any(v <= 0 for v in D.values()) or not set(k for k, v in N.items() if v) <= set(D):
        return False
    nvars = len(next(iter(D)))
    lp = lambda d: LPoly(nvars, d)  # noqa: E731 - tiny adapter
    return not (lp(N) * lp(Q) - lp(D) * lp(P)).terms


def components(keys: Sequence[Exp], differences: set[Exp]) -> list[list[Exp]]:
    """Connected components of keys joined by a difference in `differences` (L2), sorted."""
    remaining = set(keys)
    out = []
    for start in sorted(keys):
        if start not in remaining:
            continue
        remaining.discard(start)
        comp, stack = [start], [start]
        while stack:
            k = stack.pop()
            for dlt in differences:
                n = tuple(a + b for a, b in zip(k, dlt))
                if n in remaining:
                    remaining.discard(n)
                    comp.append(n)
                    stack.append(n)
        out.append(sorted(comp))
    return out


def smallest_component_head(problem: Problem, D: dict[Exp, Fraction], N: dict[Exp, Fraction]) -> tuple[dict, dict]:
    """L2: each component of a head represents F alone; keep the smallest one that checks."""
    support = set(problem.P) | set(problem.Q)
    diffs = {tuple(a - b for a, b in zip(x, y)) for x in support for y in support}
    best = (D, N)
    for comp in sorted(components(list(D), diffs), key=len):
        d = {k: D[k] for k in comp}
        n = {k: N[k] for k in comp if k in N}
        if len(d) < len(best[0]) and check_head(problem.P, problem.Q, d, n):
            best = (d, n)
            break
    return best


def head_atoms_of(form, D: dict[Exp, Fraction], N: dict[Exp, Fraction]) -> list[HeadAtom]:
    """Atoms in q coordinates; weights scaled to coprime positive integers (scaling is free)."""
    from math import gcd, lcm

    from headfusion.algebra.expform import combined_key

    scale = Fraction(lcm(*(v.denominator for v in D.values())), 1)
    ints = [int(v * scale) for v in D.values()]
    scale /= gcd(*ints)
    atoms = []
    for k in sorted(D):
        weight = D[k] * scale
        value = N.get(k, Fraction(0)) / D[k]
        atoms.append(HeadAtom(combined_key(form, k + (0,)), weight, value))
    return sorted(atoms, key=lambda a: a.key)


# -- public entry points --------------------------------------------------------------------


def require_lowest_terms(problem: Problem) -> None:
    """Guard for L4: the cofactor form and the face bounds need gcd(P′, Q′) = 1 (up to units).

    The pair comes from `algebra.combined_polys(reduced=True)`; this re-checks it with
    sympy's exact gcd over Q (a monomial or a constant gcd is a unit of the Laurent ring).
    """
    from headfusion.algebra.laurent import LPoly, generators

    if not problem.P or problem.nvars == 0:
        return  # F = 0 or a constant: nothing to reduce
    gens = generators(problem.nvars)
    p, _ = LPoly(problem.nvars, problem.P).to_sympy(gens)
    q, _ = LPoly(problem.nvars, problem.Q).to_sympy(gens)
    common = p.gcd(q)
    if len(common.terms()) > 1:
        raise ArithmeticError(f"P' and Q' are not in lowest terms (common factor {common.as_expr()}); the search would be unsound")


class BoxTooLarge(ValueError):
    """The L3 box is too large to write the query."""


def prepare(model_or_form: object, m: int, options: Options = Options()) -> tuple[object, Problem, str]:
    """(form, problem, query text) exactly as `search` builds them (NotRational / BoxTooLarge)."""
    form = _form_of(model_or_form)
    problem = problem_from_form(form, m)
    if problem.box_points > MAX_BOX_POINTS:
        raise BoxTooLarge(f"the box has {problem.box_points} points; the search is limited to {MAX_BOX_POINTS}")
    return form, problem, query_text(problem, options)


def search(
    model_or_form: object,
    m: int,
    timeout: float = 60.0,
    options: Options = Options(),
    jobs: int = 1,
) -> SearchResult:
    """Decide "is there a head with at most m atoms?" (sat / unsat / unknown), never hanging."""
    start = time.monotonic()
    version = z3_version()
    form = _form_of(model_or_form)
    try:
        problem = problem_from_form(form, m)
        if problem.box_points > MAX_BOX_POINTS:
            raise BoxTooLarge(f"the box has {problem.box_points} points; the search is limited to {MAX_BOX_POINTS}")
        require_lowest_terms(problem)
        text = query_text(problem, options, deadline=start + timeout)
    except (NotRational, BoxTooLarge, GenerationTimeout) as exc:
        shape = problem.box_shape if not isinstance(exc, NotRational) else ()
        return SearchResult("unknown", m, time.monotonic() - start, "z3", version, shape, _prod(shape) if shape else 0,
                            None, None, options.label(), reason=str(exc), options=asdict(options))
    remaining = max(0.05, timeout - (time.monotonic() - start))
    cubes = cubes_for(problem) if jobs > 1 else [()]
    status, values, reason = solve_isolated(text, remaining, cubes, jobs)
    result = SearchResult(
        status, m, 0.0, "z3", version, problem.box_shape, problem.box_points, query_sha256(text), text,
        options.label(), reason=reason or None,
        g_shape=problem.g_shape if options.encoding == "cofactor" else None, jobs=jobs, options=asdict(options),
    )
    if status == "sat":
        D, N = _coefficients(problem, options, values)
        ok = check_head(problem.P, problem.Q, D, N)
        if ok:
            D, N = smallest_component_head(problem, D, N)
            result.head_atoms = head_atoms_of(form, D, N)
            result.lattice_keys = sorted(D)
            result.checked = True
        else:  # never trust an unchecked model: report it, do not claim a head
            result.status, result.checked = "unknown", False
            result.reason = "the solver's model failed the exact identity check"
    result.seconds = time.monotonic() - start
    return result


def write_query_atomic(path: str, text: str) -> None:
    """Write the query text atomically (temporary file in the same directory, then os.replace)."""
    import os
    import tempfile

    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".smt2-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def solve_smt2_file_z3(path: str, timeout: float = 60.0) -> str:
    """Verdict of z3 on an SMT-LIB file on its own ("sat" / "unsat" / "unknown")."""
    with open(path, encoding="utf-8") as handle:
        return _solve_text(handle.read(), timeout)[0]


def cvc5_available() -> bool:
    """True when the optional cvc5 Python API can be imported."""
    try:
        import cvc5  # noqa: F401
    except ImportError:
        return False
    return True


def _solve_text_cvc5(text: str, timeout: float, cube: Sequence[tuple[str, bool]] = ()) -> tuple[str, dict, str]:
    """cvc5's verdict on the query text (its own per-check time limit; run in a child process)."""
    import cvc5

    solver = cvc5.Solver(cvc5.TermManager())
    solver.setOption("tlimit-per", str(max(1, int(timeout * 1000))))
    parser = cvc5.InputParser(solver)
    # (check-sat) is issued through the API so that the verdict is returned, not printed
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text.replace("(check-sat)\n", ""), "query")
    symbols = parser.getSymbolManager()
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        command.invoke(solver, symbols)
    answer = solver.checkSat()
    if answer.isSat():
        return "sat", {}, ""
    if answer.isUnsat():
        return "unsat", {}, ""
    return "unknown", {}, f"cvc5: {answer.getUnknownExplanation()}"


def cvc5_version() -> str:
    """Version of the installed cvc5 Python package ('' when unknown)."""
    try:
        from importlib.metadata import version

        return version("cvc5")
    except Exception:  # metadata missing: not worth failing a cross-check over
        return ""


def cross_check_cvc5(text: str, timeout: float) -> dict:
    """Re-solve the same query text with cvc5 (optional extra), in a child process killed at the deadline."""
    if not cvc5_available():
        return {"solver": "cvc5", "status": "not run", "reason": "cvc5 is not installed (pip install cvc5)"}
    start = time.monotonic()
    status, _, reason = solve_isolated(text, timeout, solver="cvc5")
    out = {
        "solver": "cvc5",
        "version": cvc5_version(),
        "status": status,
        "seconds": round(time.monotonic() - start, 3),
        "query_sha256": query_sha256(text),
    }
    if reason:
        out["reason"] = reason
    return out


# -- minimize -------------------------------------------------------------------------------


@dataclass
class MinimizeResult:
    """Outcome of stepping m up from the best lower bound."""

    minimum: int | None
    status: str  # "decided" | "unknown"
    lower_bound: int
    upper_bound: int
    steps: list[dict] = field(default_factory=list)
    head_json: list[dict] | None = None
    head_atoms: list[HeadAtom] | None = None
    head_source: str | None = None
    seconds: float = 0.0
    reason: str | None = None
    results: list[SearchResult] = field(default_factory=list)

    def to_json(self) -> dict:
        """JSON: minimum, status, steps, head (atoms_list)."""
        out: dict = {
            "minimum": self.minimum,
            "status": self.status,
            "lower_bound": self.lower_bound,
            "upper_bound": self.upper_bound,
            "seconds": round(self.seconds, 3),
            "steps": self.steps,
        }
        if self.head_json is not None:
            out["head"] = {"atoms": len(self.head_json), "source": self.head_source, "atoms_list": self.head_json}
        if self.reason:
            out["reason"] = self.reason
        return out


def minimize(
    model_or_form: object,
    timeout: float = 300.0,
    options: Options = Options(),
    jobs: int = 1,
    progress: Callable[[int, int, float], None] | None = None,
) -> MinimizeResult:
    """Least m with a head of m atoms: UNSAT steps from the lower bound, then SAT or the fused head.

    `timeout` is the total budget; `progress(m, box_points, elapsed)` is called before each step.
    """
    from headfusion.algebra.expform import fused_atom_json, fused_atoms
    from headfusion.bounds.lower import lower_bound_summary

    start = time.monotonic()
    form = _form_of(model_or_form)
    upper = form.upper_bound
    lower = lower_bound_summary(form, witness_cap=0).get("lower_bound") or 1
    result = MinimizeResult(None, "unknown", lower, upper)
    m = lower
    while m < upper:
        elapsed = time.monotonic() - start
        remaining = timeout - elapsed
        if remaining <= 0:
            result.reason = f"time limit reached before m = {m}"
            break
        if progress is not None:
            try:
                points = problem_from_form(form, m).box_points
            except NotRational:
                points = 0
            progress(m, points, elapsed)
        step = search(form, m, remaining, options, jobs)
        result.results.append(step)
        result.steps.append({"atoms": m, "status": step.status, "seconds": round(step.seconds, 3),
                             "box_points": step.box_points, "query_sha256": step.query_sha256})
        if step.status == "sat":
            result.minimum, result.status = m, "decided"
            result.head_atoms = step.head_atoms
            result.head_json = [a.to_json() for a in step.head_atoms or []]
            result.head_source = "search"
            break
        if step.status == "unknown":
            result.reason = step.reason or "solver returned unknown"
            break
        m += 1
    else:
        # every m below the fused head's size is UNSAT: the fused head is minimal
        result.minimum, result.status = upper, "decided"
        result.steps.append({"atoms": upper, "status": "sat", "seconds": 0.0, "method": "fused head (no search)"})
    if result.head_json is None:
        from headfusion.algebra.expform import MAX_LISTED_ATOMS

        if upper <= MAX_LISTED_ATOMS:
            result.head_json = [fused_atom_json(form, a) for a in fused_atoms(form)]
            result.head_source = "fused head"
    result.seconds = time.monotonic() - start
    return result
