(* HFSem: the semantics (atoms, heads, "h represents F on R^n", m*(F) >= m and <= m), the model of a
   certificate as exact data, and the theorems that turn Coq's exact computations on that data into
   statements about real functions.  Nothing here is assumed. *)
From Coq Require Import List ZArith QArith Reals Qreals Lra.
From HF Require Import HFPoly.
Import ListNotations.
Open Scope R_scope.

(* ---- The semantics (docs/mathematics.md §1) ---- *)
Record atom := mkAtom { key : list R; weight : R; value : R }.
Fixpoint rdot (k q : list R) : R :=
  match k, q with a :: k', b :: q' => a * b + rdot k' q' | _, _ => 0 end.
Definition wx (q : list R) (a : atom) : R := weight a * exp (rdot (key a) q).
Fixpoint hnum (h : list atom) (q : list R) : R := match h with [] => 0 | a :: h' => wx q a * value a + hnum h' q end.
Fixpoint hden (h : list atom) (q : list R) : R := match h with [] => 0 | a :: h' => wx q a + hden h' q end.
(* H(q) = Σ v_i w_i e^<k_i,q> / Σ w_i e^<k_i,q> *)
Definition head_eval (h : list atom) (q : list R) : R := hnum h q / hden h q.
Definition is_head (n : nat) (h : list atom) : Prop :=
  h <> [] /\ Forall (fun a => 0 < weight a /\ length (key a) = n) h.
Definition represents (n : nat) (h : list atom) (F : list R -> R) : Prop :=
  is_head n h /\ forall q, length q = n -> head_eval h q = F q.
(* m*(F) >= m: every head representing F on R^n has at least m atoms. *)
Definition mstar_ge (n : nat) (F : list R -> R) (m : nat) : Prop :=
  forall h, represents n h F -> (m <= length h)%nat.
(* m*(F) <= m: some head with at most m atoms represents F on R^n. *)
Definition mstar_le (n : nat) (F : list R -> R) (m : nat) : Prop :=
  exists h, represents n h F /\ (length h <= m)%nat.
(* m*(F) = m. *)
Definition mstar_eq (n : nat) (F : list R -> R) (m : nat) : Prop := mstar_ge n F m /\ mstar_le n F m.

(* ---- The model: F = c + Σ_h a_h·H_h with exact rational data ---- *)
Record qatom := QA { qkey : list Q; qweight : Q; qvalue : Q }.
Definition ratom (a : qatom) : atom := mkAtom (map Q2R (qkey a)) (Q2R (qweight a)) (Q2R (qvalue a)).
Fixpoint sumR (l : list R) : R := match l with [] => 0 | x :: l' => x + sumR l' end.
Definition model_eval (c : Q) (heads : list (Q * list qatom)) (q : list R) : R :=
  Q2R c + sumR (map (fun sh => Q2R (fst sh) * head_eval (map ratom (snd sh)) q) heads).

Lemma sumR_app : forall a b, sumR (a ++ b) = sumR a + sumR b.
Proof. induction a; simpl; intros; [lra | rewrite IHa; lra]. Qed.

(* ---- Rational vectors and lattice generators ---- *)
Fixpoint qvadd (u w : list Q) : list Q :=
  match u, w with a :: u', b :: w' => (a + b)%Q :: qvadd u' w' | [], _ => w | _, [] => u end.
Definition qvscale (k : Z) (u : list Q) : list Q := map (fun x => (inject_Z k * x)%Q) u.
Fixpoint lincomb (e : expo) (gens : list (list Q)) : list Q :=
  match e, gens with k :: e', g :: gs => qvadd (qvscale k g) (lincomb e' gs) | _, _ => [] end.
Fixpoint qvec_eqb (u w : list Q) : bool :=
  match u, w with [], [] => true | a :: u', b :: w' => Qeq_bool a b && qvec_eqb u' w' | _, _ => false end.

Lemma rdot_qvadd : forall q u w, rdot (map Q2R (qvadd u w)) q = rdot (map Q2R u) q + rdot (map Q2R w) q.
Proof.
  induction q as [|x q IH]; intros u w; destruct u as [|a u], w as [|b w]; simpl; try lra.
  rewrite IH, Q2R_plus; lra.
Qed.
Lemma Q2R_inject : forall k, Q2R (inject_Z k) = IZR k.
Proof. intro; unfold Q2R; simpl; rewrite Rinv_1; lra. Qed.
Lemma rdot_qvscale : forall q k u, rdot (map Q2R (qvscale k u)) q = IZR k * rdot (map Q2R u) q.
Proof.
  induction q as [|x q IH]; intros k u; destruct u as [|a u]; simpl; try lra.
  rewrite IH, Q2R_mult, Q2R_inject; lra.
Qed.
(* The lattice logarithms y_r = <g_r, q> of the generators g_r at q. *)
Definition ylog (gens : list (list Q)) (q : list R) : list R := map (fun g => rdot (map Q2R g) q) gens.
Lemma rdot_lincomb : forall q e gens, rdot (map Q2R (lincomb e gens)) q = zdot (ylog gens q) e.
Proof.
  intros q e; induction e as [|k e IH]; intros gens; destruct gens as [|g gs]; simpl; try lra.
  rewrite rdot_qvadd, rdot_qvscale, IH; lra.
Qed.
Lemma rdot_qvec_eqb : forall q u w, qvec_eqb u w = true -> rdot (map Q2R u) q = rdot (map Q2R w) q.
Proof.
  induction q as [|x q IH]; intros u w; destruct u as [|a u], w as [|b w]; simpl; try discriminate; try lra.
  intro H; apply andb_prop in H; destruct H as [H1 H2]; apply Qeq_bool_eq, Qeq_eqR in H1.
  rewrite H1, (IH _ _ H2); lra.
Qed.

(* ---- A head of the model as N/D in lattice coordinates: key = anchor + Σ e_r g_r ---- *)
Definition qpos (x : Q) : bool := negb (Qle_bool x 0).
Lemma qpos_R : forall x, qpos x = true -> 0 < Q2R x.
Proof.
  intros x H; unfold qpos in H; apply negb_true_iff in H.
  replace 0 with (Q2R 0) by (unfold Q2R; simpl; lra). apply Qlt_Rlt.
  apply Qnot_le_lt; intro Hle; apply Qle_bool_iff in Hle; congruence.
Qed.

Fixpoint keys_ok (gens : list (list Q)) (anchor : list Q) (atoms : list qatom) (exps : list expo) : bool :=
  match atoms, exps with
  | [], [] => true
  | a :: r, e :: es => qvec_eqb (qkey a) (qvadd anchor (lincomb e gens)) && qpos (qweight a) && keys_ok gens anchor r es
  | _, _ => false
  end.
Fixpoint head_N (atoms : list qatom) (exps : list expo) : poly :=
  match atoms, exps with a :: r, e :: es => (e, (qweight a * qvalue a)%Q) :: head_N r es | _, _ => [] end.
Fixpoint head_D (atoms : list qatom) (exps : list expo) : poly :=
  match atoms, exps with a :: r, e :: es => (e, qweight a) :: head_D r es | _, _ => [] end.

Lemma head_bridge_num_den : forall gens anchor q atoms exps, keys_ok gens anchor atoms exps = true ->
  hnum (map ratom atoms) q = exp (rdot (map Q2R anchor) q) * peval (mono (ylog gens q)) (head_N atoms exps) /\
  hden (map ratom atoms) q = exp (rdot (map Q2R anchor) q) * peval (mono (ylog gens q)) (head_D atoms exps) /\
  (atoms <> [] -> 0 < peval (mono (ylog gens q)) (head_D atoms exps)).
Proof.
  intros gens anchor q atoms; induction atoms as [|a r IH]; intros exps H; destruct exps as [|e es]; simpl in *; try discriminate.
  - repeat split; try lra. intro C; congruence.
  - apply andb_prop in H; destruct H as [H H3]; apply andb_prop in H; destruct H as [H1 H2].
    destruct (IH es H3) as [IHn [IHd IHp]].
    assert (Hk : rdot (map Q2R (qkey a)) q = rdot (map Q2R anchor) q + zdot (ylog gens q) e).
    { rewrite (rdot_qvec_eqb _ _ _ H1), rdot_qvadd, rdot_lincomb; lra. }
    unfold wx; simpl; rewrite Hk, exp_plus, IHn, IHd, Q2R_mult; unfold mono.
    pose proof (qpos_R _ H2); pose proof (exp_pos (zdot (ylog gens q) e)).
    repeat split; try lra. intros _.
    destruct r as [|b r']; [destruct es; simpl; nra|].
    assert (0 < peval (mono (ylog gens q)) (head_D (b :: r') es)) by (apply IHp; discriminate).
    unfold mono in *; nra.
Qed.

Lemma head_bridge : forall gens anchor q atoms exps, atoms <> [] -> keys_ok gens anchor atoms exps = true ->
  head_eval (map ratom atoms) q = peval (mono (ylog gens q)) (head_N atoms exps) / peval (mono (ylog gens q)) (head_D atoms exps)
  /\ 0 < peval (mono (ylog gens q)) (head_D atoms exps).
Proof.
  intros gens anchor q atoms exps Hne H; destruct (head_bridge_num_den gens anchor q atoms exps H) as [Hn [Hd Hp]].
  specialize (Hp Hne); split; [|exact Hp].
  unfold head_eval; rewrite Hn, Hd. pose proof (exp_pos (rdot (map Q2R anchor) q)). field; lra.
Qed.

(* ---- A block: its heads, P_B and Q_B recomputed from them, and P'_B, Q'_B with the cofactor H_B ---- *)
Record bhead := BH { hidx : nat; anchor : list Q; exps : list expo }.
Record block := Blk { gens : list (list Q); bheads : list bhead; Pl : poly; Ql : poly; cof : poly }.

Fixpoint group (hs : list (Q * poly * poly)) : poly * poly :=
  match hs with
  | [] => ([], pone)
  | (s, N, D) :: r => let '(P, Qd) := group r in (padd (pscale s (pmul N Qd)) (pmul P D), pmul D Qd)
  end.

Lemma group_eval : forall y hs, Forall (fun t => 0 < peval (mono y) (snd t)) hs ->
  0 < peval (mono y) (snd (group hs)) /\
  peval (mono y) (fst (group hs)) / peval (mono y) (snd (group hs)) =
  sumR (map (fun t => Q2R (fst (fst t)) * (peval (mono y) (snd (fst t)) / peval (mono y) (snd t))) hs).
Proof.
  intros y hs; induction hs as [|[[s N] D] r IH]; intro H; simpl.
  - assert (H1 : mono y [] = 1) by (unfold mono; destruct y; simpl; apply exp_0).
    rewrite H1; unfold Q2R; simpl; split; [lra | field].
  - inversion H as [|? ? HD Hr]; subst; simpl in HD. destruct (IH Hr) as [Hq He].
    destruct (group r) as [P Qd]; simpl in *.
    assert (Hm : multiplicative (mono y)) by (intros e f; apply mono_mult).
    unfold padd; rewrite peval_app, peval_scale, !(peval_mul _ Hm).
    split; [nra|]. rewrite <- He. field; lra.
Qed.

Definition model_head (heads : list (Q * list qatom)) (i : nat) : Q * list qatom := nth i heads (0%Q, []).
Definition head_polys (heads : list (Q * list qatom)) (b : block) : list (Q * poly * poly) :=
  map (fun bh => let '(s, atoms) := model_head heads (hidx bh) in (s, head_N atoms (exps bh), head_D atoms (exps bh))) (bheads b).

Definition block_ok (heads : list (Q * list qatom)) (b : block) : bool :=
  forallb (fun bh => let '(s, atoms) := model_head heads (hidx bh) in
                     match atoms with [] => false | _ => keys_ok (gens b) (anchor bh) atoms (exps bh) end) (bheads b)
  && peqb (fst (group (head_polys heads b))) (pmul (Pl b) (cof b))
  && peqb (snd (group (head_polys heads b))) (pmul (Ql b) (cof b)).

(* The exponential form of F over blocks (lattice generators, P'_B, Q'_B): F = c + Σ_B P'_B/Q'_B, Q'_B ≠ 0. *)
Record lblock := LBlk { lgens : list (list Q); lP : poly; lQ : poly }.
Definition lblock_of (b : block) : lblock := LBlk (gens b) (Pl b) (Ql b).
Definition beval (B : lblock) (p : poly) (q : list R) : R := peval (mono (ylog (lgens B) q)) p.
Definition expform (n : nat) (F : list R -> R) (c : Q) (bs : list lblock) : Prop :=
  forall q, length q = n -> Forall (fun B => beval B (lQ B) q <> 0) bs /\
    F q = Q2R c + sumR (map (fun B => beval B (lP B) q / beval B (lQ B) q) bs).

Lemma block_sum : forall heads b q, block_ok heads b = true ->
  beval (lblock_of b) (Ql b) q <> 0 /\
  sumR (map (fun bh => Q2R (fst (model_head heads (hidx bh))) * head_eval (map ratom (snd (model_head heads (hidx bh)))) q) (bheads b))
  = beval (lblock_of b) (Pl b) q / beval (lblock_of b) (Ql b) q.
Proof.
  intros heads b q H; unfold block_ok in H; apply andb_prop in H; destruct H as [H H2]; apply andb_prop in H; destruct H as [H0 H1].
  set (y := ylog (gens b) q).
  assert (Hm : multiplicative (mono y)) by (intros e f; apply mono_mult).
  assert (Hs : Forall (fun t => 0 < peval (mono y) (snd t)) (head_polys heads b) /\
    sumR (map (fun bh => Q2R (fst (model_head heads (hidx bh))) * head_eval (map ratom (snd (model_head heads (hidx bh)))) q) (bheads b))
    = sumR (map (fun t => Q2R (fst (fst t)) * (peval (mono y) (snd (fst t)) / peval (mono y) (snd t))) (head_polys heads b))).
  { unfold head_polys; clear H1 H2; induction (bheads b) as [|bh r IH]; simpl in *; [split; auto|].
    apply andb_prop in H0; destruct H0 as [Hh Hr]; destruct (IH Hr) as [IHf IHs].
    destruct (model_head heads (hidx bh)) as [s atoms]; simpl.
    destruct atoms as [|a0 at0]; [discriminate|].
    destruct (head_bridge (gens b) (anchor bh) q (a0 :: at0) (exps bh)) as [He Hp]; [discriminate | exact Hh|].
    split; [constructor; auto|]. rewrite IHs, He; reflexivity. }
  destruct Hs as [Hf Hs]; destruct (group_eval y _ Hf) as [Hq He].
  rewrite (peqb_eval (mono y) _ _ H1), (peval_mul _ Hm) in He.
  rewrite (peqb_eval (mono y) _ _ H2), (peval_mul _ Hm) in Hq, He.
  unfold beval, lblock_of; simpl; fold y.
  assert (peval (mono y) (Ql b) <> 0) by (intro Z; rewrite Z in Hq; lra).
  split; auto. rewrite Hs, <- He. field. split; auto. intro Z; rewrite Z in Hq; lra.
Qed.

Lemma map_nth_seq : forall {A} (l : list A) d, map (fun i => nth i l d) (seq 0 (length l)) = l.
Proof.
  intros A l d; induction l as [|x l IH]; simpl; auto. f_equal.
  rewrite <- seq_shift, map_map; simpl; exact IH.
Qed.

Definition indices (bs : list block) : list nat := flat_map (fun b => map hidx (bheads b)) bs.
Definition expform_ok (heads : list (Q * list qatom)) (bs : list block) : bool :=
  forallb (block_ok heads) bs && (if list_eq_dec Nat.eq_dec (indices bs) (seq 0 (length heads)) then true else false).

Lemma sumR_flat_map : forall {A B} (g : B -> R) (h : A -> list B) l,
  sumR (map g (flat_map h l)) = sumR (map (fun a => sumR (map g (h a))) l).
Proof. intros A B g h l; induction l as [|a l IH]; simpl; auto. rewrite map_app, sumR_app, IH; reflexivity. Qed.

(* The exponential-form identity, from Coq's own computation on the certificate's blocks. *)
Theorem expform_sound : forall n c heads bs, expform_ok heads bs = true ->
  expform n (model_eval c heads) c (map lblock_of bs).
Proof.
  intros n c heads bs H q _; unfold expform_ok in H; apply andb_prop in H; destruct H as [Hb Hi].
  destruct (list_eq_dec Nat.eq_dec (indices bs) (seq 0 (length heads))) as [Heq|]; [|discriminate].
  rewrite forallb_forall in Hb.
  set (f := fun sh : Q * list qatom => Q2R (fst sh) * head_eval (map ratom (snd sh)) q).
  assert (Hblk : forall b, In b bs -> beval (lblock_of b) (Ql b) q <> 0 /\
     sumR (map (fun bh => f (model_head heads (hidx bh))) (bheads b)) = beval (lblock_of b) (Pl b) q / beval (lblock_of b) (Ql b) q).
  { intros b Hin; exact (block_sum heads b q (Hb b Hin)). }
  split.
  - apply Forall_forall; intros B HB; apply in_map_iff in HB; destruct HB as [b [<- Hin]]; apply (Hblk b Hin).
  - unfold model_eval; f_equal. fold f.
    rewrite <- (map_nth_seq heads (0%Q, [])), <- Heq, map_map. unfold indices.
    rewrite sumR_flat_map, map_map.
    apply f_equal, map_ext_in; intros b Hin. rewrite map_map. apply (Hblk b Hin).
Qed.
Close Scope R_scope.
