"""The words a reader sees, generated from checked numbers: lemma statements, claim statements.

The kernel compares every stored statement with the text generated here, so a
certificate cannot say more than its checked data.  Proofs of the lemmas are prose in
the LaTeX template; the kernel checks their instances.
"""

from __future__ import annotations

LEMMAS: dict[str, tuple[str, tuple[str, ...], str]] = {
    # id: (name, lemmas its proof cites, statement)
    "L1": ("Merge", (), r"Atoms with equal keys merge; a head is a pair $(N,D)$ of exponential polynomials with positive coefficients in $D$ and $\operatorname{supp}N\subseteq\operatorname{supp}D$, of size $|\operatorname{supp}D|$."),
    "L2": ("Components", ("L1",), r"Let $F=P'/Q'$ with $P',Q'$ exponential polynomials with keys in the lattice $\Lambda$ and $S=\operatorname{supp}P'\cup\operatorname{supp}Q'$. Every head for $F$ can be replaced by a head for $F$ with no more atoms that is connected (keys joined by differences in $S-S$) and has its keys in $\Lambda$."),
    "L3": ("Finite box", ("L2",), r"A connected head with $m$ atoms has keys spanning at most $(m-1)w_\ell$ in each coordinate $\ell$ of $\Lambda$, where $w_\ell$ is the width of $S$ in coordinate $\ell$."),
    "L4": ("Divisibility", (), r"If $\gcd(P',Q')=1$ in $\mathbb{R}[\Lambda]$, every head $N/D=F$ with keys in $\Lambda$ has $D=gQ'$ and $N=gP'$ for an exponential polynomial $g$ with keys in $\Lambda$."),
    "L5": ("Newton polytopes", ("L1", "L2", "L4"), r"For nonzero Laurent polynomials $g,R$, $\operatorname{Newt}(gR)=\operatorname{Newt}(g)+\operatorname{Newt}(R)$ has at least as many vertices as $\operatorname{Newt}(R)$, all in $\operatorname{supp}(gR)$. Hence if $F=P'/Q'$ with $\gcd(P',Q')=1$ in $\mathbb{R}[\Lambda]$, every head for $F$ has at least $\#\operatorname{vert}\operatorname{Newt}(Q')$ atoms."),
    "LP": ("Product", ("L1",), r"For blocks on disjoint variables with $\gcd(P'_B,Q'_B)=1$, $F=c+\sum_B P'_B/Q'_B$ has lowest-terms denominator $Q'=\prod_B Q'_B$; block heads $N_B/D_B$ give a product head with $\prod_B|\operatorname{supp}D_B|$ atoms, and $\operatorname{Newt}(Q')=\prod_B\operatorname{Newt}(Q'_B)$ has $\prod_B\#\operatorname{vert}\operatorname{Newt}(Q'_B)$ vertices."),
    "LC": ("Coprimality certificates", (), r"If $Q'$ is a unit times a product of powers of factors $f$, each coprime to $P'$, then $\gcd(P',Q')=1$. A binomial $f=\varphi_0x^{\varepsilon_0}+\varphi_1x^{\varepsilon_1}$ with $\varepsilon_1-\varepsilon_0$ primitive is irreducible, and for an integer vector $\eta$ with $\langle\eta,\varepsilon_1-\varepsilon_0\rangle=1$ it is coprime to $P'$ if and only if its remainder $\operatorname{rem}_f=\sum_pP'_p\,(-\varphi_0/\varphi_1)^{\langle\eta,p\rangle}x^{p-\langle\eta,p\rangle(\varepsilon_1-\varepsilon_0)}$ is not zero."),
    "LB": ("Bézout identities", ("L5",), r"Let $f$ be a factor of $Q'$ and $\kappa$ an integer vector with $\langle\kappa,p\rangle\ne\langle\kappa,p'\rangle$ for distinct $p,p'\in\operatorname{supp}f$, and write $R(y^\kappa)$ for $R$ with $x_\ell$ replaced by $y^{\kappa_\ell}$. If $A\,P'(y^\kappa)+A'\,f(y^\kappa)$ is a nonzero monomial for Laurent polynomials $A,A'$ in $y$, then $f$ is coprime to $P'$."),
    "LZ": ("Parallelepipeds", ("L5",), r"A unit times a product $f_1^{\nu_1}\cdots f_s^{\nu_s}$ of powers ($\nu_i\ge1$) of $s$ binomials whose exponent differences are linearly independent has a parallelepiped with $2^s$ vertices as its Newton polytope."),
    "LK": ("Residue classes", ("L2", "L4", "L5", "LP"), r"Let $F=P'/Q'$ be in lowest terms and, for each block $B$ of a set $\mathcal{J}$ of blocks, $M_B\subseteq\Lambda_B$ a sublattice of index $K_B$ and $\rho_B$ a vector of positive reals. If the sums of the coefficients of $Q'_B(\rho_B\odot x)$ over the $K_B$ classes of $\Lambda_B/M_B$ all equal one number $C_B\ne0$ for every $B\in\mathcal{J}$, then $m^*(F)\ge\prod_{B\in\mathcal{J}}K_B\cdot\prod_{B\notin\mathcal{J}}\#\operatorname{vert}\operatorname{Newt}(Q'_B)$."),
    "LE": ("Rigid edges", ("L2", "L4", "L5", "LP"), r"Let $F=P'/Q'$ be in lowest terms, for every block $B$ let $V_B$ vertices of $\operatorname{Newt}(Q'_B)$ be given, and $V=\prod_BV_B$. For an edge of $\operatorname{Newt}(Q'_B)$ exposed by an integer vector $\omega$, let $P'_{B,\omega}$ and $Q'_{B,\omega}$ be the terms of $P'_B$ and $Q'_B$ on the top $\omega$-level of $Q'_B$; the edge is \emph{rigid} if $P'_{B,\omega}/Q'_{B,\omega}$ is not constant. If for every block there is a spanning tree of rigid edges on the given vertices (a tree of rigid edges of $\operatorname{Newt}(Q'_B)$ whose vertices are exactly the given ones) and $|\operatorname{supp}Q'|>V$, then $m^*(F)\ge V+1$."),
    "LM": ("Multiples over blocks", ("L1", "L2", "L4", "L5"), r"For a Laurent polynomial $R$ let $\mathcal{T}(R)$ be the least number of terms of a nonzero Laurent polynomial with nonnegative coefficients divisible by $R$. If $F=P'/Q'$ with $\gcd(P',Q')=1$ and $Q'=\prod_BQ'_B$ over blocks on disjoint variables, then $m^*(F)\ge\mathcal{T}(Q')\ge\prod_B\mathcal{T}(Q'_B)$, and $\mathcal{T}(Q'_B)\ge\#\operatorname{vert}\operatorname{Newt}(Q'_B)$."),
    "LH": ("Hexagon", ("L5",), r"Let $f_k=\varphi_kx^{p_k}+\varphi'_kx^{p_k+\delta_k}$ ($k=1,2,3$) have positive coefficients, with $\delta_1,\delta_2$ linearly independent, $\delta_3=\pm\delta_1\pm\delta_2$ and $\varphi'_3/\varphi_3=(\varphi'_1/\varphi_1)^{\pm1}(\varphi'_2/\varphi_2)^{\pm1}$ with the same signs. Then $\mathcal{T}(R)\ge7$ for every $R$ divisible by $f_1f_2f_3$."),
    "LS": ("Slices", ("LM",), r"Let $R=YZ$ up to a unit, with $\operatorname{supp}Y$ on one level of an integer functional $\omega$, and let $x'$ have positive coordinates. If $y\mapsto Z(x'\odot y^\omega)$ ($x_\ell$ replaced by $x'_\ell y^{\omega_\ell}$) is a nonzero Laurent polynomial with $n$ negative roots counted with multiplicity, then $\mathcal{T}(R)\ge(n+1)\,\mathcal{T}(Y)$."),
    "LD": ("Disjoint faces", ("L1", "L2", "L4", "L5"), r"For a direction $u$ let $F_u(q)=\lim_{\tau\to\infty}F(q+\tau u)$. If $F=P'/Q'$ with $\gcd(P',Q')=1$ and $u_1,\dots,u_n$ are integer directions with $\max_{\operatorname{supp}Q'}\langle u_i+u_j,\cdot\rangle<\max_{\operatorname{supp}Q'}\langle u_i,\cdot\rangle+\max_{\operatorname{supp}Q'}\langle u_j,\cdot\rangle$ for all $i\ne j$, then $m^*(F)\ge\sum_im^*(F_{u_i})$."),
    "LG": ("Graphical zonotopes", ("L5", "LC", "LE"), r"Let a block of $F$ be $\sum_{ij\in E}a_{ij}\sigma(\pm(q_i-q_j))$ plus a constant, over the edges of a simple graph $G$ with any orientations and all $a_{ij}\ne0$. Then its lowest-terms denominator $Q'_B$ is the product of its edge binomials (up to a unit), $\operatorname{Newt}(Q'_B)$ is the graphical zonotope of $G$, its vertices are the score vectors of the $a(G)$ acyclic orientations of $G$, every edge of it is rigid, and $|\operatorname{supp}Q'_B|>a(G)$ when $G$ has a cycle."),
    "LN": ("Off the source faces", ("L1", "L4", "L5", "LH"), r"Let $F=c+\sum_{ij}a_{ij}\sigma(\pm(q_i-q_j))$ over the three edges of a triangle on the variables $a,b,c$, all $a_{ij}\ne0$, and let $N/D$ be a head for $F$ with keys in $\Lambda$, $X=\operatorname{Newt}(D)$. Then some term of $D$ lies outside $X_{e_a}\cup X_{e_b}\cup X_{e_c}$, and some term outside $X_{-e_a}\cup X_{-e_b}\cup X_{-e_c}$ ($X_\omega$: the face of $X$ on which $\langle\omega,\cdot\rangle$ is largest)."),
    "K": ("Tournaments on four vertices", ("L2", "L4", "L5", "LD", "LH", "LN"), r"Let $F=c+\sum_{ij}a_{ij}\sigma(\pm(q_i-q_j))$ over the six edges of $K_4$, all $a_{ij}\ne0$ (with $a_{ij}=1$: the tournament function of $K_4$ in any orientation), and let the factors of $Q'$ be the six binomials $x_i+x_j$. Then $m^*(F)\ge32$."),
    "LU": ("Unit roots", ("L1", "L2", "L4"), r"Let $F=c+P'/Q'$ with $\gcd(P',Q')=1$ have one block, of rank 1, with $Q'=u\prod_{d\in\mathcal{D}}\Phi_d(x)$ for a unit $u$ and the cyclotomic polynomials $\Phi_d$ of a nonempty set $\mathcal{D}$ of orders; let $L=\operatorname{lcm}\mathcal{D}$ and $\mathcal{D}/g=\{d/\gcd(d,g):d\in\mathcal{D}\}$. If $\mathcal{D}/g$ is none of $\{3\},\{4\},\{6\}$ for $g=1,\dots,L$, and, if it is $\{2\}$ for some $g$, $G=(1+x^{L/2})P'/Q'$ is a Laurent polynomial with a term $x^e$, $L/2\nmid e$, then no head with at most 3 atoms represents $F$: $m^*(F)\ge4$."),
    "Q4": ("Terms on a line", ("LU",), r"Let $j\ge3$ be odd. A nonzero polynomial $\Psi(z)$ with nonnegative coefficients and $\Phi_j(z)\mid\Psi$ has at least $3$ terms, and at least $4$ if also $(1+z)\mid\Psi$."),
    "V3": ("Three slices", ("LM", "Q4", "LS"), r"Let $R$ be a unit times $Yf_1f_2$, with $\operatorname{supp}Y$ on one level of an integer functional $\omega$ and binomials $f_k=\varphi_kx^{p_k}+\varphi'_kx^{p_k+\delta_k}$ ($k=1,2$) with positive coefficients and $\langle\omega,\delta_k\rangle=1$, such that $\varepsilon=\delta_1-\delta_2$ is primitive. Let $\Gamma$ be an integer matrix with $\Gamma\varepsilon=0$ and $\Gamma_*$ the substitution $x^p\mapsto x^{\Gamma p}$; let $\mathcal{T}_Y\le\mathcal{T}(Y)$ and $\mathcal{T}_\Gamma\le\mathcal{T}(\Gamma_*Y)$, and $\vartheta=4$ if $1+\frac{\varphi'_1\varphi_2}{\varphi_1\varphi'_2}x^{\varepsilon}$ divides $Y$, else $\vartheta=3$. Then $\mathcal{T}(R)\ge\min(4\mathcal{T}_Y,\,3\mathcal{T}_Y+\mathcal{T}_\Gamma,\,2\mathcal{T}_Y+\max(\mathcal{T}_Y,\vartheta\mathcal{T}_\Gamma))$."),
    "V2": ("2-adic classes", ("LM",), r"Let $R$ be a Laurent polynomial in one variable $x$ and $1+w_ix^{a_i}$ ($i=1,\dots,j$; $w_i>0$, $a_i\ge1$) binomials dividing $R$ whose exponents $a_i$ have pairwise distinct 2-adic valuations $v_2(a_i)$. Then $\mathcal{T}(R)\ge2^j$."),
    "CD": ("Class Descartes", ("LM", "V2"), r"Let $R$ be a Laurent polynomial in one variable $x$, $A\ge1$, and $1+w_ix^{Ao_i}$ ($i=1,\dots,n$; $w_i>0$, $o_i$ odd, $w_i^{o_k}\ne w_k^{o_i}$ for $i\ne k$) binomials dividing $R$; let $1+w'_lx^{a_l}$ ($l=1,\dots,j$) be binomials dividing $R$ with pairwise distinct 2-adic valuations $v_2(a_l)<v_2(A)$. Then $\mathcal{T}(R)\ge(n+1)\,2^j$."),
    "TP": ("Pairs of scales", ("L1", "L2", "L4", "LU"), r"For positive integers $a\ne b$, no head with at most 3 atoms represents $\sigma(aq)+\sigma(bq)$, and a head $N(u)/D(u)$ of $G(u_1,u_2)=\sigma(u_1)+\sigma(u_2)$ with $n$ atoms gives the head $N(aq,bq)/D(aq,bq)$ of $\sigma(aq)+\sigma(bq)$ with at most $n$ atoms."),
    "PB": ("Pairs with biases", ("L1", "L2", "L4"), r"Let $a,b$ be positive integers, $w_1,w_2>0$, $\varepsilon_1,\varepsilon_2\in\{+1,-1\}$, $c$ real, and $F(q)=c+\varepsilon_1\sigma(aq+\log w_1)+\varepsilon_2\sigma(bq+\log w_2)$. If $a\ne b$, no head with at most 3 atoms represents $F$: $m^*(F)\ge4$. If $a=b$ and $w_1\ne w_2$, no head with at most 2 atoms represents $F$: $m^*(F)\ge3$."),
    "PF": ("Pairs with every bias", ("L1", "PB"), r"Let $G(u_1,u_2)=\varepsilon_1\sigma(u_1)+\varepsilon_2\sigma(u_2)$ with $\varepsilon_1,\varepsilon_2\in\{+1,-1\}$. For positive integers $a\ne b$ and real $\beta_1,\beta_2$, no head with at most 3 atoms represents $G(aq+\beta_1,bq+\beta_2)$, and a head $N(u)/D(u)$ of $G$ with $n$ atoms gives a head of $G(aq+\beta_1,bq+\beta_2)$ with at most $n$ atoms: its atoms' keys $\langle k,(a,b)\rangle$ and weights multiplied by $e^{\langle k,(\beta_1,\beta_2)\rangle}$."),
    "P4": ("Two scales", ("L1", "L2", "L4", "PB"), r"Let $F(q)=c+\sum_i\varepsilon_i\sigma(a_iq+\log w_i)$ with positive integers $a_i$, not all equal, weights $w_i>0$, pairwise distinct pairs $(a_i,w_i)$ and real $\varepsilon_i\ne0$, and let $F=c+P'/Q'$ in lowest terms in $x=e^q$. If every $1+w_ix^{a_i}$ divides $Q'$ and $\sum_{i:\,a_i=a'}\varepsilon_iw_i\ne0$ for $a'=\min_ia_i$, then no head with at most 3 atoms represents $F$: $m^*(F)\ge4$."),
    "LF": ("Families of graphs", ("L5", "LD", "LE", "LG", "LZ"), r"A cycle $C_n$ ($n\ge3$) has $2^n-2$ acyclic orientations and $2^n-1$ forests, and a tree on $n$ vertices has $2^{n-1}$ of each. For the tournament function $F_n$ of $K_n$ ($n\ge3$) the $n$ faces of $\operatorname{Newt}(Q'_n)$ along $\mathbf{1}_i$ are pairwise disjoint, with face functions tournaments of $K_{n-1}$ plus constants, so $m^*(F_n)\ge n\,m^*(F_{n-1})$. Hence for every $n$: $m^*=2^n-1$ for $C_n$, $m^*=2^{n-1}$ for a tree, and $7\cdot n!/6\le m^*(F_n)\le|\operatorname{supp}Q'_n|$ for $K_n$."),
    "R": ("Restriction to a line", ("L1",), r"For an integer vector $u$ let $f_u(t)=F(t\,u)$ on $t\in\mathbb{R}$, a sum of heads whose keys are the numbers $\langle k,u\rangle$ for the keys $k$ of $F$'s heads. Then $m^*(F)\ge m^*(f_u)$."),
    "LR": ("Refutations", ("L2", "L3", "L4", "L5"), r"Let $F=P'/Q'$ be in lowest terms. If a refutation tree for $m$ closes all its leaves, no head with at most $m$ atoms represents $F$."),
    "W14": ("A triangle with two doubled edges", ("LM",), r"Let $W=(x_0+x_1)^2(x_0+x_2)^2(x_1+x_2)$ and $m_i=c_ix^{e_i}$ ($i=0,1,2$) positive monomials with $e_1-e_0$, $e_2-e_0$ linearly independent. Then $\mathcal{T}(R)\ge14$ for every $R$ divisible by $W(m_0,m_1,m_2)$."),
    "K4GRID": ("A four-by-four grid", ("LM", "LH"), r"Let $m_i=c_ix^{e_i}$ ($i=0,\dots,3$) be positive monomials with $e_1-e_0$, $e_2-e_0$, $e_3-e_0$ linearly independent. Then $\mathcal{T}(R)\ge30$ for every $R$ divisible by $\prod_{i<j}(m_i+m_j)$."),
    "M12": ("Middle slices", ("LM",), r"Let $D\ne0$ be a homogeneous polynomial with nonnegative coefficients in $x,y,z$, divisible by $(x+y)(x+z)(y+z)$, whose exponents of each variable take exactly four values with odd gaps. Then $|\operatorname{supp}D|\ge12$."),
    "K35": ("Tournaments on four vertices, numerator-free", ("K4GRID", "M12", "LH"), r"Let $m_i=c_ix^{e_i}$ ($i=0,\dots,3$) be positive monomials with $e_1-e_0$, $e_2-e_0$, $e_3-e_0$ linearly independent. Then $\mathcal{T}(R)\ge35$ for every $R$ divisible by $\prod_{i<j}(m_i+m_j)$; in particular $m^*\ge35$ for the tournament function of $K_4$ in any orientation."),
}


def tex_int(value: int) -> str:
    """An integer for LaTeX: in full up to 30 digits, else 2^k or its first digits and length."""
    text = str(value)
    if len(text) <= 30:
        return text
    if value > 0 and value & (value - 1) == 0:
        return rf"2^{{{value.bit_length() - 1}}}"
    return rf"{text[:8]}\dots\ ({len(text)}\text{{ digits}})"


def tex_rational(num: int, den: int) -> str:
    """A rational for LaTeX."""
    if den == 1:
        return str(num)
    return rf"{'-' if num < 0 else ''}\tfrac{{{abs(num)}}}{{{den}}}"


def plural(n: int, word: str) -> str:
    """'1 edge', '3 edges'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def definition(heads: int, constant: tuple[int, int], dimension: int, terms: int) -> str:
    return (rf"$F$ is the sum of {'the ' + plural(heads, 'head') if heads != 1 else 'the head'} of Table~\ref{{tab:heads}}{f' plus the constant ${tex_rational(*constant)}$' if constant[0] else ''}, "
            rf"on $q\in\mathbb{{R}}^{{{dimension}}}$; its multi-head cost is {terms} head-atom terms.")


def exp_form(blocks: int, rank: int) -> str:
    return (rf"$F=c+\sum_B P'_B/Q'_B$ over {blocks} blocks on disjoint variables, in the lattice $\Lambda=\bigoplus_B\Lambda_B$" if blocks != 1 else r"$F=c+P'_B/Q'_B$ for its one block, in the lattice $\Lambda=\Lambda_B$") + (
            rf" of rank {rank}; {'each' if blocks != 1 else 'and'} $P'_B/Q'_B$ equals the block's sum of heads $P_B/Q_B$ ($P'_BQ_B=P_BQ'_B$ coefficient by coefficient).")


def coprime(shapes: int, binomials: int, bezout: int) -> str:
    how = " and ".join(f"{plural(n, 'factor')} {rule}" for n, rule in ((binomials, "by the binomial rule"), (bezout, r"by a B\'ezout identity")) if n)
    return (rf"$\gcd(P'_B,Q'_B)=1$ for {'each of the ' + plural(shapes, 'block shape') if shapes != 1 else 'the block shape'}"
            rf"{f' ({how})' if how else ''}, so $F=P'/Q'$ is in lowest terms.")


FOUND = {"product": "", "reduced": "", "uniform": "a uniform head", "interval": "an interval head"}  # how a block head was found, checked
NOTED = ("blocks", "search")  # provenance the producer notes (DESIGN §10) and the kernel does not check: never stated here


def construction(atoms: int, blocks: int, found: set[str] = frozenset()) -> str:
    how = " and ".join(FOUND[k] for k in FOUND if k in found and FOUND[k])
    return (rf"The {'product head built from the blocks' if blocks != 1 else 'block head'}{f' (found as {how})' if how else ''} represents $F$ "
            rf"exactly with ${tex_int(atoms)}$ atoms; hence $m^*(F)\le {tex_int(atoms)}$.")


def newton(vertices: int, how: str, exact: bool = False) -> str:  # exact: counted (LG, LZ), not listed by witnesses
    return (rf"$\operatorname{{Newt}}(Q')$ has {'exactly' if exact else 'at least'} ${tex_int(vertices)}$ vertices ({'counted' if exact else 'certified'}"
            rf" by {how}); hence $m^*(F)\ge {tex_int(vertices)}$.")


def _sum(values: list[int]) -> str:
    """b_1 + … + b_k with equal terms grouped: '4\\cdot 7', '7 + 2\\cdot 4'."""
    counts = {v: values.count(v) for v in sorted(set(values), reverse=True)}
    return " + ".join(f"{n}\\cdot {tex_int(v)}" if n > 1 else tex_int(v) for v, n in counts.items())


def faces(count: int, bounds: list[int], bound: int, nested: bool) -> str:
    where = "" if nested else r" of Table~\ref{tab:faces}"
    return (rf"The {plural(count, 'face')} of $\operatorname{{Newt}}(Q')${where} are pairwise disjoint, and their face functions need "
            rf"at least ${_sum(bounds)}$ atoms (each by its own replayed claims); by Lemma LD, $m^*(F)\ge {tex_int(bound)}$.")


LEMMA_OF = {"lower:newton": "L5", "lower:classes": "LK", "lower:unit-roots": "LU", "lower:edges": "LE", "lower:hexagon": "LH",
            "lower:slices": "LS", "lower:three-slices": "V3", "lower:two-adic": "V2", "lower:faces": "LD", "lower:graph": "LG",
            "lower:theorem-k": "K", "refutation": "LR",
            "lower:grid": "K35"}  # a sub-function's claim, as a reader names it


def line(u: list[int], bound: int, by: str | None) -> str:
    vector, lemma = ",".join(str(v) for v in u), LEMMA_OF.get(by, by) if by else "L1"  # None: f_u is a constant
    return (rf"On the line $q=t\,u$, $u=({vector})$, $F$ restricts to the function $f_u$ of Table~\ref{{tab:line}}, which needs at least "
            rf"${tex_int(bound)}$ atoms (by its own replayed claim, Lemma {lemma}); by Lemma R, $m^*(F)\ge {tex_int(bound)}$.")


def multiples(lemma: str, shapes: int, mus: list[int], bound: int, lemmas: list[str], mixed: bool) -> str:
    which = "one block shape" if shapes == 1 else f"each of {shapes} block shapes"
    what = {"LH": r"three binomials forming a tilted hexagon (Table~\ref{tab:hexagon}) divide $Q'_B$, so $\mathcal{T}(Q'_B)\ge7$",
            "LS": rf"the factorisations $Q'_B=YZ$ of Table~\ref{{tab:slices}} give $\mathcal{{T}}(Q'_B)\ge {', '.join(map(tex_int, mus))}$",
            "V3": rf"the three-slice data of Table~\ref{{tab:threeslices}} give $\mathcal{{T}}(Q'_B)\ge {', '.join(map(tex_int, mus))}$",
            "V2": rf"the binomial factors of Table~\ref{{tab:twoadic}} give $\mathcal{{T}}(Q'_B)\ge {', '.join(map(tex_int, mus))}$",
            "grid": rf"the grid factors of Table~\ref{{tab:grids}} give $\mathcal{{T}}(Q'_B)\ge {', '.join(map(tex_int, mus))}$"}[lemma]
    names = ", ".join(lemmas[:-1]) + f" and {lemmas[-1]}"
    return rf"For {which}, {what}; by Lemmas {names}{', with L5 for the other blocks' if mixed else ''}, $m^*(F)\ge {tex_int(bound)}$."


def refutation(m: int, leaves: dict[str, int]) -> str:
    if "empty box" in leaves:
        return rf"No head with at most {m} atoms represents $F$: the box $G$ of $g$ is empty; hence $m^*(F)\ge {m + 1}$."
    extra = "".join(f", {leaves[k]} {name}" for k, name in (("image", "symmetric images"), ("interior", "interior")) if leaves[k])
    return (rf"No head with at most {m} atoms represents $F$: a refutation tree with {sum(leaves.values()) - leaves['split']} leaves "
            rf"({leaves['count']} count, {leaves['layer']} layer, {leaves['farkas']} Farkas{extra}) closes every case (Lemma LR); hence $m^*(F)\ge {m + 1}$.")


def classes(indices: list[int], bound: int, mixed: bool) -> str:
    shapes = "one block shape" if len(indices) == 1 else f"{len(indices)} block shapes"
    others = ", and Lemma L5 for the other blocks" if mixed else ""
    return (rf"For {shapes} the class sums of $Q'_B(\rho_B\odot x)$ modulo a sublattice of index {', '.join(map(str, indices))} "
            rf"are all equal and nonzero (Table~\ref{{tab:classes}}); by Lemma LK{others}, $m^*(F)\ge {tex_int(bound)}$.")


def edges(count: int, vertices: int, support: int) -> str:
    return (rf"Spanning trees of {plural(count, 'rigid edge')}, each an edge of its block's Newton polytope with its exposing witness (Table~\ref{{tab:edges}}), "
            rf"join the vertices the Newton bound certifies in each block; $V={tex_int(vertices)}$ and $|\operatorname{{supp}}Q'|={tex_int(support)}>V$, "
            rf"so by Lemma LE, $m^*(F)\ge {tex_int(vertices + 1)}$.")


def graph(graphs: list[tuple[int, list]], vertices: int, support: int) -> str:
    sizes = "; ".join(f"{n} vertices and {len(edges)} edges" for n, edges in graphs)
    which = "its block is the tournament function of a simple graph" if len(graphs) == 1 else "each block shape is the tournament function of a simple graph"
    return (rf"Read from the model, {which} ({sizes}; Section~\ref{{sec:graph}}) whose edge binomials are the factors of $Q'_B$: by"
            rf" Lemma LG, $\operatorname{{Newt}}(Q')$ has exactly $V={tex_int(vertices)}$ vertices, the acyclic orientations counted by the"
            rf" verifier, and all its edges are rigid; $|\operatorname{{supp}}Q'|={tex_int(support)}>V$, so by Lemma LE, $m^*(F)\ge {tex_int(vertices + 1)}$.")


def unit_roots(orders: list[int], lcm: int, halving: int | None, term: int | None) -> str:
    factors, orders_text = "".join(r"\Phi_{%d}" % d for d in orders), ",".join(map(str, orders))
    two = rf"; it is $\{{2\}}$ for $g={halving}$, and $G=(1+x^{{{lcm // 2}}})P'_B/Q'_B$ has the term $x^{{{term}}}$, ${lcm // 2}\nmid{term}$" if halving else ""
    return (rf"$Q'_B$ is a unit times ${factors}$; for $\mathcal{{D}}=\{{{orders_text}\}}$ and $g=1,\dots,{lcm}$, $\mathcal{{D}}/g$ is "
            rf"never $\{{3\}}$, $\{{4\}}$ or $\{{6\}}${two}; by Lemma LU, $m^*(F)\ge4$.")


def pairs(a: str, b: str) -> str:
    return (rf"Every member $F_{{{a},{b}}}(q)=\sigma({a}q_1)+\sigma({b}q_1)$ of the family (read from the spec's template) is $F({a}q_1,{b}q_1)$ "
            rf"for the function $F(q_1,q_2)=\sigma(q_1)+\sigma(q_2)$ of this certificate; by Lemma TP, $m^*(F_{{{a},{b}}})\ge4$ for all positive integers ${a}\ne {b}$.")


def pair_biased(a: int, b: int) -> str:
    which = rf"two scales ${a}\ne {b}$" if a != b else rf"one scale ${a}$ with two distinct weights"
    return (rf"In normal form (Table~\ref{{tab:normalform}}) $F$ is a constant plus $\pm\sigma$ of {which}; by Lemma PB, "
            rf"$m^*(F)\ge {4 if a != b else 3}$.")


def two_scales(scales: list[int], least: int) -> str:
    return (rf"In normal form (Table~\ref{{tab:normalform}}) $F$ has the scales ${','.join(map(str, scales))}$, every factor $1+w_ix^{{a_i}}$ divides"
            rf" $Q'_B$, and the weights at the least scale ${least}$ have a nonzero signed sum; by Lemma P4, $m^*(F)\ge4$.")


def _signed(signs: list, first: str, second: str) -> str:
    return rf"{'-' if signs[0] < 0 else ''}\sigma({first}){'-' if signs[1] < 0 else '+'}\sigma({second})"


def pairs_every_bias(names: list[str], signs: list) -> str:
    a, b, b1, b2 = names
    return (rf"Every member $F_{{{a},{b},{b1},{b2}}}(q)={_signed(signs, f'{a}q_1+{b1}', f'{b}q_1+{b2}')}$ of the family (read from the spec's template)"
            rf" is $G({a}q_1+{b1},{b}q_1+{b2})$ for the function $G(u_1,u_2)={_signed(signs, 'u_1', 'u_2')}$ of this certificate; by Lemma PF,"
            rf" $m^*(F_{{{a},{b},{b1},{b2}}})\ge4$ for all positive integers ${a}\ne {b}$ and all real ${b1},{b2}$.")


def every_pair(lower: int, upper: int, names: list[str], signs: list | None = None) -> str:
    index, terms = ",".join(names), [f"{n}q_1" + (f"+{names[i + 2]}" if len(names) == 4 else "") for i, n in enumerate(names[:2])]
    bound = rf"m^*(F_{{{index}}})={lower}" if lower == upper else rf"{lower}\le m^*(F_{{{index}}})\le {upper}"
    biases = rf" and all real ${names[2]},{names[3]}$" if len(names) == 4 else ""
    return rf"For all positive integers ${names[0]}\ne {names[1]}${biases}, the function $F_{{{index}}}(q)={_signed(signs or [1, 1], *terms)}$ satisfies ${bound}$."


GRAPH_CLASSES = {"cycle": ("the cycle $C_n$", r"m^*(F_n)=2^n-1"), "tree": ("a tree on $n$ vertices", r"m^*(F_n)=2^{n-1}"),
                 "complete": ("the complete graph $K_n$", r"7\cdot n!/6\le m^*(F_n)\le|\operatorname{supp}Q'_n|")}


def graph_family(kind: str, first: int, last: int) -> str:
    return (rf"The members $n={first},\dots,{last}$ of the family (those the verifier rebuilds from its spec) are tournament functions of {GRAPH_CLASSES[kind][0]}"
            rf" (read from their heads), with the counts of acyclic orientations and forests of Lemma LF (recomputed).")


def graph_theorem(kind: str, first: int) -> str:
    return (rf"For every $n\ge{first}$, the tournament function $F_n=\sum_{{ij}}\sigma(\pm(q_i-q_j))$ of {GRAPH_CLASSES[kind][0]}, with its edges"
            rf" oriented in any way, satisfies ${GRAPH_CLASSES[kind][1]}$.")


def head(atoms: int) -> str:
    return rf"A head with {atoms} atoms represents $F$ exactly (coefficient identity); hence $m^*(F)\le {atoms}$."


def testimony(m: int) -> str:
    return rf"Solver testimony, not checked: a solver reported \emph{{unsat}} for a head with at most {m} atoms."


def undecided(m: int) -> str:
    return rf"Not decided: the search for a head with at most {m} atoms ended without a verdict."


def theorem(lower: int, upper: int) -> str:
    if lower == upper:
        return rf"$m^*(F)={tex_int(lower)}$."
    return rf"${tex_int(lower)}\le m^*(F)\le {tex_int(upper)}$."


def every_d(lower: int, upper: int) -> str:
    bound = rf"m^*(F_d)={tex_int(lower)}^d" if lower == upper else rf"{tex_int(lower)}^d\le m^*(F_d)\le {tex_int(upper)}^d"
    return (rf"For every $d\ge1$ and every constant $c_d$, the sum $F_d(q)=c_d+\sum_{{j=1}}^d F(q_j)$ of $d$ copies of $F$ on "
            rf"disjoint variables $q_1,\dots,q_d$ satisfies ${bound}$.")


def theorem_k(bound: int, nested: bool) -> str:
    where = "" if nested else r" (Table~\ref{tab:theorem-k})"
    return (rf"Read from the model, $F$ is a constant plus $\sum_{{ij}}a_{{ij}}\sigma(\pm(q_i-q_j))$ over the six edges of $K_4$, all $a_{{ij}}\ne0$, the factors of $Q'$"
            rf" its six edge binomials; its four source faces and four sink faces{where} are pairwise disjoint, each with a triangle's face function;"
            rf" by Lemma~\ref{{lem:K}}, $m^*(F)\ge {bound}$.")
