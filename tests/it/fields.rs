//! The field table is the schema: the README's tables are rendered from it, and the parser's
//! defaults and ranges, `edit --set`'s key check and the inspector's tooltips read it.

use crate::common;
use ragdoll_tuner::document::fields::{self, Section};
use ragdoll_tuner::document::{Document, Edit, EditTarget};

/// Each README schema table is exactly the table the field table renders.
#[test]
fn readme_schema_tables_match_the_field_table() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README");
    let mut missing = Vec::new();
    for s in [
        Section::Bone,
        Section::Constraint,
        Section::Drive,
        Section::Balance,
        Section::Root,
    ] {
        let table = fields::markdown_table(s);
        if !readme.contains(&table) {
            missing.push(format!("{s:?}:\n{table}"));
        }
    }
    assert!(
        missing.is_empty(),
        "README tables differ from the field table; expected:\n{}",
        missing.join("\n")
    );
}

/// Defaults and ranges come from the table: a missing key takes the table's default, an
/// out-of-range one is refused naming the table's range.
#[test]
fn parser_defaults_and_ranges_are_the_tables() {
    let doc = Document::open(common::mannequin()).expect("mannequin");
    let mut d = doc.clone();
    let id = d.bone_by_name("shin_l").expect("bone");
    let target = d.bone_target(id);
    d.apply(&Edit::Remove {
        target,
        key: "drive.stiffness".into(),
    })
    .expect("remove");
    let drive = d
        .bone(id)
        .physics
        .as_ref()
        .and_then(|p| p.drive)
        .expect("drive");
    assert_eq!(
        drive.stiffness,
        fields::num_spec(Section::Drive, "stiffness").default
    );
    d.apply(&Edit::Set {
        target,
        key: "drive.damping".into(),
        value: serde_json::json!(-1),
    })
    .expect("set");
    assert!(d
        .diagnostics
        .iter()
        .any(|x| x.key == "drive.damping" && x.message.contains("must not be negative")));
    // Every key of the table is accepted by the edit check; a typo is refused.
    for f in fields::FIELDS {
        let (target, key) = match f.section {
            Section::Balance => (EditTarget::Document, format!("balance.{}", f.key)),
            Section::Root => (EditTarget::Document, f.key.to_string()),
            Section::Constraint => (target, format!("constraint.{}", f.key)),
            Section::Drive => (target, format!("drive.{}", f.key)),
            Section::Bone => (target, f.key.to_string()),
        };
        let mut d2 = doc.clone();
        let r = d2.apply(&Edit::Remove {
            target,
            key: key.clone(),
        });
        assert!(r.is_ok(), "{key}: {r:?}");
    }
    let mut d3 = doc.clone();
    assert!(d3
        .apply(&Edit::Set {
            target,
            key: "drive.stiffnes".into(),
            value: serde_json::json!(1)
        })
        .is_err());
}

/// The inspector shows values as the file has them, however large: selecting a bone of a
/// character tens of units tall neither clamps its sizes, mass or gains on screen nor writes
/// anything to the document.
#[test]
fn inspector_leaves_large_values_alone() {
    use egui_kittest::kittest::Queryable;
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("fox.glb");
    let mut doc = Document::open(common::fox_glb()).expect("fox");
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
    doc.apply(&g.edit).expect("apply");
    doc.write_to(&path).expect("save");
    let doc = Document::open(&path).expect("reopen");
    let id = doc.bone_by_name("b_LeftLeg01_015").expect("thigh");
    let p = doc.bone(id).physics.clone().expect("physics");
    assert!(p.mass > 1000.0, "a heavy bone to show: {}", p.mass);
    let mut h = crate::editor::harness(&path);
    h.run_steps(2);
    h.get_by_label("b_LeftLeg01_015").click();
    h.run_steps(4);
    let st = &h.state().state;
    if st.doc.is_dirty() {
        for b in st.doc.bone_ids() {
            let (a, o) = (st.doc.bone(b).physics.clone(), doc.bone(b).physics.clone());
            if a != o {
                println!("changed {}: {:?}\n   was {:?}", st.doc.bone(b).name, a, o);
            }
        }
        if st.doc.balance != doc.balance {
            println!("balance {:?}\n was {:?}", st.doc.balance, doc.balance);
        }
    }
    assert!(!st.doc.is_dirty(), "selecting a bone edited the document");
    let after = st.doc.bone(id).physics.clone().expect("physics");
    assert_eq!(after.mass, p.mass);
    assert_eq!(after.drive, p.drive);
}

/// Copy/paste of a joint carries the field table's constraint and drive keys as the file
/// states them: a hip pasted onto an elbow becomes the same ball socket, without the hinge's
/// keys, in one undo step.
#[test]
fn joint_copy_paste_carries_the_tables_keys() {
    use ragdoll_tuner::app::state::EditorState;
    let doc = Document::open(common::mannequin()).expect("mannequin");
    let mut st = EditorState::new(doc, ragdoll_tuner::document::UriPolicy::default());
    st.selection = st.doc.bone_by_name("thigh_l");
    st.copy_joint();
    st.select_only(st.doc.bone_by_name("forearm_l"));
    st.paste_joint();
    let node = |st: &EditorState, n: &str| {
        let id = st.doc.bone_by_name(n).expect("bone");
        st.doc.json()["nodes"][st.doc.bone(id).node]["extras"]["physics"].clone()
    };
    let (hip, elbow) = (node(&st, "thigh_l"), node(&st, "forearm_l"));
    assert_eq!(elbow["constraint"]["type"], "ball_socket", "{}", st.status);
    assert_eq!(
        elbow["constraint"]["swing_limit_deg"],
        hip["constraint"]["swing_limit_deg"]
    );
    assert_eq!(
        elbow["constraint"]["twist_limit_deg"],
        hip["constraint"]["twist_limit_deg"]
    );
    assert!(
        elbow["constraint"].get("hinge_axis").is_none()
            && elbow["constraint"].get("limit_max_deg").is_none()
    );
    assert_eq!(
        elbow["constraint"]["parent_bone"], "upper_arm_l",
        "the parent stays"
    );
    assert_eq!(elbow["drive"], hip["drive"]);
    st.undo();
    assert_eq!(
        node(&st, "forearm_l")["constraint"]["type"],
        "hinge",
        "one undo step"
    );
}

/// The inspector shows and edits a collider's sizes in metres, as the simulation builds them:
/// under the Godot robot's scaled nodes a radius of the file's 2.0 units is 0.6 m on screen,
/// and typing 0.25 m writes 0.25 over the bone's world scale to the file.
#[test]
fn inspector_shows_collider_sizes_in_metres() {
    use egui_kittest::kittest::{NodeT, Queryable};
    use ragdoll_tuner::document::ColliderShape;
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("robot.glb");
    let mut doc = Document::open(common::shared_asset("zoo/godot_robot.glb")).expect("robot");
    let g = ragdoll_tuner::generate::generate(&doc, &Default::default()).expect("generate");
    doc.apply(&g.edit).expect("apply");
    doc.write_to(&path).expect("save");
    let radius_of =
        |doc: &Document, id| match doc.bone(id).physics.as_ref()?.collider.as_ref()?.shape {
            ColliderShape::Capsule { radius, .. } | ColliderShape::Sphere { radius } => {
                Some(radius)
            }
            ColliderShape::Box { .. } => None,
        };
    let (id, k) = doc
        .bone_ids()
        .filter(|&b| radius_of(&doc, b).is_some())
        .map(|b| (b, doc.bone_world_scale(b).factor))
        .find(|(_, k)| (k - 1.0).abs() > 0.1)
        .expect("a scaled bone with a round collider");
    let name = doc.bone(id).name.clone();
    let local = radius_of(&doc, id).expect("radius");
    let mut h = crate::editor::harness(&path);
    h.run_steps(2);
    h.get_by_label(&name).click();
    h.run_steps(3);
    let shown = h
        .get_by_label("Radius")
        .accesskit_node()
        .numeric_value()
        .expect("a number");
    println!(
        "{name}: {local} units × {k} = {} m; shown {shown}",
        local * k
    );
    assert!(
        (shown - local * k).abs() <= 1e-3 * local * k,
        "{name}: shown {shown}, the body's radius {} m",
        local * k
    );
    h.get_by_label("Radius").set_value_accesskit(0.25);
    h.run_steps(3);
    let st = &h.state().state;
    let written = radius_of(&st.doc, id).expect("radius");
    assert!(
        (written * k - 0.25).abs() < 1e-9,
        "{name}: wrote {written} units, {} m",
        written * k
    );
}
