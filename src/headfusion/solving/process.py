"""The solver processes of a search: z3 (and cvc5) on the query text, isolated and time-limited.

Each question (query ∧ cube) is solved in a child process that is killed at the deadline,
so a long preprocessing step or a memory blow-up inside a solver cannot make the caller
wait.  z3 and cvc5 are imported lazily, in the children.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from fractions import Fraction
from typing import Sequence

from headfusion.solving.problem import Problem, box_points
from headfusion.solving.smtlib import query_sha256

GUARD_SLACK = 0.5  # seconds after the z3 timeout before the wall-clock guard interrupts
CUBE_LITERALS = 3  # parallel mode: 2^3 cubes shared by the worker processes


def z3_version() -> str:
    """Version string of the installed z3."""
    import z3

    return z3.get_version_string()


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

