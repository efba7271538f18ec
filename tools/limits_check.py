#!/usr/bin/env python3
"""Max limit violation of a run, from `simulate --poses` alone, with swing-twist math written
here (independent of the solver's and of `src/joint/`): joint frames and limits from
`inspect --json`, body rotations from the poses CSV (step 0 is the rest pose).

Usage: python3 tools/limits_check.py BIN RAGDOLL.glb POSES.csv
Prints one JSON object: the largest violation (degrees), where and when.
Swing violation is measured along the azimuth (tilt past the boundary at that azimuth, the
boundary interpolated from `swing_boundary_deg`), so it never understates the distance to
the nearest allowed direction by more than the boundary's curvature.
"""
import csv, json, math, subprocess, sys


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def qinv(q):
    return (-q[0], -q[1], -q[2], q[3])


def qrot(q, v):
    p = qmul(qmul(q, (v[0], v[1], v[2], 0.0)), qinv(q))
    return p[:3]


def from_cols(x, y):
    z = (x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0])
    m = [[x[0], y[0], z[0]], [x[1], y[1], z[1]], [x[2], y[2], z[2]]]
    t = m[0][0] + m[1][1] + m[2][2]
    if t > 0:
        s = math.sqrt(t + 1.0) * 2
        return ((m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s)
    i = max(range(3), key=lambda k: m[k][k])
    j, k = (i + 1) % 3, (i + 2) % 3
    s = math.sqrt(1.0 + m[i][i] - m[j][j] - m[k][k]) * 2
    q = [0.0, 0.0, 0.0, (m[k][j] - m[j][k]) / s]
    q[i] = 0.25 * s
    q[j] = (m[j][i] + m[i][j]) / s
    q[k] = (m[k][i] + m[i][k]) / s
    return tuple(q)


def wrap(a):
    return (a + math.pi) % (2 * math.pi) - math.pi


def violation(q, joint):
    if q[3] < 0:
        q = tuple(-c for c in q)
    d = qrot(q, (1.0, 0.0, 0.0))
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, d[0]))))
    az = math.degrees(math.atan2(d[2], d[1])) % 360.0
    twist = math.degrees(wrap(2 * math.atan2(q[0], q[3])))
    if joint["type"] == "hinge":
        lo, hi = joint["hinge_deg"]
        return max(twist - hi, lo - twist, tilt, 0.0)
    b = joint["swing_boundary_deg"]
    step = 360.0 / len(b)
    i = int(az // step) % len(b)
    f = (az - i * step) / step
    max_tilt = b[i] * (1 - f) + b[(i + 1) % len(b)] * f
    lo, hi = joint["twist_deg"]
    return max(tilt - max_tilt, twist - hi, lo - twist, 0.0)


def main(bin_, glb, poses):
    info = json.loads(subprocess.run([bin_, "inspect", glb, "--json"], capture_output=True, text=True).stdout)
    joints = {}
    for b in info["bones"]:
        j = b.get("joint")
        if j:
            f = j["joint_frame"]
            joints[b["name"]] = (j["parent_bone"], from_cols(f["x"], f["y"]), j)
    rest, worst = {}, (0.0, None, None)
    rows = {}
    with open(poses) as fh:
        for r in csv.DictReader(fh):
            step = int(r["step"])
            if rows and step != rows["step"]:
                worst = check(rows, rest, joints, worst)
                rows = {}
            rows["step"], rows["t"] = step, float(r["time_s"])
            rows[r["bone"]] = tuple(float(r[k]) for k in ("qx", "qy", "qz", "qw"))
    worst = check(rows, rest, joints, worst)
    print(json.dumps({"max_violation_deg": round(worst[0], 3), "joint": worst[1], "time_s": worst[2]}))


def check(rows, rest, joints, worst):
    if not rest:
        rest.update({k: v for k, v in rows.items() if k not in ("step", "t")})
    for name, (parent, bfj, j) in joints.items():
        if name not in rows or parent not in rows:
            continue
        pfj = qmul(qmul(qinv(rest[parent]), rest[name]), bfj)
        q = qmul(qinv(qmul(rows[parent], pfj)), qmul(rows[name], bfj))
        v = violation(q, j)
        if v > worst[0]:
            worst = (v, name, rows["t"])
    return worst


if __name__ == "__main__":
    main(*sys.argv[1:4])
