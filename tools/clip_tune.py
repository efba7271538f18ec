#!/usr/bin/env python3
"""Issue 19's clip acceptance, measured with a release build as the issue states it.

Usage (from the repo root): python3 tools/clip_tune.py [BIN] [FILE...] > table.md
For each character with a clip (generated first when it has no physics): `tune --clip NAME
--json` with the default budget and seed, then one loop of the clip with a kinematic root,
before (the generated defaults) and after (`simulate --clip NAME --loops 1 --json`). The
clip is the walk-like one (acceptance.py's choice). Prints one markdown row per character:
the median joint's RMS before and after, the worst joint after, the joint that got most
worse, the tune's wall time, its evaluations, and whether it stands 10 s before and after
(the tune's own reports).
Acceptance: median at least 30% lower, every joint <= 10 deg, none worse by more than 1 deg.
TUNE_ARGS adds arguments to `tune` (probes, e.g. TUNE_ARGS="--bisect 5").
"""
import json, os, sys, tempfile, time

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/ragdoll-tuner"
ZOO = "../shared/assets/zoo"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acceptance  # noqa: E402  (its `run`, `clip_of` and `gltf_json`)

acceptance.BIN = BIN
run = acceptance.run
DEFAULT = sorted(
    os.path.join(ZOO, f) for f in os.listdir(ZOO) if f.endswith((".glb", ".gltf", ".vrm"))
) + ["../shared/assets/CesiumMan/CesiumMan.glb", "../shared/assets/Fox/Fox.glb"]
FILES = sys.argv[2:] or DEFAULT
EXTRA = os.environ.get("TUNE_ARGS", "").split()


def joint_rms(path, clip):
    rep = run("simulate", path, "--clip", clip, "--loops", "1", "--json")
    return {j["name"]: j["rms_error_deg"] for j in rep.get("joints", [])}


def stands(figures):
    s = figures.get("stands_10s")
    return "not measured" if s is None else ("yes" if s else "no")


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")


def row(path, tmp):
    name = os.path.basename(path)
    clip = acceptance.clip_of(acceptance.gltf_json(path))
    if not clip:
        return None
    gen = os.path.join(tmp, name + ".gen.glb")
    rep = run("generate", path, "-o", gen, "--json")
    if "error" in rep:
        return f"| {name} | generate failed: {rep['error']} |"
    out = os.path.join(tmp, name + ".tuned.glb")
    t0 = time.perf_counter()
    tuned = run("tune", gen, "-o", out, "--clip", clip, "--json", *EXTRA)
    wall = time.perf_counter() - t0
    if "error" in tuned:
        return f"| {name} | tune failed: {tuned['error']} |"
    before, after = joint_rms(gen, clip), joint_rms(out, clip)
    m0, m1 = median(before.values()), median(after.values())
    worst = max(after.items(), key=lambda kv: kv[1])
    worse = max(((after[k] - before[k], k) for k in after if k in before), default=(0.0, "-"))
    ok = m1 <= 0.7 * m0 and worst[1] <= 10.0 and worse[0] <= 1.0
    return (
        f"| {name} ({clip}) | {m0:.3f}° → {m1:.3f}° ({100 * (m1 / m0 - 1):+.0f}%) "
        f"| {worst[1]:.2f}° ({worst[0]}) | {worse[0]:+.2f}° ({worse[1]}) | {wall:.1f} "
        f"| {tuned.get('evaluations')} | {stands(tuned['before'])} → {stands(tuned['after'])} "
        f"| {'yes' if ok else 'no'} |"
    )


def main():
    print(f"<!-- {BIN}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f} -->")
    print("| character (clip) | median joint RMS, defaults → tuned | worst joint after | most worsened "
          "| tune wall s | evaluations | stands 10 s | meets |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for f in FILES:
            r = row(f, tmp)
            if r:
                print(r, flush=True)


if __name__ == "__main__":
    main()
