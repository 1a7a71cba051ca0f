(* HFPoly: Laurent polynomials with rational coefficients, their evaluation in the reals,
   normal forms, and the proofs that the computations Coq runs on them are sound.
   Nothing here is assumed: every statement below is a theorem. *)
From Coq Require Import List ZArith QArith Reals Qreals Lra.
Import ListNotations.
Open Scope R_scope.

(* An exponent is a vector of integers (lattice coordinates); a polynomial a list of terms. *)
Definition expo := list Z.
Definition poly := list (expo * Q).

Fixpoint vadd (e f : expo) : expo :=
  match e, f with a :: e', b :: f' => (a + b)%Z :: vadd e' f' | [], _ => f | _, [] => e end.
Fixpoint vsub (e f : expo) : expo :=
  match e, f with a :: e', b :: f' => (a - b)%Z :: vsub e' f' | [], _ => map Z.opp f | _, [] => e end.

(* Evaluation under any valuation v of the monomials. *)
Fixpoint peval (v : expo -> R) (p : poly) : R :=
  match p with [] => 0 | (e, c) :: p' => Q2R c * v e + peval v p' end.

(* The exponential valuation: x^e = exp(Σ e_r·y_r) at the lattice logarithms y. *)
Fixpoint zdot (y : list R) (e : expo) : R :=
  match y, e with a :: y', k :: e' => IZR k * a + zdot y' e' | _, _ => 0 end.
Definition mono (y : list R) (e : expo) : R := exp (zdot y e).

Lemma zdot_vadd : forall y e f, zdot y (vadd e f) = zdot y e + zdot y f.
Proof.
  induction y as [|a y IH]; intros e f; simpl.
  - destruct e, f; simpl; lra.
  - destruct e as [|k e], f as [|l f]; simpl; try lra.
    rewrite IH, plus_IZR; lra.
Qed.

Lemma mono_mult : forall y e f, mono y (vadd e f) = mono y e * mono y f.
Proof. intros; unfold mono; rewrite zdot_vadd; apply exp_plus. Qed.

Lemma mono_pos : forall y e, 0 < mono y e.
Proof. intros; apply exp_pos. Qed.

Lemma peval_app : forall v p q, peval v (p ++ q) = peval v p + peval v q.
Proof. induction p as [|[e c] p IH]; intros; simpl; [lra | rewrite IH; lra]. Qed.

(* ---- Arithmetic ---- *)
Definition padd (p q : poly) : poly := p ++ q.
Definition pscale (k : Q) (p : poly) : poly := map (fun t => (fst t, k * snd t)%Q) p.
Definition pmul (p q : poly) : poly :=
  flat_map (fun t => map (fun u => (vadd (fst t) (fst u), (snd t * snd u)%Q)) q) p.
Fixpoint ppow (p : poly) (k : nat) : poly := match k with O => [([], 1%Q)] | S k' => pmul p (ppow p k') end.
Definition pone : poly := [([], 1%Q)].

Lemma peval_scale : forall v k p, peval v (pscale k p) = Q2R k * peval v p.
Proof. induction p as [|[e c] p IH]; simpl; [lra | rewrite IH, Q2R_mult; lra]. Qed.

Definition multiplicative (v : expo -> R) := forall e f, v (vadd e f) = v e * v f.

Lemma peval_mul : forall v, multiplicative v -> forall p q, peval v (pmul p q) = peval v p * peval v q.
Proof.
  intros v Hv p q; induction p as [|[e c] p IH]; simpl; [lra|].
  rewrite peval_app, IH.
  assert (H : peval v (map (fun u => (vadd e (fst u), (c * snd u)%Q)) q) = Q2R c * v e * peval v q).
  { clear IH; induction q as [|[f d] q IHq]; simpl; [lra|]. rewrite IHq, Hv, Q2R_mult; lra. }
  rewrite H; lra.
Qed.

Lemma peval_one : forall v, v [] = 1 -> peval v pone = 1.
Proof. intros v H; simpl; rewrite H; unfold Q2R; simpl; lra. Qed.

Lemma peval_pow : forall v, multiplicative v -> v [] = 1 -> forall p k, peval v (ppow p k) = pow (peval v p) k.
Proof. intros v Hv H1 p k; induction k; simpl; [apply peval_one; auto | rewrite peval_mul, IHk; auto]. Qed.

(* ---- Normal forms: terms sorted by exponent, equal exponents merged, zeros removed ---- *)
Fixpoint ecmp (e f : expo) : comparison :=
  match e, f with
  | [], [] => Eq | [], _ => Lt | _, [] => Gt
  | a :: e', b :: f' => match Z.compare a b with Eq => ecmp e' f' | r => r end
  end.

Lemma ecmp_eq : forall e f, ecmp e f = Eq -> e = f.
Proof.
  induction e as [|a e IH]; destruct f as [|b f]; simpl; try discriminate; auto.
  destruct (Z.compare a b) eqn:H; try discriminate.
  intro E; apply Z.compare_eq in H; subst; f_equal; auto.
Qed.

Fixpoint ins (e : expo) (c : Q) (l : poly) : poly :=
  match l with
  | [] => [(e, c)]
  | (f, d) :: l' => match ecmp e f with
                    | Lt => (e, c) :: l
                    | Eq => (f, Qred (c + d)) :: l'
                    | Gt => (f, d) :: ins e c l'
                    end
  end.

Lemma ins_eval : forall v e c l, peval v (ins e c l) = Q2R c * v e + peval v l.
Proof.
  induction l as [|[f d] l IH]; cbn -[Q2R Qred Qplus]; [lra|].
  destruct (ecmp e f) eqn:H; cbn -[Q2R Qred Qplus].
  - apply ecmp_eq in H; subst. rewrite (Qeq_eqR _ _ (Qred_correct _)), Q2R_plus; lra.
  - lra.
  - rewrite IH; lra.
Qed.

Definition nonzeroq (c : Q) : bool := negb (Qeq_bool c 0).
Definition norm (p : poly) : poly :=
  filter (fun t => nonzeroq (snd t)) (fold_right (fun t acc => ins (fst t) (snd t) acc) [] p).

Lemma filter_eval : forall v p, peval v (filter (fun t => nonzeroq (snd t)) p) = peval v p.
Proof.
  induction p as [|[e c] p IH]; [simpl; lra|].
  cbn [filter snd]; unfold nonzeroq at 1; destruct (Qeq_bool c 0) eqn:H; cbn [negb peval].
  - rewrite IH. apply Qeq_bool_eq, Qeq_eqR in H; rewrite H; unfold Q2R; simpl; lra.
  - rewrite IH; lra.
Qed.

Lemma norm_eval : forall v p, peval v (norm p) = peval v p.
Proof.
  intros; unfold norm; rewrite filter_eval.
  induction p as [|[e c] p IH]; simpl; [lra|]. rewrite ins_eval, IH; lra.
Qed.

Fixpoint expo_eqb (e f : expo) : bool :=
  match e, f with [], [] => true | a :: e', b :: f' => Z.eqb a b && expo_eqb e' f' | _, _ => false end.
Lemma expo_eqb_eq : forall e f, expo_eqb e f = true -> e = f.
Proof.
  induction e as [|a e IH]; destruct f as [|b f]; simpl; try discriminate; auto.
  intro H; apply andb_prop in H; destruct H as [H1 H2]; apply Z.eqb_eq in H1; subst; f_equal; auto.
Qed.

Fixpoint terms_eqb (p q : poly) : bool :=
  match p, q with
  | [], [] => true
  | (e, c) :: p', (f, d) :: q' => expo_eqb e f && Qeq_bool c d && terms_eqb p' q'
  | _, _ => false
  end.
Lemma terms_eqb_eval : forall v p q, terms_eqb p q = true -> peval v p = peval v q.
Proof.
  induction p as [|[e c] p IH]; destruct q as [|[f d] q]; simpl; try discriminate; auto.
  intro H; apply andb_prop in H; destruct H as [H H3]; apply andb_prop in H; destruct H as [H1 H2].
  apply expo_eqb_eq in H1; apply Qeq_bool_eq, Qeq_eqR in H2; subst; rewrite H2, (IH q H3); lra.
Qed.

(* p ≐ q: equal coefficient by coefficient (hence equal under every valuation). *)
Definition peqb (p q : poly) : bool := terms_eqb (norm p) (norm q).
Lemma peqb_eval : forall v p q, peqb p q = true -> peval v p = peval v q.
Proof. intros v p q H; rewrite <- (norm_eval v p), <- (norm_eval v q); apply terms_eqb_eval; exact H. Qed.

Definition is_zerob (p : poly) : bool := match norm p with [] => true | _ => false end.
Lemma is_zerob_eval : forall v p, is_zerob p = true -> peval v p = 0.
Proof. intros v p; unfold is_zerob; rewrite <- (norm_eval v p); destruct (norm p); simpl; [lra | discriminate]. Qed.

(* Positivity: every coefficient positive, at least one term. *)
Definition posb (p : poly) : bool :=
  match p with [] => false | _ => forallb (fun t => negb (Qle_bool (snd t) 0)) p end.
Lemma posb_eval : forall y p, posb p = true -> 0 < peval (mono y) p.
Proof.
  intros y p; destruct p as [|t p]; simpl; [discriminate|].
  intro H; apply andb_prop in H; destruct H as [H1 H2]; destruct t as [e c]; simpl in *.
  assert (Hc : 0 < Q2R c).
  { apply negb_true_iff in H1. replace 0 with (Q2R 0) by (unfold Q2R; simpl; lra). apply Qlt_Rlt.
    apply Qnot_le_lt; intro Hle; apply Qle_bool_iff in Hle; congruence. }
  assert (0 <= peval (mono y) p).
  { clear H1 Hc; induction p as [|[f d] p IH]; simpl; [lra|]; simpl in H2.
    apply andb_prop in H2; destruct H2 as [H3 H4]; apply negb_true_iff in H3.
    assert (0 < Q2R d). { replace 0 with (Q2R 0) by (unfold Q2R; simpl; lra). apply Qlt_Rlt.
      apply Qnot_le_lt; intro Hle; apply Qle_bool_iff in Hle; congruence. }
    specialize (IH H4); pose proof (mono_pos y f); nra. }
  pose proof (mono_pos y e); nra.
Qed.

Definition supp (p : poly) : list expo := map fst (norm p).
