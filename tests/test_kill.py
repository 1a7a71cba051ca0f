"""Issue 13: `certify` killed at random moments leaves a complete set of files, old or new.

SIGTERM and SIGINT must also leave no temporary file in out/ and no `headfusion-tex-*`
folder in the temporary directory; SIGKILL may leave .tmp files, never a half set.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from headfusion.render.files import latex_engine

from .conftest import HANG_GUARD

ROOT = Path(__file__).resolve().parent.parent
SLUG = "W_d2"
OLD = b"OLD SET\n"


def start(tmp_path: Path) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"))
    return subprocess.Popen([sys.executable, "-m", "headfusion", "certify", "W", "--d", "2", "--no-search",
                             "--out", str(tmp_path / "out")], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def the_set(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if not p.name.startswith(".")}


def assert_whole(out: Path, names: list[str]) -> str:
    """out/ holds the old set (every file OLD) or the new set (every file new, the JSON a certificate)."""
    files = the_set(out)
    assert sorted(files) == sorted(names), files.keys()
    old = [name for name, data in files.items() if data == OLD]
    if len(old) == len(files):
        return "old"
    assert not old, f"half a set: {old} old, {sorted(set(files) - set(old))} new"
    assert json.loads(files[f"{SLUG}.json"])["spec"]["slug"] == SLUG
    return "new"


@pytest.fixture(scope="module")
def duration(tmp_path_factory) -> tuple[float, list[str]]:
    """How long one certify takes here, and the names of its files."""
    tmp_path = tmp_path_factory.mktemp("baseline")
    (tmp_path / "tmp").mkdir()
    began = time.monotonic()
    proc = start(tmp_path)
    _, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode == 0, err
    return time.monotonic() - began, sorted(the_set(tmp_path / "out"))


# The quick suite kills SIGTERM late, SIGINT early and SIGKILL at both moments (a SIGKILL'd run is the cheapest);
# the slow suite adds SIGTERM early and SIGINT late (each a whole certify with its LaTeX runs, in a child process).
SLOW_KILLS = {(signal.SIGTERM, 0), (signal.SIGINT, 1)}


@pytest.mark.parametrize("signum, run", [pytest.param(s, i, marks=[pytest.mark.slow] * ((s, i) in SLOW_KILLS))
                                         for s in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL) for i in range(2)])
def test_a_kill_leaves_a_whole_set(tmp_path, duration, signum, run):
    seconds, names = duration
    out, tmp = tmp_path / "out", tmp_path / "tmp"
    out.mkdir()
    tmp.mkdir()
    for name in names:  # the previous set, recognisable
        (out / name).write_bytes(OLD)
    rng = random.Random(f"{signum}-{run}")
    # mostly late moments (writing and renaming happen at the end), some early ones
    moment = seconds * (rng.uniform(0.75, 1.05) if run else rng.uniform(0.2, 0.75))
    proc = start(tmp_path)
    time.sleep(moment)
    if proc.poll() is None:
        proc.send_signal(signum)
    _, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode in (0, -signum, 128 + signum, 130 if signum == signal.SIGINT else 143, -9), err
    if signum == signal.SIGTERM:
        assert b"Traceback" not in err, err
    if signum != signal.SIGKILL:
        assert not [p.name for p in out.iterdir() if p.name.startswith(".")], "temporary files left in out/"
        assert not [p.name for p in tmp.iterdir() if p.name.startswith("headfusion-tex-")], "LaTeX folders leaked"
    assert_whole(out, names)


@pytest.mark.slow  # several processes killed at several moments
def test_a_kill_before_the_first_set_leaves_nothing_or_everything(tmp_path, duration):
    seconds, names = duration
    out, tmp = tmp_path / "out", tmp_path / "tmp"
    tmp.mkdir()
    for moment in (0.9, 1.0):
        proc = start(tmp_path)
        time.sleep(seconds * moment)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=HANG_GUARD)
        present = sorted(p.name for p in out.iterdir()) if out.exists() else []
        assert present in ([], names), present
        if present:
            break


@pytest.mark.skipif(latex_engine() is None, reason="no LaTeX engine: the PDF step is what takes time")
def test_sigterm_during_latex_removes_its_folder(tmp_path, duration):
    seconds, names = duration
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = start(tmp_path)
    deadline = time.monotonic() + seconds * 2 + 10
    while time.monotonic() < deadline and not any(p.name.startswith("headfusion-tex-") for p in tmp.iterdir()):
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=HANG_GUARD)
    assert proc.returncode in (0, 143), err
    assert not list(tmp.iterdir())
