"""`atlas --top-timeout`: the question that decides a point (m = upper − 1) gets its own time (issue 38, item 5)."""

from __future__ import annotations

import json

from headfusion.proof.statement import verify_file  # the kernel behind the spec-text check (verify does both)

from .conftest import run_cli

TRIPLE = ("sigmoid(a*q1) + sigmoid(b*q1) + sigmoid(c*q1)", "a=1..1", "b=2..2", "c=3..3")


def test_the_top_question_gets_its_own_time(tmp_path, capsys):
    """With a hundredth of a second per question, only the tree at m = 6 given --top-timeout decides m* = 7."""
    code, stdout, err = run_cli(capsys, "atlas", *TRIPLE, "--out", str(tmp_path), "--no-pdf", "--json", "-q",
                                "--search-timeout", "0.01", "--top-timeout", "120")
    assert code == 0, err
    (row,) = json.loads(stdout)["rows"]
    assert (row["lower"], row["minimum"], row["claim"]) == (7, 7, "search:m6")
    assert verify_file(str(tmp_path / "points" / f"{row['certificate']}.json")).ok


def test_a_bad_top_timeout_is_refused(capsys):
    code, _, err = run_cli(capsys, "atlas", *TRIPLE, "--top-timeout", "0")
    assert code == 2 and "--top-timeout" in err


def test_cheapest_first_gives_the_same_rows(tmp_path, capsys):
    """The order changes when points are computed, not what they are: the rows come out in grid order, as without it."""
    pairs = ("sigmoid(a*q1) + sigmoid(b*q1)", "a=1..2", "b=a+1..3")
    rows = []
    for folder, extra in (("plain", ()), ("cheap", ("--cheapest-first",))):
        code, stdout, err = run_cli(capsys, "atlas", *pairs, "--out", str(tmp_path / folder), "--no-pdf", "--json", "-q", *extra)
        assert code == 0, err
        rows.append(json.loads(stdout)["rows"])
    assert rows[0] == rows[1] and [r["minimum"] for r in rows[0]] == [4, 4, 4]


def test_points_are_ordered_by_their_deciding_question():
    from headfusion.proof.atlas import atlas_spec, top_cost

    atlas = atlas_spec("sigmoid(a*q1) + sigmoid(b*q1) + sigmoid(c*q1)", ["a=1..2", "b=a+1..3", "c=b+1..4"])
    costs = {tuple(p.values()): top_cost(atlas, p) for p in atlas.points()}
    assert costs[(1, 2, 3)][0] == 6 and costs[(1, 2, 4)][0] == 7  # m = #subset sums − 1 of the product head
    assert costs[(1, 2, 3)] < costs[(1, 2, 4)]
