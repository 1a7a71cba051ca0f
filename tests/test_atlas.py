"""`headfusion atlas`: one certificate per grid point, tables, resumable after a kill, and on a real Dask cluster."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from headfusion.proof.statement import verify_file
from headfusion.proof.atlas import moonshot_subset_sums

from .conftest import HANG_GUARD, atlas_killed_after, run_cli

PAIRS = ("sigmoid(a*q1) + sigmoid(b*q1)", "a=1..3", "b=a+1..4")  # (1,2) (1,3) (1,4) (2,3) (2,4) (3,4)
TRIPLES = "sigmoid(a*q1) + sigmoid(b*q1) + sigmoid(c*q1)"


def atlas(capsys, out: Path, *argv: str) -> dict:
    code, stdout, err = run_cli(capsys, "atlas", *argv, "--out", str(out), "--no-pdf", "--json", "-q")
    assert code == 0, err
    return json.loads(stdout)


def test_pairs_atlas_certifies_every_point(tmp_path, capsys):
    data = atlas(capsys, tmp_path, *PAIRS)
    assert [tuple(r["point"].values()) for r in data["rows"]] == [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    assert all(r["minimum"] == 4 and r["status"] == "proved" for r in data["rows"])  # Theorem P, point by point
    assert {r["claim"] for r in data["rows"]} <= {"lower:classes", "lower:unit-roots"}
    for row in data["rows"]:
        report = verify_file(str(tmp_path / "points" / f"{row['certificate']}.json"))
        assert report.ok
    assert {"markdown", "csv", "json", "tex"} <= set(data["files"])
    table = (tmp_path / "atlas.md").read_text()
    assert "| 1 | 3 | 4 | 4 | 4 | proved | LU (unit roots), lower:unit-roots |" in table
    again = atlas(capsys, tmp_path, *PAIRS)  # nothing redone, the same bytes
    assert (again["reused"], again["computed"]) == (6, 0)
    assert (tmp_path / "atlas.md").read_text() == table


def test_the_triple_one_two_three_needs_seven(tmp_path, capsys):
    data = atlas(capsys, tmp_path, TRIPLES, "a=1..1", "b=2..2", "c=3..3", "--search-timeout", str(HANG_GUARD), "--point-timeout", str(HANG_GUARD))  # no clock: an answer, not a time
    (row,) = data["rows"]
    assert row["minimum"] == 7 and row["claim"].startswith("search:")  # a refutation tree the kernel replayed
    assert moonshot_subset_sums(data["rows"])[0]["subset_sums"] == 7


@pytest.mark.parametrize("argv,words", [
    ((TRIPLES, "a=1..2", "b=1..2"), "c is not given a range"),
    (("sigmoid(a*q1)", "a=1..2", "b=1..2"), "b is not in the expression"),
    (("sigmoid(a*q1)", "a=1..x"), "x is not a parameter defined before it"),
    (("sigmoid(a*q1)", "a=1..2.5"), "a bound is an integer"),
    (("proofs/sigmoid_sum.toml", "n=1..2"), "one parameter, d"),
    ((TRIPLES, "a=1..3", "b=1..4000", "c=1..4000"), "more than 10000 points"),
])
def test_bad_grids_are_refused_before_any_work(tmp_path, capsys, argv, words):
    code, out, err = run_cli(capsys, "atlas", *argv, "--out", str(tmp_path / "x"))
    assert code == 2 and out == "" and err.startswith("headfusion: error:") and err.count("\n") == 1 and words in err, err
    assert not (tmp_path / "x").exists()


def test_a_toml_spec_runs_over_its_parameter(tmp_path, capsys):
    data = atlas(capsys, tmp_path, "proofs/sigmoid_sum.toml", "d=1..3")
    assert [r["minimum"] for r in data["rows"]] == [2, 4, 8]


def test_a_folder_of_another_atlas_is_refused(tmp_path, capsys):
    atlas(capsys, tmp_path, "sigmoid(a*q1)", "a=1..2")
    code, _, err = run_cli(capsys, "atlas", "tanh(a*q1)", "a=1..2", "--out", str(tmp_path), "--no-pdf")
    assert code == 2 and "another spec" in err


@pytest.mark.slow  # a SIGTERM'd run and its rerun
def test_a_killed_atlas_resumes_without_redoing_points(tmp_path, capsys):
    """SIGTERM in the middle of a run; the second run reuses every point the first one finished."""
    finished = atlas_killed_after([TRIPLES, "a=1..2", "b=a+1..4", "c=b+1..5"], tmp_path, 2)
    rows = tmp_path / "rows"
    assert len(finished) >= 2
    data = atlas(capsys, tmp_path, TRIPLES, "a=1..2", "b=a+1..4", "c=b+1..5")
    total = len(data["rows"])  # (1,2,3..5), (1,3,4..5), (1,4,5), (2,3,4..5), (2,4,5)
    assert total == 9 and data["reused"] >= len(finished) and data["reused"] + data["computed"] == total
    assert all(rows.joinpath(name).stat().st_mtime_ns == stamp for name, stamp in finished.items())  # not redone
    assert all(r["minimum"] is not None for r in data["rows"])


SEARCHED = (TRIPLES, "a=1..1", "b=2..3", "c=b+1..4")  # (1,2,3), (1,2,4), (1,3,4): solver questions in child processes


@pytest.mark.slow  # a LocalCluster
def test_on_a_two_worker_local_cluster(tmp_path, capsys):
    pytest.importorskip("distributed")
    serial = atlas(capsys, tmp_path / "serial", *SEARCHED)
    parallel = atlas(capsys, tmp_path / "dask", *SEARCHED, "--scheduler", "local", "--jobs", "2")
    assert parallel["computed"] == 3 and parallel["rows"] == serial["rows"]
    assert [r["minimum"] for r in parallel["rows"]] == [7, 8, 7]
    assert (tmp_path / "serial" / "atlas.json").read_bytes() == (tmp_path / "dask" / "atlas.json").read_bytes()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow  # starts `dask scheduler` and two `dask worker` processes
def test_on_a_dask_scheduler_with_two_workers(tmp_path, capsys):
    pytest.importorskip("distributed")
    dask = Path(sys.executable).with_name("dask")
    if not dask.exists():
        pytest.skip("no dask command next to the interpreter")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    started = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        time.sleep(3)
        started += [subprocess.Popen([str(dask), "worker", address, "--nthreads", "1", "--no-dashboard"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True) for _ in range(2)]
        time.sleep(5)
        data = atlas(capsys, tmp_path, *SEARCHED, "--scheduler", address)
        assert data["computed"] == 3 and [r["minimum"] for r in data["rows"]] == [7, 8, 7]
    finally:
        for proc in reversed(started):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in started:
            proc.wait(timeout=30)


def test_a_point_past_its_time_limit_is_reported_and_tried_again(tmp_path, capsys):
    argv = (TRIPLES, "a=1..1", "b=3..3", "c=5..5")
    data = atlas(capsys, tmp_path, *argv, "--point-timeout", "0.3")
    assert data["rows"][0]["status"] == "time limit" and data["rows"][0]["minimum"] is None
    assert not list((tmp_path / "rows").glob("*.json"))  # not saved: the next run computes it
    data = atlas(capsys, tmp_path, *argv, "--search-timeout", str(HANG_GUARD), "--point-timeout", str(HANG_GUARD))
    assert data["computed"] == 1 and data["rows"][0]["minimum"] == 8
