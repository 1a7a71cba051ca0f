"""Statement layer: expressions, families and TOML specs become the explicit model (heads with exact keys, weights, values)."""
