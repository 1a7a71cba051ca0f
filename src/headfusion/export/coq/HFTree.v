(* HFTree: the search question of docs/mathematics.md §5 ("no head with at most m atoms") as a
   property of a cofactor g on the box G, and a replay of refutation trees (split, count, layer and
   Farkas leaves, with the kernel's OUT rule: once m points are IN, every other point is OUT) whose
   soundness is a theorem: a tree that replays leaves no admissible g. *)
From Coq Require Import List ZArith QArith Reals Qreals Lra Lia.
From HF Require Import HFPoly HFSem.
Import ListNotations.
Open Scope R_scope.

(* ---- The box G = Π_c {0..G_c} and the rows D_e = Σ_s Q'_s g_(e−s), N_e = Σ_s P'_s g_(e−s) ---- *)
Fixpoint minmax (c : nat) (l : list expo) (lo hi : Z) : Z * Z :=
  match l with [] => (lo, hi) | e :: r => minmax c r (Z.min lo (nth c e 0%Z)) (Z.max hi (nth c e 0%Z)) end.
Definition width (c : nat) (l : list expo) : Z :=
  match l with [] => 0%Z | e :: r => let '(lo, hi) := minmax c r (nth c e 0%Z) (nth c e 0%Z) in (hi - lo)%Z end.
Definition lowest (c : nat) (l : list expo) : Z :=
  match l with [] => 0%Z | e :: r => fst (minmax c r (nth c e 0%Z) (nth c e 0%Z)) end.
(* G_c = (m−1)·width_c(supp P' ∪ supp Q') − width_c(supp Q')  (Lemma L3) *)
Definition box_sizes (r : nat) (P Q : poly) (m : nat) : list Z :=
  map (fun c => (Z.of_nat (m - 1) * width c (map fst P ++ map fst Q) - width c (map fst Q))%Z) (seq 0 r).

Fixpoint inbox (sizes : list Z) (a : expo) : bool :=
  match sizes, a with
  | [], [] => true
  | s :: sizes', x :: a' => Z.leb 0 x && Z.leb x s && inbox sizes' a'
  | _, _ => false
  end.

Definition Dv (g : expo -> R) (p : poly) (e : expo) : R := peval (fun s => g (vsub e s)) p.

(* What a head with at most m atoms gives, by Lemmas L1–L4 (docs/mathematics.md §5): D = g·Q', N = g·P' with
   g on the box, D ≥ 0, supp N ⊆ supp D, at most m points of supp D, and each lowest layer of D nonzero. *)
Definition admissible (r : nat) (P Q : poly) (m : nat) (g : expo -> R) : Prop :=
  (forall a, g a <> 0 -> inbox (box_sizes r P Q m) a = true) /\
  (forall e, 0 <= Dv g Q e) /\
  (forall e, Dv g Q e = 0 -> Dv g P e = 0) /\
  (forall l, NoDup l -> (forall e, In e l -> length e = r /\ Dv g Q e <> 0) -> (length l <= m)%nat) /\
  (forall c, (c < r)%nat -> exists e, length e = r /\ nth c e 0%Z = lowest c (map fst Q) /\ Dv g Q e <> 0).

(* ---- The tree and its replay ---- *)
Definition mvec := list (bool * expo * Q).
Inductive tree := Split (e : expo) (out_child in_child : tree) | Count | Layer (c : nat) | Farkas (k : nat).
(* Short typed constructors for the exported data (they keep coqc's elaboration linear and cheap). *)
Definition Dz (e : expo) (l : Z) : bool * expo * Q := (true, e, inject_Z l).
Definition Nz (e : expo) (l : Z) : bool * expo * Q := (false, e, inject_Z l).
Definition Dq (e : expo) (l : Z) (d : positive) : bool * expo * Q := (true, e, Qmake l d).
Definition Nq (e : expo) (l : Z) (d : positive) : bool * expo * Q := (false, e, Qmake l d).
Definition S1 (x : Z) (t_out t_in : tree) : tree := Split [x] t_out t_in.

Definition mem (e : expo) (l : list expo) : bool := existsb (expo_eqb e) l.
Lemma mem_In : forall e l, mem e l = true -> In e l.
Proof.
  intros e l H; apply existsb_exists in H; destruct H as [f [Hf Hb]]; apply expo_eqb_eq in Hb; subst; auto.
Qed.
Lemma expo_eqb_refl : forall e, expo_eqb e e = true.
Proof. induction e; simpl; auto. rewrite Z.eqb_refl; auto. Qed.
Lemma In_mem : forall e l, In e l -> mem e l = true.
Proof. intros e l H; apply existsb_exists; exists e; split; auto; apply expo_eqb_refl. Qed.

Definition zrange (s : Z) : list Z := if Z.ltb s 0 then [] else map Z.of_nat (seq 0 (S (Z.to_nat s))).
Fixpoint box_points (sizes : list Z) : list expo :=
  match sizes with [] => [[]] | s :: r => flat_map (fun x => map (cons x) (box_points r)) (zrange s) end.

Definition nobox (sizes : list Z) (p : poly) (e : expo) : bool := forallb (fun t => negb (inbox sizes (vsub e (fst t)))) p.
Definition layer_points (sizes : list Z) (Q : poly) (c : nat) : list expo :=
  flat_map (fun a => map (fun t => vadd a (fst t)) (filter (fun t => Z.eqb (nth c (fst t) 0%Z) (lowest c (map fst Q))) Q))
           (filter (fun a => Z.eqb (nth c a 0%Z) 0) (box_points sizes)).
Definition farkas_form (P Q : poly) (v : mvec) : poly :=
  flat_map (fun x : bool * expo * QArith_base.Q => let '(isD, e, lam) := x in map (fun t => (vsub e (fst t), (lam * snd t)%Q)) (if isD then Q else P)) v.
(* A vector cancels: Σ λ·row vanishes on every unknown g_a of the box (checked once per vector). *)
Definition cancels (sizes : list Z) (P Q : poly) (v : mvec) : bool :=
  forallb (fun t => negb (inbox sizes (fst t))) (norm (farkas_form P Q v)).
(* OUT at a leaf: on the path, or (the kernel's rule) any point of r coordinates not IN once m points are IN,
   since a head with at most m atoms has no room for another point of supp D (out_sound below). *)
Definition is_out (r m : nat) (ins outs : list expo) (e : expo) : bool :=
  mem e outs || (Nat.leb m (length ins) && Nat.eqb (length e) r && negb (mem e ins)).

(* At a leaf: rows with λ < 0 and N rows are equalities (OUT, or outside E), and some D row with λ > 0 is IN. *)
Definition farkas_ok (sizes : list Z) (P Q : poly) (v : mvec) (isout : expo -> bool) (ins : list expo) : bool :=
  forallb (fun x : bool * expo * QArith_base.Q => let '(isD, e, lam) := x in
       if isD && Qle_bool 0 lam then true else isout e || nobox sizes Q e) v
  && existsb (fun x : bool * expo * QArith_base.Q => let '(isD, e, lam) := x in isD && qpos lam && mem e ins) v.

(* lps: the points of E on each lowest layer (layer_points, computed once: see replay_tree). *)
Fixpoint replay (r : nat) (sizes : list Z) (P Q : poly) (m : nat) (mults : list mvec) (lps : list (list expo))
         (t : tree) (ins outs : list expo) : bool :=
  match t with
  | Split e t_out t_in => Nat.eqb (length e) r && negb (mem e ins) && negb (mem e outs)
                          && replay r sizes P Q m mults lps t_out ins (e :: outs) && replay r sizes P Q m mults lps t_in (e :: ins) outs
  | Count => Nat.ltb m (length ins)
  | Layer c => Nat.ltb c r && forallb (is_out r m ins outs) (nth c lps [])
  | Farkas k => Nat.ltb k (length mults) && farkas_ok sizes P Q (nth k mults []) (is_out r m ins outs) ins
  end.

(* The whole check: every vector cancels, Q' has r coordinates, and the tree replays from the root. *)
Definition replay_tree (r : nat) (P Q : poly) (m : nat) (mults : list mvec) (t : tree) : bool :=
  let sizes := box_sizes r P Q m in
  forallb (cancels sizes P Q) mults && forallb (fun t => Nat.eqb (length (fst t)) r) Q
  && replay r sizes P Q m mults (map (layer_points sizes Q) (seq 0 r)) t [] [].

(* ---- Soundness ---- *)
Lemma peval_nonzero_term : forall v p, peval v p <> 0 -> exists t, In t p /\ Q2R (snd t) * v (fst t) <> 0.
Proof.
  intros v p; induction p as [|[e c] p IH]; simpl; intro H; [lra|].
  destruct (Req_dec (Q2R c * v e) 0) as [Z|Z]; [|exists (e, c); auto].
  destruct IH as [t [Ht Hn]]; [lra|]; exists t; auto.
Qed.

Lemma peval_zero_terms : forall v p, (forall t, In t p -> v (fst t) = 0) -> peval v p = 0.
Proof. intros v p; induction p as [|[e c] p IH]; simpl; intros H; [lra|]. rewrite (H (e, c) (or_introl eq_refl) : v e = 0), IH; [lra|]. intros t Ht; apply H; auto. Qed.

Lemma nobox_zero : forall r P Q m g, admissible r P Q m g -> forall p e, nobox (box_sizes r P Q m) p e = true -> Dv g p e = 0.
Proof.
  intros r P Q m g [Hbox _] p e H; unfold Dv; apply peval_zero_terms; intros t Ht; unfold nobox in H.
  rewrite forallb_forall in H; specialize (H t Ht); destruct (Req_dec (g (vsub e (fst t))) 0) as [Z|Z]; auto.
  apply Hbox in Z; rewrite Z in H; discriminate.
Qed.

Lemma row_sum : forall g e lam p, peval g (map (fun t => (vsub e (fst t), (lam * snd t)%Q)) p) = Q2R lam * Dv g p e.
Proof. intros g e lam p; unfold Dv; induction p as [|[s c] p IHR]; simpl; [lra|]. rewrite IHR, Q2R_mult; lra. Qed.

Lemma farkas_sum : forall g P Q v, peval g (farkas_form P Q v) =
  sumR (map (fun x : bool * expo * QArith_base.Q => let '(isD, e, lam) := x in Q2R lam * Dv g (if isD then Q else P) e) v).
Proof.
  intros g P Q v; induction v as [|[[isD e] lam] v IH]; simpl; auto.
  rewrite peval_app, IH; f_equal. apply row_sum.
Qed.

Lemma sumR_nonneg : forall (l : list R), Forall (fun x => 0 <= x) l -> 0 <= sumR l.
Proof. induction l as [|x l IH]; intros H; simpl; [lra|]. pose proof (Forall_inv H); pose proof (IH (Forall_inv_tail H)); lra. Qed.
Lemma sumR_pos : forall (l : list R), Forall (fun x => 0 <= x) l -> Exists (fun x => 0 < x) l -> 0 < sumR l.
Proof.
  induction l as [|x l IH]; intros H1 H2; [inversion H2|]. simpl.
  pose proof (Forall_inv H1) as Hx; pose proof (Forall_inv_tail H1) as Hl; pose proof (sumR_nonneg l Hl).
  apply Exists_cons in H2; destruct H2 as [H2|H2]; [lra|]. specialize (IH Hl H2); lra.
Qed.

Lemma Qle_bool_R : forall x, Qle_bool 0 x = true -> 0 <= Q2R x.
Proof. intros x H; apply Qle_bool_iff in H; replace 0 with (Q2R 0) by (unfold Q2R; simpl; lra); apply Qle_Rle; auto. Qed.
Lemma not_Qle_bool_R : forall x, Qle_bool 0 x = false -> Q2R x < 0.
Proof.
  intros x H; replace 0 with (Q2R 0) by (unfold Q2R; simpl; lra); apply Qlt_Rlt.
  apply Qnot_le_lt; intro Hle; apply Qle_bool_iff in Hle; congruence.
Qed.

Lemma farkas_sound : forall r P Q m g v isout ins, admissible r P Q m g ->
  (forall e, In e ins -> 0 < Dv g Q e) -> (forall e, isout e = true -> Dv g Q e = 0) ->
  cancels (box_sizes r P Q m) P Q v = true -> farkas_ok (box_sizes r P Q m) P Q v isout ins = true -> False.
Proof.
  intros r P Q m g v isout ins Hadm Hin Hout H1 H; pose proof Hadm as [Hbox [Hpos [Hsub _]]].
  unfold farkas_ok in H; apply andb_prop in H; destruct H as [H2 H3]; unfold cancels in H1.
  assert (Hz : peval g (farkas_form P Q v) = 0).
  { rewrite <- norm_eval; apply peval_zero_terms; intros t Ht; rewrite forallb_forall in H1; specialize (H1 t Ht).
    destruct (Req_dec (g (fst t)) 0) as [Z|Z]; auto. apply Hbox in Z; rewrite Z in H1; discriminate. }
  rewrite farkas_sum in Hz.
  assert (Hterm : forall isD e lam, In (isD, e, lam) v -> 0 <= Q2R lam * Dv g (if isD then Q else P) e).
  { intros isD e lam Hx; rewrite forallb_forall in H2; specialize (H2 _ Hx); simpl in H2.
    assert (Hzero : (isout e || nobox (box_sizes r P Q m) Q e)%bool = true -> Dv g Q e = 0).
    { intro Hm; apply orb_prop in Hm; destruct Hm as [Hm|Hm]; [apply Hout; auto | apply (nobox_zero r P Q m g Hadm Q e Hm)]. }
    destruct isD; simpl in H2.
    - destruct (Qle_bool 0 lam) eqn:Hl; simpl in H2.
      + pose proof (Qle_bool_R _ Hl); pose proof (Hpos e); nra.
      + rewrite (Hzero H2); lra.
    - rewrite (Hsub e (Hzero (match Qle_bool 0 lam with _ => H2 end))); lra. }
  assert (0 < sumR (map (fun x : bool * expo * QArith_base.Q => let '(isD, e, lam) := x in Q2R lam * Dv g (if isD then Q else P) e) v)); [|lra].
  apply sumR_pos.
  - apply Forall_forall; intros y Hy; apply in_map_iff in Hy; destruct Hy as [[[isD e] lam] [<- Hx]]; apply Hterm; auto.
  - apply existsb_exists in H3; destruct H3 as [[[isD e] lam] [Hx Hb]].
    apply andb_prop in Hb; destruct Hb as [Hb Hm]; apply andb_prop in Hb; destruct Hb as [HD Hl]; destruct isD; [|discriminate].
    apply Exists_exists; exists (Q2R lam * Dv g Q e); split.
    + apply in_map_iff; exists (true, e, lam); auto.
    + pose proof (qpos_R _ Hl); pose proof (Hin e (mem_In _ _ Hm)); nra.
Qed.

Lemma zrange_In : forall s x, (0 <= x <= s)%Z -> In x (zrange s).
Proof.
  intros s x H; unfold zrange; destruct (Z.ltb_spec s 0); [lia|].
  apply in_map_iff; exists (Z.to_nat x); split; [lia|]. apply in_seq; lia.
Qed.
Lemma box_points_In : forall sizes a, inbox sizes a = true -> In a (box_points sizes).
Proof.
  induction sizes as [|s sizes IH]; intros a H; destruct a as [|x a]; simpl in *; try discriminate; auto.
  apply andb_prop in H; destruct H as [H H2]; apply andb_prop in H; destruct H as [H0 H1].
  apply Z.leb_le in H0; apply Z.leb_le in H1.
  apply in_flat_map; exists x; split; [apply zrange_In; lia | apply in_map, IH; auto].
Qed.
Lemma inbox_length : forall sizes a, inbox sizes a = true -> length a = length sizes.
Proof.
  induction sizes as [|s sizes IH]; intros a H; destruct a as [|x a]; simpl in *; try discriminate; auto.
  apply andb_prop in H; destruct H; f_equal; auto.
Qed.
Lemma inbox_nonneg : forall sizes a c, inbox sizes a = true -> (0 <= nth c a 0)%Z.
Proof.
  induction sizes as [|s sizes IH]; intros a c H; destruct a as [|x a]; simpl in H; try discriminate; [destruct c; simpl; lia|].
  apply andb_prop in H; destruct H as [H H2]; apply andb_prop in H; destruct H as [H0 _].
  destruct c; simpl; [apply Z.leb_le; auto | eauto].
Qed.
Lemma box_sizes_length : forall r P Q m, length (box_sizes r P Q m) = r.
Proof. intros; unfold box_sizes; rewrite map_length, seq_length; auto. Qed.
Lemma nth_vsub : forall e s c, length e = length s -> nth c (vsub e s) 0%Z = (nth c e 0 - nth c s 0)%Z.
Proof. induction e; destruct s; destruct c; simpl; intros H; try discriminate; try lia; auto. Qed.
Lemma vsub_length : forall e s, length e = length s -> length (vsub e s) = length e.
Proof. induction e; destruct s; simpl; intros H; try discriminate; auto. Qed.
Lemma vadd_vsub : forall e s, length e = length s -> vadd (vsub e s) s = e.
Proof. induction e; destruct s; simpl; intros H; try discriminate; auto. f_equal; [lia | auto]. Qed.

Lemma minmax_low : forall c l lo hi, (fst (minmax c l lo hi) <= lo)%Z /\ forall e, In e l -> (fst (minmax c l lo hi) <= nth c e 0)%Z.
Proof.
  induction l as [|e l IH]; intros lo hi; simpl; [split; [lia | tauto]|].
  destruct (IH (Z.min lo (nth c e 0%Z)) (Z.max hi (nth c e 0%Z))) as [H1 H2]; split; [lia|].
  intros f [<-|Hf]; [lia | auto].
Qed.
Lemma lowest_le : forall c l e, In e l -> (lowest c l <= nth c e 0)%Z.
Proof.
  intros c l e H; destruct l as [|f l]; [destruct H|]; unfold lowest.
  destruct (minmax_low c l (nth c f 0%Z) (nth c f 0%Z)) as [H1 H2]; destruct H as [<-|H]; [lia | auto].
Qed.

Lemma layer_sound : forall r P Q m g c isout, admissible r P Q m g -> (forall e, isout e = true -> Dv g Q e = 0) ->
  (c < r)%nat -> forallb (fun t => Nat.eqb (length (fst t)) r) Q = true ->
  forallb isout (layer_points (box_sizes r P Q m) Q c) = true -> False.
Proof.
  intros r P Q m g c isout Hadm Hout Hc HQ H; pose proof Hadm as [Hbox [_ [_ [_ Hlayer]]]].
  destruct (Hlayer c Hc) as [e [Hlen [He HD]]].
  destruct (peval_nonzero_term _ _ HD) as [[s co] [Hs Hn]]; simpl in Hn.
  assert (Hg : g (vsub e s) <> 0) by (intro Z; rewrite Z in Hn; lra).
  apply Hbox in Hg. rewrite forallb_forall in HQ; specialize (HQ _ Hs); apply Nat.eqb_eq in HQ; simpl in HQ.
  assert (Hlow : (lowest c (map fst Q) <= nth c s 0)%Z) by (apply lowest_le; apply in_map_iff; exists (s, co); auto).
  pose proof (inbox_nonneg _ _ c Hg) as Ha. rewrite nth_vsub in Ha by lia.
  assert (Hin : In e (layer_points (box_sizes r P Q m) Q c)).
  { unfold layer_points; apply in_flat_map; exists (vsub e s); split.
    - apply filter_In; split; [apply box_points_In; auto|]. apply Z.eqb_eq; rewrite nth_vsub by lia; lia.
    - apply in_map_iff; exists (s, co); simpl; split; [apply vadd_vsub; lia|].
      apply filter_In; split; auto; simpl; apply Z.eqb_eq; lia. }
  rewrite forallb_forall in H; apply H, Hout in Hin; contradiction.
Qed.

(* The OUT rule is sound: IN ⊆ supp D with |IN| ≥ m, and supp D has at most m points, so supp D = IN. *)
Lemma out_sound : forall r P Q m g ins outs e, admissible r P Q m g -> NoDup ins ->
  (forall e, In e ins -> length e = r /\ 0 < Dv g Q e) -> (forall e, In e outs -> Dv g Q e = 0) ->
  is_out r m ins outs e = true -> Dv g Q e = 0.
Proof.
  intros r P Q m g ins outs e Hadm Hnd Hin Hout H; unfold is_out in H.
  apply orb_prop in H; destruct H as [H|H]; [apply Hout, mem_In; auto|].
  apply andb_prop in H; destruct H as [H Hni]; apply andb_prop in H; destruct H as [Hm Hr].
  apply Nat.leb_le in Hm; apply Nat.eqb_eq in Hr; apply negb_true_iff in Hni.
  destruct (Req_dec (Dv g Q e) 0) as [Z|Z]; auto. exfalso.
  pose proof Hadm as [_ [_ [_ [Hcount _]]]].
  assert (Hle : (length (e :: ins) <= m)%nat).
  { apply Hcount.
    - constructor; auto. intro Hi; apply In_mem in Hi; rewrite Hi in Hni; discriminate.
    - intros f [<-|Hf]; auto. specialize (Hin f Hf); split; [tauto | lra]. }
  simpl in Hle; lia.
Qed.

Theorem replay_sound : forall r P Q m mults t ins outs g, admissible r P Q m g ->
  forallb (cancels (box_sizes r P Q m) P Q) mults = true -> forallb (fun t => Nat.eqb (length (fst t)) r) Q = true ->
  replay r (box_sizes r P Q m) P Q m mults (map (layer_points (box_sizes r P Q m) Q) (seq 0 r)) t ins outs = true -> NoDup ins ->
  (forall e, In e ins -> length e = r /\ 0 < Dv g Q e) -> (forall e, In e outs -> Dv g Q e = 0) -> False.
Proof.
  intros r P Q m mults t; induction t as [e t1 IH1 t2 IH2 | | c | k]; intros ins outs g Hadm Hc HQ H Hnd Hin Hout; simpl in H.
  - apply andb_prop in H; destruct H as [H H4]; apply andb_prop in H; destruct H as [H H3]; apply andb_prop in H; destruct H as [H H2];
    apply andb_prop in H; destruct H as [H0 H1]; apply Nat.eqb_eq in H0.
    pose proof Hadm as [_ [Hpos _]]. destruct (Rle_lt_or_eq_dec 0 (Dv g Q e) (Hpos e)) as [Hp|Hz].
    + apply (IH2 (e :: ins) outs g Hadm Hc HQ H4); auto.
      * constructor; auto. intro Hi; apply In_mem in Hi; rewrite Hi in H1; discriminate.
      * intros f [<-|Hf]; auto.
    + apply (IH1 ins (e :: outs) g Hadm Hc HQ H3); auto. intros f [<-|Hf]; auto.
  - pose proof Hadm as [_ [_ [_ [Hcount _]]]]. apply Nat.ltb_lt in H.
    assert (length ins <= m)%nat by (apply Hcount; auto; intros e He; specialize (Hin e He); split; [tauto | lra]). lia.
  - apply andb_prop in H; destruct H as [H0 H2]; apply Nat.ltb_lt in H0.
    rewrite (nth_indep _ [] (layer_points (box_sizes r P Q m) Q 0%nat)) in H2 by (rewrite map_length, seq_length; auto).
    rewrite map_nth, seq_nth in H2 by auto; simpl in H2.
    exact (layer_sound r P Q m g c _ Hadm (fun e => out_sound r P Q m g ins outs e Hadm Hnd Hin Hout) H0 HQ H2).
  - apply andb_prop in H; destruct H as [H0 H]; apply Nat.ltb_lt in H0.
    rewrite forallb_forall in Hc; specialize (Hc (nth k mults []) (nth_In _ _ H0)).
    exact (farkas_sound r P Q m g _ _ ins Hadm (fun e He => proj2 (Hin e He)) (fun e => out_sound r P Q m g ins outs e Hadm Hnd Hin Hout) Hc H).
Qed.

(* A replayed tree leaves no admissible cofactor g. *)
Corollary refutation_sound : forall r P Q m mults t, replay_tree r P Q m mults t = true ->
  forall g, ~ admissible r P Q m g.
Proof.
  intros r P Q m mults t H g Hadm; unfold replay_tree in H; cbv zeta in H.
  apply andb_prop in H; destruct H as [H H3]; apply andb_prop in H; destruct H as [H1 H2].
  apply (replay_sound r P Q m mults t [] [] g Hadm H1 H2 H3); simpl; auto; [constructor | tauto | tauto].
Qed.
Close Scope R_scope.
