"""Exact algebra: t-polynomials, Laurent polynomials, lattices and the exponential-family form (DESIGN §2)."""
