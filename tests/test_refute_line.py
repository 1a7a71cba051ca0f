"""The refuter on one-variable sums: no give-up at the first node (issue 38, item 6)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("highspy")

from headfusion.algebra.expform import exponential_form  # noqa: E402
from headfusion.kernel.base import CheckFailed  # noqa: E402
from headfusion.kernel.refutation import replay, rows, search_box  # noqa: E402
from headfusion.proof.certify import kernel_question  # noqa: E402
from headfusion.solving import farkas  # noqa: E402
from headfusion.solving.refute import refute  # noqa: E402
from headfusion.spec.load import load_spec  # noqa: E402


def line_question(scales: tuple[int, ...]) -> tuple[dict, dict, int]:
    """(P′, Q′, V) of Σ σ(a·q) over the scales, as the kernel checks them."""
    return kernel_question(exponential_form(load_spec(" + ".join(f"sigmoid({a}*q1)" for a in scales)).model))


# questions near m = #subset sums − 1 where the search used to stop at its first nodes ("no exact vector found": the
# fresh vector failed its exact repair and nothing else applied); ten such among the quadruples up to 8, five here
GAVE_UP = [((1, 2, 4, 5), 11), ((1, 2, 4, 5), 12), ((2, 3, 5, 8), 11), ((2, 3, 5, 6), 12), ((3, 5, 7, 8), 13)]


SLOWEST = [((1, 2, 4, 5), 11), ((3, 5, 7, 8), 13)]  # a second each: with the slow suite; the quick suite asks the other three


@pytest.mark.parametrize("scales,m", [pytest.param(*q, marks=[pytest.mark.slow] * (q in SLOWEST)) for q in GAVE_UP])
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


def _walk(tree: list) -> list[tuple[int, int, int, frozenset]]:
    """(node, its parent split or −1, |IN| on its path, OUT points on its path) of every node, from the root."""
    found, stack = [], [(0, -1, 0, frozenset())]
    while stack:
        index, parent, inside, out = stack.pop()
        found.append((index, parent, inside, out))
        node = tree[index]
        if node[0] == "split":
            stack += [(node[3], index, inside + 1, out), (node[2], index, inside, out | {tuple(node[1])})]
    return found


def _kept(tree: list, replace: dict[int, list]) -> list:
    """The tree with some nodes replaced, re-indexed from the root (nodes no longer reached are dropped)."""
    order, stack, new = [], [0], {}
    while stack:
        index = stack.pop()
        new[index] = len(order)
        order.append(index)
        node = replace.get(index, tree[index])
        if node[0] == "split":
            stack += [node[3], node[2]]
    out = []
    for index in order:
        node = replace.get(index, tree[index])
        out.append(["split", node[1], new[node[2]], new[node[3]]] if node[0] == "split" else node)
    return out


def test_a_full_leaf_moved_above_its_last_in_point_is_rejected() -> None:
    """A farkas leaf at |IN| = m may read every free point as OUT; put one level higher (|IN| = m − 1, its
    parent split replaced by it), the same vector's equality at a free point is refused, naming the claim."""
    P, Q, vertices = line_question((1, 2, 3))
    result = refute(P, Q, 6, vertices=vertices)  # replayed by the kernel before it is returned
    assert result.status == "unsat"
    tree, vectors = result.evidence["tree"], result.evidence["multipliers"]
    points = set(rows(P, Q, search_box(P, Q, 6))[0])  # E
    forged = None
    for index, parent, inside, out in _walk(tree):
        node = tree[index]
        if node[0] != "farkas" or inside < 6 or tree[parent][3] != index:
            continue
        used = {tuple(e) for side, e, lam in vectors[node[1]] if side == "N" or lam < 0} & points
        if used - out - {tuple(tree[parent][1])}:  # an equality at a point the path leaves free
            forged = _kept(tree, {parent: node})
            break
    assert forged is not None
    with pytest.raises(CheckFailed, match="which is not OUT"):
        replay(P, Q, 6, dict(result.evidence, tree=forged), vertices)
