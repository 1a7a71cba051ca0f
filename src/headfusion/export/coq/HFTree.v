(* HFTree: the search question of docs/mathematics.md §5 ("no head with at most m atoms") as a
   property of a cofactor g on the box G, and a replay of refutation trees (split, count, layer,
   Farkas, image and interior leaves, with the kernel's OUT rule: once m points are IN, every other
   point is OUT) whose soundness is a theorem: a tree that replays leaves no
   admissible g.  Image leaves: a symmetry π (P'∘π = λP', Q'∘π = λQ', λ > 0, box kept) maps the sides
   of a node closed earlier in replay order (IN child first) into the leaf's, and g ↦ g∘π keeps
   admissibility with D ↦ λ⁻¹·D∘π (image_sound).  Interior leaves: a point IN that is a convex
   combination of other points IN, closed when Lemma LT's conclusion (no_interior) holds for every
   admissible g and m <= V: replay_sound takes that as a hypothesis, and HFTreeAxioms.LT_interior gives
   it.  Nothing here is assumed. *)
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
(* Keep t: t's node is the target of an image leaf; once t closes, its sides (IN, OUT) are recorded as a fact, in
   replay order (IN child first).  Image k s: the fact recorded k-th, mapped by symmetry s into this leaf's sides.
   Interior e C: e IN is the convex combination C (point, coefficient) of other points IN. *)
Inductive tree := Split (e : expo) (out_child in_child : tree) | Count | Layer (c : nat) | Farkas (k : nat)
                | Keep (t : tree) | Image (k s : nat) | Interior (e : expo) (C : list (expo * Q)).
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

(* ---- Image leaves: coordinate permutations with P'∘π = λP', Q'∘π = λQ' (λ > 0) that keep the box ---- *)
Definition has_coords (r : nat) (p : poly) : bool := forallb (fun t => Nat.eqb (length (fst t)) r) p.
(* π(e)_i = e_(perm_i), as the kernel's image(e). *)
Definition pmap (perm : list nat) (e : expo) : expo := map (fun i => nth i e 0%Z) perm.
Fixpoint index_of (j : nat) (l : list nat) : nat :=
  match l with [] => 0%nat | x :: l' => if Nat.eqb x j then 0%nat else S (index_of j l') end.
Definition inverse (perm : list nat) : list nat := map (fun j => index_of j perm) (seq 0 (length perm)).
(* The terms (π(s), λ·c) of p: p'∘π = λp' says that they normalise to p itself. *)
Definition scaled_image (perm : list nat) (lam : QArith_base.Q) (p : poly) : poly :=
  map (fun t => (pmap perm (fst t), (lam * snd t)%Q)) p.
(* A symmetry (perm, λ): perm permutes 0..r−1 (its inverse is computed and checked both ways), keeps the box sizes and
   Q''s lowest layers, λ > 0, and P'∘π = λP', Q'∘π = λQ' coefficient by coefficient. *)
Definition sym_ok (r : nat) (sizes : list Z) (P Q : poly) (s : list nat * QArith_base.Q) : bool :=
  let (perm, lam) := s in let sigma := inverse perm in
  Nat.eqb (length perm) r && qpos lam
  && forallb (fun i => Nat.ltb (nth i perm 0%nat) r && Nat.ltb (nth i sigma 0%nat) r
                       && Nat.eqb (nth (nth i sigma 0%nat) perm 0%nat) i && Nat.eqb (nth (nth i perm 0%nat) sigma 0%nat) i
                       && Z.eqb (nth (nth i perm 0%nat) sizes 0%Z) (nth i sizes 0%Z)
                       && Z.eqb (lowest (nth i perm 0%nat) (map fst Q)) (lowest i (map fst Q))) (seq 0 r)
  && has_coords r P && has_coords r Q && peqb (scaled_image perm lam P) P && peqb (scaled_image perm lam Q) Q.
(* A fact: the sides (IN, OUT) of a closed node; an image leaf's sides contain its image under π. *)
Definition fact := (list expo * list expo)%type.
Definition image_ok (perm : list nat) (f : fact) (ins outs : list expo) : bool :=
  forallb (fun e => mem (pmap perm e) ins) (fst f) && forallb (fun e => mem (pmap perm e) outs) (snd f).

(* ---- Interior leaves: e IN a convex combination of other points IN ---- *)
Definition csum (C : list (expo * QArith_base.Q)) : QArith_base.Q := fold_right (fun fc acc => (snd fc + acc)%Q) 0%Q C.
Definition ccoord (C : list (expo * QArith_base.Q)) (i : nat) : QArith_base.Q :=
  fold_right (fun fc acc => (snd fc * inject_Z (nth i (fst fc) 0%Z) + acc)%Q) 0%Q C.
(* e = Σ c_j·f_j with c_j ≥ 0 and Σ c_j = 1 (coordinate by coordinate). *)
Definition convex (e : expo) (C : list (expo * QArith_base.Q)) : Prop :=
  Forall (fun fc => (0 <= snd fc)%Q) C /\ (csum C == 1)%Q /\ forall i, (ccoord C i == inject_Z (nth i e 0%Z))%Q.
(* Lemma LT's first half for g: no point of supp D (D = g·Q', r coordinates) is a convex combination of other points
   of supp D.  HFTreeAxioms.LT_interior gives it when |supp D| <= V <= #vertices of Newt(Q'). *)
Definition no_interior (r : nat) (Q : poly) (g : expo -> R) : Prop :=
  forall e C, length e = r -> Dv g Q e <> 0 ->
  Forall (fun fc => length (fst fc) = r /\ Dv g Q (fst fc) <> 0 /\ fst fc <> e) C -> convex e C -> False.
Definition interior_ok (r : nat) (ins : list expo) (e : expo) (C : list (expo * QArith_base.Q)) : bool :=
  mem e ins && forallb (fun fc => mem (fst fc) ins && negb (expo_eqb (fst fc) e) && Qle_bool 0 (snd fc)) C
  && Qeq_bool (csum C) 1 && forallb (fun i => Qeq_bool (ccoord C i) (inject_Z (nth i e 0%Z))) (seq 0 r).

(* ---- The replay ---- *)
(* lps: the points of E on each lowest layer (layer_points, computed once: see replay_tree).  facts: the facts of the
   Keep nodes closed so far, newest first.  V: the checked vertex count of Newt(Q') (interior leaves need m <= V). *)
Fixpoint replay (r : nat) (sizes : list Z) (P Q : poly) (m V : nat) (mults : list mvec) (syms : list (list nat * QArith_base.Q))
         (lps : list (list expo)) (t : tree) (ins outs : list expo) (facts : list fact) : option (list fact) :=
  match t with
  | Split e t_out t_in =>
      if Nat.eqb (length e) r && negb (mem e ins) && negb (mem e outs) then
        match replay r sizes P Q m V mults syms lps t_in (e :: ins) outs facts with
        | Some f => replay r sizes P Q m V mults syms lps t_out ins (e :: outs) f
        | None => None
        end
      else None
  | Keep t' => match replay r sizes P Q m V mults syms lps t' ins outs facts with Some f => Some ((ins, outs) :: f) | None => None end
  | Count => if Nat.ltb m (length ins) then Some facts else None
  | Layer c => if Nat.ltb c r && forallb (is_out r m ins outs) (nth c lps []) then Some facts else None
  | Farkas k => if Nat.ltb k (length mults) && farkas_ok sizes P Q (nth k mults []) (is_out r m ins outs) ins then Some facts else None
  | Image k s => if Nat.ltb k (length facts) && Nat.ltb s (length syms)
                    && image_ok (fst (nth s syms ([], 0%Q))) (nth (length facts - S k) facts ([], [])) ins outs
                 then Some facts else None
  | Interior e C => if Nat.leb m V && interior_ok r ins e C then Some facts else None
  end.

(* The whole check: every vector cancels, Q' has r coordinates, every symmetry is one, and the tree replays from the root. *)
Definition replay_tree (r : nat) (P Q : poly) (m V : nat) (mults : list mvec) (syms : list (list nat * QArith_base.Q)) (t : tree) : bool :=
  let sizes := box_sizes r P Q m in
  forallb (cancels sizes P Q) mults && has_coords r Q && forallb (sym_ok r sizes P Q) syms
  && match replay r sizes P Q m V mults syms (map (layer_points sizes Q) (seq 0 r)) t [] [] [] with Some _ => true | None => false end.

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

(* ---- Soundness of image leaves: g ↦ g∘π maps admissible cofactors to admissible ones, with D ↦ λ⁻¹·D∘π ---- *)
Definition gperm (r : nat) (perm : list nat) (g : expo -> R) (a : expo) : R := if Nat.eqb (length a) r then g (pmap perm a) else 0.

Lemma nth_opp : forall l c, nth c (map Z.opp l) 0%Z = (- nth c l 0)%Z.
Proof. induction l as [|x l IH]; destruct c; simpl; auto. Qed.
Lemma nth_vsub_all : forall e s c, nth c (vsub e s) 0%Z = (nth c e 0 - nth c s 0)%Z.
Proof.
  induction e as [|a e IH]; destruct s as [|b s]; intros c.
  - destruct c; reflexivity.
  - change (vsub [] (b :: s)) with (map Z.opp (b :: s)); rewrite nth_opp; destruct c; simpl; lia.
  - destruct c; simpl; [lia | destruct (nth c e 0%Z); reflexivity].
  - destruct c; simpl; auto.
Qed.
Lemma vsub_length_max : forall e s, length (vsub e s) = Nat.max (length e) (length s).
Proof. induction e as [|a e IH]; destruct s as [|b s]; simpl; auto; rewrite ?map_length; auto. Qed.
Lemma pmap_vsub : forall perm x y, pmap perm (vsub x y) = vsub (pmap perm x) (pmap perm y).
Proof. intros perm x y; unfold pmap; induction perm as [|i perm IH]; simpl; auto. rewrite nth_vsub_all, IH; auto. Qed.
Lemma pmap_length : forall perm e, length (pmap perm e) = length perm.
Proof. intros; unfold pmap; apply map_length. Qed.
Lemma nth_map_lt : forall (f : nat -> Z) l i, (i < length l)%nat -> nth i (map f l) 0%Z = f (nth i l 0%nat).
Proof. intros f l i H; rewrite nth_indep with (d' := f 0%nat) by (rewrite map_length; auto); apply map_nth. Qed.

Lemma peval_ext_in : forall v w p, (forall t, In t p -> v (fst t) = w (fst t)) -> peval v p = peval w p.
Proof.
  intros v w p; induction p as [|[e c] p IH]; simpl; intros H; auto.
  rewrite (H (e, c) (or_introl eq_refl) : v e = w e), IH; auto.
Qed.

Lemma sym_eval : forall perm lam p v, peqb (scaled_image perm lam p) p = true ->
  Q2R lam * peval (fun s => v (pmap perm s)) p = peval v p.
Proof.
  intros perm lam p v H; rewrite <- (peqb_eval v _ _ H); unfold scaled_image; clear H.
  induction p as [|[s c] p IH]; simpl; [lra|]. rewrite Q2R_mult, <- IH; lra.
Qed.

Lemma sym_Dv : forall r perm lam g p e, has_coords r p = true -> peqb (scaled_image perm lam p) p = true ->
  (length e <= r)%nat -> Q2R lam * Dv (gperm r perm g) p e = Dv g p (pmap perm e).
Proof.
  intros r perm lam g p e Hp Hs Hl; unfold Dv.
  rewrite (peval_ext_in _ (fun s => g (vsub (pmap perm e) (pmap perm s))) p).
  - exact (sym_eval perm lam p (fun s => g (vsub (pmap perm e) s)) Hs).
  - intros [s c] Hin; unfold has_coords in Hp; rewrite forallb_forall in Hp; specialize (Hp _ Hin); apply Nat.eqb_eq in Hp; simpl in *.
    unfold gperm; rewrite vsub_length_max, Hp, Nat.max_r by auto. rewrite Nat.eqb_refl, pmap_vsub; auto.
Qed.
Lemma sym_Dv_long : forall r perm g p e, (r < length e)%nat -> Dv (gperm r perm g) p e = 0.
Proof.
  intros r perm g p e Hl; unfold Dv; apply peval_zero_terms; intros t _; unfold gperm.
  destruct (Nat.eqb_spec (length (vsub e (fst t))) r) as [E|E]; auto. rewrite vsub_length_max in E; lia.
Qed.

Lemma inbox_nth : forall sizes a, inbox sizes a = true <->
  length a = length sizes /\ forall i, (i < length sizes)%nat -> (0 <= nth i a 0 <= nth i sizes 0)%Z.
Proof.
  induction sizes as [|s sizes IH]; destruct a as [|x a]; simpl; split; intro H; auto.
  - split; auto; intros; lia.
  - discriminate.
  - destruct H; discriminate.
  - discriminate.
  - destruct H; discriminate.
  - apply andb_prop in H; destruct H as [H H2]; apply andb_prop in H; destruct H as [H0 H1].
    apply Z.leb_le in H0; apply Z.leb_le in H1; apply IH in H2; destruct H2 as [H2 H3]; split; [auto|].
    intros [|i] Hi; simpl; [lia | apply H3; lia].
  - destruct H as [Hl Hb]; injection Hl; intro Hl'.
    pose proof (Hb 0%nat ltac:(lia)) as H0; simpl in H0.
    apply andb_true_intro; split; [apply andb_true_intro; split; apply Z.leb_le; lia|].
    apply IH; split; auto. intros i Hi; exact (Hb (S i) ltac:(lia)).
Qed.

Lemma NoDup_map_on : forall (f : expo -> expo) l, NoDup l -> (forall x y, In x l -> In y l -> f x = f y -> x = y) -> NoDup (map f l).
Proof.
  intros f l H; induction H as [|x l Hx Hl IH]; intros Hi; simpl; constructor.
  - intro Hm; apply in_map_iff in Hm; destruct Hm as [y [Hy Hin]].
    assert (y = x) by (apply Hi; simpl; auto); subst; contradiction.
  - apply IH; intros a b Ha Hb; apply Hi; simpl; auto.
Qed.

Section Symmetry.
Variables (r : nat) (P Q : poly) (m : nat) (perm : list nat) (lam : QArith_base.Q).
Hypothesis Hsym : sym_ok r (box_sizes r P Q m) P Q (perm, lam) = true.

Let sigma := inverse perm.
Lemma sym_parts : length perm = r /\ 0 < Q2R lam /\ has_coords r P = true /\ has_coords r Q = true
  /\ peqb (scaled_image perm lam P) P = true /\ peqb (scaled_image perm lam Q) Q = true /\ length sigma = r
  /\ forall i, (i < r)%nat -> (nth i perm 0%nat < r)%nat /\ (nth i sigma 0%nat < r)%nat /\ nth (nth i sigma 0%nat) perm 0%nat = i
     /\ nth (nth i perm 0%nat) sigma 0%nat = i /\ nth (nth i perm 0%nat) (box_sizes r P Q m) 0%Z = nth i (box_sizes r P Q m) 0%Z
     /\ lowest (nth i perm 0%nat) (map fst Q) = lowest i (map fst Q).
Proof.
  pose proof Hsym as H; unfold sym_ok in H; fold sigma in H.
  repeat match type of H with (_ && _)%bool = true => apply andb_prop in H; destruct H as [H ?] end.
  apply Nat.eqb_eq in H.
  assert (length sigma = r) by (unfold sigma, inverse; rewrite map_length, seq_length; auto).
  do 7 (split; [first [assumption | apply qpos_R; assumption] |]).
  intros i Hi.
  match goal with Hf : forallb _ (seq 0 r) = true |- _ =>
    rewrite forallb_forall in Hf; specialize (Hf i (proj2 (in_seq r 0 i) ltac:(lia))) end.
  repeat match goal with Hf : (_ && _)%bool = true |- _ => apply andb_prop in Hf; destruct Hf end.
  repeat split; first [apply Nat.ltb_lt | apply Nat.eqb_eq | apply Z.eqb_eq]; assumption.
Qed.

Lemma pmap_sigma_perm : forall e, length e = r -> pmap sigma (pmap perm e) = e /\ pmap perm (pmap sigma e) = e.
Proof.
  destruct sym_parts as [Hl [_ [_ [_ [_ [_ [Hs Hi]]]]]]]; intros e He; split; apply nth_ext with (d := 0%Z) (d' := 0%Z);
    rewrite ?pmap_length; try lia; intros i Hr; unfold pmap at 1; rewrite nth_map_lt by lia;
    destruct (Hi i ltac:(lia)) as [H1 [H2 [H3 [H4 _]]]]; unfold pmap; rewrite nth_map_lt by lia; congruence.
Qed.

Lemma sym_admissible : forall g, admissible r P Q m g -> admissible r P Q m (gperm r perm g).
Proof.
  destruct sym_parts as [Hl [Hlam [HP [HQ [HsP [HsQ [Hs Hi]]]]]]].
  intros g [Hbox [Hpos [Hsub [Hcount Hlayer]]]].
  assert (HD : forall p e, has_coords r p = true -> peqb (scaled_image perm lam p) p = true -> (length e <= r)%nat ->
                 Dv (gperm r perm g) p e = / Q2R lam * Dv g p (pmap perm e)).
  { intros p e H1 H2 H3; rewrite <- (sym_Dv r perm lam g p e H1 H2 H3); field; lra. }
  assert (Hinv : 0 < / Q2R lam) by (apply Rinv_0_lt_compat; auto).
  repeat split.
  - intros a Ha; unfold gperm in Ha; destruct (Nat.eqb_spec (length a) r) as [Ea|Ea]; [|lra].
    apply Hbox, inbox_nth in Ha; destruct Ha as [Ha1 Ha2]; rewrite box_sizes_length in *.
    apply inbox_nth; rewrite box_sizes_length; split; [auto|]; intros j Hj.
    destruct (Hi j Hj) as [_ [Hsj [Hps _]]]; destruct (Hi (nth j sigma 0%nat) Hsj) as [_ [_ [_ [_ [Hsz _]]]]].
    specialize (Ha2 _ Hsj); unfold pmap in Ha2; rewrite nth_map_lt in Ha2 by lia. rewrite Hps in Ha2, Hsz; lia.
  - intros e; destruct (Nat.le_gt_cases (length e) r) as [Le|Gt].
    + rewrite (HD Q e HQ HsQ Le); pose proof (Hpos (pmap perm e)); nra.
    + rewrite sym_Dv_long by auto; lra.
  - intros e Hz; destruct (Nat.le_gt_cases (length e) r) as [Le|Gt].
    + rewrite (HD Q e HQ HsQ Le) in Hz; rewrite (HD P e HP HsP Le), (Hsub (pmap perm e)); [lra|].
      destruct (Rmult_integral _ _ Hz) as [Z1|Z1]; [pose proof (Rinv_neq_0_compat (Q2R lam)); lra | auto].
    + apply sym_Dv_long; auto.
  - intros l Hnd Hin.
    rewrite <- (map_length (pmap perm)); apply Hcount.
    + apply NoDup_map_on; auto. intros x y Hx Hy E.
      rewrite <- (proj1 (pmap_sigma_perm x (proj1 (Hin x Hx)))), <- (proj1 (pmap_sigma_perm y (proj1 (Hin y Hy)))), E; auto.
    + intros f Hf; apply in_map_iff in Hf; destruct Hf as [e [<- He]]; destruct (Hin e He) as [Le Hn].
      rewrite pmap_length; split; auto. rewrite (HD Q e HQ HsQ ltac:(lia)) in Hn; intro Hz; rewrite Hz in Hn; lra.
  - intros c Hc; destruct (Hi c Hc) as [_ [Hsc [Hps _]]]; destruct (Hi (nth c sigma 0%nat) Hsc) as [_ [_ [_ [_ [_ Hlow]]]]].
    destruct (Hlayer _ Hsc) as [e' [He' [Hn' HD']]]; exists (pmap sigma e').
    destruct (pmap_sigma_perm e' He') as [_ Hpp]; rewrite pmap_length; split; [auto|split].
    + unfold pmap; rewrite nth_map_lt by lia. rewrite Hn', <- Hlow, Hps; auto.
    + rewrite (HD Q (pmap sigma e') HQ HsQ ltac:(rewrite pmap_length; lia)), Hpp. intro Hz; apply Rmult_integral in Hz; destruct Hz as [Hz|Hz]; [lra | auto].
Qed.

Lemma sym_Dv_Q : forall g e, (length e <= r)%nat -> Dv (gperm r perm g) Q e = / Q2R lam * Dv g Q (pmap perm e).
Proof.
  destruct sym_parts as [_ [Hlam [_ [HQ [_ [HsQ _]]]]]]; intros g e Le.
  rewrite <- (sym_Dv r perm lam g Q e HQ HsQ Le); field; lra.
Qed.
End Symmetry.

(* The sides (IN, OUT) of a node are closed when no admissible g has D > 0 on IN and D = 0 on OUT. *)
Definition closed (r : nat) (P Q : poly) (m : nat) (ins outs : list expo) : Prop :=
  forall g, admissible r P Q m g -> (forall e, In e ins -> 0 < Dv g Q e) -> (forall e, In e outs -> Dv g Q e = 0) -> False.
Definition fact_ok (r : nat) (P Q : poly) (m : nat) (f : fact) : Prop := (forall e, In e (fst f) -> length e = r) /\ closed r P Q m (fst f) (snd f).

(* An image leaf closes: g here gives g∘π, admissible, with D > 0 on π⁻¹(IN) ⊇ IN_k and D = 0 on π⁻¹(OUT) ⊇ OUT_k. *)
Lemma image_sound : forall r P Q m perm lam f ins outs, sym_ok r (box_sizes r P Q m) P Q (perm, lam) = true ->
  fact_ok r P Q m f -> image_ok perm f ins outs = true -> closed r P Q m ins outs.
Proof.
  intros r P Q m perm lam [ins_k outs_k] ins outs Hs [Hlen Hk] H g Hadm Hin Hout; simpl in *.
  apply andb_prop in H; destruct H as [H1 H2]; rewrite forallb_forall in H1, H2.
  destruct (sym_parts r P Q m perm lam Hs) as [_ [Hlam _]]; pose proof (Rinv_0_lt_compat _ Hlam).
  apply (Hk (gperm r perm g) (sym_admissible r P Q m perm lam Hs g Hadm)).
  - intros e He; rewrite (sym_Dv_Q r P Q m perm lam Hs g e ltac:(rewrite (Hlen e He); lia)).
    pose proof (Hin _ (mem_In _ _ (H1 e He))); nra.
  - intros e He; destruct (Nat.le_gt_cases (length e) r) as [Le|Gt].
    + rewrite (sym_Dv_Q r P Q m perm lam Hs g e Le), (Hout _ (mem_In _ _ (H2 e He))); lra.
    + apply sym_Dv_long; auto.
Qed.

Lemma ccoord_zero : forall C i, Forall (fun fc => (length (fst fc) <= i)%nat) C -> (ccoord C i == 0)%Q.
Proof.
  induction C as [|[f c] C IH]; intros i H; simpl; [reflexivity|]. inversion H; subst.
  rewrite nth_overflow by auto. rewrite (IH i ltac:(auto)). ring.
Qed.

(* An interior leaf closes when LT's conclusion holds for g. *)
Lemma interior_sound : forall r Q g ins e C, interior_ok r ins e C = true -> (forall f, In f ins -> length f = r) ->
  (forall f, In f ins -> 0 < Dv g Q f) -> no_interior r Q g -> False.
Proof.
  intros r Q g ins e C H Hlen Hin Hno; unfold interior_ok in H.
  repeat match type of H with (_ && _)%bool = true => apply andb_prop in H; destruct H as [H ?] end.
  rename H into He; apply mem_In in He.
  match goal with Hc : forallb _ C = true |- _ => rename Hc into HC; rewrite forallb_forall in HC end.
  match goal with Hs : Qeq_bool (csum C) 1 = true |- _ => rename Hs into Hsum; apply Qeq_bool_eq in Hsum end.
  match goal with Hy : forallb _ (seq 0 r) = true |- _ => rename Hy into Hx; rewrite forallb_forall in Hx end.
  assert (Hf : forall fc, In fc C -> In (fst fc) ins /\ fst fc <> e /\ (0 <= snd fc)%Q).
  { intros fc Hfc; specialize (HC fc Hfc); repeat (apply andb_prop in HC; destruct HC as [HC ?]).
    split; [apply mem_In; auto | split; [|apply Qle_bool_iff; auto]].
    intro E; rewrite E, expo_eqb_refl in *; discriminate. }
  apply (Hno e C (Hlen e He)); [apply Rgt_not_eq, Hin; auto | | split; [|split; [auto|]]].
  - apply Forall_forall; intros fc Hfc; destruct (Hf fc Hfc) as [Hi [Hne _]]; split; [apply Hlen; auto | split; [|auto]].
    apply Rgt_not_eq, Hin; auto.
  - apply Forall_forall; intros fc Hfc; apply (Hf fc Hfc).
  - intros i; destruct (Nat.lt_ge_cases i r) as [Lt|Ge].
    + apply Qeq_bool_eq, Hx, in_seq; lia.
    + rewrite (nth_overflow e) by (rewrite (Hlen e He); lia). rewrite ccoord_zero; [reflexivity|].
      apply Forall_forall; intros fc Hfc; pose proof (Hlen _ (proj1 (Hf fc Hfc))); destruct fc; simpl in *; lia.
Qed.

Theorem replay_sound : forall r P Q m V mults syms,
  ((m <= V)%nat -> forall g, admissible r P Q m g -> no_interior r Q g) ->
  forallb (cancels (box_sizes r P Q m) P Q) mults = true -> has_coords r Q = true ->
  forallb (sym_ok r (box_sizes r P Q m) P Q) syms = true ->
  forall t ins outs facts facts',
  replay r (box_sizes r P Q m) P Q m V mults syms (map (layer_points (box_sizes r P Q m) Q) (seq 0 r)) t ins outs facts = Some facts' ->
  NoDup ins -> (forall e, In e ins -> length e = r) -> Forall (fact_ok r P Q m) facts ->
  Forall (fact_ok r P Q m) facts' /\ closed r P Q m ins outs.
Proof.
  intros r P Q m V mults syms HLT Hc HQ Hsyms t.
  induction t as [e t1 IH1 t2 IH2 | | c | k | t IH | k s | e C]; intros ins outs facts facts' H Hnd Hlen Hf; simpl in H.
  - destruct (Nat.eqb (length e) r && negb (mem e ins) && negb (mem e outs))%bool eqn:Hok; [|discriminate].
    apply andb_prop in Hok; destruct Hok as [Hok H2]; apply andb_prop in Hok; destruct Hok as [H0 H1]; apply Nat.eqb_eq in H0.
    destruct (replay _ _ _ _ _ _ _ _ _ t2 (e :: ins) outs facts) as [f1|] eqn:Hr2; [|discriminate].
    assert (Hnd' : NoDup (e :: ins)) by (constructor; auto; intro Hi; apply In_mem in Hi; rewrite Hi in H1; discriminate).
    destruct (IH2 (e :: ins) outs facts f1 Hr2 Hnd' ltac:(intros f [<-|Hi]; auto) Hf) as [Hf1 Hcl2].
    destruct (IH1 ins (e :: outs) f1 facts' H Hnd Hlen Hf1) as [Hf2 Hcl1].
    split; auto; intros g Hadm Hin Hout.
    pose proof Hadm as [_ [Hpos _]]. destruct (Rle_lt_or_eq_dec 0 (Dv g Q e) (Hpos e)) as [Hp|Hz].
    + apply (Hcl2 g Hadm); auto. intros f [<-|Hi]; auto.
    + apply (Hcl1 g Hadm); auto. intros f [<-|Hi]; auto.
  - destruct (Nat.ltb m (length ins)) eqn:H0; [|discriminate]. injection H; intros <-; split; auto.
    intros g Hadm Hin _; pose proof Hadm as [_ [_ [_ [Hcount _]]]]; apply Nat.ltb_lt in H0.
    assert (length ins <= m)%nat by (apply Hcount; auto; intros e He; specialize (Hin e He); split; [auto | lra]). lia.
  - destruct (Nat.ltb c r && _)%bool eqn:H0; [|discriminate]. injection H; intros <-; split; auto.
    apply andb_prop in H0; destruct H0 as [H0 H2]; apply Nat.ltb_lt in H0.
    rewrite (nth_indep _ [] (layer_points (box_sizes r P Q m) Q 0%nat)) in H2 by (rewrite map_length, seq_length; auto).
    rewrite map_nth, seq_nth in H2 by auto; simpl in H2.
    intros g Hadm Hin Hout.
    exact (layer_sound r P Q m g c _ Hadm (fun e => out_sound r P Q m g ins outs e Hadm Hnd (fun e He => conj (Hlen e He) (Hin e He)) Hout) H0 HQ H2).
  - destruct (Nat.ltb k (length mults) && _)%bool eqn:H0; [|discriminate]. injection H; intros <-; split; auto.
    apply andb_prop in H0; destruct H0 as [H0 H2]; apply Nat.ltb_lt in H0.
    rewrite forallb_forall in Hc; specialize (Hc (nth k mults []) (nth_In _ _ H0)).
    intros g Hadm Hin Hout.
    exact (farkas_sound r P Q m g _ _ ins Hadm Hin (fun e => out_sound r P Q m g ins outs e Hadm Hnd (fun e He => conj (Hlen e He) (Hin e He)) Hout) Hc H2).
  - destruct (replay _ _ _ _ _ _ _ _ _ t ins outs facts) as [f1|] eqn:Hr; [|discriminate].
    injection H; intros <-. destruct (IH ins outs facts f1 Hr Hnd Hlen Hf) as [Hf1 Hcl].
    split; auto. constructor; auto. split; auto.
  - destruct (Nat.ltb k (length facts) && Nat.ltb s (length syms) && _)%bool eqn:H0; [|discriminate]. injection H; intros <-; split; auto.
    apply andb_prop in H0; destruct H0 as [H0 H2]; apply andb_prop in H0; destruct H0 as [H0 H1]; apply Nat.ltb_lt in H0, H1.
    rewrite forallb_forall in Hsyms; specialize (Hsyms _ (nth_In syms ([], 0%Q) H1)).
    destruct (nth s syms ([], 0%Q)) as [perm lam]; simpl in H2.
    rewrite Forall_forall in Hf; apply (image_sound r P Q m perm lam _ ins outs Hsyms (Hf _ (@nth_In _ (length facts - S k) facts ([], []) ltac:(lia))) H2).
  - destruct (Nat.leb m V && interior_ok r ins e C)%bool eqn:H0; [|discriminate]. injection H; intros <-; split; auto.
    apply andb_prop in H0; destruct H0 as [H0 H1]; apply Nat.leb_le in H0.
    intros g Hadm Hin _; exact (interior_sound r Q g ins e C H1 Hlen Hin (HLT H0 g Hadm)).
Qed.

(* A replayed tree leaves no admissible cofactor g (given LT's conclusion for admissible g when m <= V). *)
Corollary refutation_sound : forall r P Q m V mults syms t, replay_tree r P Q m V mults syms t = true ->
  ((m <= V)%nat -> forall g, admissible r P Q m g -> no_interior r Q g) -> forall g, ~ admissible r P Q m g.
Proof.
  intros r P Q m V mults syms t H HLT g Hadm; unfold replay_tree in H; cbv zeta in H.
  repeat match type of H with (_ && _)%bool = true => apply andb_prop in H; destruct H as [H ?] end.
  match goal with Hr : match ?x with Some _ => true | None => false end = true |- _ => destruct x as [f|] eqn:Hrep; [|discriminate] end.
  destruct (replay_sound r P Q m V mults syms HLT H ltac:(assumption) ltac:(assumption) t [] [] [] f Hrep) as [_ Hcl];
    [constructor | simpl; tauto | constructor |].
  apply (Hcl g Hadm); simpl; tauto.
Qed.

(* With V = 0 no interior leaf is accepted for m >= 1, and for m = 0 no admissible g has a point in supp D at all. *)
Lemma no_interior_0 : forall r P Q m, (m <= 0)%nat -> forall g, admissible r P Q m g -> no_interior r Q g.
Proof.
  intros r P Q m Hm g [_ [_ [_ [Hcount _]]]] e C He Hn _ _.
  assert (length [e] <= m)%nat by (apply Hcount; [constructor; [auto | constructor] | intros f [<-|[]]; auto]). simpl in *; lia.
Qed.
Close Scope R_scope.
