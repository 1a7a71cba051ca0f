"""Round 6b (issue 41, the referee's re-read of this round's certificates): each test fails before its fix and passes after."""

from __future__ import annotations

from .conftest import built


def _tex(cert: dict) -> str:
    from headfusion.render.latex import render_latex

    return render_latex(cert)


def test_the_two_adic_section_cites_lemma_cd_only_when_a_row_uses_it():
    """σ(q)+σ(2q)+σ(8q) is decided by Lemma V2 alone: Lemma CD is not printed, so a reference to it would be "??"."""
    tex = _tex(built("sigmoid(q1) + sigmoid(2*q1) + sigmoid(8*q1)"))
    assert r"\label{lem:CD}" not in tex and r"\ref{lem:CD}" not in tex
    assert r"the bound of Lemma~\ref{lem:V2}." in tex.replace("\n", " ")


def test_the_pair_with_biases_is_named_as_its_lemma_is_printed():
    """The certificate prints Lemma PB; "Theorem Pβ" (the design's name) is nowhere defined in it."""
    tex = _tex(built("1/2 + sigmoid(3*q1+log(2)) - sigmoid(7*q1)"))
    assert r"\label{lem:PB}" in tex and r"The lower bound is the bound for pairs with biases (Lemma~\ref{lem:PB}" in tex
    assert r"P$\beta$" not in tex and "Pβ" not in tex


def test_the_sketch_gives_the_reason_of_a_class_descartes_bound():
    """σ(q)+σ(2q)+σ(2q+log 3): 6 = (2+1)·2 comes from Lemma CD; V2's doubling alone yields only powers of 2."""
    from headfusion.render.sketch import proof_sketch

    def text(spec: str) -> str:
        return " ".join(p for v in proof_sketch(built(spec)).values() for p in (v if isinstance(v, list) else [v]) if isinstance(p, str))

    classes = text("sigmoid(q1) + sigmoid(2*q1) + sigmoid(2*q1+log(3))")
    assert r"at least $n+1$ of its terms by Descartes' rule of signs, $(n+1)\,2^j$ in all for $j$ levels (Lemma~\ref{lem:CD})" in classes
    assert r"$m^*(F)\ge 6$" in classes
    assert r"\ref{lem:CD}" not in text("sigmoid(q1) + sigmoid(2*q1) + sigmoid(8*q1)")


def test_an_interval_head_cites_no_lemma_the_certificate_does_not_state():
    """The interval head is defined where it is used; there is no Lemma IH among the printed lemmas."""
    tex = _tex(built("sigmoid(q1+log(2)) + sigmoid(2*q1) + sigmoid(3*q1) + sigmoid(6*q1)"))
    assert "an interval head (checked by the kernel:" in tex
    assert "Lemma IH" not in tex and r"\label{lem:IH}" not in tex


class _Answer:
    """A solver's answer at m, as `solving.solver.search` returns it (status and JSON only)."""

    def __init__(self, status: str, m: int) -> None:
        self.status, self.atoms, self.query_text = status, m, None

    def to_json(self) -> dict:
        return {"status": self.status, "atoms": self.atoms, "solver": {"name": "z3", "version": "test"}, "reason": "time limit reached"}


def test_the_question_just_below_the_construction_is_recorded_when_it_decides_nothing(monkeypatch):
    """certify asks m = upper − 1 first; an unsat whose refutation ran out of time was dropped, and the gap paragraph
    then said of that m "none was searched for" (σ(q)+σ(2q)+σ(3q)+σ(6q) on a busy machine: 11 ≤ m* ≤ 12)."""
    from headfusion.proof import certify as certify_module
    from headfusion.render.gap import gap_paragraph
    from headfusion.solving import solver
    from headfusion.spec.load import load_spec

    monkeypatch.setattr(solver, "search", lambda form, m, timeout, options: _Answer("unsat" if m == 11 else "unknown", m))
    monkeypatch.setattr(certify_module, "find_refutation", lambda question, m, left: (None, "the exact refutation search ended unknown (time limit)"))
    cert = certify_module.certify(load_spec("sigmoid(q1) + sigmoid(2*q1) + sigmoid(3*q1) + sigmoid(6*q1)", None), ["test"], search_timeout=60).certificate
    ids = [c["id"] for c in cert["claims"]]
    assert "testimony:m11" in ids and cert["summary"]["testimony_lower"] == 12
    gap = gap_paragraph(cert)
    assert "For heads with at most $11$ atoms a solver reports that none exists" in gap, gap
    assert "11$ atoms has been excluded by this certificate, and none was searched for" not in gap


def test_the_k4_proof_in_brief_gives_the_grid_reason_and_names_lemma_k35_one_way():
    """K_4: the proof in brief went from 25 to "Together, 35 ≤ m*" with no reason for 35; the gap said "Theorem K35"."""
    tex = _tex(built("proofs/tournament_complete.toml", 4))
    brief = tex[tex.index(r"\begin{proof}[Proof in brief]"):]
    brief = brief[:brief.index(r"\end{proof}")]
    assert r"A grid gives more (Lemma~\ref{lem:K35}" in brief and r"$7+12+12+7>34$; by Lemma~\ref{lem:LM} $m^*(F)\ge 35$." in brief
    assert brief.index("A grid gives more") < brief.index(r"Together, $35\le m^*(F)")
    assert r"Theorem~\ref{lem:K35}" not in tex and r"Lemma~\ref{lem:K35} stops at $35$" in tex
    for name in ("K35", "K4GRID", "LH", "M12"):
        assert rf"\label{{lem:{name}}}" in tex  # every lemma the paragraph cites is printed


def test_the_four_by_four_grid_proof_covers_the_multiples_it_sets_aside():
    """Lemma K4GRID proves ≥ 30 under "at most 34 terms": the other case (more than 34, hence more than 30) is said."""
    tex = _tex(built("proofs/tournament_complete.toml", 4))
    proof = tex[tex.index(r"\label{lem:K4GRID}"):]
    proof = proof[:proof.index(r"\end{proof}")]
    assert "A multiple with more than 34 terms has more than 30, so suppose it has at most 34." in proof
