"""Cube-and-conquer for refutations on Dask (DESIGN §5, issue "Search at scale").

The question (P′, Q′, m) is split into cubes (solving/cubes.py); each cube is one Dask task
that runs the exact producer (`refute(..., prefix=cube)`) under its own deadline and polls
a shared stop flag (a `distributed.Event`): Dask cannot interrupt a running task.  A cube
that runs out of time is re-split and its pieces resubmitted; the first SAT cube stops all
work and its head is the answer; the UNSAT subtrees are glued into one refutation, which
the kernel replays before "unsat" is returned.  A lost worker, a failed task or the
overall deadline gives "unknown", never "unsat".

Each worker process keeps one producer per question (rows and LP built once) with the
multiplier vectors it has found, and every task is seeded with the vectors found so far
by all cubes (exact, checked again by the kernel at the end).

Clusters: by default a `distributed.LocalCluster` with one single-threaded worker process
per core; `scheduler="tcp://HOST:PORT"` uses an existing cluster, started e.g. with
`dask scheduler` on one machine and `dask worker tcp://HOST:8786` on each of the others
(every worker needs this package installed).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
import uuid

from headfusion.kernel.refutation import search_box
from headfusion.solving.cubes import Checkpoint, Cube, CubeSpace, glue
from headfusion.solving.refute import RefuteResult, make_producer, refute, symmetries_of

_POOL_LIMIT = 4000  # vectors passed to a task (the most recent ones)
_PRODUCERS: dict = {}  # per worker process: question hash -> producer


def _producer(P: dict, Q: dict, m: int, key: str, vertices: int):
    if (key, vertices) not in _PRODUCERS:
        _PRODUCERS.clear()  # one question at a time per process (the LP can be large)
        _PRODUCERS[key, vertices] = make_producer(P, Q, m, vertices=vertices)
    return _PRODUCERS[key, vertices]


def _stop_flag(name: str | None):
    """A cheap `stop()` for the producer: the shared Event, polled at most every 0.25 s."""
    if name is None:
        return None
    from distributed import Event

    event = Event(name)
    state = {"at": 0.0, "set": False}

    def stop() -> bool:
        now = time.monotonic()
        if now - state["at"] >= 0.25:
            state["at"] = now
            try:
                state["set"] = event.is_set()
            except Exception:  # the scheduler is gone: stop
                state["set"] = True
        return state["set"]

    return stop


def solve_cube(P: dict, Q: dict, m: int, key: str, path: list, cube_timeout: float, deadline: float | None,
               stop_name: str | None, seed: list, vertices: int = 0) -> dict:
    """One task: refute the cube `path` (Cube.to_json) under its own deadline."""
    start = time.time()
    stop = _stop_flag(stop_name)
    if stop is not None and stop():
        return {"status": "unknown", "reason": "stopped", "seconds": 0.0}
    own = start + cube_timeout if deadline is None else min(start + cube_timeout, deadline)
    producer = _producer(P, Q, m, key, vertices)
    cube = Cube.from_json(path)
    result = refute(P, Q, m, deadline=own, prefix=cube.prefix, stop=stop, producer=producer, seed=seed, verify=False)
    return {
        "status": result.status,
        "evidence": result.evidence,
        "head": result.head,
        "reason": result.stats.get("reason", "cube timeout" if result.status == "unknown" else ""),
        "nodes": result.stats.get("nodes", 0),
        "seconds": time.time() - start,
        "worker": os.getpid(),
    }


@contextlib.contextmanager
def _client(scheduler: str | None, workers: int | None):
    from distributed import Client, LocalCluster

    if scheduler:
        with Client(scheduler, timeout=30) as client:
            yield client
        return
    n = workers or os.cpu_count() or 1
    with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            yield client


class _Progress:
    """cubes done/total, re-splits, elapsed and remaining on stderr (tqdm); silent for None."""

    def __init__(self, progress):
        self.callback = progress if callable(progress) else None
        self.bar = None
        if progress is not None and not callable(progress):
            from tqdm import tqdm

            self.bar = tqdm(total=0, unit="cube", file=sys.stderr, dynamic_ncols=True, desc="cubes")

    def update(self, done: int, total: int, resplits: int, running: int) -> None:
        if self.callback is not None:
            self.callback({"done": done, "total": total, "resplits": resplits, "in_flight": running})
        if self.bar is not None:
            self.bar.total = total
            self.bar.n = done
            self.bar.set_postfix(resplits=resplits, in_flight=running, refresh=False)
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def distributed_refute(
    P: dict,
    Q: dict,
    m: int,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    cube_depth: int = 3,
    cube_timeout: float = 60.0,
    deadline: float | None = None,
    checkpoint=None,
    progress=None,
    resplit_depth: int = 2,
    max_cube_depth: int = 64,
    vertices: int = 0,
) -> RefuteResult:
    """Is there a head with at most m atoms?  Cube-and-conquer on Dask; a RefuteResult.

    `cube_depth`: at most 2^cube_depth cubes at the start; `cube_timeout`: seconds per
    task, after which the cube is re-split into at most 2^resplit_depth cubes; `deadline`:
    absolute `time.time()` for the whole search ("unknown" after it).  `checkpoint`: a
    folder where solved cubes are kept (a rerun re-uses them).  `progress`: None (silent),
    True (a tqdm bar on stderr) or a callable taking a dict.  stats: cubes solved/total,
    re-splits, cubes from the checkpoint, cubes closed with no solve, seconds.  `vertices`:
    the checked vertex count of Newt(Q′), for interior leaves when m ≤ V (0: none).
    """
    t0 = time.monotonic()
    if search_box(P, Q, m) is None:  # L3: no head fits, the empty tree
        return refute(P, Q, m)
    space = CubeSpace(P, Q, m)
    store = Checkpoint(checkpoint, P, Q, m) if checkpoint is not None else None
    from headfusion.solving.cubes import question_hash

    key = store.question if store is not None else question_hash(P, Q, m)
    stats = {"cubes": 0, "solved": 0, "resplits": 0, "from_checkpoint": 0, "closed": 0, "nodes": 0,
             "cube_seconds": 0.0, "slowest_cube": 0.0, "workers": 0}
    bar = _Progress(progress)
    root = Cube()
    resplit: dict = {}
    subtrees: dict = {}
    vectors: dict = {}
    pool: list = []
    pool_keys: set = set()

    def finish(status: str, reason: str = "", evidence=None, head=None) -> RefuteResult:
        bar.close()
        out = dict(stats, seconds=time.monotonic() - t0)
        if reason:
            out["reason"] = reason
        return RefuteResult(status, evidence, head, out)

    def learn(evidence: dict) -> None:
        import json

        for v in evidence["multipliers"]:
            k = json.dumps(v)
            if k not in pool_keys:
                pool_keys.add(k)
                pool.append(v)

    with _client(scheduler, workers) as client:
        from distributed import Event, wait

        stats["workers"] = len(client.scheduler_info().get("workers", {}))
        stop = Event(f"headfusion-stop-{uuid.uuid4().hex}", client=client)
        pending: dict = {}
        waiting: list = []
        in_flight = 2 * max(stats["workers"], 1)

        def split(cube: Cube, depth: int) -> list:
            tree, cubes = space.split(cube, depth)
            stats["closed"] += _closed_leaves(tree)
            return tree, cubes

        def schedule(cube: Cube) -> None:
            stats["cubes"] += 1
            record = store.load(cube) if store is not None else None
            if record is not None and record["status"] == "unsat":
                subtrees[cube], vectors[cube] = record["tree"], record["multipliers"]
                learn(record)
                stats["solved"] += 1
                stats["from_checkpoint"] += 1
                return
            if record is not None and record["status"] == "split":
                expand(cube, record["depth"])
                return
            waiting.append(cube)

        def submit() -> None:
            """Keep about two tasks per worker in flight, so later cubes get the vectors found."""
            while waiting and len(pending) < in_flight:
                cube = waiting.pop(0)
                future = client.submit(solve_cube, P, Q, m, key, cube.to_json(), cube_timeout, deadline, stop.name,
                                       pool[-_POOL_LIMIT:], vertices, pure=False, key=f"cube-{uuid.uuid4().hex}")
                pending[future] = cube

        def expand(cube: Cube, depth: int) -> None:
            stats["cubes"] -= 1  # the cube is replaced by its pieces
            sub, cubes = split(cube, depth)
            resplit[cube] = sub
            if store is not None:
                store.save_split(cube, depth)
            for c in cubes:
                schedule(c)

        try:
            tree, cubes = split(root, cube_depth)
            for c in cubes:
                schedule(c)
            submit()
            bar.update(stats["solved"], stats["cubes"], stats["resplits"], len(pending))
            while pending:
                remaining = None if deadline is None else deadline - time.time()
                if remaining is not None and remaining <= 0:
                    return finish("unknown", "deadline")
                try:
                    done, _ = wait(list(pending), timeout=min(remaining or 5.0, 5.0), return_when="FIRST_COMPLETED")
                except TimeoutError:
                    continue
                for future in done:
                    cube = pending.pop(future)
                    if future.status != "finished":
                        try:
                            why = repr(future.exception(timeout=1))
                        except BaseException as exc:  # cancelled, lost
                            why = repr(exc)
                        return finish("unknown", f"a task failed or its worker was lost ({future.status}): {why}")
                    res = future.result()
                    stats["cube_seconds"] += res["seconds"]
                    stats["slowest_cube"] = max(stats["slowest_cube"], res["seconds"])
                    stats["nodes"] += res.get("nodes", 0)
                    if res["status"] == "sat":
                        return finish("sat", head=res["head"])
                    if res["status"] == "unsat":
                        subtrees[cube], vectors[cube] = res["evidence"]["tree"], res["evidence"]["multipliers"]
                        learn(res["evidence"])
                        stats["solved"] += 1
                        if store is not None:
                            store.save(cube, "unsat", res["evidence"])
                        continue
                    if deadline is not None and time.time() >= deadline:
                        return finish("unknown", "deadline")
                    if res["reason"] == "stopped" or cube.depth >= max_cube_depth:
                        return finish("unknown", f"cube {cube.to_json()} not decided: {res['reason']}")
                    stats["resplits"] += 1
                    expand(cube, resplit_depth)
                submit()
                bar.update(stats["solved"], stats["cubes"], stats["resplits"], len(pending))
        finally:
            with contextlib.suppress(Exception):
                stop.set()
            for future in pending:
                future.cancel()
    evidence = glue(tree, subtrees, vectors, resplit, symmetries_of(P, Q))
    from headfusion.kernel.base import CheckFailed
    from headfusion.kernel.refutation import replay

    try:
        replay(P, Q, m, evidence, vertices)
    except CheckFailed as exc:
        return finish("unknown", f"the glued refutation is rejected by the kernel: {exc}")
    stats["vectors"] = len(evidence["multipliers"])
    stats["tree_nodes"] = len(evidence["tree"])
    return finish("unsat", evidence=evidence)


def _closed_leaves(tree: list) -> int:
    if tree[0] == "split":
        return _closed_leaves(tree[2]) + _closed_leaves(tree[3])
    return int(tree[0] in ("count", "layer"))
