#!/usr/bin/env python3
"""Issue 17's "settles", measured on turned copies of each character (release build).

Usage (from the repo root): python3 tools/settle_ensemble.py [BIN] [K] [FILE...] > runs.txt
Each .glb/.vrm file (the zoo by default) is wrapped under a new root node turned k x 0.7 deg
about +Y for k = 0..K-1 (K defaults to 8), as another tool might place it; the copy is
generated and run passive (drives and balance off) for 10 s with `simulate --poses`. A passive
run is chaotic: a turn of a degree moves which body creeps last, so one file says little. Per
run it prints the fastest body origin after 5 s and in the last second, as a share of the
generated character's height per second (the bar: 1%), then a summary line: runs over the bar
after 5 s, and runs with anything moving in the last second. Two processes at a time.
With STABILIZE=1 in the environment each generated copy is run after `edit --stabilize`.
"""
import csv, math, os, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/ragdoll-tuner"
K = int(sys.argv[2]) if len(sys.argv) > 2 else 8
ZOO = "../shared/assets/zoo"
FILES = sys.argv[3:] or sorted(
    os.path.join(ZOO, f) for f in os.listdir(ZOO) if f.endswith((".glb", ".vrm"))
)
TURN_DEG = 0.7
LATE_S = 5.0

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acceptance  # noqa: E402  (its `run` and `wrapped_copy`)

acceptance.BIN = BIN
run = acceptance.run


def turned(src, dst, deg):
    """`src` with its scene's roots under a new node turned `deg` about +Y."""
    a = math.radians(deg) / 2
    acceptance.wrapped_copy(src, dst, {"name": "turn", "rotation": [0, math.sin(a), 0, math.cos(a)]})


def late_speeds(poses, height):
    """(share after LATE_S, its body and time, share in the last second) of `height` per s."""
    prev, late, last = {}, (0.0, "", 0.0), 0.0
    rows = list(csv.DictReader(open(poses)))
    t_end = max(float(r["time_s"]) for r in rows)
    for r in rows:
        t, bone = float(r["time_s"]), r["bone"]
        p = (float(r["px"]), float(r["py"]), float(r["pz"]))
        if bone in prev and t > prev[bone][0] and t > LATE_S:
            v = math.dist(p, prev[bone][1]) / (t - prev[bone][0]) / height
            if v > late[0]:
                late = (v, bone, t)
            if t > t_end - 1.0:
                last = max(last, v)
        prev[bone] = (t, p)
    return late, last


def one(job):
    src, k, tmp = job
    name = f"{os.path.splitext(os.path.basename(src))[0]} {k}"
    base = os.path.join(tmp, name.replace(" ", "_"))
    turned(src, base + ".in.glb", k * TURN_DEG)
    g = run("generate", base + ".in.glb", "-o", base + ".gen.glb", "--json")
    if "error" in g:
        return f"{name} generate failed: {g['error']}", None
    if os.environ.get("STABILIZE") == "1":
        p = subprocess.run([BIN, "edit", base + ".gen.glb", "-o", base + ".gen.glb", "--stabilize"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return f"{name} stabilize failed: {p.stderr.strip()[:200]}", None
    r = run("simulate", base + ".gen.glb", "--passive", "--seconds", "10", "--json",
            "--poses", base + ".csv")
    if "error" in r:
        return f"{name} simulate failed: {r['error']}", None
    (v, bone, t), last = late_speeds(base + ".csv", g["height"])
    for ext in (".in.glb", ".gen.glb", ".csv"):
        os.remove(base + ext)
    paused = f" paused: {r['paused']}" if r.get("paused") else ""
    return f"{name} {100 * v:.3f}% {bone}@{t:.2f} last={100 * last:.3f}%{paused}", (v, last)


def main():
    tmp = tempfile.mkdtemp()
    jobs = [(f, k, tmp) for f in FILES for k in range(K)]
    over = moving = done = 0
    with ThreadPoolExecutor(2) as ex:
        for line, figures in ex.map(one, jobs):
            print(line, flush=True)
            if figures:
                done += 1
                over += figures[0] >= 0.01
                moving += figures[1] > 0.0
    print(f"{over} of {done} runs faster than 1% of the height per second after {LATE_S:g} s; "
          f"{moving} with a body moving in the last second")


if __name__ == "__main__":
    main()
