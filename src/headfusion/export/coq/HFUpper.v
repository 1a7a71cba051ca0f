(* HFUpper: the construction, proved with no axiom.  Block heads N_B/D_B = P'_B/Q'_B (checked by
   coefficient comparison) multiply into a head of F with Π_B |supp D_B| atoms (Lemma LP's upper half,
   here a theorem). *)
From Coq Require Import List ZArith QArith Reals Qreals Lra Lia.
From HF Require Import HFPoly HFSem.
Import ListNotations.
Open Scope R_scope.

Fixpoint radd (u w : list R) : list R :=
  match u, w with a :: u', b :: w' => (a + b) :: radd u' w' | [], _ => w | _, [] => u end.
Lemma rdot_radd : forall q u w, rdot (radd u w) q = rdot u q + rdot w q.
Proof. induction q as [|x q IH]; intros u w; destruct u, w; simpl; try lra. rewrite IH; lra. Qed.
Lemma radd_length : forall n u w, length u = n -> length w = n -> length (radd u w) = n.
Proof. induction n; intros u w Hu Hw; destruct u, w; simpl in *; try lia; auto. Qed.

(* The product of two heads: keys add, weights multiply, values add. *)
Definition hprod (h1 h2 : list atom) : list atom :=
  flat_map (fun a => map (fun b => mkAtom (radd (key a) (key b)) (weight a * weight b) (value a + value b)) h2) h1.

Lemma hden_app : forall h g q, hden (h ++ g) q = hden h q + hden g q.
Proof. induction h; simpl; intros; [lra | rewrite IHh; lra]. Qed.
Lemma hnum_app : forall h g q, hnum (h ++ g) q = hnum h q + hnum g q.
Proof. induction h; simpl; intros; [lra | rewrite IHh; lra]. Qed.

Definition arow (a : atom) (h2 : list atom) : list atom :=
  map (fun b => mkAtom (radd (key a) (key b)) (weight a * weight b) (value a + value b)) h2.
Lemma arow_den : forall q a h2, hden (arow a h2) q = wx q a * hden h2 q.
Proof. intros q a h2; induction h2 as [|b h2 IH2]; simpl; [lra|]. rewrite IH2; unfold wx; cbn [key weight value]; rewrite rdot_radd, exp_plus; lra. Qed.
Lemma arow_num : forall q a h2, hnum (arow a h2) q = wx q a * value a * hden h2 q + wx q a * hnum h2 q.
Proof. intros q a h2; induction h2 as [|b h2 IH2]; simpl; [lra|]. rewrite IH2; unfold wx; cbn [key weight value]; rewrite rdot_radd, exp_plus; lra. Qed.

Lemma hprod_eval : forall q h1 h2,
  hden (hprod h1 h2) q = hden h1 q * hden h2 q /\
  hnum (hprod h1 h2) q = hnum h1 q * hden h2 q + hden h1 q * hnum h2 q.
Proof.
  intros q h1 h2; induction h1 as [|a h1 IH]; simpl; [split; lra|].
  unfold hprod in *; simpl; rewrite hden_app, hnum_app; destruct IH as [IHd IHn]; rewrite IHd, IHn.
  fold (arow a h2); rewrite arow_den, arow_num; split; lra.
Qed.

Lemma hprod_length : forall h1 h2, length (hprod h1 h2) = (length h1 * length h2)%nat.
Proof. induction h1; simpl; auto. intros; unfold hprod in *; simpl; rewrite app_length, map_length, IHh1; lia. Qed.

Lemma hden_pos : forall n h q, is_head n h -> 0 < hden h q.
Proof.
  intros n h q [Hne Hf]; induction h as [|a h IH]; [congruence|]. inversion Hf as [|? ? [Hw _] Hr]; subst.
  assert (0 < wx q a) by (unfold wx; pose proof (exp_pos (rdot (key a) q)); nra).
  destruct h as [|b h]; [simpl; lra|]. change (hden (a :: b :: h) q) with (wx q a + hden (b :: h) q).
  assert (0 < hden (b :: h) q) by (apply IH; [discriminate | auto]). lra.
Qed.

Lemma hprod_head : forall n h1 h2, is_head n h1 -> is_head n h2 -> is_head n (hprod h1 h2).
Proof.
  intros n h1 h2 [H1n H1] [H2n H2]; split.
  - destruct h1 as [|a h1]; [congruence|]; destruct h2 as [|b h2]; [congruence|]; unfold hprod; simpl; discriminate.
  - unfold hprod; apply Forall_forall; intros x Hx; apply in_flat_map in Hx; destruct Hx as [a [Ha Hx]].
    apply in_map_iff in Hx; destruct Hx as [b [<- Hb]]; simpl.
    rewrite Forall_forall in H1, H2; destruct (H1 a Ha), (H2 b Hb); split; [nra | apply radd_length; auto].
Qed.

Lemma hprod_value : forall n h1 h2 q, is_head n h1 -> is_head n h2 ->
  head_eval (hprod h1 h2) q = head_eval h1 q + head_eval h2 q.
Proof.
  intros n h1 h2 q H1 H2; pose proof (hden_pos n h1 q H1); pose proof (hden_pos n h2 q H2).
  destruct (hprod_eval q h1 h2) as [Hd Hn]; unfold head_eval; rewrite Hd, Hn; field; lra.
Qed.

Fixpoint zeros (n : nat) : list R := match n with O => [] | S k => 0 :: zeros k end.
Lemma rdot_zeros : forall n q, rdot (zeros n) q = 0.
Proof. induction n; destruct q; simpl; try rewrite IHn; lra. Qed.
Lemma zeros_length : forall n, length (zeros n) = n.
Proof. induction n; simpl; auto. Qed.
Definition const_head (n : nat) (c : R) : list atom := [mkAtom (zeros n) 1 c].

(* ---- The block heads of a certificate and the check of each ---- *)
Fixpoint qzeros (n : nat) : list Q := match n with O => [] | S k => 0%Q :: qzeros k end.
Lemma map_qzeros : forall n, map Q2R (qzeros n) = zeros n.
Proof. induction n; simpl; auto. rewrite IHn; f_equal; unfold Q2R; simpl; lra. Qed.

Definition bhead_ok (n : nat) (b : block) (bh : list qatom * list expo) : bool :=
  let '(atoms, es) := bh in
  match atoms with [] => false | _ => true end
  && keys_ok (gens b) (qzeros n) atoms es
  && forallb (fun a => Nat.eqb (length (qkey a)) n) atoms
  && peqb (pmul (head_N atoms es) (Ql b)) (pmul (Pl b) (head_D atoms es)).

Fixpoint all2 {A B} (f : A -> B -> bool) (l : list A) (m : list B) : bool :=
  match l, m with [], [] => true | a :: l', b :: m' => f a b && all2 f l' m' | _, _ => false end.

Definition upper_ok (n : nat) (heads : list (Q * list qatom)) (bs : list block) (bhs : list (list qatom * list expo)) : bool :=
  expform_ok heads bs && all2 (bhead_ok n) bs bhs.

Definition product_head (n : nat) (c : Q) (bhs : list (list qatom * list expo)) : list atom :=
  fold_right (fun bh h => hprod (map ratom (fst bh)) h) (const_head n (Q2R c)) bhs.
Definition head_size (bhs : list (list qatom * list expo)) : nat := fold_right (fun bh k => (length (fst bh) * k)%nat) 1%nat bhs.

Lemma cross_div : forall a b c d, b <> 0 -> d <> 0 -> a * d = c * b -> a / b = c / d.
Proof.
  intros a b c d Hb Hd H. unfold Rdiv. apply (Rmult_eq_reg_r (b * d)); [| apply Rmult_integral_contrapositive_currified; auto].
  replace (a * / b * (b * d)) with (a * d) by (field; auto). replace (c * / d * (b * d)) with (c * b) by (field; auto). exact H.
Qed.

Lemma bhead_value : forall n b bh q, bhead_ok n b bh = true -> beval (lblock_of b) (Ql b) q <> 0 ->
  is_head n (map ratom (fst bh)) /\ head_eval (map ratom (fst bh)) q = beval (lblock_of b) (Pl b) q / beval (lblock_of b) (Ql b) q.
Proof.
  intros n b [atoms es] q H HQ; unfold bhead_ok in H; simpl.
  apply andb_prop in H; destruct H as [H H3]; apply andb_prop in H; destruct H as [H H2]; apply andb_prop in H; destruct H as [H0 H1].
  destruct atoms as [|a0 at0]; [discriminate|].
  destruct (head_bridge (gens b) (qzeros n) q (a0 :: at0) es) as [He Hp]; [discriminate | exact H1 |].
  split.
  - split; [simpl; discriminate|]. apply Forall_forall; intros x Hx; apply in_map_iff in Hx; destruct Hx as [a [<- Ha]].
    rewrite forallb_forall in H2; specialize (H2 a Ha); apply Nat.eqb_eq in H2; simpl; split; [|rewrite map_length; exact H2].
    clear -H1 Ha. revert es H1; induction (a0 :: at0) as [|x r IH]; intros es H1; [destruct Ha|].
    destruct es as [|e es]; simpl in H1; [discriminate|].
    apply andb_prop in H1; destruct H1 as [H1 H4]; apply andb_prop in H1; destruct H1 as [_ Hw].
    destruct Ha as [<-|Ha]; [apply qpos_R; exact Hw | exact (IH Ha es H4)].
  - rewrite He. unfold beval, lblock_of; cbn [lgens lP lQ]. set (y := ylog (gens b) q) in *.
    assert (Hm : multiplicative (mono y)) by (intros e f; apply mono_mult).
    pose proof (peqb_eval (mono y) _ _ H3) as E; rewrite !(peval_mul _ Hm) in E.
    unfold beval in HQ; cbn [lgens lP lQ lblock_of] in HQ; fold y in HQ. apply cross_div; lra.
Qed.

Theorem upper_sound : forall n c heads bs bhs, upper_ok n heads bs bhs = true ->
  mstar_le n (model_eval c heads) (head_size bhs).
Proof.
  intros n c heads bs bhs H; unfold upper_ok in H; apply andb_prop in H; destruct H as [He Hb].
  pose proof (expform_sound n c heads bs He) as Hf.
  exists (product_head n c bhs); split.
  2: { unfold product_head, head_size; clear -n; induction bhs as [|bh r IH]; simpl; [lia|].
       rewrite hprod_length, map_length; apply Nat.mul_le_mono_l; exact IH. }
  assert (Hc : is_head n (const_head n (Q2R c))).
  { split; [discriminate|]. constructor; [simpl; split; [lra | apply zeros_length] | constructor]. }
  assert (Hv : forall q, length q = n -> is_head n (product_head n c bhs) /\
     head_eval (product_head n c bhs) q = Q2R c + sumR (map (fun B => beval B (lP B) q / beval B (lQ B) q) (map lblock_of bs))).
  { intros q Hq; destruct (Hf q Hq) as [HQ _]; clear Hf He.
    revert bs Hb HQ; induction bhs as [|bh r IH]; intros bs Hb HQ; destruct bs as [|b bs]; simpl in Hb; try discriminate.
    - split; [exact Hc|]. unfold head_eval, const_head; simpl; unfold wx; simpl; rewrite rdot_zeros, exp_0; field.
    - apply andb_prop in Hb; destruct Hb as [Hb1 Hb2]; pose proof (Forall_inv HQ) as HQb; pose proof (Forall_inv_tail HQ) as HQr.
      destruct (IH bs Hb2 HQr) as [Hh Hval]; destruct (bhead_value n b bh q Hb1 HQb) as [Hbh Hbv].
      unfold product_head in *; simpl; split; [apply hprod_head; auto|].
      rewrite (hprod_value n _ _ q Hbh Hh), Hbv, Hval; simpl; lra. }
  split.
  - destruct n as [|n']; [|destruct (Hv (zeros (S n')) (zeros_length _)); auto].
    destruct (Hv [] eq_refl); auto.
  - intros q Hq; destruct (Hv q Hq) as [_ ->]; destruct (Hf q Hq) as [_ ->]; reflexivity.
Qed.
Close Scope R_scope.
