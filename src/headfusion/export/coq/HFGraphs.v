(* HFGraphs: the lemmas of graphs and faces that exported certificates cite — grid bounds on 𝒯 (W14, K4GRID, K35;
   docs/mathematics.md §4 "Grid bounds", proofs in templates/lemmas) and disjoint faces (LD, docs/mathematics.md §4),
   with the renaming of a face function to its canonical form.  As in HFAxioms, each axiom is stated as narrowly as
   its lemma over data Coq checks by computation; docs/coq.md says how each was read.  mstar_ge_one and LD_rename
   (with the lemmas of HFRename.v) are proved. *)
From Coq Require Import List Bool ZArith QArith Reals Qreals Lia Lra Permutation.
From HF Require Import HFPoly HFSem HFTree HFAxioms HFRename.
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

(* ---- LD_rename, proved: F(q) = C + G(q_pi) for a constant C, so a head for F on R^n, its keys restricted to the
   coordinates pi and its values shifted by −C, is a head for G on R^n' with as many atoms (HFRename): m*(F) ≥ m*(G). ---- *)
Lemma Q2R_zero : Q2R 0 = 0%R.
Proof. unfold Q2R; simpl; lra. Qed.
Lemma embed_R : forall n pi g, map Q2R (embed n pi g) = rembed n pi (map Q2R g).
Proof.
  intros n pi g; unfold embed, rembed; rewrite map_map; apply map_ext; intro i.
  revert g; induction pi as [|p pi IH]; intro g; destruct g as [|x g]; try apply Q2R_zero.
  unfold rlookup; simpl; destruct (Nat.eqb p i); [reflexivity | apply IH].
Qed.
Lemma rdot_qvsub : forall u w q, length u = length w ->
  rdot (map Q2R (qvsub u w)) q = (rdot (map Q2R u) q - rdot (map Q2R w) q)%R.
Proof.
  induction u as [|a u IH]; intros w q H; destruct w as [|b w]; try discriminate; destruct q as [|x q]; simpl; try lra.
  rewrite IH, Q2R_minus by (simpl in H; lia); lra.
Qed.
Lemma is_perm_perm : forall p k, is_perm p k = true -> Permutation p (seq 0 k).
Proof.
  intros p k H; unfold is_perm in H; apply andb_prop in H; destruct H as [H H3]; apply andb_prop in H; destruct H as [H1 H2].
  apply Nat.eqb_eq in H1; apply NoDup_Permutation_bis; [exact (nat_distinct_NoDup _ H2) | rewrite seq_length; lia |].
  intros i Hi; apply in_seq; rewrite forallb_forall in H3; specialize (H3 i Hi); apply Nat.ltb_lt in H3; lia.
Qed.
Definition atoms_ok (n : nat) (atoms : list qatom) : bool := forallb (fun a => qpos (qweight a) && Nat.eqb (length (qkey a)) n) atoms.
Definition hterm (sh : Q * list qatom) (q : list R) : R := (Q2R (fst sh) * head_eval (map ratom (snd sh)) q)%R.

Lemma qvsub_length : forall u w, length (qvsub u w) = length u.
Proof. induction u as [|a u IH]; intro w; destruct w; simpl; auto. Qed.

(* A linked head: H_f(q) = H_g(q_pi) (its atoms reordered, its keys translated by key(f_perm(0)) − embed(key(g_0))). *)
Lemma same_head_term : forall n n' pi f g perm q, same_head n n' pi f g perm = true -> atoms_ok n (snd f) = true ->
  NoDup pi -> (forall i, In i pi -> (i < n)%nat) -> length pi = n' -> length q = n ->
  hterm f q = hterm g (restrict pi q).
Proof.
  intros n n' pi [s fa] [s' ga] perm q H Hok Hd Hn Hl Hq; unfold same_head in H; simpl in *.
  apply andb_prop in H; destruct H as [H H4]; apply andb_prop in H; destruct H as [H H3]; apply andb_prop in H; destruct H as [H1 H2].
  apply Nat.eqb_eq in H3. unfold hterm; simpl; rewrite (Qeq_eqR _ _ (Qeq_bool_eq _ _ H1)). f_equal.
  destruct perm as [|p0 perm]; [discriminate|]; destruct ga as [|g0 ga]; [discriminate|].
  pose proof (is_perm_perm _ _ H2) as Hperm.
  (* every index of perm names an atom of f: a key in Q^n *)
  assert (Hat : Forall (fun p => length (qkey (nth p fa no_atom)) = n) (p0 :: perm)).
  { apply Forall_forall; intros p Hp. unfold atoms_ok in Hok; rewrite forallb_forall in Hok.
    assert (Hi : In (nth p fa no_atom) fa) by (apply nth_In; apply (Permutation_in _ Hperm), in_seq in Hp; lia).
    specialize (Hok _ Hi); apply andb_prop in Hok; apply Nat.eqb_eq, Hok. }
  apply Forall2_combine in H4; [|apply Permutation_length in Hperm; rewrite seq_length in Hperm; simpl in *; lia].
  set (f0 := nth p0 fa no_atom) in *.
  assert (Hg0 : length (qkey g0) = n').
  { inversion H4 as [|? ? ? ? E]; subst. simpl in E. repeat (apply andb_prop in E; destruct E as [E ?]). apply Nat.eqb_eq; assumption. }
  assert (Hf0 : length (qkey f0) = n) by (inversion Hat; assumption).
  rewrite (head_eval_perm (map ratom fa) (map ratom (map (fun p => nth p fa no_atom) (p0 :: perm)))).
  2: { apply Permutation_map. rewrite <- (map_nth_seq_self fa no_atom) at 1. apply Permutation_map, Permutation_sym, Hperm. }
  apply (head_eval_shift _ _ _ _ (rdot (map Q2R (qkey f0)) q - rdot (map Q2R (qkey g0)) (restrict pi q))%R).
  rewrite map_map; apply Forall2_map_both. refine (Forall2_strengthen _ _ _ _ _ _ Hat H4).
  intros p b Hp E; simpl in E; simpl.
  apply andb_prop in E as [E Hk]; apply andb_prop in E as [E Hb]; apply andb_prop in E as [E Hv]; apply Nat.eqb_eq in Hb.
  split; [apply Qeq_eqR, Qeq_bool_eq, E|]; split; [apply Qeq_eqR, Qeq_bool_eq, Hv|].
  pose proof (rdot_qvec_eqb q _ _ Hk) as K. rewrite rdot_qvsub in K by lia.
  rewrite embed_R, rdot_rembed in K by (try rewrite map_length, qvsub_length; auto; lia). rewrite rdot_qvsub in K by lia. lra.
Qed.
(* A head that is not linked: a constant (scale 0, or every key that of its first atom). *)
Lemma constant_head_term : forall f q q', constant_head f = true -> hterm f q = hterm f q'.
Proof.
  intros [s fa] q q' H; unfold constant_head, hterm in *; simpl in *; apply orb_prop in H; destruct H as [H|H].
  - rewrite (Qeq_eqR _ _ (Qeq_bool_eq _ _ H)), Q2R_zero; ring.
  - f_equal; destruct fa as [|a0 r]; [reflexivity|]. apply (head_eval_const_keys _ (map Q2R (qkey a0))).
    intros a Ha; apply in_map_iff in Ha; destruct Ha as [b [Eb Hb]]; subst a; simpl.
    destruct Hb as [Hb|Hb]; [subst b; split; reflexivity|]. rewrite forallb_forall in H; specialize (H b Hb).
    split; apply rdot_qvec_eqb; exact H.
Qed.

Lemma heads_ok_nth : forall n heads i, heads_ok n heads = true -> atoms_ok n (snd (nth i heads (0%Q, []))) = true.
Proof.
  intros n heads i H; unfold heads_ok in H; rewrite forallb_forall in H.
  destruct (Nat.lt_ge_cases i (length heads)) as [Hi|Hi]; [apply H, nth_In, Hi | rewrite nth_overflow by exact Hi; reflexivity].
Qed.
Definition linked (links : list (nat * list nat)) (i : nat) : bool := existsb (fun l => Nat.eqb (fst l) i) links.
(* The indices of F's heads that no link names. *)
Definition unlinked (links : list (nat * list nat)) (count : nat) : list nat := filter (fun i => negb (linked links i)) (seq 0 count).
(* The linked heads of F at q are the heads of G at q_pi. *)
Lemma linked_sum : forall n n' pi fheads links gheads q, heads_ok n fheads = true ->
  NoDup pi -> (forall i, In i pi -> (i < n)%nat) -> length pi = n' -> length q = n -> length links = length gheads ->
  forallb (fun lg => same_head n n' pi (nth (fst (fst lg)) fheads (0%Q, [])) (snd lg) (snd (fst lg))) (combine links gheads) = true ->
  sumR (map (fun l => hterm (nth (fst l) fheads (0%Q, [])) q) links) = sumR (map (fun g => hterm g (restrict pi q)) gheads).
Proof.
  intros n n' pi fheads links gheads q Hh Hd Hn Hl Hq Hlen H. apply Forall2_combine in H; [|exact Hlen].
  induction H as [|l g links gheads E _ IH]; simpl; [reflexivity|]. rewrite IH by (simpl in Hlen; lia).
  f_equal; apply (same_head_term n n' pi _ _ (snd l)); auto; apply heads_ok_nth, Hh.
Qed.
(* F(q) = c + (the heads not linked) + (the linked heads). *)
Lemma model_split : forall c fheads links q, NoDup (map fst links) -> (forall l, In l links -> (fst l < length fheads)%nat) ->
  model_eval c fheads q = (Q2R c + sumR (map (fun i => hterm (nth i fheads (0%Q, [])) q) (unlinked links (length fheads)))
                          + sumR (map (fun l => hterm (nth (fst l) fheads (0%Q, [])) q) links))%R.
Proof.
  intros c fheads links q Hd Hb. unfold model_eval, unlinked.
  rewrite <- (map_nth_seq_self fheads (0%Q, [])) at 1. rewrite map_map, (sumR_filter (linked links)).
  rewrite <- (map_map fst (fun i => hterm (nth i fheads (0%Q, [])) q)).
  assert (P : Permutation (filter (linked links) (seq 0 (length fheads))) (map fst links)).
  { apply NoDup_Permutation; [apply NoDup_filter, seq_NoDup | exact Hd |].
    intro i; rewrite filter_In, in_seq; unfold linked; rewrite existsb_exists, in_map_iff; split.
    + intros [_ [l [Hl E]]]; apply Nat.eqb_eq in E; exists l; auto.
    + intros [l [E Hl]]; specialize (Hb l Hl); split; [lia | exists l; split; [exact Hl | apply Nat.eqb_eq, E]]. }
  rewrite (sumR_perm _ _ (Permutation_map _ P)). unfold hterm; lra.
Qed.

(* The renaming: G is F up to renaming variables, translating keys and adding a constant, so m*(G) ≥ k ⇒ m*(F) ≥ k. *)
Theorem LD_rename : forall n c fheads n' gheads pi links k, rename_ok n n' pi fheads gheads links = true ->
  mstar_ge n' (model_eval 0 gheads) k -> mstar_ge n (model_eval c fheads) k.
Proof.
  intros n c fheads n' gheads pi links k H HG. unfold rename_ok in H.
  apply andb_prop in H as [H H9]; apply andb_prop in H as [H H8]; apply andb_prop in H as [H H7];
  apply andb_prop in H as [H H6]; apply andb_prop in H as [H H5]; apply andb_prop in H as [H H4];
  apply andb_prop in H as [H H3]; apply andb_prop in H as [H1 H2].
  apply Nat.eqb_eq in H2; apply Nat.eqb_eq in H5; apply nat_distinct_NoDup in H3; apply nat_distinct_NoDup in H6.
  assert (Hn : forall i, In i pi -> (i < n)%nat) by (intros i Hi; rewrite forallb_forall in H4; apply Nat.ltb_lt, H4, Hi).
  assert (Hb : forall l, In l links -> (fst l < length fheads)%nat) by (intros l Hl; rewrite forallb_forall in H7; apply Nat.ltb_lt, H7, Hl).
  set (C := (Q2R c + sumR (map (fun i => hterm (nth i fheads (0%Q, [])) []) (unlinked links (length fheads))))%R).
  (* F(q) = C + G(q_pi) *)
  assert (HF : forall q, length q = n -> model_eval c fheads q = (C + model_eval 0 gheads (restrict pi q))%R).
  { intros q Hq. rewrite (model_split c fheads links q H6 Hb), (linked_sum n n' pi fheads links gheads q); auto.
    unfold C, model_eval; rewrite Q2R_zero.
    rewrite (map_ext_in _ (fun i => hterm (nth i fheads (0%Q, [])) [])); [unfold hterm; lra|].
    intros i Hi; unfold unlinked in Hi; apply filter_In in Hi; destruct Hi as [Hi Hl]; apply negb_true_iff in Hl.
    rewrite forallb_forall in H9; specialize (H9 i Hi); fold (linked links i) in H9; rewrite Hl in H9.
    apply constant_head_term, H9. }
  intros h [Hh Heq]. rewrite <- (restrict_head_length pi C h). apply HG; split.
  - rewrite <- H2; apply (restrict_head_ok n), Hh.
  - intros q' Hq'. rewrite (restrict_head_eval n) by (auto; lia).
    rewrite Heq, HF by apply rembed_length. rewrite restrict_rembed by (auto; lia). ring.
Qed.
