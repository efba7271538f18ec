//! The inspector: collider, constraint and drive of the selected bone, with units.

use super::state::EditorState;
use super::widgets::{self, Num};
use crate::document::fields::Key;
use crate::document::{
    BoneId, BonePhysics, Collider, ColliderShape, ConstraintKind, Drive, EditTarget,
};

pub fn ui(ui: &mut egui::Ui, st: &mut EditorState) {
    let Some(id) = st.selection else {
        ui.weak("Select a bone in the outliner or the viewport.");
        return;
    };
    header(ui, st, id);
    let target = st.doc.bone_target(id);
    joint_buttons(ui, st, id);
    let Some(p) = st.doc.bone(id).physics.clone() else {
        ui.weak("This bone has no physics.");
        if ui.button("Add capsule collider").clicked() {
            st.edit(target, Key::Collider.path(), "capsule".into(), None);
        }
        return;
    };
    let bones: Vec<String> = st.doc.bones.iter().map(|b| b.name.clone()).collect();
    widgets::section(ui, "Collider", |ui| collider(ui, st, target, &p));
    if p.collider.is_some() {
        widgets::section(ui, "Material and damping", |ui| {
            super::material_panel::ui(ui, st, target, &p)
        });
    }
    widgets::section(ui, "Constraint", |ui| {
        constraint(ui, st, (target, id), &p, &bones)
    });
    if let Some(d) = p.drive {
        widgets::section(ui, "Drive", |ui| drive(ui, st, (target, id), &d));
    }
}

/// The bone's name and, with several selected, how an edit applies.
fn header(ui: &mut egui::Ui, st: &EditorState, id: BoneId) {
    ui.heading(format!("Bone: {}", st.doc.bone(id).name));
    let count = st.selected_bones().len();
    if count > 1 {
        ui.label(format!(
            "{count} bones selected: a change applies to each that has the field"
        ))
        .on_hover_text("Fields whose values differ show as mixed (—)");
    }
}

/// Copy and paste of the joint, and the symmetric toggle when the bone has a mirror twin.
fn joint_buttons(ui: &mut egui::Ui, st: &mut EditorState, id: BoneId) {
    let has_joint = st.doc.bone(id).constraint().is_some();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(has_joint, egui::Button::new("Copy joint"))
            .on_hover_text("Copy limits and drive gains")
            .clicked()
        {
            st.copy_joint();
        }
        if ui
            .add_enabled(
                st.joint_clipboard.is_some(),
                egui::Button::new("Paste joint"),
            )
            .clicked()
        {
            st.paste_joint();
        }
        let pairs = st.twin_pairs();
        if let Some(t) = crate::mirror::twin_of(&pairs, id) {
            let twin = st.doc.bone(t).name.clone();
            ui.checkbox(&mut st.symmetric, "Symmetric")
                .on_hover_text(format!(
                    "Edits also apply to {twin}, mirrored (one undo step)"
                ));
        }
    });
}

fn drive(ui: &mut egui::Ui, st: &mut EditorState, (target, id): (EditTarget, BoneId), d: &Drive) {
    let rows = [
        (
            "Stiffness",
            d.stiffness,
            Key::Stiffness.path(),
            "N·m/rad",
            5.0,
        ),
        ("Damping", d.damping, Key::Damping.path(), "N·m·s/rad", 0.5),
        (
            "Max torque",
            d.max_torque,
            Key::MaxTorque.path(),
            "N·m",
            1.0,
        ),
        (
            "Follow strength",
            d.follow_strength,
            Key::FollowStrength.path(),
            "×",
            0.05,
        ),
    ];
    widgets::gains(ui, st, target, &rows);
    super::natural::drive(ui, st, id);
}

fn collider(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, p: &BonePhysics) {
    let shapes = ["capsule", "sphere", "box"].map(String::from);
    let current = p.collider.as_ref().map_or("none", |c| c.shape.type_name());
    widgets::choice(
        ui,
        st,
        target,
        "Collider type",
        Key::Collider.path(),
        current,
        &shapes,
    );
    if let Some(c) = &p.collider {
        shape_fields(ui, st, target, c);
    }
    body_fields(ui, st, target, p);
}

/// The collider's dimensions and its offset from the bone, in metres (the bone's own units
/// times its world scale, as the simulation builds them).
fn shape_fields(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, c: &Collider) {
    let id = st.selection.unwrap_or(crate::document::BoneId(0));
    let k = st.doc.bone_world_scale(id).factor;
    let m = |label, value, key| Num {
        label,
        value,
        key,
        unit: "m",
        range: 0.001..=10.0,
        speed: 0.002,
        slider: false,
    };
    match c.shape {
        ColliderShape::Capsule {
            radius,
            half_height,
        } => {
            widgets::length(ui, st, target, m("Radius", radius, Key::Radius.path()), k);
            let half = m("Half height", half_height, Key::HalfHeight.path());
            widgets::length(ui, st, target, half, k);
        }
        ColliderShape::Sphere { radius } => {
            widgets::length(ui, st, target, m("Radius", radius, Key::Radius.path()), k)
        }
        ColliderShape::Box { half_extents } => widgets::length3(
            ui,
            st,
            target,
            ("Half extents", Key::HalfExtents.path(), 0.002),
            half_extents,
            k,
        ),
    }
    let t = c
        .offset
        .translation
        .unwrap_or_else(|| st.doc.collider_placement(id, c).translation.to_array());
    let offset = ("Offset", Key::OffsetTranslation.path(), 0.002);
    widgets::length3(ui, st, target, offset, t, k);
}

/// Mass and collision filtering.
fn body_fields(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, p: &BonePhysics) {
    let mass = Num {
        label: "Mass",
        value: p.mass,
        key: Key::Mass.path(),
        unit: "kg",
        range: 0.001..=1000.0,
        speed: 0.05,
        slider: false,
    };
    widgets::num(ui, st, target, mass);
    widgets::text(
        ui,
        st,
        target,
        "Collision group",
        Key::CollisionGroup.path(),
        &p.collision_group,
    );
    widgets::text(
        ui,
        st,
        target,
        "Collision mask",
        Key::CollisionMask.path(),
        &p.collision_mask,
    );
}

fn constraint(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    (target, id): (EditTarget, BoneId),
    p: &BonePhysics,
    bones: &[String],
) {
    let kinds = ["ball_socket", "hinge"].map(String::from);
    let Some(c) = &p.constraint else {
        widgets::choice(
            ui,
            st,
            target,
            "Constraint type",
            Key::ConstraintType.path(),
            "none",
            &kinds,
        );
        return;
    };
    widgets::choice(
        ui,
        st,
        target,
        "Constraint type",
        Key::ConstraintType.path(),
        c.kind.type_name(),
        &kinds,
    );
    let parent = c.parent_bone.clone().unwrap_or_default();
    widgets::choice(
        ui,
        st,
        target,
        "Parent bone",
        Key::ParentBone.path(),
        &parent,
        bones,
    );
    match c.kind {
        ConstraintKind::BallSocket {
            swing_limit_deg,
            twist_limit_deg,
            swing_y_axis,
        } => super::limits_panel::ball_socket(
            ui,
            st,
            (target, id),
            swing_limit_deg,
            twist_limit_deg,
            swing_y_axis,
        ),
        ConstraintKind::Hinge {
            hinge_axis,
            limit_min_deg,
            limit_max_deg,
        } => hinge_fields(ui, st, target, hinge_axis, [limit_min_deg, limit_max_deg]),
    }
    friction_row(ui, st, target, c.friction_torque_nm);
}

/// The joint's friction torque (acts while its drive is off).
fn friction_row(ui: &mut egui::Ui, st: &mut EditorState, target: EditTarget, torque_nm: f64) {
    let friction = Num {
        label: "Joint friction",
        value: torque_nm,
        key: Key::FrictionTorque.path(),
        unit: "N·m",
        range: 0.0..=f64::MAX,
        speed: 0.05,
        slider: false,
    };
    widgets::num(ui, st, target, friction);
}

/// A hinge's axis and its angle range.
fn hinge_fields(
    ui: &mut egui::Ui,
    st: &mut EditorState,
    target: EditTarget,
    hinge_axis: [f64; 3],
    [limit_min_deg, limit_max_deg]: [f64; 2],
) {
    let deg = |label, value, key, range| Num {
        label,
        value,
        key,
        unit: "deg",
        range,
        speed: 0.5,
        slider: true,
    };
    widgets::vec3(
        ui,
        st,
        target,
        ("Hinge axis", Key::HingeAxis.path(), "", 0.01),
        hinge_axis,
    );
    widgets::num(
        ui,
        st,
        target,
        deg(
            "Min angle",
            limit_min_deg,
            Key::LimitMin.path(),
            -180.0..=180.0,
        ),
    );
    widgets::num(
        ui,
        st,
        target,
        deg(
            "Max angle",
            limit_max_deg,
            Key::LimitMax.path(),
            -180.0..=180.0,
        ),
    );
}
