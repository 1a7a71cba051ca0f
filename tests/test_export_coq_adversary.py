"""`export --coq` against forged certificates: the JSON is untrusted, the exporter is not trusted, Coq must reject.

Each forgery edits the certificate only (never the .v file) so as to state something false — m*(W_3) ≥ 27 or ≤ 1,
m*(σ(q) + σ(2q) + σ(3q)) ≥ 8 (true value 7), m*(σ(q1) + σ(q2) + σ(q1 + q2)) ≥ 8 (true value 7) — or to make the
tree's replay accept a wrong leaf; coqc must fail on the exported file.  The quick tests are the inputs the exporter
itself must refuse (exit 2) or read as data without hanging: Gallina text where a number belongs (it made coqc accept
m* ≥ 8 for σ(q) + σ(2q) + σ(3q)), huge or negative boxes, a huge dimension, a slug that names a library file, a unit
factor with a huge multiplicity, repeated 2-adic levels, and a title over another function (flagged in the header).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Callable

import pytest

from headfusion.api import certify as certify_api
from headfusion.export.coq import LIBRARY, coq_name, export_coq
from headfusion.proof.certify import certify
from headfusion.spec.errors import InputError
from headfusion.spec.load import load_spec

from .conftest import HANG_GUARD, run_cli
from .test_export_coq import _coqc, _library, needs_coq

S123 = "sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1)"
TRIANGLE = "sigmoid(q1) + sigmoid(q2) + sigmoid(q1 + q2)"


def _cert(folder: Path, spec: str, d: int | None = None) -> dict:
    certify_api(spec, d=d, out=folder, pdf=False, name="c")
    return json.loads((folder / "c.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def w3(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _cert(tmp_path_factory.mktemp("w3"), "W", 3)


@pytest.fixture(scope="module")
def s123(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _cert(tmp_path_factory.mktemp("s123"), S123)


@pytest.fixture(scope="module")
def s128(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """σ(q) + σ(2q) + σ(8q): m* = 8 by Lemma V2 (2-adic valuations 0, 1, 3)."""
    return _cert(tmp_path_factory.mktemp("s128"), "sigmoid(q1) + sigmoid(2*q1) + sigmoid(8*q1)")


@pytest.fixture(scope="module")
def rigid(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """σ(q1) + σ(q2) + σ(q1 + q2) as certify makes it: m* = 7 by Lemma LE (six vertices, five rigid edges)."""
    return _cert(tmp_path_factory.mktemp("rigid"), TRIANGLE)


@pytest.fixture(scope="module")
def tight() -> dict:
    """σ(q1) + σ(q2) + σ(q1 + q2) with --trees-only: a tree at m = 6 = V with interior and image leaves."""
    return certify(load_spec(TRIANGLE), ["test"], search_timeout=HANG_GUARD, lemmas=False).certificate


def _claim(cert: dict, cid: str) -> dict:
    return next(c for c in cert["claims"] if c["id"] == cid)


def _nodes(cert: dict, kind: str) -> list[int]:
    return [i for i, node in enumerate(_claim(cert, "search:m6")["evidence"]["tree"]) if node[0] == kind]


# ---- forgeries Coq must reject (each returns the forged certificate) ----
def tree_at_7(cert: dict) -> None:  # the same tree read at m = 7: m* ≥ 8, false
    _claim(cert, "search:m6")["evidence"]["atoms"] = 7


def empty_tree_at_7(cert: dict) -> None:  # no tree at all (the exporter writes Layer 0, "an empty box")
    ev = _claim(cert, "search:m6")["evidence"]
    ev["atoms"], ev["tree"] = 7, []


def duplicate_vertex(cert: dict) -> None:  # W_3 with three "vertices" per block, one listed twice: m* ≥ 27
    _claim(cert, "lower:newton")["evidence"]["shapes"][0] = {"method": "vertices", "vertices": [[[0], [-1]], [[1], [1]], [[0], [-1]]]}


def vertex_off_support(cert: dict) -> None:  # a third "vertex" that is no point of supp Q′: m* ≥ 27
    _claim(cert, "lower:newton")["evidence"]["shapes"][0] = {"method": "vertices", "vertices": [[[0], [-1]], [[1], [1]], [[2], [1]]]}


def upper_one_atom(cert: dict) -> None:  # a block head with one atom: m* ≤ 1
    _claim(cert, "upper")["evidence"]["heads"][0] = {"N": [[[1, 0], 1]], "D": [[[1, 0], 1]]}


def model_value(cert: dict) -> None:  # the model changed under the unchanged exponential form
    cert["model"]["heads"][0]["atoms"][0]["value"] = 2


def interior_not_convex(cert: dict) -> None:  # (1, 1) = 1/3·(1, 0) + 2/3·(1, 2) is false
    tree = _claim(cert, "search:m6")["evidence"]["tree"]
    tree[_nodes(cert, "interior")[0]] = ["interior", [1, 1], [[[1, 0], "1/3"], [[1, 2], "2/3"]]]


def interior_of_itself(cert: dict) -> None:  # a point is a convex combination of itself, not of *other* points
    tree = _claim(cert, "search:m6")["evidence"]["tree"]
    tree[_nodes(cert, "interior")[0]] = ["interior", [1, 1], [[[1, 1], "1"]]]


def split_point_too_long(cert: dict) -> None:  # a point with three coordinates in a lattice of rank 2
    tree = _claim(cert, "search:m6")["evidence"]["tree"]
    tree[0] = ["split", [0, 0, 0]] + tree[0][2:]


def image_of_the_root(cert: dict) -> None:  # an image leaf whose target is the root (an ancestor, not closed yet)
    tree = _claim(cert, "search:m6")["evidence"]["tree"]
    tree[_nodes(cert, "image")[0]] = ["image", 0, 0]


def fake_vertex_at_7(cert: dict) -> None:  # V inflated to 7 by a non-vertex so that interior leaves apply at m = 7
    _claim(cert, "lower:newton")["evidence"]["shapes"][0]["vertices"].append([[1, 1], [0, 0]])
    _claim(cert, "search:m6")["evidence"]["atoms"] = 7


def edges_with_a_cycle(cert: dict) -> None:  # five edges, the last one a copy of the first: no spanning tree
    edges = _claim(cert, "lower:edges")["evidence"]["shapes"][0]["edges"]
    edges[-1] = edges[0]


def fake_vertex_and_edge(cert: dict) -> None:  # (1, 1) listed as a seventh vertex, joined by a seventh "edge": m* ≥ 8
    _claim(cert, "lower:newton")["evidence"]["shapes"][0]["vertices"].append([[1, 1], [0, 0]])
    _claim(cert, "lower:edges")["evidence"]["shapes"][0]["edges"].append([[1, 1], [0, 0], [-1, -1]])


FORGERIES: list[tuple[str, Callable[[dict], None]]] = [
    ("rigid", edges_with_a_cycle), ("rigid", fake_vertex_and_edge),
    ("s123", tree_at_7), ("s123", empty_tree_at_7), ("w3", duplicate_vertex), ("w3", vertex_off_support),
    ("w3", upper_one_atom), ("w3", model_value), ("tight", interior_not_convex), ("tight", interior_of_itself),
    ("tight", tree_at_7), ("tight", split_point_too_long), ("tight", image_of_the_root), ("tight", fake_vertex_at_7),
]


@pytest.fixture(scope="module")
def coq_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("coq_adversary")
    _library(folder)
    return folder


@pytest.mark.slow
@needs_coq
@pytest.mark.parametrize(("which", "forge"), FORGERIES, ids=[f"{w}-{f.__name__}" for w, f in FORGERIES])
def test_coqc_rejects_the_forgery(which: str, forge: Callable[[dict], None], request: pytest.FixtureRequest, coq_folder: Path) -> None:
    cert = copy.deepcopy(request.getfixturevalue(which))
    assert _coqc(_write(coq_folder, export_coq(cert).text), "Forged.v").returncode == 0  # the honest file is accepted
    forge(cert)
    result = _coqc(_write(coq_folder, export_coq(cert).text), "Forged.v")
    assert result.returncode != 0, f"coqc accepted {forge.__name__}"
    assert "Error" in result.stdout + result.stderr


def _write(folder: Path, text: str) -> Path:
    (folder / "Forged.v").write_text(text, encoding="utf-8")
    return folder


# ---- inputs the exporter refuses or reads as data (no coqc) ----
def test_the_theorem_claim_is_not_read(w3: dict) -> None:
    cert = copy.deepcopy(w3)
    _claim(cert, "theorem")["evidence"].update(lower=9, upper=9, minimum=9)
    assert export_coq(cert).text == export_coq(w3).text  # the theorem comes from the exported claims only


@pytest.mark.parametrize(("atoms", "says"), [(10**6, "points of the search box"), (-1, "negative number of atoms")])
def test_a_huge_or_negative_box_is_refused(s123: dict, atoms: int, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """coqc would build the whole box of L3 (a million points at m = 10^6 runs for minutes): refused up front, the limit named."""
    cert = copy.deepcopy(s123)
    ev = _claim(cert, "search:m6")["evidence"]
    ev["atoms"], ev["tree"] = atoms, []
    (tmp_path / "c.json").write_text(json.dumps(cert), encoding="utf-8")
    code, _, err = run_cli(capsys, "export", "--coq", str(tmp_path / "c.json"), "--out", str(tmp_path / "coq"))
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("slug", ["HFTreeAxioms", "hfpoly", "HFSem"])
def test_a_slug_never_replaces_a_library_file(w3: dict, slug: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert = copy.deepcopy(w3)
    cert["spec"]["slug"] = slug
    name = coq_name(slug)
    assert name.lower() not in {f[:-2].lower() for f in LIBRARY}
    (tmp_path / "c.json").write_text(json.dumps(cert), encoding="utf-8")
    code, out, _ = run_cli(capsys, "export", "--coq", str(tmp_path / "c.json"), "--out", str(tmp_path / "coq"))
    assert code == 0 and out.strip().endswith(f"coqc -Q . HF {name}.v")
    from headfusion.cli.export import library_text

    assert all((tmp_path / "coq" / f).read_text(encoding="utf-8") == library_text(f) for f in LIBRARY)


def test_a_unit_factor_with_a_huge_multiplicity_is_not_a_factorisation(w3: dict) -> None:
    """A one-term factor divides any number of times (the exporter looped 10^9 times); the kernel requires a factor to
    involve x with multiplicity ≥ 1, and so does the exporter: the coprimality is left out, never assumed."""
    cert = copy.deepcopy(w3)
    _claim(cert, "coprime")["evidence"]["shapes"][0]["factors"].append({"poly": [[[0, 0], 1]], "multiplicity": 10**9, "reason": "binomial"})
    out = export_coq(cert)
    assert "coprime" not in out.exported and out.lower is None and out.upper == 8
    assert any(cid == "coprime" for cid, _ in out.left_out)


def test_a_title_over_another_function_is_flagged(s123: dict, s128: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """σ(q) + σ(2q) + σ(8q)'s certificate (m* = 8, by V2) under the spec of σ(q) + σ(2q) + σ(3q) (m* = 7): Coq proves a
    true theorem about `heads`, but the header's title would name the wrong function; the statement check of `verify`
    finds that the spec text does not give the model, and the header and the CLI say so."""
    assert export_coq(s123).statement == "" and "WARNING" not in export_coq(s123).text
    forged = dict(s128, spec=s123["spec"])
    out = export_coq(forged)
    assert (out.lower, out.upper) == (8, 8) and "model" in out.statement
    header = out.text.split("*)", 1)[0]
    assert "sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1)\n   WARNING: this title does NOT name the function of the theorem" in header
    (tmp_path / "c.json").write_text(json.dumps(forged), encoding="utf-8")
    code, text, _ = run_cli(capsys, "export", "--coq", str(tmp_path / "c.json"), "--out", str(tmp_path / "coq"))
    assert code == 0 and "warning: the spec text does not give this model" in text


def test_a_huge_dimension_is_refused(w3: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every key is written with n coordinates: W_3's 2 KB certificate with n = 10^7 made the exporter run for minutes."""
    cert = copy.deepcopy(w3)
    cert["model"]["dimension"] = 10**7
    (tmp_path / "c.json").write_text(json.dumps(cert), encoding="utf-8")
    code, _, err = run_cli(capsys, "export", "--coq", str(tmp_path / "c.json"), "--out", str(tmp_path / "coq"))
    assert code == 2 and "coordinates of the keys" in err and "2000000" in err and len(err.strip().splitlines()) == 1


def test_repeated_two_adic_levels_are_no_proof(s128: dict) -> None:
    """σ(q) + σ(2q) + σ(8q) with its three 2-adic levels listed ten times each: the exporter wrote the bound 2^30 and a
    quotient per copy (Coq's twoadic_ok then failed); now, as Coq and the kernel, it needs pairwise distinct valuations."""
    cert = copy.deepcopy(s128)
    assert export_coq(cert).lower == 8
    shape = _claim(cert, "lower:two-adic")["evidence"]["shapes"][0]
    shape["levels"] = shape["levels"] * 10
    out = export_coq(cert)
    assert out.lower == 2 and "lower:two-adic" not in out.exported
    assert any(cid == "lower:two-adic" and "distinct valuations" in why for cid, why in out.left_out)


# A tree leaf whose index is Gallina text: the exporter printed it as it stood, and this payload redefined mstar_ge (and
# replay_tree, tree_bound) after the tree, so that coqc ACCEPTED `Theorem main : mstar_ge n F 8 /\ mstar_le n F 7` for
# σ(q) + σ(2q) + σ(3q) (m* = 7), with Print Assumptions listing no LR_box at all.  Every number is now checked to be one.
INJECTION = ("0). Definition mstar_ge (n : nat) (F : list R -> R) (m : nat) : Prop := True. "
             "Definition replay_tree (r : nat) (P0 Q0 : poly) (m V : nat) (mults : list mvec) (syms : list (list nat * Q)) (t : tree) : bool := true. "
             "Definition tree_bound (n : nat) (F : list R -> R) (c : Q) (B : lblock) (m : nat) (mults : list mvec) "
             "(syms : list (list nat * Q)) (t : tree) (_ : lattice_ok n [B] = true) (_ : expform n F c [B]) "
             "(_ : coprime (length (lgens B)) (lP B) (lQ B)) (_ : replay_tree 0 [] [] 0 0 [] [] t = true) : mstar_ge n F (S m) := I. "
             "Definition dummy : tree := (Layer 0")


def _inject_layer(cert: dict, payload: object) -> None:
    ev = _claim(cert, "search:m6")["evidence"]
    ev["atoms"], ev["tree"] = 7, [["layer", payload]]


def _inject_farkas(cert: dict, payload: object) -> None:
    _claim(cert, "search:m6")["evidence"]["tree"] = [["farkas", payload]]


def _inject_split(cert: dict, payload: object) -> None:
    tree = _claim(cert, "search:m6")["evidence"]["tree"]
    tree[0] = ["split", [payload]] + tree[0][2:]


def _inject_row(cert: dict, payload: object) -> None:
    _claim(cert, "search:m6")["evidence"]["multipliers"][0][0] = ["D", [payload], 1]


@pytest.mark.parametrize("inject", [_inject_layer, _inject_farkas, _inject_split, _inject_row])
@pytest.mark.parametrize("payload", [INJECTION, "0", 1.5, True, -1])
def test_gallina_text_in_the_data_is_refused(s123: dict, inject: Callable[[dict, object], None], payload: object,
                                             tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Strings (even "0"), floats and booleans are no integers, and a negative index is no natural number: exit 2."""
    cert = copy.deepcopy(s123)
    inject(cert, payload)
    if payload == -1 and inject in (_inject_split, _inject_row):
        export_coq(cert)  # a negative coordinate is an integer like any other (Coq then decides)
        return
    (tmp_path / "c.json").write_text(json.dumps(cert), encoding="utf-8")
    code, _, err = run_cli(capsys, "export", "--coq", str(tmp_path / "c.json"), "--out", str(tmp_path / "coq"))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "coq").exists()


@pytest.mark.slow
@pytest.mark.parametrize("site", ["interior point", "interior coefficient", "image symmetry"])
def test_gallina_text_in_interior_and_image_leaves_is_refused(tight: dict, site: str) -> None:
    cert = copy.deepcopy(tight)
    tree = _claim(cert, "search:m6")["evidence"]["tree"]
    i, j = _nodes(cert, "interior")[0], _nodes(cert, "image")[0]
    if site == "interior point":
        tree[i] = ["interior", [1, INJECTION], tree[i][2]]
    elif site == "interior coefficient":
        tree[i] = ["interior", tree[i][1], [[[1, 0], "1/2) " + INJECTION], [[1, 2], "1/2"]]]
    else:
        tree[j] = ["image", tree[j][1], INJECTION]
    with pytest.raises(InputError):
        export_coq(cert)


@pytest.mark.parametrize("edit", ["denominator 0", "shape -1", "side X"])
def test_malformed_data_is_one_line_and_exit_2(w3: dict, s123: dict, edit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A zero denominator (a ZeroDivisionError traceback), a negative shape index (Python's last shape) and a Farkas row on
    side X (read as an N row) are refused."""
    cert = copy.deepcopy(s123 if edit == "side X" else w3)
    if edit == "denominator 0":
        _claim(cert, "exp-form")["evidence"]["shapes"][0]["denominator"] = 0
    elif edit == "shape -1":
        _claim(cert, "exp-form")["evidence"]["blocks"][0]["shape"] = -1
    else:
        _claim(cert, "search:m6")["evidence"]["multipliers"][0][0][0] = "X"
    (tmp_path / "c.json").write_text(json.dumps(cert), encoding="utf-8")
    code, _, err = run_cli(capsys, "export", "--coq", str(tmp_path / "c.json"), "--out", str(tmp_path / "coq"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
