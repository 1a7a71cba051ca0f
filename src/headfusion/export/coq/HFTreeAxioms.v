(* HFTreeAxioms: Lemma LR's conclusion from a replayed refutation tree, and the one lemma axiom that interior leaves
   rest on (Lemma LT's first half, from L5).  The replay itself is HFTree's theorem (replay_sound); docs/coq.md says
   how LT_interior was read. *)
From Coq Require Import List ZArith QArith Reals Qreals Lia.
From HF Require Import HFPoly HFSem HFTree HFAxioms.
Import ListNotations.

(* Lemma LT, first half, with L5 (docs/mathematics.md §4 and §3): Q' with r coordinates per exponent and V witnessed
   vertices of Newt(Q'), g : Z^r → R with finite support, and at most V points with r coordinates in supp D, D = g·Q'
   ⇒ no point of supp D is a convex combination of other points of supp D.  (Newt(D) = Newt(g) + Newt(Q') has at least
   V vertices, each a point of supp D, which has at most V points: every point of supp D is a vertex of Newt(D).) *)
Axiom LT_interior : forall r Q V (g : expo -> R), wf r Q = true -> newton_ge Q V -> (exists L, forall a, g a <> 0%R -> In a L) ->
  (forall l, NoDup l -> (forall e, In e l -> length e = r /\ Dv g Q e <> 0%R) -> (length l <= V)%nat) -> no_interior r Q g.

Lemma Dv_norm : forall g p e, Dv g (norm p) e = Dv g p e.
Proof. intros; unfold Dv; apply norm_eval. Qed.

(* Lemma LR: a replayed refutation tree at m (no interior leaf: V = 0) proves m*(F) >= m + 1. *)
Theorem tree_bound : forall n F c B m mults syms t, lattice_ok n [B] = true -> expform n F c [B] ->
  coprime (length (lgens B)) (lP B) (lQ B) ->
  replay_tree (length (lgens B)) (norm (padd (pscale c (lQ B)) (lP B))) (norm (lQ B)) m 0 mults syms t = true ->
  mstar_ge n F (S m).
Proof.
  intros n F c B m mults syms t Hl He Hc Hr h Hh.
  destruct (Compare_dec.le_lt_dec (length h) m) as [Hle|Hgt]; [|exact Hgt].
  destruct (LR_box n F c B m h Hl He Hc Hh Hle) as [g Hg].
  destruct (refutation_sound _ _ _ _ _ _ _ _ Hr (fun Hm => no_interior_0 _ _ _ _ Hm) g Hg).
Qed.

(* Lemma LR with interior leaves: V witnessed vertices of Newt(Q') and Lemma LT for the admissible g (m <= V). *)
Theorem tree_bound_tight : forall n F c B m V mults syms t, lattice_ok n [B] = true -> expform n F c [B] ->
  coprime (length (lgens B)) (lP B) (lQ B) -> wf (length (lgens B)) (lQ B) = true -> newton_ge (lQ B) V ->
  replay_tree (length (lgens B)) (norm (padd (pscale c (lQ B)) (lP B))) (norm (lQ B)) m V mults syms t = true ->
  mstar_ge n F (S m).
Proof.
  intros n F c B m V mults syms t Hl He Hc Hw Hv Hr h Hh.
  destruct (Compare_dec.le_lt_dec (length h) m) as [Hle|Hgt]; [|exact Hgt].
  destruct (LR_box n F c B m h Hl He Hc Hh Hle) as [g Hg].
  exfalso; refine (refutation_sound _ _ _ _ _ _ _ _ Hr _ g Hg).
  intros Hm g' [Hbox [_ [_ [Hcount _]]]].
  assert (Hno : no_interior (length (lgens B)) (lQ B) g').
  { apply (LT_interior _ _ V g' Hw Hv).
    - exists (box_points (box_sizes (length (lgens B)) (norm (padd (pscale c (lQ B)) (lP B))) (norm (lQ B)) m)).
      intros a Ha; apply box_points_In, Hbox, Ha.
    - intros l Hnd Hin; transitivity m; [|exact Hm]. apply Hcount; auto.
      intros e Hi; rewrite Dv_norm; apply Hin, Hi. }
  intros e C Hlen HD HF Hcv; rewrite Dv_norm in HD.
  apply (Hno e C Hlen HD); [|exact Hcv].
  revert HF; apply Forall_impl; intros fc [H1 [H2 H3]]; rewrite Dv_norm in H2; auto.
Qed.
