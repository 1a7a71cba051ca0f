"""Bounds: Newton polytopes (L4, L5), face limits (L6), the product upper bound."""
