"""Command line: `headfusion analyze | search | certify | verify | explore` (one module per command)."""

from headfusion.cli.parser import build_parser
from headfusion.cli.run import main

__all__ = ["build_parser", "main"]
