"""`certify`: bounds, the searches a certificate needs, and the certificate data.

Search policy: the lower bound is the strongest proved one (the bound engine: L5, LK, LE, LH, LS,
LD); the upper bound the best construction (closed forms, then the construction search: DESIGN §10).
When they meet nothing is searched.  Otherwise m = upper − 1 is asked first: on a line (Lemma R, a
one-dimensional tree for f_u(t) = F(t·u), small beside F's box), then on F itself (a refutation there
decides m* at once); failing that, m = lower, lower + 1, … until a head is found (SAT) or the budget
or the box size stops the search; an unsat answer becomes a refutation the kernel replays, or testimony.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, ContextManager

from headfusion.algebra.expform import ExpForm
from headfusion.bounds.engine import FunctionBounds, function_bounds, newton_only
from headfusion.bounds.lines import LineBound
from headfusion.proof.claims import build_certificate
from headfusion.proof.analysis import CONSTRUCT_POINTS
from headfusion.solving.construct import MAX_MIP_POINTS, best_construction
from headfusion.spec.errors import DeadlineExceeded, InputError
from headfusion.spec.model import Spec

CERT_MAX_BOX_POINTS = 20_000  # default searches only where the box is small
CONSTRUCT_SECONDS = 10.0  # certify's budget for the construction search (closed forms are always tried)
MIN_QUESTION_SECONDS = 1.0  # a question with less time left before --timeout's stop is not started
MIN_REFUTATION_SECONDS = 0.05  # a refutation with less of its question's time left is not started
LONG_RUN_SECONDS = 60.0  # searches that may take this long are announced with their estimate first


@dataclass(frozen=True)
class Certified:
    """The certificate data and the SMT-LIB queries to write beside it."""

    certificate: dict
    queries: dict[str, str]  # file name → SMT-LIB text


@dataclass
class SearchLog:
    """What the searches found so far (filled in place, so that a deadline keeps what was done)."""

    results: list[dict] = field(default_factory=list)
    queries: dict[str, str] = field(default_factory=dict)


def run_searches(
    spec: Spec,
    form: ExpForm,
    lower: int,
    timeout: float,
    progress: Callable[[str], None] | None = None,
    timings: bool = False,
    supplied: dict[int, dict] | None = None,
    stop: float | None = None,
    log: SearchLog | None = None,
    announce: Callable[[str], None] | None = None,
    top_timeout: float | None = None,
) -> tuple[list[dict], dict[str, str], str | None]:
    """Searches for the certificate, given F's form and proved lower bound: (result JSONs, query files, note).

    `timeout` bounds one question: the solver and the refutation of its unsat together.  `stop` (time.monotonic())
    ends the walk: no question starts, or runs, past it.  `log` receives the results as they come; `announce` hears the
    estimate of the work before a run of LONG_RUN_SECONDS or more.
    `supplied` maps m to a refutation found elsewhere (`search --refute`, on a cluster); it
    replaces the search at that m once the kernel has replayed it (InputError otherwise).
    `top_timeout` (default `timeout`): the seconds of the question just below the construction, m = upper − 1,
    whose refutation alone decides m* (its solver question, then its tree, each get this long).
    """
    import time

    from headfusion.solving.solver import search
    from headfusion.solving.smtlib import Options

    upper = form.upper_bound
    steps = list(range(lower, upper))  # only above the strongest proved bound: nothing to search when they meet
    if not form.is_rational:  # a note only when a search was wanted: the bounds do not meet
        return [], {}, ("search not applicable: transcendental weights exp(b) cannot be expressed in linear real arithmetic"
                        if steps else None)
    log = log if log is not None else SearchLog()
    results, queries = log.results, log.queries
    note = None
    options = Options()
    supplied = supplied or {}
    question = None  # (P′, Q′, V) as the kernel checks them: computed once, for the first refutation
    timed_out = False  # `stop` came: the walk ends with the gap stated
    if set(supplied) - set(steps):
        asked = ", ".join(map(str, steps)) or "none"
        raise InputError(f"a refutation was supplied for m = {min(set(supplied) - set(steps))}; "
                         f"this certificate asks m in {{{asked}}} (lower bound {lower}, upper bound {upper})")
    if supplied:  # a refutation at m refutes every smaller m: no solver runs below the largest one supplied
        steps = [m for m in steps if m >= max(supplied)]

    def attempt(m: int, where: str, timeout: float = timeout) -> dict | None:
        """The search at m as result JSON (with its refutation when unsat), or None when the box is too large or no time is left."""
        nonlocal question, note, timed_out
        points = box_points(form, m)
        if points > CERT_MAX_BOX_POINTS:
            size = f"{points:,}" if points < 10**12 else "more than 10^12"
            note = (f"search for m = {m if m < 10**6 else 'lower bound - 1'} skipped: its key range (Lemma L3) has {size} points "
                    f"(limit {CERT_MAX_BOX_POINTS:,} in certify)")
            return None
        began = time.monotonic()
        budget = timeout if stop is None else min(timeout, stop - began)  # one question: the solver, then the refutation
        if stop is not None and stop - began < MIN_QUESTION_SECONDS:  # --timeout, not --search-timeout, ends the walk
            note, timed_out = time_note(lower, upper, m), True
            return None
        if progress:
            progress(f"{where}: box {points} points, at most {budget:.0f} s")
        result = search(form, m, timeout=budget, options=options)
        data = result.to_json()
        if not timings:
            data.pop("seconds", None)  # keeps certificates byte-identical across runs
        if result.query_text is not None:
            name = f"{spec.slug}.m{m}.smt2"
            queries[name] = result.query_text
            data["smt2_file"] = name
        if result.status == "unsat":
            if progress:
                progress(f"{where}: unsat; finding the refutation the kernel replays")
            question = question or kernel_question(form)
            left = budget - (time.monotonic() - began)  # what the solver left of this question's seconds
            data["refutation"], why = find_refutation(question, m, left) if left > MIN_REFUTATION_SECONDS else (
                None, f"no time left for the exact refutation ({timeout:g} s per question, the solver's included)")
            if data["refutation"] is None:
                note = f"m = {m}: {why}; the solver's unsat stays testimony"
        return data

    total = len(steps) * timeout
    if announce and not supplied and total >= LONG_RUN_SECONDS:  # the work ahead, said before a long run starts
        ends = "" if stop is None or stop - time.monotonic() >= total else f"; --timeout ends them after {max(0, stop - time.monotonic()):.0f} s"
        announce(f"searches: up to {len(steps)} questions (m = {lower}..{upper - 1}), each at most {timeout:g} s "
                 f"(the solver and the refutation of its unsat together): up to {total:g} s{ends}")

    held = None  # the top question's testimony or time limit: recorded after the walk, so no certificate says it was never asked
    if len(steps) > 1 and not supplied:  # the construction first: a refutation just below it decides m* at once
        top = steps[-1]
        data = attempt(top, f"search m = {top} (just below the construction)", timeout if top_timeout is None else top_timeout)
        if data is not None and data.get("refutation") is not None:
            return [data], queries, None
        if data is not None and data["status"] == "sat":
            results.append(data)  # a smaller head: the walk from below continues under it
        else:
            held = data
        if timed_out:
            return results, queries, note
        steps, note = steps[:-1], None
    for i, m in enumerate(steps, 1):
        where = f"search m = {m} ({i} of at most {len(steps)})"
        if m in supplied:
            if progress:
                progress(f"{where}: replaying the supplied refutation")
            question = question or kernel_question(form)
            results = [r for r in results if r.get("refutation") is None]  # a refutation at m covers the smaller ones
            results.append({"status": "unsat", "atoms": m, "refutation": replayed_refutation(question, m, supplied[m])})
            continue
        data = attempt(m, where)
        if data is None:
            break
        if data.get("refutation") is not None:  # it also refutes every smaller m: the smaller refutations say nothing more
            for old in [r for r in results if r.get("refutation") is not None]:
                results.remove(old)
                queries.pop(str(old.get("smt2_file")), None)
        results.append(data)
        if data["status"] != "unsat":
            break
    if held is not None and not any(r["status"] == "sat" for r in results):
        results.append(held)
    elif held is not None:  # a smaller head was found: the question above it says nothing
        queries.pop(str(held.get("smt2_file")), None)
    return results, queries, note


def time_note(lower: int, upper: int, m: int | None = None) -> str:
    """The note of a certify whose time limit ended the searches: what stays open (the gap), said as a gap."""
    where = f" at m = {m}" if m is not None else ""
    return (f"time limit: the searches between the bounds stopped{where} (--timeout); m* is unknown in the gap "
            f"{lower} <= m* <= {upper}, and this certificate proves only the bounds")


def kernel_question(form: ExpForm) -> tuple[dict, dict, int]:
    """(P′, Q′, V) as the kernel checks them from the evidence the certificate will carry.

    V, the vertex count of Newt(Q′) (checked by the kernel's Newton check), lets refutations
    at m ≤ V use interior leaves (lemma LT's argument).
    """
    from headfusion.bounds.lower import newton_bound
    from headfusion.kernel.checks import check_coprime, check_exp_form, check_newton, combined
    from headfusion.kernel.model import model_from_json
    from headfusion.proof import evidence

    model = model_from_json(form.model.to_json())
    facts: dict = {}
    facts["exp-form"], _, _ = check_exp_form(model, evidence.exp_form_evidence(form), facts)
    coprime = evidence.coprimality_evidence(form)
    facts["coprime"], _, _ = check_coprime(model, coprime, facts)
    newton, _, _ = check_newton(model, evidence.newton_evidence(newton_bound(form), coprime), facts)
    P, Q = combined(model, facts["exp-form"])
    return P, Q, newton["count"]


def read_refutations(paths: list[str]) -> dict[int, dict]:
    """m → refutation, from `search SPEC --atoms M --refute --json` outputs (InputError on anything else).

    Read like a certificate (it becomes part of one): a regular file of at most 64 MB, no duplicate keys, integers of at
    most 4,000 digits (`seconds` is the one float of a search output); only the shape is checked
    here, the multipliers against the cost model once the question is known, the rest by the replay.
    """
    from headfusion.kernel.base import SchemaError, parse_json, read_certificate_text

    found: dict[int, dict] = {}
    for path in paths:
        try:
            data = parse_json(read_certificate_text(path), floats=True)
        except SchemaError as exc:
            raise InputError(f"--refutation {path}: {exc}") from None
        except OSError as exc:
            raise InputError(f"--refutation {path}: cannot read it: {exc.strerror or exc}") from None
        ref = data.get("refutation", data) if isinstance(data, dict) else None
        if not (isinstance(ref, dict) and type(ref.get("atoms")) is int and isinstance(ref.get("tree"), list)
                and isinstance(ref.get("multipliers"), list)):
            raise InputError(f"--refutation {path}: no refutation in it (expected the --json output of "
                             "`headfusion search SPEC --atoms M --refute` that ended unsat)")
        if ref["atoms"] in found:
            raise InputError(f"--refutation {path}: a second refutation for m = {ref['atoms']}")
        found[ref["atoms"]] = {k: ref[k] for k in ("tree", "multipliers", "symmetries") if k in ref}
    return found


def replayed_refutation(question: tuple[dict, dict, int], m: int, evidence: dict) -> dict:
    """A refutation found elsewhere, after the cost model and the kernel's replay on this F (InputError if it does not close)."""
    from headfusion.kernel.base import CheckFailed as Rejected, SchemaError
    from headfusion.kernel.refutation import replay
    from headfusion.proof.replay import refutation_cost

    P, Q, vertices = question
    try:
        refutation_cost(evidence, max(len(P), len(Q)))
        replay(P, Q, m, evidence, vertices)
    except (Rejected, SchemaError) as exc:
        raise InputError(f"the refutation supplied for m = {m} does not close for this function: {exc}") from None
    except Exception as exc:  # malformed evidence, as `verify` reports it: input, not a crash
        raise InputError(f"the refutation supplied for m = {m} is malformed ({type(exc).__name__}: {exc})") from None
    return {k: evidence[k] for k in ("tree", "multipliers", "symmetries") if k in evidence}


def find_refutation(question: tuple[dict, dict, int], m: int, timeout: float) -> tuple[dict | None, str]:
    """A refutation of "a head with at most m atoms" on the kernel's own question, or (None, why).

    `question` = (P′, Q′, V) from `kernel_question`: computed by the kernel from the evidence the
    certificate will carry, so the box and rows the producer works on are those the kernel regenerates.
    """
    import time

    from headfusion.solving.refute import refute

    P, Q, vertices = question
    # verify=False: the certificate this tree enters is replayed by the kernel before it is returned (build_certificate)
    found = refute(P, Q, m, deadline=time.time() + timeout, vertices=vertices, verify=False)
    if found.status == "unsat":
        return found.evidence, ""
    return None, f"the exact refutation search ended {found.status} ({found.stats.get('reason', 'time limit')})"


def box_points(form, m: int) -> int:
    """|Π_c {0..(m−1)·w_c}| of L3 without expanding across blocks.

    S = supp P′ ∪ supp Q′ of F = c + Σ_B P′_B/Q′_B spans, in the coordinates of block B,
    the span of supp P′_B ∪ supp Q′_B (every other factor is a full product of the
    other blocks' Q′), so the widths are read off block by block.
    """
    from headfusion.algebra.expform import x_support

    total = 1
    for block in form.blocks:
        points = list(x_support(block.P_reduced)) + list(x_support(block.Q_reduced))
        for c in range(block.rank):
            width = max(p[c] for p in points) - min(p[c] for p in points)
            total *= (m - 1) * width + 1
            if total > 10**12:
                return total
    return total


def certify(
    spec: Spec,
    command: list[str],
    search: bool = True,
    search_timeout: float = 60.0,
    progress: Callable[[str], None] | None = None,
    timings: bool = False,
    refutations: dict[int, dict] | None = None,
    lemmas: bool = True,
    timeout: float | None = None,
    guard: Callable[[float], ContextManager] | None = None,
    announce: Callable[[str], None] | None = None,
    top_timeout: float | None = None,
) -> Certified:
    """Build the certificate for a spec (running the default searches unless disabled).

    `refutations`: m → a refutation found elsewhere, used at m instead of the solver.
    `top_timeout`: seconds for the question at m = upper − 1 (default: `search_timeout`), see `run_searches`.
    `lemmas=False` leaves out every lemma but L5 (the search starts at the Newton bound): the baseline
    of `benchmarks/bench_structure.py` and `bench_composition.py`.
    `timeout`: seconds for the whole computation.  The searches stop `reserve(timeout)` seconds before it (cooperatively, and
    by `guard(seconds)`, a wall-clock guard raising DeadlineExceeded, when given), and the certificate of what is proved —
    the lemma bounds, the construction, the searches done — is built in the time kept: the gap stated, m* unknown.
    """
    import time
    from contextlib import nullcontext

    from headfusion.proof.evidence import coprimality_evidence

    stop = None if timeout is None else time.monotonic() + timeout - reserve(timeout)

    def left(cap: float) -> float:
        """A phase's seconds: its own cap, within what is left before the searches must stop."""
        return cap if stop is None else max(0.0, min(cap, stop - time.monotonic()))

    bounds = function_bounds(spec.model) if lemmas else newton_only(spec.model)
    # the lowest-terms evidence every certificate carries, before any construction or search (memoised): a Bezout
    # identity beyond the cost model is refused here, up front, and one within it is not computed again later
    coprimality_evidence(bounds.form)
    if progress:
        progress("constructions: closed forms, then the construction search")
    # the best construction is the upper bound every search starts below (closed forms, then the MIP) ...
    bounds = replace(bounds, form=best_construction(bounds.form, bounds.best[0], seconds=left(min(CONSTRUCT_SECONDS, search_timeout)),
                                                    progress=progress, max_points=MAX_MIP_POINTS if search else CONSTRUCT_POINTS))
    log, note = SearchLog(), "search not run (--no-search)"
    results, queries = log.results, log.queries
    seconds = None if stop is None else stop - time.monotonic()
    try:
        with guard(max(0.001, seconds)) if guard is not None and seconds is not None else nullcontext():
            if seconds is not None and seconds < MIN_QUESTION_SECONDS and search and bounds.best[0] < bounds.form.upper_bound:
                raise DeadlineExceeded("no time left for the searches")
            # ... then Lemma R asks a line for m = upper − 1 of that construction (a 1-D tree), and F's own search asks it next
            if search and lemmas and not refutations:  # a supplied refutation asks for its own m: the searches stay as asked
                bounds = line_route(bounds, left(search_timeout), progress)
            if search:
                results, queries, note = run_searches(spec, bounds.form, bounds.best[0], search_timeout, progress, timings, refutations,
                                                       stop=stop, log=log, announce=announce, top_timeout=top_timeout)
    except DeadlineExceeded:  # the time limit: the certificate of what is proved, the gap stated
        note, results, queries = time_note(bounds.best[0], bounds.form.upper_bound), log.results, log.queries
        if progress:
            progress("time limit: writing the certificate of what is proved (the bounds and the searches done)")
    certificate = build_certificate(spec, command, results, [note] if note else [], bounds=bounds)
    return Certified(certificate, queries)


def reserve(timeout: float) -> float:
    """Seconds of `--timeout` kept for building the certificate after the searches (evidence, claims): a quarter, 2 to 30 s."""
    return min(30.0, max(2.0, timeout / 4))


LINE_TRIES = 3  # lines whose f_u keeps F's upper bound, each asked for one tree
LINE_CANDIDATES = 12  # lines whose f_u keeps F's upper bound, bounded by the engine first (a lemma needs no tree)


def line_route(bounds: FunctionBounds, timeout: float, progress: Callable[[str], None] | None = None) -> FunctionBounds:
    """Lemma R with a tree: when the bounds do not meet, `line_tree`; `bounds` unchanged when no line closes."""
    from dataclasses import replace

    form = bounds.form
    if bounds.best[0] >= form.upper_bound or sum(b.rank for b in form.blocks) < 2 or not form.is_rational:
        return bounds
    line = line_tree(form, bounds.table, timeout, progress)
    return bounds if line is None else replace(bounds, line=line)


def line_tree(form: ExpForm, table: dict, timeout: float, progress: Callable[[str], None] | None = None,
              upper: int | None = None) -> LineBound | None:
    """A line u whose f_u(t) = F(t·u) needs F's upper bound (the best construction's size): by its own lemmas, or by a refutation over f_u's one-dimensional
    box at m = upper − 1 (a small 1-D tree instead of one over F's box).  Among the first LINE_CANDIDATES lines whose f_u
    keeps F's upper bound, one decided by a lemma is taken first; else the first LINE_TRIES are asked for a tree, all within
    `timeout` seconds.  f_u's bounds are stored in `table` (the engine's memo, which the evidence reads).  `upper`: the
    bound asked for instead of the construction's size (`search --atoms M` asks for M + 1)."""
    import time

    from headfusion.bounds.constructions import closed_forms
    from headfusion.bounds.facelimits import model_from_canonical
    from headfusion.bounds.lines import candidate_lines

    upper, deadline = upper or form.upper_bound, time.time() + timeout  # upper: the best construction's size, or as asked
    kept = []
    for direction, limit, size in candidate_lines(form.model, upper):
        if size < upper or len(kept) >= LINE_CANDIDATES:  # sizes above upper are reported as upper + 1
            break
        sub = table.get(limit) or function_bounds(model_from_canonical(limit))
        if sub.form.upper_bound < upper or not sub.form.is_rational:
            continue
        table[limit] = sub
        if sub.best[0] >= upper:  # a one-dimensional lemma decides f_u: no tree
            return LineBound(direction, limit, upper)
        if closed_forms(sub.form).upper_bound >= upper:  # a closed-form head of f_u below upper: no tree can close
            kept.append((direction, limit, sub))
    for direction, limit, sub in kept[:LINE_TRIES]:
        if time.time() >= deadline:
            break
        if progress:
            progress(f"Lemma R: a refutation for m = {upper - 1} on the line u = {[int(v) for _, v in direction]}")
        tree, _ = find_refutation(kernel_question(sub.form), upper - 1, max(1.0, deadline - time.time()))
        if tree is not None:
            return LineBound(direction, limit, upper, {"atoms": upper - 1, **tree})
    return None


def certify_every_d(text: str, command: list[str]) -> Certified:
    """The theorem for every d of a family F_d = c_d + Σ_{j=1}^d f(q_j) (DESIGN §6), from its block f."""
    from headfusion.spec.family import FAMILY_BLOCKS, every_d_block
    from headfusion.spec.load import load_spec

    family = load_spec(text, 1 if text.strip() in FAMILY_BLOCKS else None)
    source = family.source if family.kind == "toml" else None
    name = family.text if family.kind == "family" else family.name  # a TOML spec: the name from its file, if any
    if family.kind == "toml" and _graph_generated(source):  # a family of graphs: the theorem for every n (Lemma LF)
        from headfusion.spec.family import graph_family

        first, title, slug, members = graph_family(name, source)
        fields = {"kind": "toml", "text": name, "source": source, "d": None, "title": title, "slug": slug, "every_d": True, "graphs": True}
        return Certified(build_certificate(first, command, [], [], every_d=fields, members=members), {})
    block, title, slug = every_d_block(family.kind, name, source)
    fields = {"kind": family.kind, "text": name, "source": source,
              "d": None, "title": title, "slug": slug, "every_d": True}
    return Certified(build_certificate(block, command, [], [], every_d=fields), {})


def _graph_generated(source: str | None) -> bool:
    """Whether a TOML spec sums over the edges of a generated graph (its members are graphs for every n)."""
    from headfusion.spec.toml import parse_toml_text

    doc = parse_toml_text(source or "", "the TOML spec")
    return doc.sum_kind == "edges" and doc.generator is not None


def certify_every_pair(text: str, names: list[str], command: list[str]) -> Certified:
    """The theorem for the family σ(a·q1) + σ(b·q1), all positive integers a ≠ b (Theorem P), on its lift G = σ(u1) + σ(u2)."""
    from headfusion.spec.parametric import biased_pair_family, names_used, pair_family

    if len(names) == 4 or len(names_used(text)) > 2:  # biases named too: Theorem Pβ for every pair and every bias
        lift, title, slug, names = biased_pair_family(text, names)
    else:
        lift, title, slug = pair_family(text, names)
    fields = {"kind": "expression", "text": text, "source": None, "d": None, "title": title, "slug": slug,
              "every_d": False, "every": list(names)}
    return Certified(build_certificate(lift, command, [], [], every_d=fields), {})
