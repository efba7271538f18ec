#!/usr/bin/env python3
"""Max limit violation of a run, from `simulate --poses` alone, with swing-twist math written
here (independent of the solver's and of `src/joint/`): joint frames and limits from
`inspect --json`, body rotations from the poses CSV (step 0 is the rest pose).

Usage: python3 tools/limits_check.py BIN RAGDOLL.glb POSES.csv
Prints one JSON object: the largest violation (degrees), where and when.
The swing boundary is computed here from the four extents (`swing_deg`) by the definition in
the README (discs in stereographic coordinates), not read from `swing_boundary_deg`. Swing
violation is the angle from the joint's direction to the nearest boundary point (searched at
1° round the boundary, then at 0.1° and 0.01° near the best), at most the tilt past the
boundary along the azimuth (which, where the boundary is steep, a 161° extent beside 12°,
overstated it by degrees).
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
    ext = joint["swing_deg"]
    max_tilt = boundary_tilt(ext, az)
    swing = 0.0
    if tilt > max_tilt:
        # The angle to the nearest allowed direction. Where the boundary is steep (a 161°
        # extent beside a 12° one) the tilt past it along the azimuth overstates that by
        # degrees: the nearest point is a small step round, not down.
        swing = min(tilt - max_tilt, nearest_boundary_deg(ext, d))
    lo, hi = joint["twist_deg"]
    return max(swing, twist - hi, lo - twist, 0.0)


def discs(ext):
    """The boundary's discs in stereographic coordinates, as the README's schema states it:
    per extent k, (n_k, c_k, R_k) with R_k None for a half-plane s·n_k <= e_k·n_k."""
    axes = {"pos_y": (1.0, 0.0), "neg_y": (-1.0, 0.0), "pos_z": (0.0, 1.0), "neg_z": (0.0, -1.0)}
    pts = {k: tuple(math.tan(math.radians(ext[k]) / 2) * c for c in n) for k, n in axes.items()}
    out = []
    for k, n in axes.items():
        e = pts[k]
        r = 0.0
        for j, p in pts.items():
            if j == k:
                continue
            den = 2 * ((e[0] - p[0]) * n[0] + (e[1] - p[1]) * n[1])
            num = (p[0] - e[0]) ** 2 + (p[1] - e[1]) ** 2
            r = math.inf if den <= 1e-12 else max(r, num / den)
        if math.isinf(r):
            out.append((n, e, None))
        else:
            out.append((n, (e[0] - r * n[0], e[1] - r * n[1]), r))
    return out


def boundary_tilt(ext, az_deg):
    """The largest tilt at azimuth `az_deg` (degrees): 2·atan of where the ray leaves the
    first disc."""
    a = math.radians(az_deg)
    u = (math.cos(a), math.sin(a))
    t_min = math.inf
    for n, c, r in discs_of(ext):
        un = u[0] * n[0] + u[1] * n[1]
        if r is None:
            cn = c[0] * n[0] + c[1] * n[1]
            t = math.inf if un <= 1e-12 else max(cn / un, 0.0)
        else:
            uc = u[0] * c[0] + u[1] * c[1]
            disc = uc * uc - (c[0] ** 2 + c[1] ** 2) + r * r
            t = max(uc + math.sqrt(max(disc, 0.0)), 0.0)
        t_min = min(t_min, t)
    return math.degrees(2 * math.atan(t_min))


_DISCS = {}


def discs_of(ext):
    key = tuple(sorted(ext.items()))
    if key not in _DISCS:
        _DISCS[key] = discs(ext)
    return _DISCS[key]


def direction(tilt_deg, az_deg):
    t, a = math.radians(tilt_deg), math.radians(az_deg)
    return (math.cos(t), math.sin(t) * math.cos(a), math.sin(t) * math.sin(a))


def angle_deg(u, v):
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(u, v))))))


def nearest_boundary_deg(ext, d):
    """The angle from `d` to the nearest boundary point: 1° round the whole boundary, then
    0.1° and 0.01° steps about the best."""
    coarse = coarse_boundary(ext)
    best = min(range(360), key=lambda k: angle_deg(d, coarse[k]))
    to = lambda az: angle_deg(d, direction(boundary_tilt(ext, az), az))
    az = float(best)
    for step in (0.1, 0.01):
        az = min((az + k * step for k in range(-10, 11)), key=to)
    return to(az)


_COARSE = {}


def coarse_boundary(ext):
    """Boundary directions at every whole degree of azimuth (cached per joint limit)."""
    key = tuple(sorted(ext.items()))
    if key not in _COARSE:
        _COARSE[key] = [direction(boundary_tilt(ext, az), az) for az in range(360)]
    return _COARSE[key]


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
