"""HiGHS for the producers (floats that find, never evidence): an instance that prints no banner."""

from __future__ import annotations


def quiet_highs():
    """A HiGHS instance whose start-up banner does not reach stdout (it would break --json)."""
    import os
    import sys

    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    h.silent()
    return h
