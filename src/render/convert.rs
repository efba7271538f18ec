//! The one glam -> cgmath (three-d) boundary.

use three_d::{Mat4 as CMat4, Srgba, Vec3 as CVec3};

pub fn vec3(v: glam::Vec3) -> CVec3 {
    CVec3::new(v.x, v.y, v.z)
}

pub fn mat4(m: glam::Mat4) -> CMat4 {
    let c = m.to_cols_array_2d();
    CMat4::new(
        c[0][0], c[0][1], c[0][2], c[0][3], c[1][0], c[1][1], c[1][2], c[1][3], c[2][0], c[2][1],
        c[2][2], c[2][3], c[3][0], c[3][1], c[3][2], c[3][3],
    )
}

pub fn color(c: [u8; 4]) -> Srgba {
    Srgba::new(c[0], c[1], c[2], c[3])
}
