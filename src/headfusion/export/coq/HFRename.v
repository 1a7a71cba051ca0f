(* HFRename: a softmax head is unchanged by permuting its atoms and by translating all its keys by one vector (the
   factor e^<t,q> cancels in N/D); a head whose keys are all equal is a constant; and the coordinates pi of R^n:
   restricting keys to them (restrict) and embedding R^n' into R^n with zeros elsewhere (rembed).  The lemmas behind
   HFGraphs.LD_rename, proved here; nothing is assumed. *)
From Coq Require Import List Bool Arith Lia Permutation Reals Lra.
From HF Require Import HFSem HFUpper HFAxioms.
Import ListNotations.
Open Scope R_scope.

Lemma nat_distinct_NoDup : forall l, nat_distinct l = true -> NoDup l.
Proof.
  induction l as [|x r IH]; simpl; intro H; [constructor|].
  apply andb_prop in H; destruct H as [H1 H2]; apply negb_true_iff in H1. constructor; [|exact (IH H2)].
  intro Hi. assert (existsb (Nat.eqb x) r = true) by (apply existsb_exists; exists x; split; [exact Hi | apply Nat.eqb_refl]).
  congruence.
Qed.

(* ---- Sums and lists ---- *)
Lemma sumR_perm : forall l l', Permutation l l' -> sumR l = sumR l'.
Proof. intros l l' H; induction H; simpl; lra. Qed.
Lemma sumR_filter : forall {A} (b : A -> bool) (t : A -> R) s,
  sumR (map t s) = sumR (map t (filter b s)) + sumR (map t (filter (fun i => negb (b i)) s)).
Proof. intros A b t s; induction s as [|a s IH]; simpl; [lra|]. destruct (b a); simpl; lra. Qed.
Lemma map_nth_seq_self : forall {A} (l : list A) d, map (fun i => nth i l d) (seq 0 (length l)) = l.
Proof.
  intros A l d; induction l as [|a l IH]; [reflexivity|]. simpl; f_equal.
  rewrite <- seq_shift, map_map; exact IH.
Qed.

Lemma Forall2_combine : forall {A B} (R : A * B -> bool) l l', length l = length l' ->
  forallb R (combine l l') = true -> Forall2 (fun a b => R (a, b) = true) l l'.
Proof.
  intros A B R l; induction l as [|a l IH]; intros l' Hl H; destruct l' as [|b l']; try discriminate; constructor;
  simpl in H; apply andb_prop in H; destruct H as [H1 H2]; [exact H1 | apply IH; [simpl in Hl; lia | exact H2]].
Qed.
Lemma Forall2_map_both : forall {A B C D} (f : A -> C) (g : B -> D) (P : C -> D -> Prop) l l',
  Forall2 (fun a b => P (f a) (g b)) l l' -> Forall2 P (map f l) (map g l').
Proof. intros A B C D f g P l l' H; induction H; constructor; auto. Qed.
Lemma Forall2_strengthen : forall {A B} (P : A -> Prop) (R S : A -> B -> Prop) l l',
  (forall a b, P a -> R a b -> S a b) -> Forall P l -> Forall2 R l l' -> Forall2 S l l'.
Proof. intros A B P R S l l' H HP HR; induction HR; inversion HP; subst; constructor; auto. Qed.

(* ---- Heads: permuting atoms, translating keys, equal keys ---- *)
Lemma hnum_sum : forall h q, hnum h q = sumR (map (fun a => wx q a * value a) h).
Proof. induction h as [|a h IH]; intro q; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.
Lemma hden_sum : forall h q, hden h q = sumR (map (wx q) h).
Proof. induction h as [|a h IH]; intro q; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.
(* The order of the atoms does not matter. *)
Lemma head_eval_perm : forall h h' q, Permutation h h' -> head_eval h q = head_eval h' q.
Proof.
  intros h h' q H; unfold head_eval; rewrite !hnum_sum, !hden_sum.
  rewrite (sumR_perm _ _ (Permutation_map (fun a => wx q a * value a) H)), (sumR_perm _ _ (Permutation_map (wx q) H)).
  reflexivity.
Qed.
(* Atoms with equal weights and values whose exponents <k_i, q> and <k'_i, q'> differ by one T: equal heads. *)
Lemma head_eval_shift : forall h h' q q' T,
  Forall2 (fun a b => weight a = weight b /\ value a = value b /\ rdot (key a) q = T + rdot (key b) q') h h' ->
  head_eval h q = head_eval h' q'.
Proof.
  intros h h' q q' T H.
  assert (E : hnum h q = exp T * hnum h' q' /\ hden h q = exp T * hden h' q').
  { induction H as [|a b h h' [Hw [Hv Hk]] _ [IHn IHd]]; simpl; [lra|].
    unfold wx; rewrite Hw, Hv, Hk, exp_plus, IHn, IHd; split; ring. }
  destruct E as [En Ed]; unfold head_eval, Rdiv; rewrite En, Ed, Rinv_mult.
  replace (exp T * hnum h' q' * (/ exp T * / hden h' q')) with (exp T * / exp T * (hnum h' q' * / hden h' q')) by ring.
  pose proof (exp_pos T); rewrite Rinv_r by lra; ring.
Qed.
(* A head whose keys all give the exponent of a0 (at q and at q'): the same value at q and q'. *)
Lemma head_eval_const_keys : forall (h : list atom) (k0 : list R) q q',
  (forall a, In a h -> rdot (key a) q = rdot k0 q /\ rdot (key a) q' = rdot k0 q') -> head_eval h q = head_eval h q'.
Proof.
  intros h k0 q q' H; apply (head_eval_shift _ _ _ _ (rdot k0 q - rdot k0 q')).
  induction h as [|a h IH]; constructor.
  - destruct (H a (or_introl eq_refl)) as [H1 H2]; repeat split; lra.
  - apply IH; intros b Hb; apply H; right; exact Hb.
Qed.

(* ---- Coordinates: restrict to pi, embed along pi ---- *)
Definition rlookup (pi : list nat) (y : list R) (i : nat) : R :=
  fold_right (fun pg acc => if Nat.eqb (fst pg) i then snd pg else acc) 0 (combine pi y).
(* rembed n pi y: the vector of R^n with y_j at coordinate pi_j and 0 elsewhere. *)
Definition rembed (n : nat) (pi : list nat) (y : list R) : list R := map (rlookup pi y) (seq 0 n).
(* restrict pi x = (x_(pi_j))_j. *)
Definition restrict (pi : list nat) (x : list R) : list R := map (fun j => nth j x 0) pi.

Lemma rlookup_notin : forall pi y i, ~ In i pi -> rlookup pi y i = 0.
Proof.
  induction pi as [|p pi IH]; intros y i H; destruct y as [|y0 y]; try reflexivity.
  unfold rlookup; simpl. destruct (Nat.eqb_spec p i) as [E|E]; [subst; exfalso; apply H; left; reflexivity|].
  apply IH; intro Hi; apply H; right; exact Hi.
Qed.
Lemma rlookup_cons : forall p pi y0 y i, ~ In p pi ->
  rlookup (p :: pi) (y0 :: y) i = (if Nat.eqb p i then y0 else 0) + rlookup pi y i.
Proof.
  intros p pi y0 y i H. unfold rlookup at 1; simpl. fold (rlookup pi y i).
  destruct (Nat.eqb_spec p i) as [E|E]; [subst; rewrite (rlookup_notin _ _ _ H); lra | lra].
Qed.
Lemma rdot_comm : forall a b, rdot a b = rdot b a.
Proof. induction a as [|x a IH]; intro b; destruct b as [|y b]; simpl; try reflexivity. rewrite IH; ring. Qed.
Lemma rdot_map_plus : forall (f g : nat -> R) s x, rdot (map (fun i => f i + g i) s) x = rdot (map f s) x + rdot (map g s) x.
Proof. intros f g s; induction s as [|i s IH]; intro x; destruct x as [|y x]; simpl; try lra. rewrite IH; ring. Qed.
Lemma rdot_map_zero : forall (f : nat -> R) s x, (forall i, In i s -> f i = 0) -> rdot (map f s) x = 0.
Proof.
  intros f s; induction s as [|i s IH]; intros x H; destruct x as [|y x]; simpl; try lra.
  rewrite (H i (or_introl eq_refl)), IH; [ring|]. intros j Hj; apply H; right; exact Hj.
Qed.
Lemma rdot_unit : forall p y0 len s x, length x = len -> (s <= p < s + len)%nat ->
  rdot (map (fun i => if Nat.eqb p i then y0 else 0) (seq s len)) x = y0 * nth (p - s) x 0.
Proof.
  intros p y0 len; induction len as [|len IH]; intros s x Hx Hp; [lia|].
  destruct x as [|x0 x]; [discriminate|]. simpl in Hx |- *.
  destruct (Nat.eqb_spec p s) as [E|E].
  - subst; rewrite Nat.sub_diag, rdot_map_zero; [simpl; ring|].
    intros i Hi; apply in_seq in Hi; destruct (Nat.eqb_spec s i); [lia | reflexivity].
  - rewrite (IH (S s) x) by lia. replace (p - s)%nat with (S (p - S s)) by lia. simpl; ring.
Qed.
(* <embed(y), x> = <y, x_pi>. *)
Lemma rdot_rembed : forall n pi y x, NoDup pi -> (forall i, In i pi -> (i < n)%nat) -> length y = length pi -> length x = n ->
  rdot (rembed n pi y) x = rdot y (restrict pi x).
Proof.
  intros n pi; induction pi as [|p pi IH]; intros y x Hd Hn Hy Hx; destruct y as [|y0 y]; try discriminate.
  - unfold rembed; rewrite rdot_map_zero; [reflexivity | intros; reflexivity].
  - inversion Hd as [|? ? Hp Hd']; subst. unfold rembed.
    rewrite (map_ext _ _ (fun i => rlookup_cons p pi y0 y i Hp)), rdot_map_plus, (rdot_unit p y0 (length x) 0 x eq_refl).
    + fold (rembed (length x) pi y); rewrite IH; auto.
      * rewrite Nat.sub_0_r; simpl; ring.
      * intros i Hi; apply Hn; right; exact Hi.
    + split; [lia | apply Hn; left; reflexivity].
Qed.
Lemma rembed_length : forall n pi y, length (rembed n pi y) = n.
Proof. intros; unfold rembed; rewrite map_length, seq_length; reflexivity. Qed.
Lemma restrict_length : forall pi x, length (restrict pi x) = length pi.
Proof. intros; unfold restrict; apply map_length. Qed.
Lemma map_rlookup_self : forall pi y, NoDup pi -> length y = length pi -> map (rlookup pi y) pi = y.
Proof.
  induction pi as [|p pi IH]; intros y Hd Hy; destruct y as [|y0 y]; try discriminate; [reflexivity|].
  inversion Hd as [|? ? Hp Hd']; subst. simpl. f_equal.
  - unfold rlookup; simpl; rewrite Nat.eqb_refl; reflexivity.
  - transitivity (map (rlookup pi y) pi); [|apply IH; [exact Hd' | simpl in Hy; lia]]. apply map_ext_in; intros i Hi.
    rewrite rlookup_cons by exact Hp. destruct (Nat.eqb_spec p i); [subst; contradiction | ring].
Qed.
(* (embed(y))_pi = y. *)
Lemma restrict_rembed : forall n pi y, NoDup pi -> (forall i, In i pi -> (i < n)%nat) -> length y = length pi ->
  restrict pi (rembed n pi y) = y.
Proof.
  intros n pi y Hd Hn Hy. unfold restrict, rembed. transitivity (map (rlookup pi y) pi); [|exact (map_rlookup_self pi y Hd Hy)].
  apply map_ext_in; intros j Hj. rewrite (nth_indep _ _ (rlookup pi y 0)) by (rewrite map_length, seq_length; auto).
  rewrite map_nth, seq_nth by auto; reflexivity.
Qed.

(* ---- A head for F on R^n restricted to the coordinates pi, its values shifted by −C ---- *)
Definition restrict_head (pi : list nat) (C : R) (h : list atom) : list atom :=
  map (fun a => mkAtom (restrict pi (key a)) (weight a) (value a - C)) h.
Lemma restrict_head_ok : forall n pi C h, is_head n h -> is_head (length pi) (restrict_head pi C h).
Proof.
  intros n pi C h [Hne Hall]; split.
  - destruct h; [congruence | discriminate].
  - unfold restrict_head; apply Forall_map. apply (Forall_impl _ (fun a H => conj (proj1 H) (restrict_length pi (key a))) Hall).
Qed.
(* H'(q') = H(embed(q')) − C. *)
Lemma restrict_head_eval : forall n pi C h q', is_head n h -> NoDup pi -> (forall i, In i pi -> (i < n)%nat) ->
  length q' = length pi -> head_eval (restrict_head pi C h) q' = head_eval h (rembed n pi q') - C.
Proof.
  intros n pi C h q' Hh Hd Hn Hq. pose proof (hden_pos n h (rembed n pi q') Hh) as Hpos.
  assert (E : hnum (restrict_head pi C h) q' = hnum h (rembed n pi q') - C * hden h (rembed n pi q')
              /\ hden (restrict_head pi C h) q' = hden h (rembed n pi q')).
  { destruct Hh as [_ Hall]; clear Hpos; induction Hall as [|a h [_ Hk] _ [IHn IHd]]; simpl; [split; ring|].
    unfold wx; simpl. rewrite (rdot_comm (key a)), rdot_rembed, rdot_comm, IHn, IHd by auto. split; ring. }
  destruct E as [En Ed]; unfold head_eval; rewrite En, Ed. field; lra.
Qed.
Lemma restrict_head_length : forall pi C h, length (restrict_head pi C h) = length h.
Proof. intros; apply map_length. Qed.
