"""headfusion: exact attention-head fusion, with checkable certificates."""

__version__ = "0.1.0"
