"""Proof: the claims DAG with its evidence, certify orchestration, analysis and explore reports."""
