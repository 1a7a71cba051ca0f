"""End-to-end timings: certify (with searches and PDF) and verify, as the CLI runs them.

Run: python benchmarks/bench_certify.py   (prints a Markdown table; uses a temporary out/)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = [
    ("certify W --d 3", ["certify", "W", "--d", "3"], 30),
    ("certify W --d 12 --no-search", ["certify", "W", "--d", "12", "--no-search"], 30),
    ("certify W --d 20", ["certify", "W", "--d", "20"], 30),
    ("certify W --d 1000 --no-search --pdf", ["certify", "W", "--d", "1000", "--no-search", "--pdf"], None),
    ("verify W_d12.json", ["verify", "{out}/W_d12.json"], 10),
    ("verify W_d1000.json", ["verify", "{out}/W_d1000.json"], 10),
    ("analyze W --d 10000 --json --no-atoms-list", ["analyze", "W", "--d", "10000", "--json", "--no-atoms-list"], 10),
]


def main() -> None:
    with tempfile.TemporaryDirectory() as out:
        print("| command | seconds | target | exit |")
        print("|---|---|---|---|")
        for label, argv, target in CASES:
            argv = [a.replace("{out}", out) for a in argv]
            if argv[0] == "certify":
                argv += ["--out", out]
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "headfusion", *argv], capture_output=True, text=True, cwd=Path(out))
            seconds = time.perf_counter() - start
            print(f"| `{label}` | {seconds:.1f} | {'≤ ' + str(target) + ' s' if target else '-'} | {proc.returncode} |")


if __name__ == "__main__":
    main()
