//! A whole-side mirror also makes the mid-line bodies (spine, neck, head: bones without a
//! twin) symmetric: each collider's centre goes onto the mid-plane and its axis into it.
//!
//! Without this the mirrored sides hang from an asymmetric middle: CesiumMan's skin, which
//! the generator fits the spine to, sits 5 mm to one side of the skeleton's mid-plane, and a
//! mirrored CesiumMan hanging from its pelvis parted left from right by 1 degree within
//! 0.07 s.

use super::{rot_scale, world, Mirror};
use crate::document::fields::Key;
use crate::document::{write, BoneId, ColliderOffset, Document, Edit};
use glam::{DQuat, DVec3};

/// Below this (bone units for distances, radians for angles) a body is already centred.
const CENTRED: f64 = 1e-6;

/// The edits that centre every mid-line collider (bones in no pair) on the mid-plane.
pub(super) fn centre_midline(doc: &Document, pairs: &[(BoneId, BoneId)], m: &Mirror) -> Vec<Edit> {
    doc.bone_ids()
        .filter(|id| !pairs.iter().any(|(l, r)| l == id || r == id))
        .filter_map(|id| centred_offset(doc, id, m))
        .collect()
}

/// The `offset` edit that centres one bone's collider, if it is not centred already.
fn centred_offset(doc: &Document, id: BoneId, m: &Mirror) -> Option<Edit> {
    let collider = doc.bone(id).collider()?;
    let w = world(doc, id);
    let (rw, _) = rot_scale(&w);
    let place = doc.collider_placement(id, collider);
    let centre = w.transform_point3(place.translation);
    let on_plane = centre - m.axis * (centre.dot(m.axis) - m.mid);
    let rot = rw * place.rotation;
    let symmetric = symmetric_rotation(rot, m.axis);
    let moved = (on_plane - centre).length() / w.x_axis.truncate().length().max(1e-12);
    if moved < CENTRED && symmetric.angle_between(rot) < CENTRED {
        return None;
    }
    let t = w.inverse().transform_point3(on_plane);
    let q = (rw.inverse() * symmetric).normalize();
    let offset = ColliderOffset {
        translation: Some(super::v3(t)),
        rotation: Some(super::q4(q)),
    };
    Some(Edit::Set {
        target: doc.bone_target(id),
        key: write::top(Key::OffsetTranslation).into(),
        value: write::offset(&offset)?,
    })
}

/// The rotation nearest `rot` whose shape is its own mirror image across a plane with normal
/// `normal`: the shape's axis (local Y) turned into the plane, then the local X or Z nearer
/// the normal turned onto it (a box's faces; a capsule does not care).
fn symmetric_rotation(rot: DQuat, normal: DVec3) -> DQuat {
    let y = rot * DVec3::Y;
    let in_plane = (y - normal * y.dot(normal)).try_normalize().unwrap_or(y);
    let r1 = DQuat::from_rotation_arc(y, in_plane) * rot;
    let (x, z) = (r1 * DVec3::X, r1 * DVec3::Z);
    let side = if x.dot(normal).abs() >= z.dot(normal).abs() {
        x
    } else {
        z
    };
    let target = normal * side.dot(normal).signum();
    // `side` is perpendicular to the in-plane axis, so this turns about that axis only.
    (DQuat::from_rotation_arc(side, target) * r1).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tilted_box_becomes_its_own_mirror_image() {
        let n = DVec3::X;
        let rot = DQuat::from_euler(glam::EulerRot::XYZ, 0.2, 0.3, -0.1);
        let s = symmetric_rotation(rot, n);
        // The axis lies in the plane, one face normal along the plane's normal.
        assert!((s * DVec3::Y).dot(n).abs() < 1e-12);
        let face = (s * DVec3::X).dot(n).abs().max((s * DVec3::Z).dot(n).abs());
        assert!((face - 1.0).abs() < 1e-12);
        // It is the nearest such rotation, not any: a small tilt stays small.
        assert!(s.angle_between(rot) < 0.45, "{}", s.angle_between(rot));
        // Already symmetric: unchanged.
        let sym = DQuat::from_rotation_x(0.7);
        assert!(symmetric_rotation(sym, n).angle_between(sym) < 1e-12);
    }
}
