#!/usr/bin/env python3
"""Designed robustness as a rate: pushes of slightly different sizes, because one push per
direction is a single run of a chaotic system (session 31: the tuned Wendigo survives 0.5
m/s forward with the impulse written to 3 decimals and falls with 4).

Usage (from the repo root): python3 tools/push_ensemble.py BIN FILE [DV] [K]
FILE is a tuned (or generated) character. For each of the 8 directions `tune` names (read
from `tune --budget 0 --bisect 0 --json`: no search, the file is not changed), runs
`simulate --seconds 6 --push` at assist 0 with Δv = DV × (1 + 0.002 k), k = -K..K (default
0.5 m/s, K = 2), a push at 1 s on the balance pelvis of Δv times the whole mass. Prints how
many of the runs per direction did not fall, and the total.
"""
import os, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acceptance  # noqa: E402  (its `run`: one command's JSON, or its error)

acceptance.BIN = sys.argv[1]
FILE = sys.argv[2]
DV = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
K = int(sys.argv[4]) if len(sys.argv) > 4 else 2


def main():
    with tempfile.TemporaryDirectory() as tmp:
        rep = acceptance.run("tune", FILE, "-o", os.path.join(tmp, "unused.glb"), "--budget", "0",
                             "--bisect", "0", "--survive-dv", f"{DV}", "--assist", "0", "--json")
    assert "error" not in rep, rep
    mass = rep["mass_kg"]
    pelvis = acceptance.run("inspect", FILE, "--json")["balance"]["pelvis_bone"]

    def one(job):
        d, dv = job
        j = [c * dv * mass for c in d["world"]]
        r = acceptance.run("simulate", FILE, "--seconds", "6", "--json", "--set", "@balance.assist=0",
                           "--push", f"{pelvis}:{j[0]:.6g},{j[1]:.6g},{j[2]:.6g}@1")
        assert "error" not in r, r
        return d["direction"], r.get("fell") is False

    jobs = [(d, DV * (1 + 0.002 * k)) for d in rep["before"]["directions"] for k in range(-K, K + 1)]
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(one, jobs))
    by = {}
    for name, stood in results:
        by.setdefault(name, []).append(stood)
    print(", ".join(f"{n} {sum(v)}/{len(v)}" for n, v in by.items()))
    print(f"{os.path.basename(FILE)}: survived {sum(s for _, s in results)} of {len(results)} pushes at {DV} m/s")


main()
