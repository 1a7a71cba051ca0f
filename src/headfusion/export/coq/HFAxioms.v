(* HFAxioms: one axiom per lemma of docs/mathematics.md §3–§5 that the exported certificates cite.
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

(* ---- Lemma LE, rigid edges (docs/mathematics.md §4) ---- *)
(* e lies on the segment [u, w]: e − u = t·(w − u) with 0 <= t <= 1 (all 2×2 minors zero, projection in range). *)
Fixpoint minors_zero (x d : expo) : bool :=
  match x, d with
  | a :: x', b :: d' => forallb (fun p => Z.eqb (a * snd p - fst p * b)%Z 0%Z) (combine x' d') && minors_zero x' d'
  | _, _ => true
  end.
Definition on_segment (e u w : expo) : bool :=
  let d := vsub w u in let x := vsub e u in
  minors_zero x d && Z.leb 0 (zdotZ x d) && Z.leb (zdotZ x d) (zdotZ d d).
Definition level_max (c : expo) (l : list expo) : Z := fold_right (fun e acc => Z.max (zdotZ c e) acc) (match l with [] => 0%Z | e :: _ => zdotZ c e end) l.
Definition coef_at (p : poly) (e : expo) : Q := fold_right (fun t acc => if expo_eqb (fst t) e then (snd t + acc)%Q else acc) 0%Q p.
(* An edge [u, w] of Newt(Q'_B) exposed by c, P'_B not above Q'_B along c, and the face limit P'_c/Q'_c not constant. *)
Definition edge_ok (P Q : poly) (u w c : expo) : bool :=
  let S := supp Q in let top := level_max c S in
  let face := filter (fun e => Z.eqb (zdotZ c e) top) S in
  negb (expo_eqb u w) && mem u face && mem w face && forallb (fun e => on_segment e u w) face
  && forallb (fun e => Z.leb (zdotZ c e) top) (supp P)
  && let Pc := filter (fun t => Z.eqb (zdotZ c (fst t)) top) (norm P) in
     let Qc := filter (fun t => Z.eqb (zdotZ c (fst t)) top) (norm Q) in
     negb (is_zerob (padd (pscale (coef_at (norm Q) u) Pc) (pscale (- coef_at (norm P) u) Qc))).
(* The edges join the listed vertices into a spanning tree: V − 1 edges between listed vertices, no cycle. *)
Fixpoint label (l : list (expo * nat)) (e : expo) : nat :=
  match l with [] => 0%nat | (f, k) :: r => if expo_eqb e f then k else label r e end.
Fixpoint joins (part : list (expo * nat)) (es : list (expo * expo * expo)) : bool :=
  match es with
  | [] => true
  | (u, w, _) :: r => let a := label part u in let b := label part w in
      negb (Nat.eqb a b) && joins (map (fun ek => (fst ek, if Nat.eqb (snd ek) a then b else snd ek)) part) r
  end.
Definition rigid_ok (P Q : poly) (vs : list expo) (es : list (expo * expo * expo)) : bool :=
  Nat.eqb (S (length es)) (length vs) && forallb (fun x => let '(u, w, c) := x in mem u vs && mem w vs && edge_ok P Q u w c) es
  && joins (combine vs (seq 0 (length vs))) es.
(* Lemma LE (with L5, LT and LP): every block in lowest terms with witnessed vertices V_B joined by a spanning tree of
   rigid edges, and |supp Q'| = Π_B |supp Q'_B| > Π_B V_B ⇒ m*(F) >= Π_B V_B + 1. *)
Axiom LE_LP : forall n F c bs (data : list (list (expo * expo) * list (expo * expo * expo))),
  lattice_ok n bs = true -> expform n F c bs ->
  Forall (fun B => coprime (length (lgens B)) (lP B) (lQ B)) bs ->
  Forall2 (fun B d => witnesses_ok (lQ B) (fst d) = true /\ rigid_ok (lP B) (lQ B) (map fst (fst d)) (snd d) = true) bs data ->
  (fold_right mult 1%nat (map (fun d => length (fst d)) data) < fold_right mult 1%nat (map (fun B => length (supp (lQ B))) bs))%nat ->
  mstar_ge n F (S (fold_right mult 1%nat (map (fun d => length (fst d)) data))).

(* ---- Terms of nonnegative multiples (docs/mathematics.md, LM, LH, LS, V3) ---- *)
(* terms_ge r R k: 𝒯(R) ≥ k, i.e. every nonzero Laurent polynomial D with r coordinates per exponent and
   nonnegative coefficients that R divides in Q[Λ] has at least k terms. *)
Definition nonneg (p : poly) : bool := forallb (fun t => Qle_bool 0 (snd t)) (norm p).
Definition terms_ge (r : nat) (R : poly) (k : nat) : Prop :=
  forall D, wf r D = true -> is_zerob D = false -> nonneg D = true -> pdivides r R D -> (k <= length (norm D))%nat.

(* A checked division: f·h = p with h in Q[Λ]. *)
Definition divides_by (r : nat) (f p h : poly) : bool := wf r h && peqb (pmul f h) p.
Lemma divides_by_ok : forall r f p h, divides_by r f p h = true -> pdivides r f p.
Proof. intros r f p h H; apply andb_prop in H; destruct H; exists h; split; assumption. Qed.
(* R = u·S with u one nonzero term (a unit of Q[Λ]). *)
Definition unit_times (r : nat) (R S u : poly) : bool :=
  wf r u && (match norm u with [_] => true | _ => false end) && peqb R (pmul u S).

(* Lemmas L1, L2, L4 with LM (multiples over blocks): F = c + Σ_B P'_B/Q'_B on disjoint variables, each block in
   lowest terms and 𝒯(Q'_B) ≥ k_B: every head for F has at least Π_B k_B atoms. *)
Axiom LM_terms : forall n F c bs ks, lattice_ok n bs = true -> expform n F c bs ->
  Forall (fun B => coprime (length (lgens B)) (lP B) (lQ B)) bs -> Forall2 (fun B k => terms_ge (length (lgens B)) (lQ B) k) bs ks ->
  mstar_ge n F (fold_right mult 1%nat ks).

(* Lemma L5 for multiples: Newt(D) = Newt(h) + Newt(R), so 𝒯(R) ≥ #vert Newt(R). *)
Axiom L5_terms : forall r R k, wf r R = true -> newton_ge R k -> terms_ge r R k.

(* A binomial φ·x^u + ψ·x^w (two terms in normal form, φ, ψ > 0): (δ = w − u, φ, ψ). *)
Definition posq (x : Q) : bool := negb (Qle_bool x 0).
Definition binom (f : poly) : option (expo * Q * Q) :=
  match norm f with [(u, a); (w, b)] => if posq a && posq b then Some (vsub w u, a, b) else None | _ => None end.
Definition zqvec (d : expo) : list Q := map inject_Z d.
Definition vcomb (a b : Z) (d1 d2 : expo) : expo := map (fun xy => (a * fst xy + b * snd xy)%Z) (combine d1 d2).

(* Lemma LH (hexagon): three binomials with positive coefficients, δ_1, δ_2 independent, δ_3 = s_1δ_1 + s_2δ_2
   (s_i = ±1) and λ_3 = λ_1^s_1·λ_2^s_2 (λ_k = ψ_k/φ_k: a tilted hexagon), whose product divides R: 𝒯(R) ≥ 7. *)
Definition hexagon_ok (r : nat) (f1 f2 f3 : poly) : bool :=
  wf r f1 && wf r f2 && wf r f3 &&
  match binom f1, binom f2, binom f3 with
  | Some (d1, a1, b1), Some (d2, a2, b2), Some (d3, a3, b3) =>
      Nat.eqb (length d1) r && Nat.eqb (length d2) r && Nat.eqb (length d3) r && independent [zqvec d1; zqvec d2] 2
      && existsb (fun s => let (s1, s2) := s : Z * Z in
                   expo_eqb d3 (vcomb s1 s2 d1 d2) && Qeq_bool (b3 / a3) (Qpower (b1 / a1) s1 * Qpower (b2 / a2) s2))
                 [(1, 1); (1, -1); (-1, 1); (-1, -1)]%Z
  | _, _, _ => false
  end.
Axiom LH_hexagon : forall r R f1 f2 f3, wf r R = true -> hexagon_ok r f1 f2 f3 = true ->
  pdivides r (pmul (pmul f1 f2) f3) R -> terms_ge r R 7.

(* Supp p on one level of the integer functional ω (and p ≠ 0). *)
Definition one_level (omega : expo) (p : poly) : bool :=
  match supp p with [] => false | e :: es => forallb (fun e' => Z.eqb (zdotZ omega e') (zdotZ omega e)) es end.
(* p(x′ ⊙ s^ω) as a Laurent polynomial in one variable s: x^e ↦ x′^e·s^<ω,e>. *)
Fixpoint qmono (x : list Q) (e : expo) : Q := match x, e with a :: x', k :: e' => (Qpower a k * qmono x' e')%Q | _, _ => 1%Q end.
Definition at_point (x : list Q) (omega : expo) (p : poly) : poly := map (fun t => ([zdotZ omega (fst t)], (snd t * qmono x (fst t))%Q)) p.
Definition roots_poly (roots : list (Q * nat)) : poly := pprod (map (fun rk => ([([1%Z], 1%Q); ([0%Z], fst rk)], snd rk)) roots).
Definition root_count (roots : list (Q * nat)) : nat := fold_right (fun rk k => (snd rk + k)%nat) 0%nat roots.

(* Lemma LS (slices, Descartes): R = u·A·B (u a unit), supp A on one ω-level, a point x′ with r positive rational
   coordinates, B(x′ ⊙ s^ω) ≠ 0 divisible by Π_i (s + ρ_i)^k_i with every ρ_i > 0, and 𝒯(A) ≥ k_A:
   𝒯(R) ≥ (Σ k_i + 1)·k_A. *)
Definition slices_ok (r : nat) (R A B u : poly) (omega : expo) (x : list Q) (roots : list (Q * nat)) : bool :=
  wf r A && wf r B && unit_times r R (pmul A B) u && Nat.eqb (length omega) r && one_level omega A
  && Nat.eqb (length x) r && forallb posq x && forallb (fun rk => posq (fst rk)) roots
  && negb (is_zerob (at_point x omega B)).
Axiom LS_slices : forall r R A B u omega x roots kA, wf r R = true -> slices_ok r R A B u omega x roots = true ->
  pdivides 1 (roots_poly roots) (at_point x omega B) -> terms_ge r A kA -> terms_ge r R (S (root_count roots) * kA).

(* Lemma V3 (three slices): R = u·A·f_1·f_2 (u a unit), supp A on one ω-level, f_k binomials with positive
   coefficients and <ω, δ_k> = ±1 (oriented to +1: δ_k ↦ −δ_k, λ_k ↦ 1/λ_k), ε = δ_1 − δ_2 with gcd 1, an integer
   matrix Γ (rows of length r) with Γε = 0 and Γ_*A ≠ 0, 𝒯(A) ≥ k_A, 𝒯(Γ_*A) ≥ k_L, and ϑ = 3, or ϑ = 4 when
   1 + (λ_1/λ_2)·x^ε divides A: 𝒯(R) ≥ min(4k_A, 3k_A + k_L, 2k_A + max(k_A, ϑ·k_L)). *)
Definition oriented (omega : expo) (f : poly) : option (expo * Q) :=
  match binom f with
  | Some (d, a, b) => if Z.eqb (zdotZ omega d) 1 then Some (d, b / a)%Q
                      else if Z.eqb (zdotZ omega d) (-1) then Some (vscaleZ (-1) d, a / b)%Q else None
  | None => None
  end.
Definition project (G : list expo) (p : poly) : poly := map (fun t => (map (fun row => zdotZ row (fst t)) G, snd t)) p.
Definition line_factor (r : nat) (eps : expo) (lam : Q) : poly := [(repeat 0%Z r, 1%Q); (eps, lam)].
Definition three_ok (r : nat) (R A f1 f2 u : poly) (omega : expo) (G : list expo) : bool :=
  wf r A && wf r f1 && wf r f2 && unit_times r R (pmul A (pmul f1 f2)) u && Nat.eqb (length omega) r && one_level omega A
  && match oriented omega f1, oriented omega f2 with
     | Some (d1, _), Some (d2, _) => let eps := vsub d1 d2 in
         Z.eqb (fold_right Z.gcd 0%Z eps) 1 && negb (Nat.eqb (length G) 0)
         && forallb (fun row => Nat.eqb (length row) r && Z.eqb (zdotZ row eps) 0) G
     | _, _ => false
     end
  && negb (is_zerob (project G A)).
Definition theta_ok (r : nat) (A f1 f2 : poly) (omega : expo) (theta : nat) : Prop :=
  theta = 3%nat \/ (theta = 4%nat /\ match oriented omega f1, oriented omega f2 with
                                    | Some (d1, l1), Some (d2, l2) => pdivides r (line_factor r (vsub d1 d2) (l1 / l2)) A
                                    | _, _ => False end).
Axiom V3_three_slices : forall r R A f1 f2 u omega G kA kL theta, wf r R = true -> three_ok r R A f1 f2 u omega G = true ->
  terms_ge r A kA -> terms_ge (length G) (project G A) kL -> theta_ok r A f1 f2 omega theta ->
  terms_ge r R (Nat.min (4 * kA) (Nat.min (3 * kA + kL) (2 * kA + Nat.max kA (theta * kL)))).
Definition theta4_by (r : nat) (A f1 f2 : poly) (omega : expo) (h : poly) : bool :=
  match oriented omega f1, oriented omega f2 with
  | Some (d1, l1), Some (d2, l2) => divides_by r (line_factor r (vsub d1 d2) (l1 / l2)) A h
  | _, _ => false
  end.
Lemma theta4_ok : forall r A f1 f2 omega h, theta4_by r A f1 f2 omega h = true -> theta_ok r A f1 f2 omega 4.
Proof.
  intros r A f1 f2 omega h H; right; split; [reflexivity|]; unfold theta4_by in H.
  destruct (oriented omega f1) as [[d1 l1]|]; destruct (oriented omega f2) as [[d2 l2]|]; try discriminate.
  exact (divides_by_ok _ _ _ _ H).
Qed.
Lemma theta3_ok : forall r A f1 f2 omega, theta_ok r A f1 f2 omega 3.
Proof. intros; left; reflexivity. Qed.

(* Lemma V2 (2-adic classes; rank 1, rational weights): binomials 1 + w_i·x^(a_i) with a_i ≥ 1 and w_i > 0, each dividing
   R, whose exponents have pairwise distinct 2-adic valuations: 𝒯(R) ≥ 2^j for j of them. *)
Fixpoint val2 (a : positive) : nat := match a with xO a' => S (val2 a') | _ => O end.
Definition level_binomial (aw : Z * Q) : poly := [([0%Z], 1%Q); ([fst aw], snd aw)].
Definition twoadic_ok (levels : list (Z * Q)) : bool :=
  forallb (fun aw => Z.ltb 0 (fst aw) && posq (snd aw)) levels && nat_distinct (map (fun aw => val2 (Z.to_pos (fst aw))) levels).
Axiom V2_two_adic : forall R levels, wf 1 R = true -> twoadic_ok levels = true ->
  Forall (fun aw => pdivides 1 (level_binomial aw) R) levels -> terms_ge 1 R (2 ^ length levels).
