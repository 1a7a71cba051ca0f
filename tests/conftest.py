"""Shared helpers for the test suite."""

from __future__ import annotations

import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Iterator
from unittest import mock

import pytest

from headfusion.algebra.expform import ExpForm
from headfusion.algebra.fused import fused_atoms
from headfusion.cli import main
from headfusion.proof.statement import verify_certificate
from headfusion.proof.claims import build_certificate
from headfusion.spec.load import load_spec


HEARTBEAT_LINE = re.compile(r"headfusion: [a-z -]+: [^\n]*\d+ s elapsed\n")  # progress of a long step, every 30 s after 10 s


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process; returns (exit code, stdout, stderr without progress heartbeats).

    A step that runs past 10 s prints a heartbeat line on stderr (documented progress, README "A short tour"); how many
    a run prints depends on how busy the machine is, so tests read stderr without them: what they check (one error
    line, a note, no traceback) is the same on a quiet and on a busy machine."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, HEARTBEAT_LINE.sub("", captured.err)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def t_value(poly: dict[int, Fraction], scale: int) -> float:
    t = math.exp(1 / scale)
    return sum(float(c) * t**k for k, c in poly.items())


def fused_numeric(form: ExpForm, q: list[float]) -> float:
    """Numerical value of the fused head at q (a second guard next to the exact identity)."""
    logits, values = [], []
    for atom in fused_atoms(form):
        key = form.key(atom.block_coords)
        weight = t_value(atom.weight, form.t_scale)
        logits.append(sum(float(k) * x for k, x in zip(key, q)) + math.log(weight))
        values.append(t_value(atom.value_num, form.t_scale) / t_value(atom.value_den, form.t_scale))
    top = max(logits)
    exps = [math.exp(l - top) for l in logits]
    return sum(e * v for e, v in zip(exps, values)) / sum(exps)


def random_points(dimension: int, count: int = 5, seed: int = 0) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.uniform(-2, 2) for _ in range(dimension)] for _ in range(count)]


# A guard against a hang, never a measurement: no test asserts a wall-clock time (timings live in
# benchmarks/bench_timings.py). A run that passes takes seconds; one that hangs fails here, late.
HANG_GUARD = 900


def built(text: str, d: int | None = None) -> dict:
    """The certificate as stored (no search), through JSON and back."""
    return json.loads(json.dumps(build_certificate(load_spec(text, d), ["headfusion", "certify", text])))


def claim(cert: dict, cid: str) -> dict:
    """The claim of a certificate by its id."""
    return next(c for c in cert["claims"] if c["id"] == cid)


def failures(cert: dict) -> dict[str, str]:
    """Claim id ↦ the kernel's reason, for every claim that fails."""
    return {cid: message for cid, _, outcome, message in verify_certificate(cert).rows if outcome == "failed"}


@contextmanager
def without_grid_lemmas() -> Iterator[None]:
    """The engine with the grid finder (W14, K35) switched off: for tests of the lemmas K35 supersedes on K_4 (Theorem K, LD)."""
    from headfusion.bounds.multiples import MultipleFinder

    with mock.patch.object(MultipleFinder, "grid", lambda self, factors: None):
        yield


def rejected_by_verify(capsys: pytest.CaptureFixture[str], tmp_path, cert: dict, cid: str, *words: str) -> None:
    """`verify` exits 1 and its row for `cid` fails, with these words in the reason."""
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(cert))
    code, out, err = run_cli(capsys, "verify", str(path))
    assert code == 1, (out, err)
    line = next((row for row in out.splitlines() if cid in row and "FAIL" in row.upper()), None)
    assert line is not None, out
    assert all(w in line for w in words), line


def atlas_killed_after(argv: list[str], out: Path, rows: int) -> dict[str, int]:
    """Start `headfusion atlas ARGV --out OUT` in a child process, SIGTERM it once `rows` rows are saved (or it ends);
    return the saved rows' files with their modification times (a resumed run must leave them as they are)."""
    command = [sys.executable, "-m", "headfusion", "atlas", *argv, "--out", str(out), "--no-pdf", "-q"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    saved = out / "rows"
    began = time.monotonic()
    while time.monotonic() - began < 300 and len(list(saved.glob("*.json"))) < rows and proc.poll() is None:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)
    assert proc.returncode in (143, 0), proc.stderr.read()
    return {p.name: p.stat().st_mtime_ns for p in saved.glob("*.json")}
