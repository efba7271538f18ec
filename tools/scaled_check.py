#!/usr/bin/env python3
"""Issue 20's "any scale": every corpus character wrapped under a new root node scaled by
0.01 and by 100, generated, stood 10 s with balance and collapsed passively.

Usage (from the repo root): python3 tools/scaled_check.py [BIN] [FILE...] > table.md
(the corpus below, or the files named).
The scaled copies are written to a temporary directory (never committed). The passive run
lasts long enough for the scaled budget 3·√(H / 1.75 m) (H the reported height in file
units, so a 100 times larger character gets 10 times the time), at least 10 s.
"""
import json, math, os, subprocess, sys, tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/ragdoll-tuner"
ZOO = "../shared/assets/zoo"
FILES = sys.argv[2:] or sorted(
    os.path.join(ZOO, f) for f in os.listdir(ZOO) if f.endswith((".glb", ".vrm"))
) + ["../shared/assets/CesiumMan/CesiumMan.glb", "../shared/assets/Fox/Fox.glb"]


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acceptance  # noqa: E402  (its `run`: one command's JSON, or its error)

acceptance.BIN = BIN
run = acceptance.run


def scaled_copy(path, scale, out):
    """`path` with every scene's roots moved under a new node scaled by `scale`."""
    acceptance.wrapped_copy(path, out, {"name": f"scaled_root_{scale:g}", "scale": [scale] * 3})


def row(path, scale, d):
    src = os.path.join(d, "in.glb")
    out = os.path.join(d, "out.glb")
    scaled_copy(path, scale, src)
    rep = run("generate", src, "-o", out, "--json")
    if "error" in rep:
        return f"| {os.path.basename(path)} | ×{scale:g} | generate failed: {rep['error']} |"
    h = rep["height"]
    budget = 3 * math.sqrt(h / 1.75)
    stand = run("simulate", out, "--seconds", "10", "--json")
    secs = max(10.0, math.ceil(1.5 * budget))
    passive = run("simulate", out, "--passive", "--seconds", f"{secs:g}", "--json")
    v = subprocess.run([BIN, "validate", out], capture_output=True, text=True)
    errors = {0: "none", 1: "errors: " + v.stdout.strip().replace("\n", "; ")[:200]}.get(
        v.returncode, f"unreadable ({v.returncode})")
    if stand.get("fell") is None:
        stand_txt = "no legs: not measured"
    else:
        stand_txt = ("fell at %.2f s" % stand["fell_at_s"]) if stand["fell"] else "stands"
        stand_txt += ", tilt %.1f°" % stand.get("max_torso_tilt_deg", float("nan"))
    stand_txt += ", paused" if stand.get("paused") or passive.get("paused") else ""
    fell = passive.get("fell_at_s")
    if fell is not None:
        fall_txt = f"{fell:.2f} s" + ("" if fell <= budget else " (over budget)")
    elif passive.get("fell") is None:
        fall_txt = "not measured (no legs)"
    else:
        fall_txt = f"does not fall in {secs:g} s"
    return (f"| {os.path.basename(path)} | ×{scale:g} | {h:.3g} | {stand_txt} | {fall_txt} "
            f"(budget {budget:.2f} s) | {errors} |")


def main():
    print("| character | scale | height (file units) | stand 10 s (balance) | passive collapse | doctor errors (`validate`) |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for scale in (0.01, 100.0):
            for p in FILES:
                print(row(p, scale, d), flush=True)


if __name__ == "__main__":
    main()
