"""Progress of long work on stderr, through tqdm: a bar on a terminal, plain log lines otherwise.

Every long job of the command line (analyze at large d, certify's searches, explore,
search and its refutations) reports through one `Progress`: what is done, what is open,
the rate.  On a terminal it is a tqdm bar that disappears when the job ends; when stderr
is not a terminal (a pipe, a log file, CI) it writes a plain line `headfusion: ...` once the
job has run LOG_AFTER seconds and then at most every LOG_EVERY seconds, so short commands
stay silent and logs stay readable; a heartbeat thread writes that line (or moves the bar's
clock) between updates too, so one long step — a single z3 query — still shows in a log.  `--quiet` turns it off; stdout (results, --json) is
never touched.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

LOG_AFTER = 10.0  # seconds of work before the first plain log line
LOG_EVERY = 30.0  # seconds between plain log lines
HEARTBEAT = 1.0  # seconds between the heartbeat's looks: a long single step (one z3 query) still shows it is alive


class Progress:
    """One job's progress: `update(done=, total=, note=)`; a callable taking a status text."""

    def __init__(self, desc: str, *, quiet: bool = False, total: int | None = None, unit: str = "step"):
        self.desc, self.unit, self.total, self.done, self.note = desc, unit, total, 0, ""
        self.quiet = quiet
        self.began = time.monotonic()
        self.logged: float | None = None
        self.bar: Any = None
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        if not quiet and _is_terminal():
            from tqdm import tqdm

            fmt = None if total is not None else "{desc}{postfix} [{elapsed}]"  # tqdm puts ", " before a postfix
            self.bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False,
                            bar_format=fmt)
        if not quiet:  # between updates (a single z3 query of an hour), the bar's clock moves and logs get their line
            threading.Thread(target=self._heartbeat, name="headfusion-progress", daemon=True).start()

    def _heartbeat(self) -> None:
        while not self._stopped.wait(HEARTBEAT):
            with self._lock:
                if self._stopped.is_set():
                    return
                if self.bar is not None:
                    self.bar.refresh()
                elif self.note or self.total is not None:  # repeat what was said; a bare clock is no news
                    self._log_if_due()

    def __call__(self, note: str) -> None:
        """A status text (the callback form the producers take)."""
        self.update(note=note)

    def update(self, done: int | None = None, total: int | None = None, note: str | None = None) -> None:
        """New counts and/or status text; redraws the bar or, off a terminal, maybe logs a line."""
        if self.quiet:
            return
        with self._lock:
            self.done = self.done if done is None else done
            self.total = self.total if total is None else total
            self.note = self.note if note is None else note
            if self.bar is not None:
                if self.total is not None:
                    self.bar.total = self.total
                self.bar.n = self.done
                self.bar.set_postfix_str(self.note, refresh=False)
                self.bar.refresh()
                return
            self._log_if_due()

    def say(self, text: str) -> None:
        """One line on stderr now, whatever the throttle (an estimate of the work before a long run)."""
        if self.quiet:
            return
        with self._lock:
            if self.bar is not None:
                self.bar.write(f"headfusion: {self.desc}: {text}", file=sys.stderr)
            else:
                sys.stderr.write(f"headfusion: {self.desc}: {text}\n")
                sys.stderr.flush()

    def _log_if_due(self) -> None:
        """Off a terminal: the log line, once the job has run LOG_AFTER s and LOG_EVERY s after the last one."""
        now = time.monotonic()
        if now - self.began >= LOG_AFTER and (self.logged is None or now - self.logged >= LOG_EVERY):
            self.logged = now
            sys.stderr.write(f"headfusion: {self.line(now)}\n")
            sys.stderr.flush()

    def line(self, now: float | None = None) -> str:
        """The plain log line: desc, done/total and rate, status, elapsed."""
        elapsed = (now or time.monotonic()) - self.began
        counts = ""
        if self.total is not None:
            rate = f", {self.done / elapsed * 60:.1f} {self.unit}s/min" if self.done and elapsed > 0 else ""
            counts = f" {self.done}/{self.total} {self.unit}s done, {max(self.total - self.done, 0)} open{rate};"
        note = f" {self.note};" if self.note else ""
        return f"{self.desc}:{counts}{note} {elapsed:.0f} s elapsed"

    def close(self) -> None:
        """Stop the heartbeat and remove the bar (results follow on stdout)."""
        self._stopped.set()
        with self._lock:
            if self.bar is not None:
                self.bar.close()
                self.bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False
