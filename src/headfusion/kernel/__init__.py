"""The trusted kernel (see kernel/README in docs/architecture.md)."""
