#!/usr/bin/env python3
"""Issue 20's acceptance figures for every character, measured with a release build.

Usage (from the repo root): python3 tools/acceptance.py [BIN] [FILE...] > table.md
For each character (the corpus below, or the files named, e.g. characters of your own): generate (wall time, one process), stand 10 s with balance, passive
collapse (drives and balance off), and two loops of its walk clip (run, fly or idle where
there is no walk) with a kinematic root. Prints one markdown row per character.
"""
import json, math, os, struct, subprocess, sys, tempfile, time

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/ragdoll-tuner"
ZOO = "../shared/assets/zoo"
FILES = sys.argv[2:] or sorted(
    os.path.join(ZOO, f) for f in os.listdir(ZOO) if f.endswith((".glb", ".gltf", ".vrm"))
) + ["../shared/assets/CesiumMan/CesiumMan.glb", "../shared/assets/Fox/Fox.glb", "assets/mannequin.glb"]


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"error": (p.stderr or p.stdout).strip()[:200]}


def clip_of(doc_json):
    names = [a.get("name", f"animation{i}") for i, a in enumerate(doc_json.get("animations", []))]
    for w in ("walk", "run", "fly", "idle"):
        for n in names:
            if w in n.lower():
                return n
    return names[0] if names else None


def gltf_json(path):
    b = open(path, "rb").read()
    return glb_chunks(b)[0] if b[:4] == b"glTF" else json.loads(b)


def glb_chunks(data):
    """(json dict, [(type, bytes)] of the other chunks) of a GLB."""
    assert data[:4] == b"glTF", "not a GLB"
    off, out, doc = 12, [], None
    while off < len(data):
        n, kind = struct.unpack("<II", data[off:off + 8])
        body = data[off + 8:off + 8 + n]
        if kind == 0x4E4F534A:
            doc = json.loads(body)
        else:
            out.append((kind, body))
        off += 8 + n
    return doc, out


def glb_bytes(doc, rest):
    """A GLB of the JSON `doc` and the other chunks `rest` ([(type, bytes)])."""
    js = json.dumps(doc, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    parts = [struct.pack("<II", len(js), 0x4E4F534A) + js]
    for kind, body in rest:
        body += b"\0" * (-len(body) % 4)
        parts.append(struct.pack("<II", len(body), kind) + body)
    total = 12 + sum(len(p) for p in parts)
    return struct.pack("<4sII", b"glTF", 2, total) + b"".join(parts)


def wrapped_copy(path, out, node):
    """`path` (a GLB) with every scene's roots moved under `node`, a new root node (a dict:
    its name and transform), written to `out`: the character as another tool might place it."""
    doc, rest = glb_chunks(open(path, "rb").read())
    nodes = doc.setdefault("nodes", [])
    for scene in doc.get("scenes", []):
        nodes.append(dict(node, children=scene.get("nodes", [])))
        scene["nodes"] = [len(nodes) - 1]
    open(out, "wb").write(glb_bytes(doc, rest))


TRUTH = json.load(open(os.path.join(ZOO, "truth.json")))


def anatomy_check(path, rep):
    """(kind right?, core roles right?) against the zoo's truth.json; '–' without a truth."""
    f = os.path.basename(path)
    if f not in TRUTH["kind"]:
        return "– (no truth)", "– (no truth)"
    coarse = {"humanoid": "humanoid", "biped": "humanoid", "quadruped": "quadruped"}
    kind_ok = coarse.get(rep["character_type"], "other") == TRUTH["kind"][f]
    roles = TRUTH["roles"].get(f)
    if not roles:
        return ("yes" if kind_ok else f"no ({rep['character_type']})"), "–"
    by = {b["name"]: b for b in rep["bones"]}
    wrong = []
    for role, names in roles.items():
        sides = ["left", "right"] if len(names) == 2 else [None]
        for n, side in zip(names, sides):
            b = by.get(n)
            if not b or b["role"] != role or (side and b["side"] != side):
                wrong.append(f"{n}: {b and b['role']}/{b and b['side']}")
    return ("yes" if kind_ok else f"no ({rep['character_type']})"), ("yes" if not wrong else "no: " + "; ".join(wrong))


def row(path, out):
    t0 = time.perf_counter()
    rep = run("generate", path, "-o", out, "--json")
    gen_ms = (time.perf_counter() - t0) * 1e3
    if "error" in rep:
        return f"| {os.path.basename(path)} | generate failed: {rep['error']} |"
    h = rep["height"]
    stand = run("simulate", out, "--seconds", "10", "--json")
    poses = out + ".poses.csv"
    passive = run("simulate", out, "--passive", "--seconds", "10", "--json", "--poses", poses)
    budget = 3 * math.sqrt(h / 1.75)
    here = os.path.dirname(os.path.abspath(__file__))
    chk = subprocess.run([sys.executable, os.path.join(here, "limits_check.py"), BIN, out, poses],
                         capture_output=True, text=True)
    try:
        c = json.loads(chk.stdout)
        viol = f"{c['max_violation_deg']:.2f}° ({c['joint']})"
    except json.JSONDecodeError:
        viol = "not measured"
    os.remove(poses) if os.path.exists(poses) else None
    clip = clip_of(gltf_json(path))
    if clip:
        f = run("simulate", out, "--clip", clip, "--loops", "2", "--json")
        rms = sorted(j["rms_error_deg"] for j in f.get("joints", []))
        worst = max(f.get("joints", []), key=lambda j: j["rms_error_deg"], default=None)
        clip_txt = (
            f"{clip}: {rms[len(rms) // 2]:.2f} / {worst['rms_error_deg']:.2f} ({worst['name']})"
            + (f", paused: {f['paused']}" if f.get("paused") else "")
            if worst else f"{clip}: no joints"
        )
    else:
        clip_txt = "no clip"
    fell = passive.get("fell_at_s")
    cov = rep["coverage"]
    if stand.get("max_torso_tilt_deg") is None and stand.get("fell") is None:
        stand_txt = "no legs: falls and tilt not measured (null), " + (
            "paused" if stand.get("paused") else "no guard pause in 10 s")
    else:
        stand_txt = ("fell at %.2f s" % stand["fell_at_s"]) if stand.get("fell") else "stands"
        stand_txt += ", tilt %.1f°" % stand.get("max_torso_tilt_deg", float("nan"))
        if stand.get("paused"):
            stand_txt += ", paused"
    kind_ok, roles_ok = anatomy_check(path, rep)
    return (
        f"| {os.path.basename(path)} | {rep['character_type']} | {kind_ok} | {roles_ok} | {h:.3g} | {gen_ms:.0f} ms | {stand_txt} | "
        + (f"{fell:.2f} s" if fell is not None else
           "not measured (no legs)" if passive.get("fell") is None else "does not fall in 10 s")
        + f" (budget {budget:.2f} s) | {viol} | {clip_txt} | "
        + f"{cov['median']} / {cov['min_limb']} | {len(rep.get('widened', []))} |"
    )


def main():
    print("| character | kind | kind right | core roles right | height | generate | stand 10 s (balance) | passive collapse | max limit violation, passive 10 s (`--poses`, tools/limits_check.py) | clip: median / worst joint RMS (°) | coverage median / min limb | limits widened |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for p in FILES:
            print(row(p, os.path.join(d, "out.glb")), flush=True)


if __name__ == "__main__":
    main()
