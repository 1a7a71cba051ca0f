"""`search --refute` on Dask from the command line: bad schedulers fail fast, quiet logs, Ctrl-C, the extra.

Issue 21's --scheduler attacks, each a small regression test: every one ends in one line on
stderr and exit 2 within 10 s (they took a traceback, or ~33 s, before).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .conftest import HANG_GUARD, run_cli

ROOT = Path(__file__).resolve().parent.parent
# σ(q)+σ(2q)+σ(3q)+σ(5q)+σ(6q) at 15, between its tree-proved 13 and its 16-atom head: open, minutes of cubes
LONG_QUESTION = ("search", "sigmoid(q1)+sigmoid(2*q1)+sigmoid(3*q1)+sigmoid(5*q1)+sigmoid(6*q1)", "--atoms", "15", "--refute")
QUESTION = ("search", "sigmoid(q1) - 3*sigmoid(3*q1)", "--atoms", "3", "--refute")  # at its proved bound 3 (LE): a real refutation


def _refused_fast(capsys, address: str, *words: str) -> None:
    code, out, err = run_cli(capsys, *QUESTION, "--scheduler", address, "--timeout", "60")
    assert code == 2 and out == "", (address, out, err)
    assert err.count("\n") == 1 and err.startswith("headfusion: error: --scheduler"), err
    assert "Traceback" not in err and all(w in err for w in words), err


@pytest.mark.parametrize("address,words", [
    ("garbage", ["not an address"]),
    ("tcp://[::1", ["not an address"]),
    ("tcp://127.0.0.1:99999", ["not an address"]),
    ("inproc://x", ["only tcp://"]),
    ("tls://127.0.0.1:8786", ["only tcp://"]),
    ("ws://127.0.0.1:1", ["only tcp://"]),
])
def test_malformed_or_unsupported_addresses_are_refused_at_once(capsys, address, words):
    pytest.importorskip("distributed")
    _refused_fast(capsys, address, *words)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_closed_port_is_refused_in_seconds(capsys):
    pytest.importorskip("distributed")
    _refused_fast(capsys, f"tcp://127.0.0.1:{_free_port()}", "cannot connect")


@pytest.mark.parametrize("greeting", [None, b"HTTP/1.0 200 OK\r\n\r\nhello"], ids=["silent", "http"])
def test_a_listener_that_is_not_dask_is_refused_within_the_connect_timeout(capsys, greeting):
    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if greeting:
                conn.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    try:
        _refused_fast(capsys, f"tcp://127.0.0.1:{server.getsockname()[1]}", "Dask")
    finally:
        server.close()
        for conn in held:
            conn.close()


def test_without_dask_refute_runs_here_and_the_cluster_options_say_what_to_install(capsys, monkeypatch):
    from headfusion.solving import distribute

    monkeypatch.setattr(distribute, "have_dask", lambda: False)
    code, out, err = run_cli(capsys, "search", "sigmoid(q1) - 3*sigmoid(3*q1)", "--atoms", "3", "--refute", "--timeout", str(HANG_GUARD))
    assert code == 0 and "UNSAT" in out and "replayed" in out, (out, err)  # at the proved bound 3: a refutation
    for option in (("--jobs", "2"), ("--scheduler", "tcp://127.0.0.1:8786"), ("--checkpoint", "cubes")):
        code, out, err = run_cli(capsys, "search", "W", "-d", "2", "--atoms", "3", "--refute", *option)
        assert code == 2 and err.count("\n") == 1 and "pip install 'headfusion[cluster]'" in err, (option, err)


def _start(*argv: str) -> subprocess.Popen:
    """A headfusion run in its own process group with SIGINT at its default, as under a terminal."""
    return subprocess.Popen([sys.executable, "-m", "headfusion", *argv], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _workers_of(pid: int) -> int:
    """How many Dask worker processes (multiprocessing spawn children) run under pid."""
    found = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid and b"spawn_main" in (entry / "cmdline").read_bytes():
                    found += 1
            except (OSError, IndexError, ValueError):
                continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see the worker processes")
def test_ctrl_c_on_a_local_cluster_is_one_line_and_exit_130():
    pytest.importorskip("distributed")
    proc = _start(*LONG_QUESTION, "--jobs", "2", "--timeout", "300", "--cube-timeout", "120")
    deadline = time.monotonic() + 120
    while _workers_of(proc.pid) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)  # the workers are up; let the cubes start
    for _ in range(5):  # a Ctrl-C while the cluster starts is ignored (workers must not see it): press again
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=15)
            break
        except subprocess.TimeoutExpired:
            continue
    else:
        proc.kill()
        pytest.fail("no exit after SIGINT")
    assert proc.returncode == 130, (out, err)
    # a progress line may come first (one every 30 s after 10 s); then the one line of the ending
    lines = [line for line in err.splitlines() if not line.startswith("headfusion: search --refute:")]
    assert lines == ["headfusion: interrupted"], err
    assert out == ""


@pytest.mark.slow
def test_an_unknown_ending_says_how_far_it_got_and_leaks_no_dask_logs():
    pytest.importorskip("distributed")
    # an open question (LONG_QUESTION): its cancelled cubes made Dask warn
    proc = _start(*LONG_QUESTION, "--jobs", "2", "--timeout", "10", "--cube-timeout", "2")
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err
    assert "UNKNOWN" in out and "reason: deadline after" in out and "cubes solved" in out, out
    assert "distributed" not in err and "WARNING" not in err and "Traceback" not in err, err
