(* HFGraphs: the lemmas of graphs and faces that exported certificates cite — grid bounds on 𝒯 (W14, K4GRID, K35;
   docs/mathematics.md §4 "Grid bounds", proofs in templates/lemmas) and disjoint faces (LD, docs/mathematics.md §4),
   with the renaming of a face function to its canonical form.  As in HFAxioms, each axiom is stated as narrowly as
   its lemma over data Coq checks by computation; docs/coq.md says how each was read.  mstar_ge_one is proved. *)
From Coq Require Import List ZArith QArith Reals Qreals Lia.
From HF Require Import HFPoly HFSem HFTree HFAxioms.
Import ListNotations.

(* ---- Grid bounds on 𝒯 (docs/mathematics.md §4, "W14, K4GRID, M12, K35 Grid bounds") ---- *)
(* Vertex monomials m_i = c_i·x^(e_i) with c_i > 0, r coordinates each, and e_i − e_0 (i ≥ 1) linearly independent:
   the substitution of the pattern's variables is injective on the lattice. *)
Definition grid_ok (r : nat) (k : nat) (ms : list (expo * Q)) : bool :=
  Nat.eqb (length ms) k && forallb (fun m => Nat.eqb (length (fst m)) r && posq (snd m)) ms
  && match ms with
     | m0 :: rest => independent (map (fun m => zqvec (vsub (fst m) (fst m0))) rest) (length rest)
     | [] => false
     end.
(* Π over the pattern's edges (i, j) with multiplicity k of (m_i + m_j)^k. *)
Definition grid_poly (ms : list (expo * Q)) (pattern : list (nat * nat * nat)) : poly :=
  pprod (map (fun p => let '(i, j, k) := p in ([nth i ms ([], 0%Q); nth j ms ([], 0%Q)], k)) pattern).
Definition W14_pattern : list (nat * nat * nat) := [(0, 1, 2); (0, 2, 2); (1, 2, 1)]%nat.
Definition K4_pattern : list (nat * nat * nat) := [(0, 1, 1); (0, 2, 1); (0, 3, 1); (1, 2, 1); (1, 3, 1); (2, 3, 1)]%nat.

(* Lemma W14: (m_0+m_1)²(m_0+m_2)²(m_1+m_2) | R ⇒ 𝒯(R) ≥ 14. *)
Axiom W14_grid : forall r R ms, wf r R = true -> grid_ok r 3 ms = true -> pdivides r (grid_poly ms W14_pattern) R -> terms_ge r R 14.
(* Lemma K4GRID: Π_{i<j≤3} (m_i + m_j) | R ⇒ 𝒯(R) ≥ 30. *)
Axiom K4GRID_grid : forall r R ms, wf r R = true -> grid_ok r 4 ms = true -> pdivides r (grid_poly ms K4_pattern) R -> terms_ge r R 30.
(* Theorem K35 (with Lemma M12, whose finite core the Python kernel enumerates): Π_{i<j≤3} (m_i + m_j) | R ⇒ 𝒯(R) ≥ 35. *)
Axiom K35_grid : forall r R ms, wf r R = true -> grid_ok r 4 ms = true -> pdivides r (grid_poly ms K4_pattern) R -> terms_ge r R 35.

(* ---- Every function needs one atom ---- *)
Theorem mstar_ge_one : forall n F, mstar_ge n F 1.
Proof. intros n F h [[Hne _] _]. destruct h as [|a h]; [congruence | simpl; lia]. Qed.

(* ---- Face limits (docs/mathematics.md §3, "Face limits") ---- *)
Fixpoint qdotz (k : list Q) (u : list Z) : Q :=
  match k, u with a :: k', b :: u' => (a * inject_Z b + qdotz k' u')%Q | _, _ => 0%Q end.
Definition qmax (a b : Q) : Q := if Qle_bool a b then b else a.
Definition qmaxl (l : list Q) : Q := match l with [] => 0%Q | x :: r => fold_right qmax x r end.
(* The face of a head in direction u: its atoms of greatest <key, u>.  With positive weights this is the limit of the
   head at q + τ·u as τ → ∞, so F_u = model_eval c (face_heads u heads). *)
Definition top_atoms (u : list Z) (atoms : list qatom) : list qatom :=
  let top := qmaxl (map (fun a => qdotz (qkey a) u) atoms) in filter (fun a => Qeq_bool (qdotz (qkey a) u) top) atoms.
Definition face_heads (u : list Z) (heads : list (Q * list qatom)) : list (Q * list qatom) :=
  map (fun sh => (fst sh, top_atoms u (snd sh))) heads.
(* Every atom of the model: a positive weight and a key in Q^n. *)
Definition heads_ok (n : nat) (heads : list (Q * list qatom)) : bool :=
  forallb (fun sh => forallb (fun a => qpos (qweight a) && Nat.eqb (length (qkey a)) n) (snd sh)) heads.

(* ---- Lemma LD: disjoint faces ---- *)
(* The level <u, key(e)> of a lattice point e of block B (key(e) = Σ_r e_r·g_r), and Σ_B max over supp Q'_B. *)
Definition level (B : lblock) (u : list Z) (e : expo) : Q :=
  fold_right Qplus 0%Q (map (fun kg => (inject_Z (fst kg) * qdotz (snd kg) u)%Q) (combine e (lgens B))).
Definition top_sum (bs : list lblock) (f : lblock -> expo -> Q) : Q :=
  fold_right Qplus 0%Q (map (fun B => qmaxl (map (f B) (supp (lQ B)))) bs).
Fixpoint pairs_ok {A} (p : A -> A -> bool) (l : list A) : bool :=
  match l with [] => true | x :: r => forallb (p x) r && pairs_ok p r end.
(* Directions u_i in Z^n whose faces of Newt(Q') = Σ_B Newt(Q'_B) are pairwise disjoint:
   max(u_i + u_j) < max u_i + max u_j over supp Q' for every pair i < j. *)
Definition disjoint_ok (n : nat) (bs : list lblock) (dirs : list (list Z)) : bool :=
  forallb (fun u => Nat.eqb (length u) n) dirs
  && pairs_ok (fun u w => negb (Qle_bool (top_sum bs (fun B e => level B u e) + top_sum bs (fun B e => level B w e))%Q
                                           (top_sum bs (fun B e => level B u e + level B w e)%Q))) dirs.

(* Lemma LD (with L1, L2, L4): F = c + Σ_h a_h·H_h with positive weights, F = c + Σ_B P'_B/Q'_B on disjoint
   variables, each block in lowest terms, directions with pairwise disjoint faces of Newt(Q'), and m*(F_{u_i}) ≥ k_i
   for the face limits: m*(F) ≥ Σ_i k_i. *)
Axiom LD_faces : forall n c heads bs dirs ks, heads_ok n heads = true -> lattice_ok n bs = true ->
  expform n (model_eval c heads) c bs -> Forall (fun B => coprime (length (lgens B)) (lP B) (lQ B)) bs ->
  disjoint_ok n bs dirs = true ->
  Forall2 (fun u k => mstar_ge n (model_eval c (face_heads u heads)) k) dirs ks ->
  mstar_ge n (model_eval c heads) (fold_right plus 0%nat ks).

(* ---- Canonical forms: m* is unchanged by renaming variables, translating a head's keys and adding a constant ---- *)
(* embed n pi g: the vector of Q^n with g_j at coordinate pi_j and 0 elsewhere. *)
Definition embed (n : nat) (pi : list nat) (g : list Q) : list Q :=
  map (fun i => fold_right (fun pg acc => if Nat.eqb (fst pg) i then snd pg else acc) 0%Q (combine pi g)) (seq 0 n).
Fixpoint qvsub (u w : list Q) : list Q :=
  match u, w with a :: u', b :: w' => (a - b)%Q :: qvsub u' w' | _, _ => u end.
Definition no_atom : qatom := QA [] 0%Q 0%Q.
Definition is_perm (p : list nat) (k : nat) : bool := Nat.eqb (length p) k && nat_distinct p && forallb (fun i => Nat.ltb i k) p.
(* Head g is head f with its atoms reordered by perm, equal scale, weights and values, and keys with
   key(f_perm(i)) − key(f_perm(0)) = embed n pi (key(g_i) − key(g_0)), g's keys in Q^n'. *)
Definition same_head (n n' : nat) (pi : list nat) (f g : Q * list qatom) (perm : list nat) : bool :=
  Qeq_bool (fst f) (fst g) && is_perm perm (length (snd f)) && Nat.eqb (length (snd g)) (length (snd f))
  && match perm, snd g with
     | p0 :: _, g0 :: _ =>
         let f0 := nth p0 (snd f) no_atom in
         forallb (fun pb => let a := nth (fst pb) (snd f) no_atom in let b := snd pb in
                   Qeq_bool (qweight a) (qweight b) && Qeq_bool (qvalue a) (qvalue b) && Nat.eqb (length (qkey b)) n'
                   && qvec_eqb (qvsub (qkey a) (qkey f0)) (embed n pi (qvsub (qkey b) (qkey g0)))) (combine perm (snd g))
     | _, _ => false
     end.
(* A head that is a constant function: scale 0, or all its keys equal. *)
Definition constant_head (f : Q * list qatom) : bool :=
  Qeq_bool (fst f) 0 || match snd f with [] => true | a0 :: r => forallb (fun a => qvec_eqb (qkey a) (qkey a0)) r end.
(* G = model_eval 0 gheads on Q^n' is F = model_eval c fheads on Q^n up to renaming: pi injective into 0..n−1, each
   g-head linked to a distinct f-head (same_head), every other f-head constant, F's weights positive. *)
Definition rename_ok (n n' : nat) (pi : list nat) (fheads gheads : list (Q * list qatom)) (links : list (nat * list nat)) : bool :=
  heads_ok n fheads && Nat.eqb (length pi) n' && nat_distinct pi && forallb (fun i => Nat.ltb i n) pi
  && Nat.eqb (length links) (length gheads) && nat_distinct (map fst links) && forallb (fun l => Nat.ltb (fst l) (length fheads)) links
  && forallb (fun lg => same_head n n' pi (nth (fst (fst lg)) fheads (0%Q, [])) (snd lg) (snd (fst lg))) (combine links gheads)
  && forallb (fun i => existsb (fun l => Nat.eqb (fst l) i) links || constant_head (nth i fheads (0%Q, []))) (seq 0 (length fheads)).
(* F(q) = C + G(q_pi) for a constant C, so a head for F on R^n, its keys restricted to the coordinates pi and its
   values shifted by −C, is a head for G on R^n' with as many atoms: m*(F) ≥ m*(G). *)
Axiom LD_rename : forall n c fheads n' gheads pi links k, rename_ok n n' pi fheads gheads links = true ->
  mstar_ge n' (model_eval 0 gheads) k -> mstar_ge n (model_eval c fheads) k.
