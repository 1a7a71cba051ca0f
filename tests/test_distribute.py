"""Cube-and-conquer refutations (solving/cubes.py, solving/distribute.py) against the kernel replay."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("highspy")

from headfusion.algebra.expform import combined_polys, exponential_form  # noqa: E402
from headfusion.kernel.base import CheckFailed  # noqa: E402
from headfusion.kernel.refutation import replay  # noqa: E402
from headfusion.kernel.refutation import rows  # noqa: E402
from headfusion.solving.cubes import Checkpoint, Cube, CubeSpace, box_sums, glue, split_cubes  # noqa: E402
from headfusion.solving.refute import refute  # noqa: E402
from headfusion.spec.load import load_spec  # noqa: E402

from .conftest import HANG_GUARD  # noqa: E402

TRIANGLE = "sigmoid(q1-q2)+sigmoid(q2-q3)+sigmoid(q1-q3)"


def polys(text: str, d: int | None = None) -> tuple[dict, dict]:
    P, Q = combined_polys(exponential_form(load_spec(text, d).model))
    return P.terms, Q.terms


def solve_locally(P: dict, Q: dict, m: int, depth: int) -> tuple[dict, dict]:
    """Every cube refuted apart (a fresh producer each, as on another machine), then glued."""
    space = CubeSpace(P, Q, m)
    tree, cubes = space.split(Cube(), depth)
    subtrees, vectors, resplit = {}, {}, {}
    while cubes:
        cube = cubes.pop()
        result = refute(P, Q, m, prefix=cube.prefix, deadline=time.time() + 60)
        if result.status == "unknown":  # no exact vector at the cube's root: split it further
            resplit[cube], more = space.split(cube, 1)
            cubes += more
            continue
        assert result.status == "unsat", result.stats.get("reason")
        subtrees[cube], vectors[cube] = result.evidence["tree"], result.evidence["multipliers"]
    return tree, glue(tree, subtrees, vectors, resplit)


@pytest.mark.parametrize("text,d,m", [("W", 2, 3), ("sigmoid(q1) + sigmoid(2*q1)", None, 3), (TRIANGLE, None, 6)])
@pytest.mark.parametrize("depth", [0, 2, 4])
def test_glue_of_local_cubes_replays(text: str, d: int | None, m: int, depth: int) -> None:
    P, Q = polys(text, d)
    tree, evidence = solve_locally(P, Q, m, depth)
    counts = replay(P, Q, m, evidence)
    assert counts["split"] >= 1
    if depth:
        assert tree[0] == "split"  # the prefix is the top of the glued tree
        assert evidence["tree"][0][:2] == ["split", list(tree[1])]


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4).flatmap(lambda rank: st.tuples(
    st.lists(st.integers(0, 4), min_size=rank, max_size=rank),
    st.lists(st.lists(st.integers(-3, 3), min_size=rank, max_size=rank), min_size=1, max_size=5))))
def test_box_sums_are_the_kernel_rows_of_E(case) -> None:
    """The producer's fast E = G + supp Q′ is exactly the point set of the kernel's D rows, in order."""
    sizes, support = tuple(case[0]), [tuple(e) for e in case[1]]
    Q = {e + (1,): 1 for e in support}
    P = {(0,) * len(sizes) + (1,): 1}
    assert box_sums(sizes, support) == sorted(rows(P, Q, sizes)[0])


def test_box_sums_of_a_thin_box_under_a_wide_support() -> None:
    """Coordinates near 10^6 in rank 4 pack beyond 2^62: the sums are then formed one by one, still the kernel's E."""
    sizes, support = (0, 1, 0, 0), [(0, 0, 0, 0), (10**6, 0, 10**6, 10**6), (0, 10**6, 0, 0), (5, 5, 10**6, 3)]
    Q = {e + (1,): 1 for e in support}
    assert box_sums(sizes, support) == sorted(rows(Q, Q, sizes)[0])


def test_split_cubes_partition_and_closed_leaves() -> None:
    P, Q = polys("W", 2)
    tree, cubes = split_cubes(P, Q, 3, 5)
    assert 1 <= len(cubes) <= 2**5
    paths = [c.path for c in cubes]
    assert len(set(paths)) == len(paths)

    def leaves(node: list) -> list:
        return leaves(node[2]) + leaves(node[3]) if node[0] == "split" else [node[0]]

    kinds = leaves(tree)
    assert kinds.count("cube") == len(cubes) and set(kinds) <= {"cube", "count", "layer"}
    # a cube never contains another: no path is a prefix of another
    for a in paths:
        assert not any(b != a and b[: len(a)] == a for b in paths)


def test_glue_missing_cube_and_tampered_cube_fail() -> None:
    P, Q = polys("W", 2)
    tree, cubes = split_cubes(P, Q, 3, 2)
    solved = {c: refute(P, Q, 3, prefix=c.prefix).evidence for c in cubes}
    with pytest.raises(KeyError):
        glue(tree, {c: e["tree"] for c, e in list(solved.items())[1:]}, {c: e["multipliers"] for c, e in solved.items()})
    # a cube's subtree glued under another cube's prefix does not replay
    if len(cubes) >= 2:
        a, b = cubes[0], cubes[1]
        swapped = dict(solved)
        swapped[a], swapped[b] = solved[b], solved[a]
        evidence = glue(tree, {c: e["tree"] for c, e in swapped.items()}, {c: e["multipliers"] for c, e in swapped.items()})
        if evidence != glue(tree, {c: e["tree"] for c, e in solved.items()}, {c: e["multipliers"] for c, e in solved.items()}):
            with pytest.raises(CheckFailed):
                replay(P, Q, 3, evidence)


# ---------------------------------------------------------------------------- a real cluster
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    """A real scheduler and two worker processes on localhost; the tests connect by address."""
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_distributed_refutation_through_a_scheduler(scheduler) -> None:
    from headfusion.solving.distribute import distributed_refute

    P, Q = polys(TRIANGLE)
    seen = []
    result = distributed_refute(P, Q, 6, scheduler=scheduler, cube_depth=3, cube_timeout=30,
                                deadline=None, progress=seen.append)
    assert result.status == "unsat", result.stats.get("reason")
    assert result.stats["workers"] == 2 and result.stats["solved"] == result.stats["cubes"] >= 2
    replay(P, Q, 6, result.evidence)
    assert seen and seen[-1]["done"] == seen[-1]["total"]


def test_sat_stops_early(scheduler) -> None:
    from headfusion.solving.distribute import distributed_refute

    P, Q = polys("W", 2)
    result = distributed_refute(P, Q, 4, scheduler=scheduler, cube_depth=3, cube_timeout=30, deadline=None)
    assert result.status == "sat" and result.evidence is None
    assert result.stats["solved"] < result.stats["cubes"]  # the SAT cube ended the run
    head = result.head
    D = {}
    for a, c in head["g"].items():
        for s, q in Q.items():
            e = tuple(x + y for x, y in zip(a, s[:-1]))
            D[e] = D.get(e, 0) + c * q
    D = {e: v for e, v in D.items() if v}
    assert D == head["D"] and all(v > 0 for v in D.values()) and len(D) <= 4


def test_checkpoint_resume(scheduler, tmp_path) -> None:
    from headfusion.solving.distribute import distributed_refute

    P, Q = polys(TRIANGLE)
    folder = tmp_path / "cubes"
    first = distributed_refute(P, Q, 6, scheduler=scheduler, cube_depth=3, cube_timeout=30,
                               deadline=None, checkpoint=folder)
    assert first.status == "unsat" and first.stats["from_checkpoint"] == 0
    files = sorted(folder.glob("cube-*.json"))
    assert len(files) == first.stats["solved"] and not list(folder.glob(".*tmp"))
    for f in files[::2]:  # an interrupted run: half of the cubes were never written
        f.unlink()
    # a record of another question (or a torn one) is never taken
    (folder / files[0].name).write_text(json.dumps({"question": "x", "cube": [], "status": "unsat"}))
    second = distributed_refute(P, Q, 6, scheduler=scheduler, cube_depth=3, cube_timeout=30,
                                deadline=None, checkpoint=folder)
    assert second.status == "unsat"
    assert second.stats["from_checkpoint"] == len(files) - len(files[::2])
    replay(P, Q, 6, second.evidence)
    third = distributed_refute(P, Q, 6, scheduler=scheduler, cube_depth=3, cube_timeout=30, checkpoint=folder)
    assert third.status == "unsat" and third.stats["from_checkpoint"] == third.stats["solved"]
    replay(P, Q, 6, third.evidence)


def test_resplit_records_resume(tmp_path) -> None:
    """A re-split decision is checkpointed: the resumed run splits alike and re-uses the pieces."""
    P, Q = polys("W", 2)
    store = Checkpoint(tmp_path, P, Q, 3)
    space = CubeSpace(P, Q, 3)
    _, cubes = space.split(Cube(), 1)
    store.save_split(cubes[0], 1)
    assert store.load(cubes[0])["depth"] == 1
    assert store.load(cubes[-1]) is None
    assert Checkpoint(tmp_path, P, Q, 4).load(cubes[0]) is None  # another question


def test_timeouts_never_give_unsat(scheduler) -> None:
    from headfusion.solving.distribute import distributed_refute

    P, Q = polys("W", 3)
    # the overall deadline ends the search: unknown, never unsat
    result = distributed_refute(P, Q, 7, scheduler=scheduler, cube_depth=1, cube_timeout=0.05, deadline=time.time() + 3)
    assert result.status == "unknown" and result.evidence is None, result.stats
    # cubes that always time out and are split no further: unknown
    result = distributed_refute(P, Q, 7, scheduler=scheduler, cube_depth=1, cube_timeout=0.0,
                                deadline=time.time() + 30, max_cube_depth=1)
    assert result.status == "unknown" and result.evidence is None, result.stats


def test_a_running_task_sees_the_stop_flag(scheduler) -> None:
    from headfusion.solving.cubes import question_hash
    from headfusion.solving.distribute import solve_cube
    from headfusion.solving.workers import raise_stop_flag

    P, Q = polys("W", 3)
    with distributed.Client(scheduler) as client:
        args = (P, Q, 7, question_hash(P, Q, 7), [], 60.0, None, "test-stop-flag", [])
        future = client.submit(solve_cube, *args, pure=False)
        time.sleep(1.0)
        client.run(raise_stop_flag, "test-stop-flag")  # out of band, into each worker's event loop
        res = future.result(timeout=HANG_GUARD)
        assert res["status"] == "unknown" and res["reason"] == "stopped"
        other = client.submit(solve_cube, P, Q, 7, question_hash(P, Q, 7), [], 0.5, None, "another-run", [], pure=False)
        assert other.result(timeout=HANG_GUARD)["reason"] != "stopped"  # a flag stops its own run only


@pytest.mark.slow
def test_progress_is_reported_while_a_cube_runs_and_unknown_says_how_far(scheduler) -> None:
    """The bar moves while no cube finishes (it sat at 0/8 for a minute), and "unknown" names what was left."""
    from headfusion.solving.distribute import distributed_refute

    P, Q = polys("W", 4)
    seen: list = []
    result = distributed_refute(P, Q, 15, scheduler=scheduler, cube_depth=0, cube_timeout=12,
                                deadline=time.time() + 12, progress=seen.append)
    assert result.status == "unknown", result.stats
    waiting = [s for s in seen if s["in_flight"] and s["done"] == 0]
    assert len(waiting) >= 2 and max(s["oldest_running"] for s in waiting) >= 4, seen
    assert "cubes solved" in result.stats["reason"] and "open" in result.stats["reason"], result.stats


def test_the_watchdog_times_a_cube_from_when_it_runs_and_names_it_when_overdue() -> None:
    """Issue 34: --cube-timeout 3 showed cubes in flight for 182 s with no re-split; the loop now asks the workers which
    cubes execute and re-splits those past cube_timeout + OVERRUN_GRACE (a queued cube is not timed)."""
    from headfusion.solving.workers import overdue

    since: dict = {}
    executing = {"w1": ["cube-a"], "w2": ["cube-b", "other-run"]}
    assert overdue(executing, {"cube-a", "cube-b", "cube-c"}, since, 100.0, 8.0) == []
    assert since == {"cube-a": 100.0, "cube-b": 100.0}  # cube-c is queued: not timed yet
    assert overdue({"w1": ["cube-a"], "w2": ["cube-c"]}, {"cube-a", "cube-c"}, since, 109.0, 8.0) == [("cube-a", "w1")]
    assert set(since) == {"cube-a", "cube-c"} and since["cube-c"] == 109.0  # cube-b finished: forgotten
    assert overdue({}, {"cube-a"}, since, 200.0, 8.0) == []  # not seen executing (restarted): not named


def test_a_moment_without_workers_is_not_an_error(scheduler, monkeypatch) -> None:
    """Issue 41, item 13: `search --refute --jobs 2 --cube-timeout 3` ended "the connection to the scheduler was lost
    (NameError)": the check for a cluster left without workers used a name that was never imported.  The scheduler here
    reports no workers after the first look (as while a LocalCluster restarts one): the run goes on and proves."""
    from headfusion.solving.distribute import distributed_refute

    real = distributed.Client.scheduler_info
    calls: list = []

    def without_workers(self, *args, **kwargs):
        info = real(self, *args, **kwargs)
        calls.append(1)
        return dict(info, workers={}) if len(calls) > 2 else info

    monkeypatch.setattr(distributed.Client, "scheduler_info", without_workers)
    P, Q = polys("W", 2)
    result = distributed_refute(P, Q, 3, scheduler=scheduler, cube_depth=2, cube_timeout=60)  # no deadline: no clock
    assert result.status == "unsat", result.stats.get("reason")
    replay(P, Q, 3, result.evidence)


def test_an_internal_error_is_named_as_a_bug_not_as_a_lost_connection(scheduler, monkeypatch) -> None:
    """Issue 41, item 13: every exception of the loop was reported as a lost connection.  A bug (here a ZeroDivisionError
    injected where the loop asks the scheduler for its workers) is named with its type, place and "bug"; a closed
    connection is still called a lost connection."""
    from distributed.comm.core import CommClosedError

    from headfusion.solving.distribute import distributed_refute
    from headfusion.solving.workers import lost_or_bug

    real = distributed.Client.scheduler_info
    calls: list = []

    def broken(self, *args, **kwargs):
        calls.append(1)
        if len(calls) > 2:
            return 1 / 0
        return real(self, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "scheduler_info", broken)
    P, Q = polys("W", 2)
    result = distributed_refute(P, Q, 3, scheduler=scheduler, cube_depth=2, cube_timeout=60)
    reason = result.stats["reason"]
    assert result.status == "unknown" and result.evidence is None
    assert reason.startswith("internal error: ZeroDivisionError") and "bug" in reason, reason
    assert "connection" not in reason.split(";")[0] and "watch_workers (headfusion/solving/distribute.py:" in reason, reason
    assert lost_or_bug(CommClosedError("closed")) == "the connection to the scheduler was lost (CommClosedError)"
