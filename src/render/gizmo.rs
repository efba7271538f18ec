//! Line geometry of the joint-limit gizmos, the ground grid and the axes, as plain segments
//! (drawn later as thin cylinders). Pure glam, so it can be tested without GL.

use super::joint::{JointFrame, JointState};
use crate::document::ConstraintKind;
use glam::{DQuat, DVec3, Vec3};

/// One 3D line segment with a radius (m) and an sRGBA colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub a: Vec3,
    pub b: Vec3,
    pub radius: f32,
    pub color: [u8; 4],
}

/// Green at 0, yellow at 0.5, red at 1.
pub fn limit_color(nearness: f64) -> [u8; 4] {
    let t = nearness.clamp(0.0, 1.0) as f32;
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

/// Segments of one joint's limit gizmo: ball socket = swing cone + twist arc; hinge = arc
/// from min to max; both with a needle for the current angle, coloured by nearness to a limit.
pub fn joint_segments(j: &JointFrame, out: &mut Vec<Segment>, thick: f32) {
    let color = limit_color(j.state.nearness());
    let r = j.size * 0.6;
    let axis_w = (j.reference * j.axis).normalize();
    let zero_w = (j.reference * j.zero).normalize();
    match (&j.kind, j.state) {
        (
            ConstraintKind::BallSocket { .. },
            JointState::Ball {
                swing_limit_deg,
                twist_limit_deg,
                twist_deg,
                ..
            },
        ) => {
            let s = swing_limit_deg.clamp(0.5, 180.0).to_radians();
            let rim_c = j.origin + axis_w * r * s.cos();
            let rim = arc(
                rim_c,
                axis_w,
                zero_w,
                r * s.sin(),
                0.0,
                std::f64::consts::TAU,
            );
            push_polyline(out, &rim, thick, color);
            for k in 0..8 {
                let p = rim[k * (rim.len() - 1) / 8];
                push_polyline(out, &[j.origin, p], thick * 0.6, color);
            }
            // Twist range around the axis, a third of the way up.
            let t = twist_limit_deg.clamp(0.0, 180.0).to_radians();
            let c = j.origin + axis_w * r * 0.35;
            push_polyline(out, &arc(c, axis_w, zero_w, r * 0.45, -t, t), thick, color);
            let tick = DQuat::from_axis_angle(axis_w, twist_deg.to_radians()) * zero_w;
            push_polyline(out, &[c, c + tick * r * 0.55], thick * 0.8, NEEDLE);
            // Needle: the bone's current primary axis.
            let needle = (j.current * j.axis).normalize();
            push_polyline(
                out,
                &[j.origin, j.origin + needle * r * 1.15],
                thick * 1.2,
                NEEDLE,
            );
        }
        (
            ConstraintKind::Hinge { .. },
            JointState::Hinge {
                angle_deg,
                min_deg,
                max_deg,
            },
        ) => {
            let (a0, a1) = (min_deg.to_radians(), max_deg.to_radians());
            let pts = arc(j.origin, axis_w, zero_w, r, a0, a1);
            push_polyline(out, &pts, thick * 1.3, color);
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
            let needle = DQuat::from_axis_angle(axis_w, angle_deg.to_radians()) * zero_w;
            push_polyline(
                out,
                &[j.origin, j.origin + needle * r * 1.15],
                thick * 1.2,
                NEEDLE,
            );
        }
        _ => {}
    }
}

/// A ground grid on y = 0 (`half` cells each way) plus X/Y/Z axes at the origin, sized for
/// a character `character_m` metres large: cells of the power of ten below that size, axes
/// and line widths in proportion (a 1.8 m character gets 1 m cells and 0.5 m axes).
pub fn grid_and_axes(half: i32, character_m: f32) -> Vec<Segment> {
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
            a: Vec3::new(f, 0.0, -e),
            b: Vec3::new(f, 0.0, e),
            radius: 0.004 * s,
            color: c,
        });
        out.push(Segment {
            a: Vec3::new(-e, 0.0, f),
            b: Vec3::new(e, 0.0, f),
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
