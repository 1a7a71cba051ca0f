"""`headfusion export --coq` for the graph claims: grid bounds (lower:grid: W14, K35) and disjoint faces (lower:faces, LD).

The quick tests check what the exporter writes and what it leaves out; the coqc tests (slow: the library is compiled
first) check that Coq accepts each file with exactly the cited axioms, rejects single-number tamperings, and rejects a
certificate forged to state a false bound.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from headfusion.export.coq import export_coq
from tests.test_export_coq import REALS, _certificate, _coqc, _tamper, assert_coqc_rejects, assumptions, library, needs_coq  # noqa: F401 (library: a fixture)

ROW26 = "sigmoid(q1-q5) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q2-q5) + sigmoid(q3-q4) + sigmoid(q3-q5) + sigmoid(q4-q5)"
K4 = "sigmoid(q1-q2) + sigmoid(q1-q3) + sigmoid(q1-q4) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q3-q4)"
C4 = "sigmoid(q1-q2) + sigmoid(q2-q3) + sigmoid(q3-q4) + sigmoid(q1-q4)"
ROW82 = ("sigmoid(q1-q2) + sigmoid(q1-q3) + sigmoid(q1-q4) + sigmoid(q1-q5) + sigmoid(q1-q6) + sigmoid(q2-q3) + sigmoid(q2-q4)"
         " + sigmoid(q3-q4)")  # graphs-6 row 82: K_4 with two pendant edges at vertex 1
ROW29 = "sigmoid(q1-q3) + sigmoid(q1-q4) + sigmoid(q1-q5) + sigmoid(q2-q3) + sigmoid(q2-q4) + sigmoid(q2-q5) + sigmoid(q3-q5)"
LOWEST = ["LC_binomial", "LC_product"]
CORPUS = [  # (spec, lower, upper, the lemma axioms main cites): atlas graphs-5 rows 26, 10 and 29
    (ROW26, 70, 76, sorted(LOWEST + ["K35_grid", "LD_faces", "LM_terms"])),  # LD over two K_4 faces, each K35
    (ROW82, 140, 152, sorted(LOWEST + ["K35_grid", "LD_faces", "LM_terms"])),  # LD over two faces, each LD again
    (K4, 35, 38, sorted(LOWEST + ["K35_grid", "LM_terms"])),  # Theorem K35
    (C4, 15, 15, sorted(LOWEST + ["LE_LP"])),  # Lemma LG, proved in Coq by LE over the zonotope's vertices and edges (row 8)
    (ROW29, 86, 86, sorted(LOWEST + ["L5_terms", "LH_hexagon", "LM_terms", "LS_slices", "V3_three_slices", "W14_grid"])),  # V3 with 𝒯_Γ by W14
]


@pytest.fixture(scope="module")
def row26(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _certificate(tmp_path_factory.mktemp("row26"), ROW26)


def _faces(cert: dict) -> dict:
    return next(c for c in cert["claims"] if c["id"] == "lower:faces")["evidence"]


def test_disjoint_faces_export_each_face_function_as_a_module(row26: dict) -> None:
    out = export_coq(row26)
    assert (out.lower, out.upper) == (70, 76)
    assert out.axioms == CORPUS[0][3]
    assert {"lower:faces", "lower:graph"} <= set(out.exported) and out.left_out == []
    assert "Module Face0." in out.text and "Theorem lower_faces : mstar_ge n F 70." in out.text
    assert "Theorem main : mstar_ge n F 70 /\\ mstar_le n F 76." in out.text
    assert export_coq(copy.deepcopy(row26)).text == out.text  # deterministic


def _outside_comments(text: str) -> str:
    """The Coq text outside its (nested) comments."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif depth and text.startswith("*)", i):
            depth, i = depth - 1, i + 2
        else:
            out.append(text[i] if depth == 0 else "")
            i += 1
    return "".join(out)


def test_a_face_functions_claim_ids_stay_inside_comments(row26: dict) -> None:
    """The face table is certificate data: a claim id that tries to close a comment stays inside it."""
    cert = copy.deepcopy(row26)
    function = _faces(cert)["functions"][0]
    function["claims"] = [["x *) Axiom bad : False. (*", {}]] + function["claims"]
    out = export_coq(cert)
    assert "Axiom bad" in out.text and "Axiom bad" not in _outside_comments(out.text)
    function["claims"] = [["x *) Axiom bad : False. (*", {}]]  # nothing exported from the face: never outside a comment either
    assert "Axiom bad" not in _outside_comments(export_coq(cert).text)


def test_a_face_whose_limit_is_not_its_function_is_left_out(row26: dict) -> None:
    cert = copy.deepcopy(row26)
    _faces(cert)["faces"][0][0] = [[2, 1]]  # the limit along e_2 is not the K_4 of the table
    out = export_coq(cert)
    assert "lower:faces" not in out.exported and out.lower == 49  # LG alone (48 acyclic orientations, + 1)
    assert ("lower:faces", "face 0: the limit of F is not its face function") in out.left_out


def test_a_face_function_counts_what_its_exported_claims_prove_not_its_stored_bound(row26: dict) -> None:
    cert = copy.deepcopy(row26)
    function = _faces(cert)["functions"][0]
    function["claims"] = [c for c in function["claims"] if c[0] != "lower:grid"]  # K35 gone: LG (24 vertices + 1) remains
    out = export_coq(cert)
    assert function["bound"] == 35 and "Theorem lower_faces : mstar_ge n F 50." in out.text  # 25 + 25
    function["claims"] = function["claims"][:2]  # no Newton bound either: m* >= 1 (mstar_ge_one, a theorem)
    out = export_coq(cert)
    assert "(* Face function 0: no bound exported" in out.text and "Theorem lower_faces : mstar_ge n F 2." in out.text
    assert out.lower == 49 and out.axioms == sorted(LOWEST + ["LE_LP"])  # F's own LG (through LE) is stronger


def test_malformed_graph_evidence_is_left_out_with_the_reason(row26: dict) -> None:
    cert = copy.deepcopy(row26)
    _faces(cert)["faces"] = [["not a direction"]]
    grid = next(c for c in _faces(cert)["functions"][0]["claims"] if c[0] == "lower:grid")[1]["shapes"][0]
    grid["vertices"] = grid["vertices"][:3]  # K35 needs four vertex monomials
    out = export_coq(cert)
    assert "lower:faces" not in out.exported and any(cid == "lower:faces" and why.startswith("not exported") for cid, why in out.left_out)
    _faces(cert)["faces"] = copy.deepcopy(_faces(row26)["faces"])
    out = export_coq(cert)  # the face function's K35 entry is left out inside its module; LG (25 each) remains
    assert "Theorem lower_faces : mstar_ge n F 50." in out.text and "K35 needs one vertex monomial per vertex" in out.text


# ---------------------------------------------------------------- coqc (slow)

@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("spec", "lower", "upper", "axioms"), CORPUS)
def test_coqc_accepts_the_graph_corpus_with_exactly_the_cited_axioms(library: Path, tmp_path: Path, spec: str, lower: int,  # noqa: F811
                                                                     upper: int, axioms: list[str]) -> None:
    out = export_coq(_certificate(tmp_path, spec))
    assert (out.lower, out.upper, out.axioms) == (lower, upper, axioms)
    (library / f"{out.name}.v").write_text(out.text, encoding="utf-8")
    run = _coqc(library, f"{out.name}.v")
    assert run.returncode == 0, run.stderr[-2000:]
    assert assumptions(run.stdout) == REALS | set(axioms)


TAMPER_ROW26 = [  # (anchor, old, new): each changes one number of row 26's file
    ("Definition lower_faces_dirs", "[[1; 0;", "[[1; 1;"),  # a direction (another face: its lemma no longer matches)
    ("Definition lower_faces_dirs", "[-1; 0;", "[1; 0;"),  # a direction: the two faces meet
    ("exact (LD_rename n c (face_heads [1; 0; 0; 0; 0] heads) Face0.n Face0.heads", "[1%nat; 2%nat; 3%nat; 4%nat]",
     "[1%nat; 2%nat; 4%nat; 3%nat]"),  # the renaming pi
    ("    [(1%nat, [1%nat; 0%nat])", "(2%nat, [1%nat; 0%nat])", "(2%nat, [0%nat; 1%nat])"),  # an atom order of a link
    ("    [(1%nat, [1%nat; 0%nat])", "(3%nat,", "(2%nat,"),  # a link's head
    ("Lemma lower_faces_f0", "heads)) 35.", "heads)) 36."),  # a face's bound
    ("Theorem lower_faces", "F 70", "F 71"),  # LD's sum
    ("Module Face0.", "QA [1%Q; (-1)%Q", "QA [1%Q; (-2)%Q"),  # a key of the face function's model
    ("Proof. refine (K35_grid", "([0; 0; 1], 1%Q)", "([0; 0; 1], 2%Q)"),  # a grid vertex's coefficient
    ("Proof. refine (K35_grid", "([0; -1; 1], 1%Q)", "([0; -1; 2], 1%Q)"),  # a grid vertex's exponent
    ("(divides_by_ok 3 _ shape0_Q", "1%Q", "2%Q"),  # the grid's quotient
]
TAMPER_C4 = [  # Lemma LG through LE: the zonotope's vertices and tree edges the exporter found
    ("Definition shape0_graph_rigid", "[-6; -4; -2]", "[6; -4; -2]"),  # a vertex's witness
    ("Definition shape0_graph_rigid", "([0; 1; 1], [-6;", "([0; 1; 0], [-6;"),  # a listed vertex
    ("Definition shape0_graph_rigid", "[-5; -5; -2]", "[-5; -4; -2]"),  # a tree edge's witness (it exposes a vertex)
    ("Theorem lower_graph", "F 15", "F 16"),  # the bound V + 1
]
TAMPER_ROW82 = [  # the nested LD inside Face1 (K_4 with a pendant edge: two K_4 faces)
    ("Module Face1.", "(2%nat, [0%nat; 1%nat]); (4%nat,", "(3%nat, [0%nat; 1%nat]); (4%nat,"),  # a link of a nested face
    ("Module Face1.", "Theorem lower_faces : mstar_ge n F 70.", "Theorem lower_faces : mstar_ge n F 71."),  # the nested sum
]
TAMPER_ROW29 = [  # W14 as V3's 𝒯_Γ
    ("Proof. refine (W14_grid", "([0; 1; 0], 1%Q)", "([0; 1; 0], 2%Q)"),  # a grid vertex's coefficient
    ("Proof. refine (W14_grid", "[([0; 0; 0], 1%Q)", "[([1; 0; 0], 1%Q)"),  # a grid vertex's exponent (the product no longer divides)
]


TAMPERINGS = [(spec, *t) for spec, ts in ((ROW26, TAMPER_ROW26), (ROW82, TAMPER_ROW82), (ROW29, TAMPER_ROW29), (C4, TAMPER_C4)) for t in ts]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The exported text of each tampered file (coqc accepts each untouched: the corpus test)."""
    return {spec: export_coq(_certificate(tmp_path_factory.mktemp("t"), spec)).text for spec in (ROW26, ROW82, ROW29, C4)}


@pytest.mark.slow
def test_the_tamperings_are_enough_and_each_changes_the_file(exported: dict[str, str]) -> None:
    assert len(TAMPERINGS) >= 15
    assert all(_tamper(exported[spec], anchor, old, new) != exported[spec] for spec, anchor, old, new in TAMPERINGS)


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("spec", "anchor", "old", "new"), TAMPERINGS, ids=[f"{old}->{new}" for _, _, old, new in TAMPERINGS])
def test_coqc_rejects_a_single_number_tampering_of_a_graph_claim(library: Path, exported: dict[str, str], spec: str, anchor: str,  # noqa: F811
                                                                 old: str, new: str) -> None:
    name = f"G{TAMPERINGS.index((spec, anchor, old, new))}.v"
    (library / name).write_text(_tamper(exported[spec], anchor, old, new), encoding="utf-8")
    assert _coqc(library, name).returncode != 0


@needs_coq
@pytest.mark.slow
def test_coqc_rejects_a_forged_disjoint_face_bound(library: Path, row26: dict) -> None:  # noqa: F811
    """m* >= 105 (> 76, the construction: false), the faces edited to list the face along e_1 twice."""
    cert = copy.deepcopy(row26)
    faces = _faces(cert)
    faces["faces"].append(faces["faces"][0])
    next(c for c in cert["claims"] if c["id"] == "theorem")["evidence"].update({"lower": 105})
    out = export_coq(cert)
    assert out.lower == 105 and "lower:faces" in out.exported
    assert_coqc_rejects(library, "ForgedFaces", out.text)


@needs_coq
@pytest.mark.slow
def test_mstar_ge_one_rests_on_no_lemma_axiom(library: Path) -> None:  # noqa: F811
    (library / "ChkG.v").write_text("From HF Require Import HFGraphs.\nPrint Assumptions HFGraphs.mstar_ge_one.\n", encoding="utf-8")
    run = _coqc(library, "ChkG.v")
    assert run.returncode == 0 and assumptions(run.stdout) <= REALS


@needs_coq
@pytest.mark.slow
def test_ld_rename_is_a_theorem_on_the_reals_axioms_alone(library: Path) -> None:  # noqa: F811
    source = Path(__file__).resolve().parent.parent / "src" / "headfusion" / "export" / "coq"
    assert all("Admitted" not in (source / name).read_text(encoding="utf-8") for name in ("HFRename.v", "HFGraphs.v"))
    assert "Theorem LD_rename" in (source / "HFGraphs.v").read_text(encoding="utf-8")
    (library / "ChkR.v").write_text("From HF Require Import HFGraphs.\nPrint Assumptions HFGraphs.LD_rename.\n", encoding="utf-8")
    run = _coqc(library, "ChkR.v")
    assert run.returncode == 0 and assumptions(run.stdout) == REALS
