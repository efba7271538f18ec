//! Line geometry of the joint-limit gizmos, the ground grid and the axes, as plain segments
//! (drawn later as thin cylinders). Pure glam, so it can be tested without GL.

use super::joint::{joint_direction, JointGizmo};
use crate::joint::{JointLimits, SwingBoundary};
use glam::{DQuat, DVec3, Vec3};

/// One 3D line segment with a radius (m) and an sRGBA colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub a: Vec3,
    pub b: Vec3,
    pub radius: f32,
    pub color: [u8; 4],
}

/// Green at 0, yellow at 0.5, red at 1 (the limit use that telemetry and plots report).
pub fn limit_color(limit_use: f64) -> [u8; 4] {
    let t = limit_use.clamp(0.0, 1.0) as f32;
    let r = (2.0 * t).min(1.0);
    let g = (2.0 * (1.0 - t)).min(1.0);
    [(r * 235.0) as u8, (g * 210.0) as u8, 40, 255]
}

const LIMIT_GREY: [u8; 4] = [200, 200, 210, 255];
const NEEDLE: [u8; 4] = [255, 255, 255, 255];

fn push_polyline(out: &mut Vec<Segment>, pts: &[DVec3], radius: f32, color: [u8; 4]) {
    for w in pts.windows(2) {
        out.push(Segment {
            a: w[0].as_vec3(),
            b: w[1].as_vec3(),
            radius,
            color,
        });
    }
}

/// Points of an arc around `axis` (world) from `zero` (world, unit) through angles a0..a1 (rad).
fn arc(center: DVec3, axis: DVec3, zero: DVec3, radius: f64, a0: f64, a1: f64) -> Vec<DVec3> {
    // 0.2 rad chords stray from the circle by 0.5 % of its radius: under a pixel here.
    let n = (((a1 - a0).abs() / 0.2).ceil() as usize).clamp(2, 64);
    (0..=n)
        .map(|i| {
            let a = a0 + (a1 - a0) * i as f64 / n as f64;
            center + DQuat::from_axis_angle(axis, a) * zero * radius
        })
        .collect()
}

/// Boundary samples per turn: 5 degrees, the same azimuths `inspect` reports.
const BOUNDARY_SAMPLES: usize = 72;

/// Segments of one joint's limit gizmo, drawn from the joint math the solver uses: a ball
/// socket's swing boundary (the exact curve, with spokes) and its twist range; a hinge's arc
/// from min to max; both with a needle for the current angle, coloured by limit use.
pub fn joint_segments(j: &JointGizmo, out: &mut Vec<Segment>, thick: f32) {
    let frame = j.world_from_parent_joint;
    let style = GizmoStyle {
        radius_m: j.size * 0.6,
        thick,
        color: limit_color(j.measure.limit_use),
        axis_w: (frame * DVec3::X).normalize(),
        zero_w: (frame * DVec3::Y).normalize(),
    };
    match &j.limits {
        JointLimits::Ball {
            swing,
            twist_min_rad,
            twist_max_rad,
        } => ball_segments(j, swing, [*twist_min_rad, *twist_max_rad], &style, out),
        JointLimits::Hinge { min_rad, max_rad } => {
            hinge_segments(j, [*min_rad, *max_rad], &style, out)
        }
    }
}

/// What a joint's limit drawing shares: its radius (m), line thickness (m), limit-use
/// colour, and the parent joint frame's rest axis and zero direction in the world.
struct GizmoStyle {
    radius_m: f64,
    thick: f32,
    color: [u8; 4],
    axis_w: DVec3,
    zero_w: DVec3,
}

/// A ball socket: the swing boundary's rim and spokes, the twist range and the twist now,
/// and the needle along the bone's current axis.
fn ball_segments(
    j: &JointGizmo,
    swing: &SwingBoundary,
    [twist_min_rad, twist_max_rad]: [f64; 2],
    s: &GizmoStyle,
    out: &mut Vec<Segment>,
) {
    let (r, thick, color) = (s.radius_m, s.thick, s.color);
    let frame = j.world_from_parent_joint;
    let rim: Vec<DVec3> = (0..=BOUNDARY_SAMPLES)
        .map(|i| {
            let psi = std::f64::consts::TAU * i as f64 / BOUNDARY_SAMPLES as f64;
            let tilt = swing.max_tilt_rad(psi);
            j.origin + frame * joint_direction(tilt, psi) * r
        })
        .collect();
    push_polyline(out, &rim, thick, color);
    for k in 0..8 {
        let p = rim[k * BOUNDARY_SAMPLES / 8];
        push_polyline(out, &[j.origin, p], thick * 0.6, color);
    }
    // Twist range around the rest axis, a third of the way up; the tick is the twist now.
    let c = j.origin + s.axis_w * r * 0.35;
    let twist_arc = arc(
        c,
        s.axis_w,
        s.zero_w,
        r * 0.45,
        twist_min_rad,
        twist_max_rad,
    );
    push_polyline(out, &twist_arc, thick, color);
    let tick = DQuat::from_axis_angle(s.axis_w, j.measure.twist_rad) * s.zero_w;
    push_polyline(out, &[c, c + tick * r * 0.55], thick * 0.8, NEEDLE);
    // Needle: the bone's current primary axis.
    let needle = (j.world_from_child_joint * DVec3::X).normalize();
    push_polyline(
        out,
        &[j.origin, j.origin + needle * r * 1.15],
        thick * 1.2,
        NEEDLE,
    );
}

/// A hinge: the arc of its range with its end spokes, the axis, and the needle at the angle
/// now.
fn hinge_segments(
    j: &JointGizmo,
    [min_rad, max_rad]: [f64; 2],
    s: &GizmoStyle,
    out: &mut Vec<Segment>,
) {
    let (r, thick, axis_w) = (s.radius_m, s.thick, s.axis_w);
    let pts = arc(j.origin, axis_w, s.zero_w, r, min_rad, max_rad);
    push_polyline(out, &pts, thick * 1.3, s.color);
    if let (Some(first), Some(last)) = (pts.first(), pts.last()) {
        push_polyline(out, &[j.origin, *first], thick * 0.6, LIMIT_GREY);
        push_polyline(out, &[j.origin, *last], thick * 0.6, LIMIT_GREY);
    }
    push_polyline(
        out,
        &[j.origin - axis_w * r * 0.3, j.origin + axis_w * r * 0.3],
        thick * 0.6,
        LIMIT_GREY,
    );
    let needle = DQuat::from_axis_angle(axis_w, j.measure.twist_rad) * s.zero_w;
    push_polyline(
        out,
        &[j.origin, j.origin + needle * r * 1.15],
        thick * 1.2,
        NEEDLE,
    );
}

/// The colour of the animation target's ghost skeleton.
pub const GHOST: [u8; 4] = [110, 190, 255, 255];

/// The ghost skeleton of an animation target: a line from each bone to its parent bone, in
/// world space (`pose` is world_from_bone per bone).
pub fn ghost_segments(
    doc: &crate::document::Document,
    pose: &[glam::DMat4],
    thick: f32,
) -> Vec<Segment> {
    doc.bone_ids()
        .filter_map(|id| {
            let parent = doc.bone(id).parent?;
            let a = pose.get(parent.index())?.w_axis.truncate();
            let b = pose.get(id.index())?.w_axis.truncate();
            Some(Segment {
                a: a.as_vec3(),
                b: b.as_vec3(),
                radius: thick,
                color: GHOST,
            })
        })
        .collect()
}

/// A ground grid on the plane y = `ground_y` (`half` cells each way) plus X/Y/Z axes at the
/// origin, sized for a character `character_m` metres large: cells of the power of ten below
/// that size, axes and line widths in proportion (a 1.8 m character gets 1 m cells and 0.5 m
/// axes).
pub fn grid_and_axes(half: i32, character_m: f32, ground_y: f32) -> Vec<Segment> {
    let size = if character_m.is_finite() && character_m > 0.0 {
        character_m
    } else {
        1.8
    };
    let s = size / 1.8;
    let cell = 10f32.powf(size.log10().floor());
    let mut out = Vec::new();
    let e = half as f32 * cell;
    for i in -half..=half {
        let f = i as f32 * cell;
        let c = if i == 0 {
            [120, 120, 130, 255]
        } else {
            [80, 80, 90, 255]
        };
        out.push(Segment {
            a: Vec3::new(f, ground_y, -e),
            b: Vec3::new(f, ground_y, e),
            radius: 0.004 * s,
            color: c,
        });
        out.push(Segment {
            a: Vec3::new(-e, ground_y, f),
            b: Vec3::new(e, ground_y, f),
            radius: 0.004 * s,
            color: c,
        });
    }
    let axes = [
        (Vec3::X, [230, 60, 60, 255]),
        (Vec3::Y, [60, 200, 60, 255]),
        (Vec3::Z, [70, 110, 240, 255]),
    ];
    for (d, c) in axes {
        out.push(Segment {
            a: Vec3::ZERO + Vec3::Y * 0.002 * s,
            b: d * 0.5 * s + Vec3::Y * 0.002 * s,
            radius: 0.008 * s,
            color: c,
        });
    }
    out
}
