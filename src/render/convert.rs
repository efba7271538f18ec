//! The one glam -> cgmath (three-d) boundary.

use three_d::Vec3 as CVec3;

pub fn vec3(v: glam::Vec3) -> CVec3 {
    CVec3::new(v.x, v.y, v.z)
}
