"""Buckets computed by the real Unleash and GrowthBook Python SDKs, for FeatureFlags' tests.

Reads one JSON line per id from the file named by its argument: {"id": ..., "group": ..., "seed": ...}; writes one line per id:
Unleash's normalized value, then GrowthBook's hash versions 1 and 2 (Python's repr of the float).
"""
import json
import sys

from UnleashClient.utils import normalized_hash
from growthbook.core import gbhash

out = []
for line in open(sys.argv[1], encoding="utf-8"):
    item = json.loads(line)
    out.append(
        "%d %r %r"
        % (
            normalized_hash(item["id"], item["group"]),
            gbhash(item["seed"], item["id"], 1),
            gbhash(item["seed"], item["id"], 2),
        )
    )
sys.stdout.write("\n".join(out) + "\n")
