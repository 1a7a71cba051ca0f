"""The refuter on one-variable sums: no give-up at the first node (issue 38, item 6)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("highspy")

from headfusion.algebra.expform import exponential_form  # noqa: E402
from headfusion.kernel.refutation import replay  # noqa: E402
from headfusion.proof.certify import kernel_question  # noqa: E402
from headfusion.solving import farkas  # noqa: E402
from headfusion.solving.refute import refute  # noqa: E402
from headfusion.spec.load import load_spec  # noqa: E402


def line_question(scales: tuple[int, ...]) -> tuple[dict, dict, int]:
    """(P′, Q′, V) of Σ σ(a·q) over the scales, as the kernel checks them."""
    return kernel_question(exponential_form(load_spec(" + ".join(f"sigmoid({a}*q1)" for a in scales)).model))


# the questions at m = #subset sums − 1 where the root's only fresh vector fails its exact repair
GAVE_UP = [((1, 2, 4, 5), 11), ((1, 2, 4, 5), 12), ((2, 3, 5, 8), 11)]


@pytest.mark.parametrize("scales,m", GAVE_UP)
def test_the_root_no_longer_gives_up(scales: tuple[int, ...], m: int) -> None:
    """Stopped at its third poll (every 64 nodes, from node 0), the search had gone on past the root."""
    P, Q, vertices = line_question(scales)
    polls = iter(range(3))
    result = refute(P, Q, m, vertices=vertices, stop=lambda: next(polls, None) is None)
    assert result.status == "unknown" and result.stats.get("reason") == "stopped"
    assert result.stats["nodes"] >= 128


def test_plain_splits_replay_when_repairs_fail(monkeypatch) -> None:
    """Every second exact repair refused: the refuter splits on free points instead, and the kernel replays the tree."""
    calls = {"n": 0}
    repair = farkas.Farkas.repair

    def flaky(self, lamD, lamN):
        calls["n"] += 1
        return None if calls["n"] % 2 else repair(self, lamD, lamN)

    monkeypatch.setattr(farkas.Farkas, "repair", flaky)
    for scales, m in (((1, 2, 3), 6), ((1, 2, 4), 7)):
        P, Q, vertices = line_question(scales)
        result = refute(P, Q, m, vertices=vertices, deadline=time.time() + 120)
        assert result.status == "unsat", result.stats
        assert result.stats.get("splits", 0) >= 1
        replay(P, Q, m, result.evidence, vertices)


@pytest.mark.slow  # about 10 to 60 s on the shared machine
def test_a_former_give_up_is_refuted() -> None:
    P, Q, vertices = line_question((1, 2, 4, 5))
    result = refute(P, Q, 11, vertices=vertices)
    assert result.status == "unsat", result.stats
    replay(P, Q, 11, result.evidence, vertices)
