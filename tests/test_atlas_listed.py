"""Listed ranges of the atlas (r=1/2,2,3): exact rationals read as data, substituted as tokens, and a biased atlas end to end."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headfusion.proof.atlas import atlas_spec, point_key
from headfusion.proof.statement import verify_file
from headfusion.spec.expressions import SpecError
from headfusion.spec.load import load_spec
from headfusion.spec.parametric import MAX_LIST_VALUES, grid_points, member_text, parse_grid, point_data

from .conftest import run_cli

BIASED = "sigmoid(q1) + sigmoid(q1 + log(r))"


def test_a_list_gives_exact_rationals_in_its_order():
    points = grid_points(parse_grid(["a=1..2", "r=3,1/2,4/2"]))
    assert points == [{"a": a, "r": r} for a in (1, 2) for r in (3, Fraction(1, 2), 2)]
    assert [type(p["r"]) for p in points[:3]] == [int, Fraction, int]  # 4/2 is the integer 2
    assert point_data(points[1]) == {"a": 1, "r": "1/2"} and point_key(points[1]) == "a1_r1over2"


def test_a_fraction_is_written_bare_as_a_whole_argument_and_in_parentheses_elsewhere():
    values = {"a": 2, "r": Fraction(1, 2)}
    assert member_text("sigmoid(a*q1 + log(r))", values) == "sigmoid(2*q1 + log(1/2))"
    assert member_text("r*sigmoid(q1) + sigmoid(r*q1 + a)", values) == "(1/2)*sigmoid(q1) + sigmoid((1/2)*q1 + 2)"
    assert member_text("attn([0, q1], [0, r])", {"r": Fraction(1, 2)}) == "attn([0, q1], [0, 1/2])"


@settings(max_examples=30, derandomize=True, deadline=None)
@given(st.integers(1, 10**6), st.integers(2, 10**6))
def test_a_listed_bias_reaches_the_model_exactly(p, q):
    """log(p/q) as a bias is the weight p/q of the atom e^{q1}: read exactly, never through a float."""
    value = Fraction(p, q)
    point = grid_points(parse_grid([f"r={p}/{q},0"]))[0]
    assert point == {"r": value}
    model = load_spec(member_text("sigmoid(q1 + log(r))", point)).model.to_json()
    weights = {tuple(map(tuple, atom["key"])): atom["weight"] for atom in model["heads"][0]["atoms"]}
    assert weights[((1, 1),)] == (value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}")


@pytest.mark.parametrize("items,words", [
    (["r=1/0,2"], "denominator 0"),
    (["r=1/2,2/4"], "listed twice"),
    (["r=1.5,2"], "r=1/2,2,3"),
    (["r=-1,2"], "r=1/2,2,3"),
    (["r=3"], "at least two values"),
    (["r=1/2,2", "b=r..3"], "r is a list of values"),
    (["r=" + ",".join(str(k) for k in range(MAX_LIST_VALUES + 1))], f"at most {MAX_LIST_VALUES} values"),
    (["r=1/2,__import__('os')"], "r=1/2,2,3"),
    (["r=1/2,9999999"], "integer in 0..1000000"),
    (["r=1/2,1/9999999"], "integer in 0..1000000"),
])
def test_bad_lists_are_refused(items, words):
    with pytest.raises(SpecError, match=words.replace(".", r"\.").replace("(", r"\(")):
        parse_grid(items)


def test_a_list_is_for_an_expression_only():
    with pytest.raises(SpecError, match="takes an integer range"):
        atlas_spec("proofs/sigmoid_sum.toml", ["d=1,2"])


def test_the_command_line_refuses_a_bad_list_in_one_line(tmp_path, capsys):
    code, out, err = run_cli(capsys, "atlas", BIASED, "r=1/2,1/0", "--out", str(tmp_path / "x"))
    assert code == 2 and out == "" and err.startswith("headfusion: error:") and err.count("\n") == 1 and "denominator 0" in err, err
    assert not (tmp_path / "x").exists()


def test_a_biased_atlas_end_to_end(tmp_path, capsys):
    """σ(q) + σ(q + log r) for r = 1/2, 2, 3: one scale, two distinct biases, so m* = 3 (Theorem Pβ, a = b)."""
    argv = ("atlas", BIASED, "r=1/2,2,3", "--out", str(tmp_path), "--no-pdf", "--json", "-q")
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    data = json.loads(out)
    assert [r["point"] for r in data["rows"]] == [{"r": "1/2"}, {"r": 2}, {"r": 3}]
    for row in data["rows"]:
        assert row["lower"] == row["minimum"] == row["upper"] == 3 and row["status"] == "proved"
        assert verify_file(str(tmp_path / "points" / f"{row['certificate']}.json")).ok
    assert sorted(p.name for p in (tmp_path / "rows").iterdir()) == ["r1over2.json", "r2.json", "r3.json"]
    table = (tmp_path / "atlas.md").read_text()
    assert "| 1/2 | 3 | 3 | 3 | proved |" in table
    code, out, err = run_cli(capsys, *argv)  # resumed: every row replayed from its certificate, the same bytes
    assert code == 0 and (json.loads(out)["reused"], json.loads(out)["computed"]) == (3, 0), err
    assert (tmp_path / "atlas.md").read_text() == table
    assert not list(Path(tmp_path).glob("atlas.figure*"))


# -- the committed biased maps (docs/atlas/sigmoid-biased-*): what their rows say is mathematics -----------------------

ROOT = Path(__file__).resolve().parents[1]


def committed(name: str) -> list[dict]:
    return json.loads((ROOT / "docs" / "atlas" / f"{name}.json").read_text(encoding="utf-8"))["rows"]


def subset_sum_count(scales: list[int]) -> int:
    sums = {0}
    for a in scales:
        sums |= {x + a for x in sums}
    return len(sums)


def test_the_biased_pair_map_is_theorem_p_beta_point_by_point():
    """σ(aq) + σ(bq + log r): m* = 4 for a ≠ b, 3 for a = b (r ≠ 1), every row decided by a lemma, no tree."""
    rows = committed("sigmoid-biased-pairs-6")
    assert len(rows) == 21 * 3
    for row in rows:
        a, b = row["point"]["a"], row["point"]["b"]
        assert row["lower"] == row["minimum"] == row["upper"] == (3 if a == b else 4), row
        assert not row["claim"].startswith("search:")


def test_the_biased_maps_never_pass_the_product_head():
    """lower ≤ upper ≤ #subset sums of the scales (the product head) on every row; where decided, m* = #subset sums
    (no two factors of these maps share a root: Conjecture Cβ's hypothesis holds)."""
    for name, scales_of in (("sigmoid-biased-pairs-6", lambda p: [p["a"], p["b"]]),
                            ("sigmoid-biased-triples-5", lambda p: [p["a"], p["b"], p["c"]])):
        for row in committed(name):
            p = row["point"]
            scales = scales_of(p)
            if len(scales) == 3 and p["b"] == p["c"] and p["r"] == p["s"]:
                scales = scales[:2]  # σ(bq + log r) twice is 2σ(bq + log r): one factor of Q′
            assert row["lower"] <= row["upper"] <= subset_sum_count(scales), row
            assert row["minimum"] in (None, subset_sum_count(scales)), row
