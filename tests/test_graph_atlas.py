"""`headfusion atlas --graphs N` and the atlas's re-check of what it resumes (issue "Every graph on six vertices").

The graph map's rows agree with networkx's Tutte polynomial: |supp Q′| = T_G(2, 1) (the forests, the product
head), V = T_G(2, 0) (the acyclic orientations), and no lower bound exceeds the forests.  A resumed point is
used only after the kernel replays its own certificate and its row agrees with it; the reproducers of the
issue (a raised row, a row naming another point's file, NaN, a 5,000-digit bound, a bound written as a
string) are each redone, said in one line, and never reach a table.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import networkx as nx
import pytest
import sympy

from headfusion.cli import main
from headfusion.proof.statement import verify_file
from headfusion.spec.graph_atlas import graphs_up_to

from .conftest import atlas_killed_after, run_cli

ROOT = Path(__file__).resolve().parent.parent
ISSUE = ("sigmoid(a*q1) + sigmoid(b*q1)", "a=1..2", "b=a+1..3")  # the issue's reproducer: m* = 4 at every point
X, Y = sympy.symbols("x y")


def tutte(edges) -> tuple[int, int]:
    """(T_G(2, 1), T_G(2, 0)) from networkx's Tutte polynomial: the forests and the acyclic orientations of G."""
    polynomial = nx.tutte_polynomial(nx.Graph(list(edges)))
    return int(polynomial.subs({X: 2, Y: 1})), int(polynomial.subs({X: 2, Y: 0}))


def run_atlas(capsys, out: Path, *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "atlas", *argv, "--out", str(out), "--no-pdf", "-q")


def edit_row(out: Path, key: str, change) -> None:
    """Rewrite rows/<key>.json as text (so that NaN and a 5,000-digit number can be written as a forger would)."""
    path = out / "rows" / f"{key}.json"
    path.write_text(change(path.read_text()))


def set_fields(**fields):
    def change(text: str) -> str:
        saved = json.loads(text)
        saved["row"].update(fields)
        return json.dumps(saved)
    return change


@pytest.fixture(scope="module")
def computed_issue_atlas(tmp_path_factory) -> Path:
    """The issue's atlas, computed once per module: each test forges a copy of it."""
    out = tmp_path_factory.mktemp("issue-atlas")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = main(["atlas", *ISSUE, "--out", str(out), "--no-pdf", "-q"])
    assert code == 0, err.getvalue()
    return out


@pytest.fixture
def issue_atlas(computed_issue_atlas: Path, tmp_path: Path) -> Path:
    """tmp_path holding a copy of the issue's atlas as its first run wrote it (files and their times)."""
    shutil.copytree(computed_issue_atlas, tmp_path, dirs_exist_ok=True)
    return tmp_path


def replace_lower(new: str):
    return lambda text: text.replace('"lower": 4', f'"lower": {new}', 1)


@pytest.mark.parametrize("forge,said", [
    (set_fields(lower=5, upper=5, minimum=5), "disagrees with its replayed certificate (lower: saved 5, certificate 4)"),
    (set_fields(certificate="a1_b3"), "names another point's certificate"),
    (replace_lower("NaN"), "its saved row is not readable"),
    (replace_lower("9" * 5000), "its saved row is not readable (digits of an integer: 5000 exceeds"),
    (replace_lower('"7"'), 'saved "7", certificate 4'),
])
@pytest.mark.usefixtures("issue_atlas")
def test_a_forged_row_is_redone_and_never_reaches_a_table(tmp_path, capsys, forge, said):
    tables = {name: (tmp_path / name).read_text() for name in ("atlas.md", "atlas.csv", "atlas.json")}
    edit_row(tmp_path, "a1_b2", forge)
    code, out, err = run_atlas(capsys, tmp_path, *ISSUE)
    assert code == 0 and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("headfusion: atlas: a1_b2 is computed again: ") and said in lines[0], err
    assert "  1   2      4      4      4  " in out and "5" not in out.splitlines()[1]  # the printed table says 4
    assert {name: (tmp_path / name).read_text() for name in tables} == tables  # the same tables, byte for byte
    assert "| 1 | 2 | 4 | 4 | 4 | proved |" in tables["atlas.md"]
    assert json.loads((tmp_path / "rows" / "a1_b2.json").read_text())["row"]["lower"] == 4  # the row was rewritten
    code, _, err = run_atlas(capsys, tmp_path, *ISSUE)
    assert code == 0 and err == ""  # and is reused from then on


def _certificate_edit(change):
    def edit(out: Path) -> None:
        path = out / "points" / "a1_b2.json"
        path.write_text(change(path.read_text()))
    return edit


def _row_edit(change):
    return lambda out: edit_row(out, "a1_b2", change)


def _found_product(text: str) -> str:
    cert = json.loads(text)
    next(c for c in cert["claims"] if c["id"] == "upper")["evidence"]["heads"][0]["found"] = "product"  # the kernel accepts it
    return json.dumps(cert)


def _every_d(text: str) -> str:
    cert = json.loads(text)
    cert["spec"]["every_d"] = True
    return json.dumps(cert)


def _many_claims(text: str) -> str:
    cert = json.loads(text)
    cert["claims"] += [cert["claims"][0]] * 10_001  # over the cost model's claims: refused before any replay
    return json.dumps(cert)


def _extra_field(text: str) -> str:
    saved = json.loads(text)
    saved["row"]["zz\nheadfusion: atlas: a1_b3 is fine\x1b[2K\u202e"] = 1
    return json.dumps(saved)


@pytest.mark.parametrize("forge,said", [
    (_certificate_edit(_found_product), "disagrees with its replayed certificate (construction"),  # a label the kernel accepts
    (_certificate_edit(lambda t: t.replace('"lower_bound": 4', '"lower_bound": 4.0', 1)), "its certificate is not readable"),
    (_certificate_edit(lambda t: t.replace('"summary": {', '"summary": {"minimum": 999, ', 1)), "duplicate key"),
    (_certificate_edit(_every_d), "a theorem for a family"),
    (_certificate_edit(_many_claims), "claims of a certificate: 10"),
    (_row_edit(lambda t: "[" * 100_000 + "]" * 100_000), "nesting"),
    (_row_edit(lambda t: t + " " * (2 << 20)), "file size"),
    (_row_edit(_extra_field), "a field its certificate does not give"),
])
@pytest.mark.usefixtures("issue_atlas")
def test_files_that_verify_would_refuse_are_redone_in_one_line(tmp_path, capsys, forge, said):
    tables = {name: (tmp_path / name).read_text() for name in ("atlas.md", "atlas.csv", "atlas.json")}
    forge(tmp_path)
    code, _, err = run_atlas(capsys, tmp_path, *ISSUE)
    assert code == 0 and "Traceback" not in err and "\x1b" not in err and "\u202e" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("headfusion: atlas: a1_b2 is computed again: ") and said in lines[0], err
    assert {name: (tmp_path / name).read_text() for name in tables} == tables


@pytest.mark.parametrize("place", ["rows/a1_b2.json", "points/a1_b2.json", "atlas.md", "rows"])
def test_a_folder_where_the_run_writes_a_file_is_refused_before_any_work(tmp_path, capsys, place):
    (tmp_path / place).mkdir(parents=True) if place != "rows" else (tmp_path / place).write_text("not a folder")
    code, out, err = run_atlas(capsys, tmp_path, *ISSUE)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err and "not a" in err, err
    assert not [p for p in tmp_path.glob("points/*.json") if p.is_file()]  # nothing computed


@pytest.mark.usefixtures("issue_atlas")
def test_a_certificate_of_another_point_or_one_the_kernel_rejects_is_redone(tmp_path, capsys):
    points = tmp_path / "points"
    shutil.copy(points / "a1_b3.json", points / "a1_b2.json")  # another point's certificate under this point's name
    forged = json.loads((points / "a2_b3.json").read_text())  # a raised claim, with the row raised to agree with it
    forged["summary"]["lower_bound"] = 5
    (points / "a2_b3.json").write_text(json.dumps(forged))
    edit_row(tmp_path, "a2_b3", set_fields(lower=5))
    code, _, err = run_cli(capsys, "atlas", *ISSUE, "--out", str(tmp_path), "--no-pdf", "-q", "--json")
    assert code == 0
    said = dict(line.split(" is computed again: ") for line in err.splitlines())
    assert said["headfusion: atlas: a1_b2"] == "its certificate is of another function"
    assert said["headfusion: atlas: a2_b3"].startswith("its certificate fails the kernel's replay")
    assert all(row["lower"] == 4 for row in json.loads((tmp_path / "atlas.json").read_text())["rows"])
    assert all(verify_file(str(points / f"{key}.json")).ok for key in ("a1_b2", "a1_b3", "a2_b3"))


def test_the_graph_map_on_four_vertices_agrees_with_the_tutte_polynomial(tmp_path, capsys):
    code, stdout, err = run_cli(capsys, "atlas", "--graphs", "4", "--out", str(tmp_path), "--no-pdf", "-q", "--json")
    assert code == 0, err
    rows = json.loads(stdout)["rows"]
    assert [row["point"]["graph"] for row in rows] == list(range(1, 11))  # 1 + 2 + 7 graphs on 2, 3, 4 vertices
    for row, edges in zip(rows, graphs_up_to(4)):
        forests, acyclic = tutte(edges)
        assert row["edges"] == " ".join(f"{i}{j}" for i, j in edges)
        assert (row["support"], row["V"]) == (forests, acyclic)
        assert acyclic <= row["lower"] <= row["upper"] <= forests
        assert verify_file(str(tmp_path / "points" / f"{row['certificate']}.json")).ok
    assert {row["edges"]: row["minimum"] for row in rows}["12 13 14 23 34"] == 24  # the diamond, by V3
    table = (tmp_path / "atlas.md").read_text()
    assert "| graph | edges | n | V | \\|supp Q′\\| | lower | upper | m* |" in table


def committed_map_agrees_with_the_tutte_polynomial(every: int) -> None:
    """docs/atlas/graphs-6.json: 155 graphs; on each, lower ≤ upper ≤ |supp Q′| and m* is given exactly when they meet;
    on every `every`-th graph (and on K_6, the last) V and |supp Q′| are T_G(2, 0) and T_G(2, 1) from networkx."""
    rows = json.loads((ROOT / "docs" / "atlas" / "graphs-6.json").read_text())["rows"]
    assert len(rows) == len(graphs_up_to(6)) == 155
    for n, (row, edges) in enumerate(zip(rows, graphs_up_to(6))):
        assert row["edges"] == " ".join(f"{i}{j}" for i, j in edges)
        assert row["lower"] <= row["upper"] <= row["support"], row
        assert row["minimum"] in (None, row["lower"]) and (row["minimum"] is None) == (row["lower"] < row["upper"])
        if n % every == 0 or n == len(rows) - 1:
            assert (row["support"], row["V"]) == tutte(edges), row


def test_the_committed_map_of_six_vertices_agrees_with_the_tutte_polynomial():
    """Every row's order of bounds; the Tutte polynomial on every twentieth graph and on K_6 (networkx's is the costly part)."""
    committed_map_agrees_with_the_tutte_polynomial(every=20)


@pytest.mark.slow
def test_the_committed_map_of_six_vertices_agrees_with_the_tutte_polynomial_on_every_graph():
    committed_map_agrees_with_the_tutte_polynomial(every=1)


@pytest.mark.parametrize("argv,words", [
    (("--graphs", "7"), "--graphs must be at most 6"),
    (("--graphs", "1"), "--graphs must be at least 2"),
    (("--graphs", "6", "sigmoid(a*q1)", "a=1..2"), "give no spec or ranges"),
    (("graphs:9", "graph=1..3"), "N must be 2..6"),
    (("graphs:4", "graph=0..3"), "within 1..10"),
    (("graphs:4", "graph=1..11"), "within 1..10"),
    (("graphs:4", "n=1..3"), "one parameter, graph"),
    ((), "or --graphs N"),
])
def test_bad_graph_maps_are_refused_before_any_work(tmp_path, capsys, argv, words):
    code, out, err = run_cli(capsys, "atlas", *argv, "--out", str(tmp_path / "x"))
    assert code == 2 and out == "" and err.startswith("headfusion: error:") and err.count("\n") == 1 and words in err, err
    assert not (tmp_path / "x").exists()


@pytest.mark.slow  # a SIGTERM'd graph map and its rerun
def test_a_killed_graph_map_resumes_from_replayed_points(tmp_path, capsys):
    """SIGTERM after a few graphs; the same command again replays those (not redone) and computes the rest."""
    finished = atlas_killed_after(["--graphs", "4"], tmp_path, 3)
    rows = tmp_path / "rows"
    assert len(finished) >= 3
    code, stdout, err = run_cli(capsys, "atlas", "--graphs", "4", "--out", str(tmp_path), "--no-pdf", "-q", "--json")
    assert code == 0 and err == "", err  # nothing redone: every finished point replayed and agreed
    data = json.loads(stdout)
    assert data["reused"] >= len(finished) and data["reused"] + data["computed"] == 10 and data["redone"] == []
    assert all(rows.joinpath(name).stat().st_mtime_ns == stamp for name, stamp in finished.items())
    assert [row["support"] for row in data["rows"]] == [tutte(edges)[0] for edges in graphs_up_to(4)]
