"""One symbol, one meaning: the certificate's notation table, and lemma tags turned into references.

`notation_rows` lists every symbol the document uses with its single meaning (rows for the
lemmas a certificate prints only when it prints them); the template shows the table once,
in Section 2, and the tests check that no symbol is defined twice.  The letter e is always
Euler's number; points of a lattice are p, the j-th unit vector is 1_j, witnesses are ω.

`lemma_refs` turns the kernel's lemma tags in a statement ("Lemma LK", "Lemmas L3, L4") into
references to the printed lemmas, which are printed under these identifiers.
"""

from __future__ import annotations

import re

# (symbols, meaning, the lemmas or flags that need the row — any one of them — or None for every certificate)
NOTATION: tuple[tuple[tuple[str, ...], str, tuple[str, ...] | None], ...] = (
    ((r"q", r"q_j"), r"the query and its coordinates", None),
    ((r"e",), r"Euler's number, and nothing else", None),
    ((r"\sigma",), r"the logistic function $\sigma(z)=1/(1+e^{-z})$", ("sigma",)),
    ((r"\operatorname{attn}",), r"$\operatorname{attn}([\langle k_1,q\rangle,\dots],[v_1,\dots])=\sum_iv_ix^{k_i}/\sum_ix^{k_i}$: the head with these logits, weights $1$ and these values", ("attn",)),
    ((r"H", r"N", r"D"), r"a head $H=N/D$, its numerator and denominator (exponential polynomials)", None),
    ((r"k_i", r"b_i", r"\mu_i", r"v_i"), r"key, bias, weight $\mu_i=e^{b_i}$ and value of the atom $i$ of a head", None),
    ((r"a_h", r"c"), r"the scale of head $h$ and the constant of $F=c+\sum_ha_hH_h$", None),
    ((r"x^k",), r"the exponential $q\mapsto e^{\langle k,q\rangle}$; $R_p$ is the coefficient of $x^p$ in $R$", None),
    ((r"\Lambda", r"r", r"\beta_\ell", r"x_\ell"), r"the key lattice, its rank, its basis, $x_\ell=x^{\beta_\ell}$ ($\ell$ indexes lattice coordinates)", None),
    ((r"p",), r"a point of $\Lambda$ (a key, a vertex, a point of a support)", None),
    ((r"\mathbf{1}_j",), r"the $j$-th unit vector", None),
    ((r"t", r"L"), r"$t=e^{1/L}$ (a transcendental number), $L$ the common denominator of the rational biases", ("t",)),
    ((r"P/Q", r"P'/Q'"), r"$F$ as one quotient of exponential polynomials; the same in lowest terms", None),
    ((r"B", r"\Lambda_B", r"P'_B", r"Q'_B"), r"a \emph{block}: heads joined by common variables, different blocks using disjoint variables; the sublattice of its coordinates ($\Lambda=\bigoplus_B\Lambda_B$); its lowest terms, $Q'=\prod_BQ'_B$. Blocks equal up to renaming their variables are copies of one \emph{shape}, printed once (Section~\ref{sec:expform})", None),
    ((r"S",), r"$S=\operatorname{supp}P'\cup\operatorname{supp}Q'$", ("L2", "L3", "LB", "LR")),
    ((r"\mathcal{C}_j",), r"a connected component of the keys of a head (proof of Lemma~\ref{lem:L2})", ("L2",)),
    ((r"g",), r"the cofactor of a head: $D=gQ'$, $N=gP'$ (Lemma~\ref{lem:L4})", None),
    ((r"\operatorname{Newt}", r"V"), r"Newton polytope (convex hull of the support); $V$ the number of vertices of $\operatorname{Newt}(Q')$ certified in Section~\ref{sec:newton}, so $\#\operatorname{vert}\operatorname{Newt}(Q')\ge V$", None),
    ((r"\omega",), r"a linear functional; a \emph{witness} is an integer $\omega$ maximal on $\operatorname{supp}Q'_B$ exactly at a vertex or the points of an edge", None),
    ((r"d", r"F_d", r"c_d"), r"in the theorem for every $d$: the number of copies of $F$, their sum $c_d+\sum_{j=1}^dF(q_j)$, its constant", ("every_d",)),
    ((r"m", r"m^*"), r"a number of atoms; the least number of atoms of a head equal to $F$", None),
    ((r"u", r"u_i", r"F_u", r"T_i"), r"a direction (several: $u_1,\dots,u_n$), the face limit $F_u(q)=\lim_{\tau\to\infty}F(q+\tau u)$, the atoms of a head on its top face along $u_i$", ("LD",)),
    ((r"\tau",), r"a real number (a parameter; a level of $\omega$)", ("LD", "LS", "V3")),
    ((r"\mathcal{T}",), r"$\mathcal{T}(R)$: the least number of terms of a nonzero Laurent polynomial with nonnegative coefficients divisible by $R$", ("LM", "LH", "LS")),
    ((r"f_k", r"\varphi_k", r"\varphi'_k", r"p_k", r"\delta_k", r"\Lambda_0", r"\Delta", r"l_i", r"g_0"), r"the binomials $f_k=\varphi_kx^{p_k}+\varphi'_kx^{p_k+\delta_k}$ («LH:of a hexagon in Lemma~\ref{lem:LH}»«V3:; two in Lemma~\ref{lem:V3}»), the lattice $\mathbb{Z}\delta_1+\mathbb{Z}\delta_2$, $\Delta=\prod_k(1+x^{\delta_k})$, edge lengths, a cofactor", ("LH", "V3")),
    ((r"Y", r"Z", r"x'", r"y", r"n"), r"the factors $R=YZ$ «LS:of Lemma~\ref{lem:LS} »($\operatorname{supp}Y$ on one level of $\omega$), a point with positive coordinates, the variable of $x_\ell\mapsto x'_\ell y^{\omega_\ell}$, the number of negative roots«V3: ($R=Yf_1f_2$ in Lemma~\ref{lem:V3})»", ("LS", "V3")),
    ((r"\Gamma", r"\Gamma_*", r"\varepsilon", r"\vartheta", r"\mathcal{T}_Y", r"\mathcal{T}_\Gamma", r"U_k", r"h_i", r"z", r"i_1", r"i_2"),
     r"in Lemma~\ref{lem:V3}: an integer matrix with $\Gamma\varepsilon=0$ and its substitution $x^p\mapsto x^{\Gamma p}$, the difference $\delta_1-\delta_2$, $3$ or $4$, proved bounds for $\mathcal{T}(Y)$ and $\mathcal{T}(\Gamma_*Y)$; in its proof the roots $-U_k$, the sums $h_i$, the variable $z=U_2/U_1$ and the levels of the middle and top slices", ("V3",)),
    ((r"\Psi", r"j"), r"a polynomial in one variable and an odd order (Lemma~\ref{lem:Q4})", ("Q4",)),
    ((r"w_i", r"a_i", r"v_2", r"O_n", r"\mathcal{S}"), r"in Lemma~\ref{lem:V2}: the binomials $1+w_ix^{a_i}$ dividing $R$, the 2-adic valuation, the classes modulo $2^n$ met by a multiple, its class sums", ("V2",)),
    ((r"o_i", r"D_c"), r"in Lemma~\ref{lem:CD}: the odd parts $a_i/A$ of the scales over the class modulus $A$, the class polynomials $D=\sum_cx^cD_c(x^A)$", ("CD",)),
    ((r"s", r"\nu_i"), r"a number of binomials; the multiplicity of binomial $i$", ("LZ",)),
    ((r"\mathcal{A}", r"\mathcal{Q}"), r"polytopes (in the proofs, $\operatorname{Newt}(g)$ and $\operatorname{Newt}(Q')$)", ("L5",)),
    ((r"f", r"\varepsilon_0", r"\varepsilon_1", r"\varphi_0", r"\varphi_1", r"\eta", r"\operatorname{rem}_f"), r"a factor of $Q'$, the exponents and coefficients of a binomial $f=\varphi_0x^{\varepsilon_0}+\varphi_1x^{\varepsilon_1}$, a vector with $\langle\eta,\varepsilon_1-\varepsilon_0\rangle=1$, the remainder of $P'$ by $f$", ("LC",)),
    ((r"\kappa", r"A", r"A'", r"\chi"), r"a substitution $x_\ell\mapsto y^{\kappa_\ell}$ (its variable $y$); B\'ezout cofactors; a common factor", ("LB",)),
    ((r"\operatorname{width}_\ell", r"w_\ell"), r"the width (largest minus least) of coordinate $\ell$ over a support; $w_\ell=\operatorname{width}_\ell S$", ("L3", "LB", "LR")),
    ((r"\xi",), r"a difference of two exponents (points) of one polynomial", ("LZ", "LB")),
    ((r"\mathcal{J}", r"\mathcal{J}^c", r"\Lambda_{\mathcal{J}}"), r"a set of blocks, the other blocks, $\Lambda_{\mathcal{J}}=\bigoplus_{B\in\mathcal{J}}\Lambda_B$ (Lemma~\ref{lem:LK})", ("LK",)),
    ((r"M_B", r"K_B", r"\rho_B", r"\rho^p", r"C_B", r"\alpha"), r"a sublattice of $\Lambda_B$ and its index; a positive tilt $x\mapsto\rho_B\odot x$ ($x_\ell\mapsto\rho_\ell x_\ell$ on the coordinates of $B$) and $\rho^p=\prod_\ell\rho_\ell^{p_\ell}$; the common class sum; a class", ("LK",)),
    ((r"\delta", r"\operatorname{len}", r"\zeta"), r"the primitive direction of an edge, lattice length ($\operatorname{len}(p_0,p_1)$ of a segment, $\operatorname{len}(R)$ of a polynomial on a segment), $\zeta=x^\delta$", ("LE",)),
    ((r"\psi", r"\hat P"), r"the vertex of $\mathcal{A}$ paired with a vertex of $\mathcal{Q}$; the terms of $P'$ on a top level of $Q'$", ("LE",)),
    ((r"G", r"\gamma", r"E"), r"the box of $g$ for $m$ atoms, a point of it ($g=\sum_{\gamma\in G}g_\gamma x^\gamma$), $E=G+\operatorname{supp}Q'$", ("LR",)),
    ((r"\theta",), r"Farkas multipliers", ("LR",)),
    ((r"\pi", r"\lambda"), r"a coordinate permutation with $P'_{\pi p}=\lambda P'_p$, $Q'_{\pi p}=\lambda Q'_p$", ("image",)),
)


def notation_rows(lemmas: set[str]) -> list[tuple[dict[str, str], dict[str, str]]]:
    """The notation table for a certificate printing `lemmas` (ids such as 'L5'; 'attn' when a head is written so),
    in two columns read down."""
    rows = [{"symbols": ", ".join(f"${s}$" for s in symbols), "meaning": _printed(meaning, lemmas)}
            for symbols, meaning, needs in NOTATION if needs is None or set(needs) & lemmas]
    half = (len(rows) + 1) // 2
    blank = {"symbols": "", "meaning": ""}
    return [(rows[i], rows[half + i] if half + i < len(rows) else blank) for i in range(half)]


_PART = re.compile(r"«([0-9A-Z]+):([^«»]*)»")


def _printed(meaning: str, lemmas: set[str]) -> str:
    """The meaning with each part «ID:text» kept only when Lemma ID is printed (a row shared by two lemmas cites only
    the printed ones: a reference to an unprinted lemma is undefined)."""
    return _PART.sub(lambda m: m.group(2) if m.group(1) in lemmas else "", meaning).replace("(; ", "(")


_TAG = r"L[0-9A-Z]+"
_LEMMAS = re.compile(rf"\bLemma(s?) ({_TAG}(?:(?:, | and ){_TAG})*)")


def lemma_refs(text: str) -> str:
    """'Lemma LK' -> 'Lemma~\\ref{lem:LK}', 'Lemmas L3, L4' -> 'Lemmas~\\ref{lem:L3}, \\ref{lem:L4}'."""

    def one(match: re.Match) -> str:
        tags = re.sub(_TAG, lambda t: rf"\ref{{lem:{t.group(0)}}}", match.group(2))
        return f"Lemma{match.group(1)}~{tags}"

    return _LEMMAS.sub(one, text)
