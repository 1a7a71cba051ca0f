(* HFLine: residue classes (LK), class Descartes (CD), one line with biases (Pβ, P4), and unit roots (LU).
   LK and CD bound 𝒯(R) (HFAxioms' terms_ge) over data Coq recomputes: class sums, moduli, odd parts,
   valuations.  Pβ and P4 bound m*(F) for F = c0 + Σ ε_i·σ(a_i·<g, q> + log w_i); that F has this form is a
   theorem here (line_sound: the exponential form times Π(1 + w_i x^a_i), coefficient by coefficient).  LU bounds
   m*(F) for one block of rank 1 from Q' = u·Π Φ_d, each Φ_d computed here and checked by multiplying back.
   Each axiom is stated as narrowly as its lemma; docs/coq.md says how each was read. *)
From Coq Require Import List ZArith QArith Reals Qreals Lra.
From HF Require Import HFPoly HFSem HFTree HFAxioms.
Import ListNotations.

(* ---- Lemma LK (residue classes; docs/mathematics.md §4, LK) ---- *)
(* The class of e in Λ/M, M spanned by the rows of an upper-triangular basis with positive diagonal: subtract
   ⌊e_k / M_kk⌋ times row k, for k = 0, 1, …, which leaves the representative with 0 <= e_k < M_kk. *)
Fixpoint reduce_from (k : nat) (basis : list expo) (e : expo) : expo :=
  match basis with
  | [] => e
  | b :: bs => reduce_from (S k) bs (vsub e (vscaleZ (Z.div (nth k e 0%Z) (nth k b 0%Z)) b))
  end.
Definition diagonal (basis : list expo) : list Z := map (fun kb => nth (fst kb) (snd kb) 0%Z) (combine (seq 0 (length basis)) basis).
Definition triangular (r : nat) (basis : list expo) : bool :=
  Nat.eqb (length basis) r
  && forallb (fun kb => let '(k, b) := kb in
       Nat.eqb (length b) r && forallb (fun j => Z.eqb (nth j b 0%Z) 0) (seq 0 k) && Z.ltb 0 (nth k b 0%Z))
     (combine (seq 0 r) basis).
(* The [Λ : M] = Π_k M_kk representatives: every e with 0 <= e_k < M_kk. *)
Fixpoint class_reps (d : list Z) : list expo :=
  match d with [] => [[]] | m :: d' => flat_map (fun i => map (cons (Z.of_nat i)) (class_reps d')) (seq 0 (Z.to_nat m)) end.
Definition lattice_index (basis : list expo) : nat := fold_right (fun m k => (Z.to_nat m * k)%nat) 1%nat (diagonal basis).
(* The class sum of R(ρ⊙x) at a representative: Σ over the terms c·x^e of R in that class of c·ρ^e. *)
Definition class_sum (basis : list expo) (rho : list Q) (R : poly) (rep : expo) : Q :=
  fold_right (fun t acc => if expo_eqb (reduce_from 0 basis (fst t)) rep then (snd t * qmono rho (fst t) + acc)%Q else acc) 0%Q R.
(* M of full rank r, ρ with r positive coordinates, and all [Λ : M] class sums equal to one number ≠ 0. *)
Definition classes_ok (r : nat) (R : poly) (basis : list expo) (rho : list Q) : bool :=
  triangular r basis && Nat.eqb (length rho) r && forallb posq rho
  && let s0 := class_sum basis rho R (repeat 0%Z r) in
     negb (Qeq_bool s0 0) && forallb (fun rep => Qeq_bool (class_sum basis rho R rep) s0) (class_reps (diagonal basis)).
(* Lemma LK: the class sums of (h·R)(ρ⊙x) are c·h(ρ) in every class; for D = h·R ≥ 0, D ≠ 0 their total D(ρ) > 0,
   so every class holds a term of D: 𝒯(R) >= [Λ : M]. *)
Axiom LK_classes : forall r R basis rho, wf r R = true -> classes_ok r R basis rho = true -> terms_ge r R (lattice_index basis).

(* ---- Lemma CD (class Descartes, with the 2-adic levels of V2; docs/mathematics.md §4, CD) ---- *)
Fixpoint pairwise_ok {A} (p : A -> A -> bool) (l : list A) : bool :=
  match l with [] => true | x :: r => forallb (p x) r && pairwise_ok p r end.
(* Levels 1 + w·x^a as for V2 (a >= 1, w > 0, distinct v_2(a)), each v_2(a) < v_2(A); class binomials 1 + w_i·x^(A·o_i)
   with A >= 1, o_i odd >= 1, w_i > 0 and w_i^(o_k) <> w_k^(o_i) for i <> k (the roots s_i = w_i^(1/o_i) differ). *)
Definition odd_part (A : Z) (aw : Z * Q) : Z := Z.div (fst aw) A.
Definition cd_ok (A : Z) (levels cls : list (Z * Q)) : bool :=
  twoadic_ok levels && Z.ltb 0 A
  && forallb (fun aw => Nat.ltb (val2 (Z.to_pos (fst aw))) (val2 (Z.to_pos A))) levels
  && forallb (fun aw => Z.ltb 0 (fst aw) && posq (snd aw) && Z.eqb (Z.modulo (fst aw) A) 0 && Z.odd (odd_part A aw)) cls
  && pairwise_ok (fun x y => negb (Qeq_bool (Qpower (snd x) (odd_part A y)) (Qpower (snd y) (odd_part A x)))) cls.
(* Lemma CD: every class polynomial D_c of D mod A is 0 or has >= n + 1 terms (n distinct negative roots −1/s_i,
   Descartes), and the levels meet >= 2^j classes mod 2^(max v + 1), which classes mod A refine. *)
Axiom CD_classes : forall R A levels cls, wf 1 R = true -> cd_ok A levels cls = true ->
  Forall (fun aw => pdivides 1 (level_binomial aw) R) (levels ++ cls) -> terms_ge 1 R (S (length cls) * 2 ^ length levels).

(* ---- One line: F(q) = c0 + Σ ε_i·σ(a_i·y + log w_i), y = <g, q> ---- *)
Open Scope R_scope.
(* σ(a·y + log w) = w·e^(a·y) / (1 + w·e^(a·y)), written without log (w > 0 is checked wherever it is used). *)
Definition sigmoid_at (a : Z) (w : Q) (y : R) : R := Q2R w * exp (IZR a * y) / (1 + Q2R w * exp (IZR a * y)).
Record lterm := LTm { la : Z; lw : Q; leps : Q }.  (* ε·σ(a·y + log w) *)
Definition line_eval (c0 : Q) (ts : list lterm) (y : R) : R :=
  Q2R c0 + sumR (map (fun t => Q2R (leps t) * sigmoid_at (la t) (lw t) y) ts).
Definition line_form (n : nat) (F : list R -> R) (g : list Q) (c0 : Q) (ts : list lterm) : Prop :=
  forall q, length q = n -> F q = line_eval c0 ts (rdot (map Q2R g) q).

(* Π_i (1 + w_i x^a_i) and Σ_i ε_i w_i x^a_i Π_{j≠i} (1 + w_j x^a_j), built term by term. *)
Definition lbin (t : lterm) : poly := [([0%Z], 1%Q); ([la t], lw t)].
Fixpoint line_den (ts : list lterm) : poly := match ts with [] => pone | t :: r => pmul (lbin t) (line_den r) end.
Fixpoint line_num (ts : list lterm) : poly :=
  match ts with [] => [] | t :: r => padd (pmul [([la t], (leps t * lw t)%Q)] (line_den r)) (pmul (lbin t) (line_num r)) end.
(* Every w_i > 0 and Q'·num = (P' + (c − c0)·Q')·den coefficient by coefficient. *)
Definition line_ok (Pp Qp : poly) (c c0 : Q) (ts : list lterm) : bool :=
  forallb (fun t => posq (lw t)) ts && peqb (pmul Qp (line_num ts)) (pmul (padd Pp (pscale (c - c0) Qp)) (line_den ts)).

Lemma mono1 : forall y a, mono [y] [a] = exp (IZR a * y).
Proof. intros; unfold mono; simpl; f_equal; lra. Qed.

Lemma line_sum : forall y ts, forallb (fun t => posq (lw t)) ts = true ->
  0 < peval (mono [y]) (line_den ts) /\
  peval (mono [y]) (line_num ts) / peval (mono [y]) (line_den ts)
  = sumR (map (fun t => Q2R (leps t) * sigmoid_at (la t) (lw t) y) ts).
Proof.
  intros y ts; assert (Hm : multiplicative (mono [y])) by (intros e f; apply mono_mult).
  assert (H0 : mono [y] [] = 1) by (unfold mono; simpl; apply exp_0).
  induction ts as [|t r IH]; intro H.
  - simpl; rewrite H0; unfold Q2R; simpl; split; [lra | field].
  - simpl in H; apply andb_prop in H; destruct H as [Hw Hr]; destruct (IH Hr) as [Hd He].
    pose proof (qpos_R _ Hw) as Hw'.
    assert (Hb : peval (mono [y]) (lbin t) = 1 + Q2R (lw t) * exp (IZR (la t) * y)).
    { unfold lbin; simpl; rewrite !mono1; replace (IZR 0 * y) with 0 by (simpl; lra); rewrite exp_0.
      unfold Q2R at 1; simpl; lra. }
    pose proof (exp_pos (IZR (la t) * y)).
    assert (Hbp : 0 < 1 + Q2R (lw t) * exp (IZR (la t) * y)) by nra.
    assert (Hk : peval (mono [y]) [([la t], (leps t * lw t)%Q)] = Q2R (leps t) * Q2R (lw t) * exp (IZR (la t) * y)).
    { cbn [peval]; rewrite mono1, Q2R_mult; lra. }
    cbn [line_den line_num]; unfold padd.
    rewrite peval_app, !(peval_mul _ Hm), Hb, Hk.
    split; [nra|]. cbn [map sumR]. rewrite <- He.
    unfold sigmoid_at.
    field; split; lra.
Qed.

(* The exponential form of F with one block of rank 1 and line_ok give F its one-line form: a theorem. *)
Theorem line_sound : forall n F c g P Q c0 ts, expform n F c [LBlk [g] P Q] -> line_ok P Q c c0 ts = true ->
  line_form n F g c0 ts.
Proof.
  intros n F c g P Q c0 ts He Hl q Hq; unfold line_ok in Hl; apply andb_prop in Hl; destruct Hl as [Hw Hi].
  destruct (He q Hq) as [Hnz HF]; inversion Hnz as [|? ? HQ _]; subst.
  rewrite HF; unfold beval in *; simpl in *.
  set (y := rdot (map Q2R g) q) in *.
  assert (Hm : multiplicative (mono [y])) by (intros e f; apply mono_mult).
  destruct (line_sum y ts Hw) as [Hd Hs].
  pose proof (peqb_eval (mono [y]) _ _ Hi) as E; rewrite !(peval_mul _ Hm) in E; unfold padd in E.
  rewrite peval_app, peval_scale, Q2R_minus in E.
  unfold line_eval; rewrite <- Hs. field_simplify_eq; [|split; lra].
  apply (Rmult_eq_reg_r (peval (mono [y]) (line_den ts))); [|lra].
  replace (peval (mono [y]) Q * peval (mono [y]) (line_num ts)) with
    ((peval (mono [y]) P + (Q2R c - Q2R c0) * peval (mono [y]) Q) * peval (mono [y]) (line_den ts)) by lra.
  field; split; lra.
Qed.
Close Scope R_scope.

Definition nonzero_vec (g : list Q) : bool := existsb (fun x => negb (Qeq_bool x 0)) g.
Definition sign_ok (e : Q) : bool := Qeq_bool e 1 || Qeq_bool e (-1).

(* Theorem Pβ (docs/mathematics.md §4, "One line with biases"; Lemma PB in certificates): g ∈ Q^n nonzero, exactly
   two terms with a_i >= 1, w_i > 0, ε_i = ±1, and w_1 <> w_2 when a_1 = a_2 (i.e. a·β_2 <> b·β_1):
   m*(F) >= 4 if a_1 <> a_2, else 3. *)
Definition pair_ok (n : nat) (g : list Q) (ts : list lterm) : bool :=
  Nat.eqb (length g) n && nonzero_vec g
  && match ts with
     | [t1; t2] => Z.ltb 0 (la t1) && Z.ltb 0 (la t2) && posq (lw t1) && posq (lw t2) && sign_ok (leps t1) && sign_ok (leps t2)
                   && (negb (Z.eqb (la t1) (la t2)) || negb (Qeq_bool (lw t1) (lw t2)))
     | _ => false
     end.
Definition pair_bound (ts : list lterm) : nat := match ts with [t1; t2] => if Z.eqb (la t1) (la t2) then 3%nat else 4%nat | _ => 0%nat end.
Axiom P_beta : forall n F g c0 ts, pair_ok n g ts = true -> line_form n F g c0 ts -> mstar_ge n F (pair_bound ts).

(* Lemma P4 (docs/mathematics.md §4, "One line with biases"): g ∈ Q^n nonzero, terms merged (distinct (a, w), ε <> 0,
   a >= 1, w > 0), at least two distinct scales, Σ_{a_i = min a} ε_i·w_i <> 0, and F = c + P'/Q' in lowest terms with
   every 1 + w_i x^a_i dividing Q' (each of its roots a pole of F): m*(F) >= 4.  lattice_ok puts P' and Q' in Q[x^±]
   (one coordinate per exponent): without it an exponent of another length would make `coprime` hold vacuously. *)
Definition least_scale (ts : list lterm) : Z := fold_right (fun t m => Z.min (la t) m) (match ts with [] => 0%Z | t :: _ => la t end) ts.
Definition residue_sum (ts : list lterm) : Q :=
  fold_right (fun t acc => if Z.eqb (la t) (least_scale ts) then (leps t * lw t + acc)%Q else acc) 0%Q ts.
Definition p4_ok (n : nat) (g : list Q) (ts : list lterm) : bool :=
  Nat.eqb (length g) n && nonzero_vec g
  && forallb (fun t => Z.ltb 0 (la t) && posq (lw t) && negb (Qeq_bool (leps t) 0)) ts
  && pairwise_ok (fun t u => negb (Z.eqb (la t) (la u) && Qeq_bool (lw t) (lw u))) ts
  && existsb (fun t => existsb (fun u => negb (Z.eqb (la t) (la u))) ts) ts
  && negb (Qeq_bool (residue_sum ts) 0).
Axiom P4_two_scales : forall n F c g Pp Qp c0 ts, lattice_ok n [LBlk [g] Pp Qp] = true -> expform n F c [LBlk [g] Pp Qp] ->
  coprime 1 Pp Qp -> p4_ok n g ts = true ->
  Forall (fun t => pdivides 1 (lbin t) Qp) ts -> line_form n F g c0 ts -> mstar_ge n F 4.

(* ---- Lemma LU (unit roots; docs/mathematics.md §4, LU) ---- *)
(* Polynomials in x with integer coefficients, dense: the coefficient of x^i at position i. *)
Fixpoint dadd (p q : list Z) : list Z :=
  match p, q with a :: p', b :: q' => (a + b)%Z :: dadd p' q' | [], _ => q | _, [] => p end.
Fixpoint dmul (p q : list Z) : list Z :=
  match p with [] => [] | a :: p' => dadd (map (Z.mul a) q) (0%Z :: dmul p' q) end.
Fixpoint dzero (p : list Z) : bool := match p with [] => true | a :: p' => Z.eqb a 0 && dzero p' end.
Fixpoint drop_zeros (p : list Z) : list Z := match p with a :: p' => if Z.eqb a 0 then drop_zeros p' else p | [] => [] end.
Definition dtrim (p : list Z) : list Z := rev (drop_zeros (rev p)).
Fixpoint deqb (p q : list Z) : bool :=  (* equal coefficient by coefficient (missing ones are 0) *)
  match p, q with a :: p', b :: q' => Z.eqb a b && deqb p' q' | [], _ => dzero q | _, [] => dzero p end.
Definition xe_minus_1 (e : nat) : list Z := (-1)%Z :: repeat 0%Z (e - 1) ++ [1%Z].
(* The quotient of p by x^e − 1 (e >= 1): h_k = h_(k−e) − p_k, the last e values of h in a window. *)
Fixpoint div_xe_minus_1 (p window : list Z) : list Z :=
  match p with [] => [] | a :: p' => let h := (hd 0 window - a)%Z in h :: div_xe_minus_1 p' (tl window ++ [h]) end.
Definition divisors (d : nat) : list nat := filter (fun e => Nat.eqb (Nat.modulo d e) 0) (seq 1 d).
Fixpoint mobius_from (fuel : nat) (m p : Z) : Z :=  (* μ(m), m with no prime factor below p *)
  match fuel with
  | O => 0%Z
  | S f => if Z.leb m 1 then 1%Z else if Z.ltb m (p * p) then (-1)%Z
           else if Z.eqb (Z.modulo m p) 0 then (if Z.eqb (Z.modulo (Z.div m p) p) 0 then 0%Z else (- mobius_from f (Z.div m p) (p + 1))%Z)
           else mobius_from f m (p + 1)
  end.
Definition mobius (m : nat) : Z := mobius_from m (Z.of_nat m) 2.
(* Φ_d = Π_(e|d) (x^e − 1)^μ(d/e): the binomials with μ = 1 multiplied, then those with μ = −1 divided out.  Whatever this
   computes, cyclo_ok below checks it by multiplying back. *)
Definition cyclo (d : nat) : list Z :=
  let up := fold_right (fun e acc => if Z.eqb (mobius (d / e)) 1 then dmul (xe_minus_1 e) acc else acc) [1%Z] (divisors d) in
  dtrim (fold_right (fun e acc => if Z.eqb (mobius (d / e)) (-1) then dtrim (div_xe_minus_1 acc (repeat 0%Z e)) else acc) up (divisors d)).
(* x^e − 1 = Π_(f|e) cyclo f for every e | d: by induction on e this makes cyclo e = Φ_e for every e | d (Q[x] has no zero
   divisors), whatever the computation above. *)
Definition cyclo_ok (d : nat) : bool :=
  forallb (fun e => deqb (fold_right (fun f acc => dmul (cyclo f) acc) [1%Z] (divisors e)) (xe_minus_1 e)) (divisors d).
Definition dense_poly (p : list Z) : poly := map (fun ic => ([Z.of_nat (fst ic)], inject_Z (snd ic))) (combine (seq 0 (length p)) p).
Fixpoint increasing (l : list Z) : bool := match l with a :: (b :: _) as r => Z.ltb a b && increasing r | _ => true end.
(* 𝒟/g = {d / gcd(d, g) : d ∈ 𝒟} when it is one value k. *)
Definition collapse (ds : list Z) (g : Z) : option Z :=
  match ds with [] => None | d :: _ => let k := Z.div d (Z.gcd d g) in
    if forallb (fun d' => Z.eqb (Z.div d' (Z.gcd d' g)) k) ds then Some k else None end.
Definition lu_lcm (ds : list Z) : Z := fold_right Z.lcm 1%Z ds.
Definition lu_residues (ds : list Z) : list Z := map Z.of_nat (seq 1 (Z.to_nat (lu_lcm ds))).
(* 𝒟 nonempty, increasing, every d >= 1, each cyclo d checked; Q' = u·Π_(d∈𝒟) Φ_d coefficient by coefficient with u one
   nonzero term; 𝒟/g is never {3}, {4}, {6} for g = 1..L (L = lcm 𝒟); if it is {2} for some g, G·Q' = (1 + x^(L/2))·P'
   coefficient by coefficient and G has a term x^e with (L/2) ∤ e. *)
Definition lu_ok (Pp Qp u G : poly) (ds : list Z) : bool :=
  let L := lu_lcm ds in
  negb (Nat.eqb (length ds) 0) && increasing ds && forallb (Z.ltb 0) ds
  && forallb (fun d => cyclo_ok (Z.to_nat d)) ds
  && wf 1 u && (match norm u with [_] => true | _ => false end)
  && peqb Qp (pmul u (dense_poly (fold_right (fun d acc => dmul (cyclo (Z.to_nat d)) acc) [1%Z] ds)))
  && forallb (fun g => match collapse ds g with Some k => negb (Z.eqb k 3 || Z.eqb k 4 || Z.eqb k 6) | None => true end) (lu_residues ds)
  && (negb (existsb (fun g => match collapse ds g with Some k => Z.eqb k 2 | None => false end) (lu_residues ds))
      || (wf 1 G && peqb (pmul Qp G) (pmul [([0%Z], 1%Q); ([Z.div L 2], 1%Q)] Pp)
          && existsb (fun t => negb (Z.eqb (Z.modulo (hd 0%Z (fst t)) (Z.div L 2)) 0)) (norm G))).
(* Lemma LU: F = c + P'/Q' with one block of rank 1, in lowest terms, and lu_ok: no head with at most 3 atoms
   represents F (a positive binomial or trinomial D divisible by Q' would vanish on the roots of Q'). *)
Axiom LU_unit_roots : forall n F c g Pp Qp u G ds, lattice_ok n [LBlk [g] Pp Qp] = true -> expform n F c [LBlk [g] Pp Qp] ->
  coprime 1 Pp Qp -> lu_ok Pp Qp u G ds = true -> mstar_ge n F 4.
