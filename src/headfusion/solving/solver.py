"""Complete finite search for smaller single heads (DESIGN §4, L2–L4), solved by z3 (`headfusion search`).

Untrusted by design: the question is the SMT-LIB text of `smtlib.query_text` (hashed,
reproducible), solved in isolated processes (`process.py`); a SAT answer is turned into
an exact head and re-checked with Laurent-polynomial arithmetic (`heads.py`); an UNSAT
answer is the solver's word, reported as such.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Sequence

from headfusion.solving.heads import HeadAtom, check_head, head_atoms_of, head_coefficients, smallest_component_head
from headfusion.solving.problem import Exp, NotRational, Problem, problem_from_form
from headfusion.solving.process import cubes_for, solve_isolated, z3_version
from headfusion.solving.smtlib import GenerationTimeout, Options, query_sha256, query_text

MAX_BOX_POINTS = 120_000  # larger boxes are reported "unknown" (query text would be hundreds of MB)


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


def _form_of(model_or_form: object):
    from headfusion.algebra.expform import ExpForm, exponential_form

    return model_or_form if isinstance(model_or_form, ExpForm) else exponential_form(model_or_form)  # type: ignore[arg-type]


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
        D, N = head_coefficients(problem, options, values)
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


# -- minimize -------------------------------------------------------------------------------

MINIMIZE_CONSTRUCT_SECONDS = 10.0  # the construction search before the steps (at most a quarter of the budget)


def _form_and_bounds(model_or_form: object, lower: int | None = None, construct_seconds: float = 0.0) -> tuple:
    """(exponential form, upper bound, best lower bound, its lemma) of a model, as `minimize` starts from them."""
    from headfusion.bounds.engine import strongest_lower_bound

    from headfusion.solving.construct import best_construction

    form = _form_of(model_or_form)
    lemma = None
    if lower is None:
        bound, lemma = strongest_lower_bound(form)
        lower, lemma = bound or 1, lemma if bound else None
    form = best_construction(form, lower, seconds=construct_seconds)  # the steps stop below the best construction (§10)
    return form, form.upper_bound, lower, lemma


@dataclass
class MinimizeResult:
    """Outcome of stepping m up from the best lower bound."""

    minimum: int | None
    status: str  # "decided" | "unknown"
    lower_bound: int | None  # None: the time ran out before the bounds were known
    upper_bound: int | None
    steps: list[dict] = field(default_factory=list)
    head_json: list[dict] | None = None
    head_atoms: list[HeadAtom] | None = None
    head_source: str | None = None
    seconds: float = 0.0
    reason: str | None = None
    results: list[SearchResult] = field(default_factory=list)
    lower_bound_lemma: str | None = None  # "L5", "L6", "LK" or "LE": what proved lower_bound (None: given by the caller)

    def to_json(self) -> dict:
        """JSON: minimum, status, steps, head (atoms_list)."""
        out: dict = {
            "minimum": self.minimum,
            "status": self.status,
            "lower_bound": self.lower_bound,
            "lower_bound_lemma": self.lower_bound_lemma,
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
    lower_bound: int | None = None,
) -> MinimizeResult:
    """Least m with a head of m atoms: UNSAT steps from the lower bound, then SAT or the fused head.

    The steps start at the strongest proved lower bound (L5, L6, LK, LE), or at `lower_bound` when the
    caller has already proved one (explore), so that it is not computed twice.

    `timeout` is the total budget, the exponential form and the bounds included: they are
    computed in a child process killed at the deadline (`solving.bounded`), since one Newton
    polytope can take minutes (K_6: > 5 min) and pure Python cannot be interrupted from inside;
    then "unknown" with the reason.  `progress(m, box_points, elapsed)` is called before each step.
    """
    from headfusion.algebra.fused import atom_dicts
    from headfusion.solving.bounded import run_bounded

    start = time.monotonic()
    status, value = run_bounded(lambda: _form_and_bounds(model_or_form, lower_bound, min(MINIMIZE_CONSTRUCT_SECONDS, timeout / 4)),
                                timeout, memory=None)
    if status != "ok":
        if status == "error":
            raise value
        if status == "memory":
            raise MemoryError
        result = MinimizeResult(None, "unknown", None, None, seconds=time.monotonic() - start)
        result.reason = f"time limit of {timeout:g} s reached while computing the exponential form and the bounds"
        return result
    form, upper, lower, lemma = value
    result = MinimizeResult(None, "unknown", lower, upper, lower_bound_lemma=lemma)
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
            from headfusion.bounds.constructions import form_kind

            result.head_json = list(atom_dicts(form))
            kind = form_kind(form)
            result.head_source = "fused head" if kind in ("product", "reduced") else f"construction ({kind})"
    result.seconds = time.monotonic() - start
    return result
