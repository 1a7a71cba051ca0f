(* HFAxioms: one axiom per lemma of docs/mathematics.md §3 and §5 that the exported certificates cite.
   Each is stated as narrowly as its lemma, over checkable data (lengths, normal forms, positivity,
   nonzero remainders), so that it reads as the lemma does; docs/coq.md says how each was read.
   Everything else in the library (HFPoly, HFSem, HFUpper, HFTree) is proved. *)
From Coq Require Import List ZArith QArith Reals Qreals.
From HF Require Import HFPoly HFSem HFTree.
Import ListNotations.

(* ---- Lowest terms in the Laurent ring Q[Λ] (Λ ≅ Z^r) ---- *)
(* wf r p: every exponent of p has r coordinates. *)
Definition wf (r : nat) (p : poly) : bool := forallb (fun t => Nat.eqb (length (fst t)) r) p.
Definition pdivides (r : nat) (f p : poly) : Prop := exists h, wf r h = true /\ peqb (pmul f h) p = true.
(* A unit of Q[Λ]: one nonzero term c·x^e (normal forms drop zero terms). *)
Definition is_unit (f : poly) : Prop := exists e c, terms_eqb (norm f) [(e, c)] = true.
(* gcd(A, B) = 1 in Q[Λ] (it equals the gcd over R, docs/mathematics.md L4). *)
Definition coprime (r : nat) (A B : poly) : Prop :=
  forall f, wf r f = true -> pdivides r f A -> pdivides r f B -> is_unit f.

Fixpoint zdotZ (a e : expo) : Z := match a, e with x :: a', y :: e' => (x * y + zdotZ a' e')%Z | _, _ => 0%Z end.
Definition vscaleZ (k : Z) (e : expo) : expo := map (Z.mul k) e.

(* Lemma LC, binomial rule: f = φ0·x^u + φ1·x^(u+δ) (two terms in normal form), η with <η,δ> = 1 (so δ is
   primitive), and the remainder rem_f(P) = Σ_p P_p·(−φ0/φ1)^<η,p>·x^(p−<η,p>δ) is not zero. *)
Definition binomial_remainder (f P : poly) (eta : expo) : option poly :=
  match norm f with
  | [(u, phi0); (w, phi1)] =>
      let delta := vsub w u in
      if Z.eqb (zdotZ eta delta) 1 then
        Some (map (fun t => let k := zdotZ eta (fst t) in (vsub (fst t) (vscaleZ k delta), (snd t * Qpower (- phi0 / phi1) k)%Q)) P)
      else None
  | _ => None
  end.
Definition binomial_ok (r : nat) (f P : poly) (eta : expo) : bool :=
  Nat.eqb (length eta) r && match binomial_remainder f P eta with Some rem => negb (is_zerob rem) | None => false end.
Axiom LC_binomial : forall r P f eta, wf r P = true -> wf r f = true -> binomial_ok r f P eta = true -> coprime r f P.

(* Lemma LB, Bézout identity: f ≠ 0, a substitution x ↦ y^a with a_c > Σ_{c'<c} a_c'·width_c'(supp f) (injective on
   supp f), and A·P(y^a) + B·f(y^a) = one nonzero monomial in y. *)
Definition subst1 (a : expo) (p : poly) : poly := map (fun t => ([zdotZ a (fst t)], snd t)) p.
Fixpoint separating (a : expo) (c : nat) (acc : Z) (f : list expo) : bool :=
  match a with
  | [] => true
  | x :: a' => Z.ltb acc x && separating a' (S c) (acc + x * width c f)%Z f
  end.
Definition bezout_ok (r : nat) (f P : poly) (a : expo) (A B : poly) : bool :=
  negb (is_zerob f) && Nat.eqb (length a) r && separating a 0 0 (map fst (norm f))
  && match norm (padd (pmul A (subst1 a P)) (pmul B (subst1 a f))) with [_] => true | _ => false end.
Axiom LB_bezout : forall r P f a A B, wf r P = true -> wf r f = true -> bezout_ok r f P a A B = true -> coprime r f P.

(* Lemma LC, products: Q' = u·Π f_i^ν_i with u a unit and every f_i coprime to P' gives gcd(P', Q') = 1. *)
Fixpoint pprod (fs : list (poly * nat)) : poly := match fs with [] => pone | (f, k) :: r => pmul (ppow f k) (pprod r) end.
Definition factored (r : nat) (Q u : poly) (fs : list (poly * nat)) : bool :=
  wf r u && (match norm u with [_] => true | _ => false end) && forallb (fun fk => wf r (fst fk)) fs
  && peqb Q (pmul u (pprod fs)).
Axiom LC_product : forall r P Q u fs, wf r P = true -> wf r Q = true -> factored r Q u fs = true ->
  Forall (fun fk => coprime r (fst fk) P) fs -> coprime r P Q.

(* ---- Newton polytopes ---- *)
(* Listed vertices of Newt(Q'): distinct points of supp Q', each with an integer witness w strictly maximised there. *)
Fixpoint distinct (l : list expo) : bool := match l with [] => true | e :: r => negb (mem e r) && distinct r end.
Definition witnesses_ok (Q : poly) (vs : list (expo * expo)) : bool :=
  distinct (map fst vs)
  && forallb (fun vw => mem (fst vw) (supp Q)
        && forallb (fun u => expo_eqb u (fst vw) || Z.ltb (zdotZ (snd vw) u) (zdotZ (snd vw) (fst vw))) (supp Q)) vs.
Definition newton_ge (Q : poly) (k : nat) : Prop := exists vs, length vs = k /\ witnesses_ok Q vs = true.

(* Lemma LZ: Q' = u·Π f_i^ν_i (ν_i ≥ 1) with binomials f_i whose exponent differences are linearly independent
   has a parallelepiped with 2^s vertices as its Newton polytope. *)
Definition direction (f : poly) : option (list Q) :=
  match norm f with [(u, _); (w, _)] => Some (map inject_Z (vsub w u)) | _ => None end.
Fixpoint first_nonzero (v : list Q) (i : nat) : option nat :=
  match v with [] => None | x :: v' => if Qeq_bool x 0 then first_nonzero v' (S i) else Some i end.
Fixpoint independent (vs : list (list Q)) (fuel : nat) : bool :=
  match fuel, vs with
  | _, [] => true
  | O, _ => false
  | S fuel', v :: rest =>
      match first_nonzero v 0 with
      | None => false
      | Some i => let p := nth i v 0%Q in
                  independent (map (fun w => let k := (nth i w 0 / p)%Q in map (fun xy => (fst xy - k * snd xy)%Q) (combine w v)) rest) fuel'
      end
  end.
Definition parallelepiped_ok (r : nat) (Q u : poly) (fs : list (poly * nat)) : bool :=
  factored r Q u fs && forallb (fun fk => Nat.ltb 0 (snd fk)) fs
  && match fold_right (fun fk acc => match direction (fst fk), acc with Some d, Some l => Some (d :: l) | _, _ => None end) (Some []) fs with
     | Some ds => forallb (fun d => Nat.eqb (length d) r) ds && independent ds (length ds)
     | None => false
     end.
Axiom LZ : forall r Q u fs, wf r Q = true -> parallelepiped_ok r Q u fs = true -> newton_ge Q (2 ^ length fs).

(* ---- The lattice of the exponential form ---- *)
Fixpoint pivot (g : list Q) (i : nat) : option nat :=
  match g with [] => None | x :: g' => if Qeq_bool x 0 then pivot g' (S i) else Some i end.
Definition columns (gens : list (list Q)) : list nat :=
  filter (fun j => existsb (fun g => negb (Qeq_bool (nth j g 0%Q) 0)) gens) (seq 0 (fold_right (fun g k => Nat.max (length g) k) 0%nat gens)).
Fixpoint nat_distinct (l : list nat) : bool := match l with [] => true | x :: r => negb (existsb (Nat.eqb x) r) && nat_distinct r end.
(* Generators in Q^n with distinct pivots (hence linearly independent), blocks on disjoint variables, every
   exponent of P'_B and Q'_B with one coordinate per generator. *)
Definition lattice_ok (n : nat) (bs : list lblock) : bool :=
  forallb (fun B => forallb (fun g => Nat.eqb (length g) n) (lgens B) && wf (length (lgens B)) (lP B) && wf (length (lgens B)) (lQ B)) bs
  && (match fold_right (fun B acc => match acc with Some l => Some (map (fun g => pivot g 0) (lgens B) ++ l) | None => None end) (Some []) bs with
      | Some ps => if forallb (fun p => match p with Some _ => true | None => false end) ps
                   then nat_distinct (map (fun p => match p with Some i => i | None => 0%nat end) ps) else false
      | None => false end)
  && nat_distinct (flat_map (fun B => columns (lgens B)) bs).

(* Lemmas L5 and LP (with L1, L2, L4): F = c + Σ_B P'_B/Q'_B on disjoint variables, each block in lowest terms and
   Newt(Q'_B) with at least k_B vertices: every head for F has at least Π_B k_B atoms. *)
Axiom L5_LP : forall n F c bs ks, lattice_ok n bs = true -> expform n F c bs ->
  Forall (fun B => coprime (length (lgens B)) (lP B) (lQ B)) bs -> Forall2 (fun B k => newton_ge (lQ B) k) bs ks ->
  mstar_ge n F (fold_right mult 1%nat ks).

(* Lemma LR's premise, Lemmas L2–L4 (docs/mathematics.md §5): for F = c + P_B/Q' in lowest terms, with
   P' = c·Q' + P_B, a head with at most m atoms gives an admissible cofactor g on the box of L3. *)
Axiom LR_box : forall n F c B m h, lattice_ok n [B] = true -> expform n F c [B] ->
  coprime (length (lgens B)) (lP B) (lQ B) -> represents n h F -> (length h <= m)%nat ->
  exists g, admissible (length (lgens B)) (norm (padd (pscale c (lQ B)) (lP B))) (norm (lQ B)) m g.

(* Lemma LR: a replayed refutation tree at m proves m*(F) >= m + 1 (the replay's soundness is HFTree's theorem). *)
Theorem tree_bound : forall n F c B m mults t, lattice_ok n [B] = true -> expform n F c [B] ->
  coprime (length (lgens B)) (lP B) (lQ B) ->
  replay_tree (length (lgens B)) (norm (padd (pscale c (lQ B)) (lP B))) (norm (lQ B)) m mults t = true ->
  mstar_ge n F (S m).
Proof.
  intros n F c B m mults t Hl He Hc Hr h Hh.
  destruct (Compare_dec.le_lt_dec (length h) m) as [Hle|Hgt]; [|exact Hgt].
  destruct (LR_box n F c B m h Hl He Hc Hh Hle) as [g Hg].
  destruct (refutation_sound _ _ _ _ _ _ Hr g Hg).
Qed.
