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
import logging
import os
import re
import socket
import time
import uuid

from headfusion.kernel.refutation import search_box
from headfusion.solving.cubes import Checkpoint, Cube, CubeSpace, glue
from headfusion.solving.refute import RefuteResult, make_producer, refute, symmetries_of
from headfusion.solving.workers import (CONNECT_TIMEOUT, NO_WORKER_GRACE, broadcast_stop, executing_keys, lost_or_bug, overdue,
                                         preflight, stop_flag)
from headfusion.spec.errors import InputError

INSTALL_HINT = "pip install 'headfusion[cluster]' (dask[distributed])"
_ADDRESS = re.compile(r"(?:tcp://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))(?::(?P<port>[0-9]{1,5}))?\Z")
_DASK_LOGGERS = ("distributed", "dask", "tornado", "asyncio", "bokeh")

_POOL_LIMIT = 4000  # vectors passed to a task (the most recent ones)
_PRODUCERS: dict = {}  # per worker process: question hash -> producer


def _producer(P: dict, Q: dict, m: int, key: str, vertices: int):
    if (key, vertices) not in _PRODUCERS:
        _PRODUCERS.clear()  # one question at a time per process (the LP can be large)
        _PRODUCERS[key, vertices] = make_producer(P, Q, m, vertices=vertices)
    return _PRODUCERS[key, vertices]


def solve_cube(P: dict, Q: dict, m: int, key: str, path: list, cube_timeout: float, deadline: float | None,
               stop_name: str | None, seed: list, vertices: int = 0) -> dict:
    """One task: refute the cube `path` (Cube.to_json) under its own deadline."""
    start = time.time()
    stop = stop_flag(stop_name)
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


def have_dask() -> bool:
    """Is dask[distributed] installed (the extra `headfusion[cluster]`)?"""
    import importlib.util

    return importlib.util.find_spec("distributed") is not None


def require_dask(what: str) -> None:
    """InputError naming the extra to install when dask[distributed] is missing."""
    if not have_dask():
        raise InputError(f"{what} runs on Dask, which is not installed: {INSTALL_HINT}")


def scheduler_address(text: str) -> tuple[str, str, int]:
    """(tcp://HOST:PORT, host, port) of a --scheduler, or InputError: tcp only, port given or 8786."""
    if not isinstance(text, str) or not text.isprintable() or len(text) > 300:
        raise InputError("--scheduler must be an address such as tcp://HOST:8786")
    if "://" not in text and ":" not in text:
        raise InputError(f"--scheduler {text!r} is not an address: expected tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786")
    scheme = text.split("://", 1)[0] if "://" in text else "tcp"
    if scheme != "tcp":
        raise InputError(f"--scheduler {text!r}: only tcp:// schedulers are supported (got {scheme}://); "
                         "start one with `dask scheduler`, which prints tcp://HOST:8786")
    match = _ADDRESS.match(text)
    port = int(match.group("port") or 8786) if match else 0
    if not match or not 1 <= port <= 65535:
        raise InputError(f"--scheduler {text!r} is not an address: expected tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786")
    host = match.group("host").strip("[]")
    return f"tcp://{match.group('host')}:{port}", host, port


def quiet_dask(verbose: bool = False) -> None:
    """Dask's own log lines (warnings on a normal end, CRITICAL tracebacks on Ctrl-C) only when verbose.

    headfusion reports what matters in its own one line.  Set through the environment too, so
    that worker processes started later read it when they import Dask.
    """
    level = logging.INFO if verbose else logging.CRITICAL + 10  # above CRITICAL: silent
    os.environ["DASK_LOGGING__DISTRIBUTED"] = "info" if verbose else str(level)
    if have_dask():
        import distributed  # noqa: F401 - its import sets its loggers' levels: override them after it

    for name in list(logging.root.manager.loggerDict):
        if name.split(".")[0] in _DASK_LOGGERS:
            logging.getLogger(name).setLevel(level)
    for name in _DASK_LOGGERS:
        logging.getLogger(name).setLevel(level)
    if not verbose and have_dask():  # a version table on stderr; the preflight names what matters (headfusion's version)
        import warnings

        from distributed.versions import VersionMismatchWarning

        warnings.filterwarnings("ignore", category=VersionMismatchWarning)


def _probe(host: str, port: int, address: str) -> None:
    """A Dask scheduler answers at host:port within CONNECT_TIMEOUT, or InputError (in seconds, not at the deadline).

    A scheduler sends its handshake (msgpack naming "compression", "python", ...) as soon as a
    connection opens; anything else that listens there (a web server, a bare socket) is refused
    here, before Dask's own connect, which would wait for it until the deadline.
    """
    began = time.monotonic()
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as sock:
            sock.settimeout(max(CONNECT_TIMEOUT - (time.monotonic() - began), 0.5))
            greeting = sock.recv(512)
    except socket.gaierror:
        raise InputError(f"--scheduler {address}: unknown host {host!r}") from None
    except TimeoutError:
        raise InputError(f"--scheduler {address}: no Dask scheduler answered within {CONNECT_TIMEOUT:g} s "
                         "(nothing listens there, or something that is not `dask scheduler`)") from None
    except OSError as exc:
        raise InputError(f"--scheduler {address}: cannot connect ({(exc.strerror or str(exc)).lower()}); "
                         "is `dask scheduler` running there?") from None
    if b"compression" not in greeting and b"pickle-protocol" not in greeting:
        raise InputError(f"--scheduler {address}: what listens there is not a Dask scheduler (its first bytes "
                         "are not Dask's handshake)")


@contextlib.contextmanager
def _client(scheduler: str | None, workers: int | None):
    require_dask("a distributed refutation")
    from distributed import Client, LocalCluster

    if scheduler:
        address, host, port = scheduler_address(scheduler)
        _probe(host, port, address)
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:  # a listener that does not speak Dask's protocol
            raise InputError(f"--scheduler {address}: no Dask scheduler answered within {CONNECT_TIMEOUT:g} s "
                             f"({type(exc).__name__}); is it `dask scheduler` of a compatible version?") from None
        with client:
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except (TimeoutError, OSError):
                raise InputError(f"--scheduler {address}: the scheduler has no workers; start `dask worker {address}` "
                                 "on each machine (one per core: --nthreads 1)") from None
            preflight(client, f"--scheduler {address}")
            yield client
        return
    n = workers or os.cpu_count() or 1
    try:
        with _workers_ignore_sigint():
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
    except Exception as exc:  # e.g. a worker process killed while its nanny starts it
        raise ClusterStartFailed(f"the LocalCluster did not start ({type(exc).__name__}: {exc})") from None
    try:
        try:
            client = Client(cluster)
        except Exception as exc:
            raise ClusterStartFailed(f"no client for the LocalCluster ({type(exc).__name__}: {exc})") from None
        try:
            preflight(client, "the LocalCluster")
            yield client
        finally:
            with contextlib.suppress(Exception):  # a cluster that lost workers may fail to close cleanly: not the answer
                client.close()
    finally:
        with contextlib.suppress(Exception):
            cluster.close()


class ClusterStartFailed(RuntimeError):
    """The LocalCluster could not be started: the search ends "unknown" with this reason."""


@contextlib.contextmanager
def _workers_ignore_sigint():
    """Worker processes started inside ignore SIGINT: Ctrl-C reaches every process of the terminal's group,
    and only this one should answer it (closing the cluster), not each worker with its own traceback.

    An ignored disposition is what survives the workers' exec (a blocked mask does not: they are
    spawned from Dask's threads); a Ctrl-C during the second or two the cluster starts is lost.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Progress:
    """Reports cubes done/total, re-splits and running cubes to a callable taking a dict (or to nobody)."""

    def __init__(self, progress):
        self.callback = progress if callable(progress) else None

    def update(self, done: int, total: int, resplits: int, running: int, oldest: float = 0.0, workers: int = 0,
               lost: int = 0) -> None:
        if self.callback is not None:
            self.callback({"done": done, "total": total, "resplits": resplits, "in_flight": running,
                           "oldest_running": round(oldest, 1), "workers": workers, "workers_lost": lost})

    def close(self) -> None:
        pass


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
    folder where solved cubes are kept (a rerun re-uses them; a folder this run made stays
    only if something was kept).  `progress`: None (silent) or a callable taking a dict (done,
    total, resplits, in_flight, oldest_running seconds, workers, workers_lost), called at least
    every 5 s.  stats: cubes solved/total, re-splits, cubes from the checkpoint, cubes closed
    with no solve, workers seen lost, cubes re-queued, seconds.  `vertices`: the checked vertex
    count of Newt(Q′), for interior leaves when m ≤ V (0: none).

    Before the first cube every worker must import this headfusion (`preflight`, InputError
    naming the worker otherwise); workers that join later are probed as they appear.  A worker
    that dies is noticed (stats, progress): the scheduler re-runs its cubes elsewhere, and a
    cube whose worker died too often (KilledWorker) is re-queued by us up to MAX_REQUEUES times.
    """
    t0 = time.monotonic()
    if search_box(P, Q, m) is None:  # L3: no head fits, the empty tree
        return refute(P, Q, m)
    space = CubeSpace(P, Q, m)
    store = Checkpoint(checkpoint, P, Q, m) if checkpoint is not None else None
    try:
        return _conquer(P, Q, m, space, store, scheduler, workers, cube_depth, cube_timeout, deadline,
                        _Progress(progress), resplit_depth, max_cube_depth, vertices, t0)
    except ClusterStartFailed as exc:  # a worker died while the LocalCluster started: no verdict, one line
        return RefuteResult("unknown", None, None, {"cubes": 0, "solved": 0, "resplits": 0, "workers": 0,
                                                    "seconds": time.monotonic() - t0, "reason": str(exc)})
    finally:
        if store is not None:
            store.discard_if_empty()


MAX_REQUEUES = 2  # times one cube is submitted again after Dask gave up on it (KilledWorker)
OVERRUN_GRACE = 5.0  # seconds past --cube-timeout a cube may run before the watchdog re-splits it (one long LP step)



def _conquer(P, Q, m, space, store, scheduler, workers, cube_depth, cube_timeout, deadline, bar, resplit_depth,
             max_cube_depth, vertices, t0) -> RefuteResult:
    """The cube-and-conquer loop of `distributed_refute`, on a connected and probed cluster."""
    from headfusion.solving.cubes import question_hash

    key = store.question if store is not None else question_hash(P, Q, m)
    stats = {"cubes": 0, "solved": 0, "resplits": 0, "from_checkpoint": 0, "closed": 0, "nodes": 0,
             "cube_seconds": 0.0, "slowest_cube": 0.0, "workers": 0, "workers_lost": 0, "requeued": 0}
    root = Cube()
    resplit: dict = {}
    subtrees: dict = {}
    vectors: dict = {}
    pool: list = []
    pool_keys: set = set()
    requeues: dict = {}

    def finish(status: str, reason: str = "", evidence=None, head=None) -> RefuteResult:
        bar.close()
        out = dict(stats, seconds=time.monotonic() - t0)
        if reason == "deadline":  # say how far it got, not just that time ran out
            reason = (f"deadline after {out['seconds']:.0f} s: {stats['solved']}/{stats['cubes']} cubes solved, "
                      f"{stats['cubes'] - stats['solved']} open, {stats['resplits']} re-splits")
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
        from distributed import wait

        where = f"--scheduler {scheduler}" if scheduler else "the LocalCluster"
        known = set(client.scheduler_info().get("workers", {}))
        stats["workers"] = len(known)
        stop_name = f"headfusion-stop-{uuid.uuid4().hex}"
        pending: dict = {}
        started: dict = {}  # future -> when it was submitted (progress: how long the oldest cube runs)
        waiting: list = []
        in_flight = 2 * max(stats["workers"], 1)
        alone_since: list = []  # when the cluster was last seen without workers

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
                future = client.submit(solve_cube, P, Q, m, key, cube.to_json(), cube_timeout, deadline, stop_name,
                                       pool[-_POOL_LIMIT:], vertices, pure=False, key=f"cube-{uuid.uuid4().hex}")
                pending[future] = cube
                started[future] = time.monotonic()

        def report() -> None:
            oldest = max((time.monotonic() - started[f] for f in pending), default=0.0)
            bar.update(stats["solved"], stats["cubes"], stats["resplits"], len(pending), oldest, len(known),
                       stats["workers_lost"])

        def watch_workers() -> str | None:
            """Notice lost and new workers (new ones are probed); a reason to end when none is left for long."""
            nonlocal known
            now = set(client.scheduler_info().get("workers", {}))
            stats["workers_lost"] += len(known - now)
            joined = sorted(now - known)
            known = now
            if joined:
                preflight(client, where, workers=joined)  # InputError: a worker without this headfusion joined
            stats["workers"] = max(stats["workers"], len(now))
            if now:
                alone_since.clear()
                return None
            alone_since[:] = alone_since or [time.monotonic()]
            if time.monotonic() - alone_since[0] >= NO_WORKER_GRACE:
                return f"no worker left for {NO_WORKER_GRACE:.0f} s ({stats['workers_lost']} lost)"
            return None

        running_since: dict = {}

        def watchdog(done: set) -> list:
            """Pending cubes executing past cube_timeout + OVERRUN_GRACE: cancelled and returned to be re-split.  The step
            running on the worker cannot be interrupted; it ends by itself (keeping the worker's cached producer) and its
            result is dropped, while the pieces of the cube are queued."""
            by_key = {f.key: f for f in pending if f not in done}
            try:
                executing = client.run(executing_keys, on_error="ignore")
            except Exception:  # noqa: BLE001 - the scheduler is gone: the main loop says so
                return []
            late = overdue(executing if isinstance(executing, dict) else {}, set(by_key), running_since, time.monotonic(),
                           cube_timeout + OVERRUN_GRACE)
            out = []
            for key, _ in late:
                future = by_key[key]
                cube = pending.pop(future)
                started.pop(future, None)
                with contextlib.suppress(Exception):
                    future.cancel()
                out.append((future, cube))
            return out

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
            report()
            while pending:
                remaining = None if deadline is None else deadline - time.time()
                if remaining is not None and remaining <= 0:
                    return finish("unknown", "deadline")
                try:
                    done, _ = wait(list(pending), timeout=min(remaining or 5.0, 5.0), return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = set()  # the clock moves even when no cube finishes
                except Exception as exc:  # the scheduler went away (futures cancelled, comm closed), or a bug: named apart
                    return finish("unknown", lost_or_bug(exc))
                try:
                    alone = watch_workers()
                except InputError:
                    raise
                except Exception as exc:
                    return finish("unknown", lost_or_bug(exc))
                if alone:
                    return finish("unknown", alone)
                for future, cube in watchdog(set(done)):  # --cube-timeout enforced: overdue cubes are re-split
                    if cube.depth >= max_cube_depth:
                        return finish("unknown", f"cube {cube.to_json()} not decided: over --cube-timeout at the deepest split")
                    stats["resplits"] += 1
                    stats["overruns"] = stats.get("overruns", 0) + 1
                    expand(cube, resplit_depth)
                for future in done:
                    cube = pending.pop(future)
                    started.pop(future, None)
                    if future.status != "finished":
                        why = _failure(future)
                        if why.startswith("KilledWorker") and requeues.get(cube, 0) < MAX_REQUEUES:
                            requeues[cube] = requeues.get(cube, 0) + 1  # its workers died: try it again
                            stats["requeued"] += 1
                            waiting.insert(0, cube)
                            continue
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
                report()
        finally:
            broadcast_stop(client, stop_name)  # running tasks end within 0.25 s, before the cluster closes
            for future in pending:
                with contextlib.suppress(Exception):
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


def _failure(future) -> str:
    """Why a task did not finish: its exception (KilledWorker: its workers died) or its status."""
    try:
        exc = future.exception(timeout=1)
    except BaseException as error:  # cancelled, lost
        return f"{type(error).__name__}: {error}"
    return f"{type(exc).__name__}: {exc}" if exc is not None else str(future.status)


def _closed_leaves(tree: list) -> int:
    if tree[0] == "split":
        return _closed_leaves(tree[2]) + _closed_leaves(tree[3])
    return int(tree[0] in ("count", "layer"))
