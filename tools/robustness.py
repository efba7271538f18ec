#!/usr/bin/env python3
"""Issue 19's designed robustness, measured with a release build as the issue states it.

Usage (from the repo root): python3 tools/robustness.py [BIN] [FILE...] > table.md
For each character (generated first when it has no physics): `tune --survive-dv 0.5
--fall-dv 1.5 --assist 0` with the default budget and seed, then independent `simulate` runs
of the file before (its own gains at assist 0) and after: standing 10 s, and 6 s runs with a
push at 1 s on the balance pelvis of Δv times the whole mass along the 8 directions the tune
report names (`directions[].world`, `mass_kg`). Prints one markdown row per character.
TUNE_ARGS adds arguments to `tune` (probes, e.g. TUNE_ARGS="--budget 110").
"""
import json, os, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/ragdoll-tuner"
ZOO = "../shared/assets/zoo"
DEFAULT = ["assets/mannequin.glb", "../shared/assets/CesiumMan/CesiumMan.glb"] + [
    os.path.join(ZOO, f)
    for f in ["rpm_preview_apose.glb", "ubc_superhero_male_notex.glb", "mannequiny_gdquest.glb",
              "godot_robot.glb", "vrm1_rigid_parts.vrm", "vrm0_avocado_pm.vrm",
              "kaykit_mannequin.glb", "rigify_lumberjack.glb", "q_horse.glb", "q_rat.glb"]
]
FILES = sys.argv[2:] or DEFAULT
EXTRA = os.environ.get("TUNE_ARGS", "").split()


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acceptance  # noqa: E402  (its `run`: one command's JSON, or its error)

acceptance.BIN = BIN
run = acceptance.run


def has_physics(path):
    rep = run("inspect", path, "--json")
    return any(b.get("collider") for b in rep.get("bones", []))


def figures(path, pelvis, dirs, mass):
    """(stood 10 s, survived-at-0.5 angles fallen, felled-at-1.5 angles stood)."""
    def push(d, dv):
        j = [c * dv * mass for c in d["world"]]
        r = run("simulate", path, "--seconds", "6", "--json",
                "--push", f"{pelvis}:{j[0]:.4f},{j[1]:.4f},{j[2]:.4f}@1")
        return d["angle_deg"], r.get("fell") is True
    with ThreadPoolExecutor(2) as ex:
        stand = ex.submit(run, "simulate", path, "--seconds", "10", "--json")
        soft = list(ex.map(lambda d: push(d, 0.5), dirs))
        hard = list(ex.map(lambda d: push(d, 1.5), dirs))
    s = stand.result()
    stood = s.get("fell") is False and s.get("paused") is None
    return stood, [a for a, f in soft if f], [a for a, f in hard if not f]


def cell(stood_b, stood_a):
    yn = lambda x: "yes" if x else "**no**"
    return f"{yn(stood_b)} → {yn(stood_a)}"


def main():
    print("| character (mass) | stands 10 s | survives 0.5 m/s (fell from) | falls at 1.5 m/s (stood) "
          "| hip / stepping after | evaluations | tune wall s |")
    print("|---|---|---|---|---|---|---|")
    tmp = tempfile.mkdtemp()
    print(f"tune reports (--json) in {tmp}", file=sys.stderr)
    for k, f in enumerate(FILES):
        name = os.path.splitext(os.path.basename(f))[0]
        # Files of one name in several folders (each `gen.glb`): the folder names the row,
        # and the index keeps their reports apart.
        if sum(os.path.basename(g) == os.path.basename(f) for g in FILES) > 1:
            name = os.path.basename(os.path.dirname(os.path.abspath(f))) + "/" + name
        tmp_name = f"{k:02d}." + name.replace("/", "_")
        src = f
        if not has_physics(f):
            src = os.path.join(tmp, tmp_name + ".gen.glb")
            run("generate", f, "-o", src)
        before = os.path.join(tmp, tmp_name + ".assist0.glb")
        run("edit", src, "--set", "@balance.assist=0", "-o", before)
        after = os.path.join(tmp, tmp_name + ".tuned.glb")
        t0 = time.time()
        rep = run("tune", src, "-o", after, "--survive-dv", "0.5", "--fall-dv", "1.5",
                  "--assist", "0", "--json", *EXTRA)
        wall = time.time() - t0
        with open(os.path.join(tmp, tmp_name + ".tune.json"), "w") as out:
            json.dump(rep, out)
        if "error" in rep:
            print(f"| {name} | error: {rep['error']} |||||")
            continue
        dirs, mass = fig_dirs(rep), rep["mass_kg"]
        pelvis = run("inspect", after, "--json").get("balance", {}).get("pelvis_bone") or "pelvis"
        b = figures(before, pelvis, dirs, mass)
        a = figures(after, pelvis, dirs, mass)
        fmt = lambda xs: ", ".join(f"{x:g}°" for x in xs) or "none"
        a_after = rep.get("after", {})
        strat = f"hip {a_after.get('hip_kp', 0):.0f}, step {a_after.get('step_gain', 0):.2f}"
        print(f"| {name} ({mass:.1f} kg) | {cell(b[0], a[0])} "
              f"| {8 - len(b[1])} → **{8 - len(a[1])}** of 8 ({fmt(b[1])} → {fmt(a[1])}) "
              f"| {8 - len(b[2])} → **{8 - len(a[2])}** of 8 ({fmt(b[2])} → {fmt(a[2])}) "
              f"| {strat} | {rep.get('evaluations')} | {wall:.1f} |", flush=True)


def fig_dirs(rep):
    for k in ("after", "before"):
        if isinstance(rep.get(k), dict) and rep[k].get("directions"):
            return rep[k]["directions"]
    return rep["directions"]


if __name__ == "__main__":
    main()
