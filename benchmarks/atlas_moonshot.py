"""Compare an atlas of Σ_i σ(a_i q) with the number of distinct subset sums of the scales (DESIGN §9's conjecture).

Usage: python benchmarks/atlas_moonshot.py OUT/atlas.json
Prints one line per point where m* is not decided or differs from the subset-sum count, and a summary.
The numbers come from the atlas's certificates (each replayed by the kernel when it was written).
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from headfusion.proof.atlas import moonshot_subset_sums


def main(path: str) -> int:
    rows = json.load(open(path, encoding="utf-8"))["rows"]
    compared = moonshot_subset_sums(rows)
    equal = sum(1 for r in compared if r["minimum"] == r["subset_sums"])
    for r in compared:
        if r["minimum"] != r["subset_sums"]:
            status = "open" if r["minimum"] is None else "COUNTEREXAMPLE"
            print(f"{status}: {r['point']} lower {r['lower']} upper {r['upper']} m* {r['minimum']} subset sums {r['subset_sums']}")
    lemmas = Counter(row["lemma"] for row in rows)
    print(f"{len(rows)} points: m* = number of distinct subset sums on {equal}; "
          f"{sum(1 for r in compared if r['minimum'] is None)} open; lower bounds by {dict(sorted(lemmas.items(), key=str))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
