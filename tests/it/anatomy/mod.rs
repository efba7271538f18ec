//! The anatomy layer against the zoo's truth table (`../shared/assets/zoo/truth.json`): the
//! coarse kind of every file, and on every humanoid the core roles with their sides (left
//! listed first, the character's own left). The same layer drives the generator, so its
//! report must say the same.

use crate::common::shared_asset;
use ragdoll_tuner::anatomy::{Anatomy, Evidence, Kind, Role, Side};
use ragdoll_tuner::document::Document;
use serde_json::Value;
use std::collections::BTreeMap;

mod advanced_skeleton;
mod exporters;
mod faces;
mod front_legs;
mod limbs;
mod plans;
mod quadrupeds;
mod small_bodies;

/// The file the loader may not read yet (compressed buffers), skipped only when it fails.
const MAY_NOT_OPEN: &str = "q_dragon_meshopt.glb";

struct Truth {
    kind: BTreeMap<String, String>,
    roles: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

fn truth() -> Truth {
    let text = std::fs::read_to_string(shared_asset("zoo/truth.json")).expect("truth.json");
    let v: Value = serde_json::from_str(&text).expect("truth.json parses");
    let kind = v["kind"]
        .as_object()
        .expect("kind table")
        .iter()
        .map(|(f, k)| (f.clone(), k.as_str().expect("kind").to_string()))
        .collect();
    let roles = v["roles"]
        .as_object()
        .expect("roles table")
        .iter()
        .map(|(f, t)| {
            let table = t
                .as_object()
                .expect("role table")
                .iter()
                .map(|(r, names)| {
                    let names = names.as_array().expect("bone list");
                    let names = names.iter().map(|n| n.as_str().unwrap().to_string());
                    (r.clone(), names.collect())
                })
                .collect();
            (f.clone(), table)
        })
        .collect();
    Truth { kind, roles }
}

/// What a detector says about one file: the coarse kind and each bone's role and side.
struct Found {
    kind: String,
    bones: Vec<FoundBone>,
}

struct FoundBone {
    name: String,
    role: String,
    side: Option<Side>,
}

/// Opens a zoo file; None (with the reason printed) only for the one file that may not open.
fn open(file: &str) -> Option<Document> {
    match Document::open(shared_asset(&format!("zoo/{file}"))) {
        Ok(d) => Some(d),
        Err(e) if file == MAY_NOT_OPEN => {
            eprintln!("skipped {file}: it does not open yet ({e})");
            None
        }
        Err(e) => panic!("{file} does not open: {e}"),
    }
}

fn from_anatomy(doc: &Document, a: &Anatomy) -> Found {
    Found {
        kind: a.kind().coarse().name().to_string(),
        bones: doc
            .bone_ids()
            .map(|id| FoundBone {
                name: doc.bone(id).name.clone(),
                role: a.role(id).name().to_string(),
                side: a.side(id),
            })
            .collect(),
    }
}

/// The mistakes on one file's core roles (empty when all are right).
fn role_mistakes(found: &Found, table: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut out = Vec::new();
    for (role, names) in table {
        let sides: Vec<Option<Side>> = match names.len() {
            1 => vec![None],
            _ => vec![Some(Side::Left), Some(Side::Right)],
        };
        for (name, side) in names.iter().zip(sides) {
            let Some(b) = found.bones.iter().find(|b| &b.name == name) else {
                out.push(format!("no bone named {name}"));
                continue;
            };
            if b.role != *role || b.side != side {
                out.push(format!(
                    "{name}: {} {:?}, want {role} {side:?}",
                    b.role, b.side
                ));
            }
            let others: Vec<&str> = found
                .bones
                .iter()
                .filter(|o| o.name != *name && o.role == *role && o.side == side)
                .map(|o| o.name.as_str())
                .collect();
            if !others.is_empty() {
                out.push(format!("{role} {side:?} also on {others:?}"));
            }
        }
    }
    out
}

struct Score {
    kinds: usize,
    files: usize,
    humanoids: usize,
    humanoid_files: usize,
    mistakes: Vec<String>,
}

fn score(found_of: impl Fn(&str, &Document) -> Found) -> Score {
    let t = truth();
    let mut s = Score {
        kinds: 0,
        files: 0,
        humanoids: 0,
        humanoid_files: 0,
        mistakes: Vec::new(),
    };
    for (file, want) in &t.kind {
        let Some(doc) = open(file) else { continue };
        let found = found_of(file, &doc);
        s.files += 1;
        if found.kind == *want {
            s.kinds += 1;
        } else {
            s.mistakes
                .push(format!("{file}: kind {}, want {want}", found.kind));
        }
        if let Some(table) = t.roles.get(file) {
            s.humanoid_files += 1;
            let m = role_mistakes(&found, table);
            if m.is_empty() {
                s.humanoids += 1;
            }
            s.mistakes
                .extend(m.into_iter().map(|m| format!("{file}: {m}")));
        }
    }
    s
}

fn report(label: &str, s: &Score) -> String {
    format!(
        "{label}: kinds right {}/{}, humanoids with all core roles right {}/{}\n{}",
        s.kinds,
        s.files,
        s.humanoids,
        s.humanoid_files,
        s.mistakes.join("\n")
    )
}

#[test]
fn anatomy_matches_the_zoo_truth() {
    let s = score(|_, doc| from_anatomy(doc, &Anatomy::of(doc)));
    let text = report("anatomy", &s);
    eprintln!("{text}");
    assert!(s.files >= 12, "{text}");
    assert_eq!(s.kinds, s.files, "{text}");
    assert_eq!(s.humanoids, s.humanoid_files, "{text}");
}

#[test]
fn the_generator_reports_the_anatomy_roles() {
    let s = score(|file, doc| {
        let g = ragdoll_tuner::generate::generate(doc, &Default::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        Found {
            kind: g.report.character_type.name().to_string(),
            bones: g
                .report
                .bones
                .iter()
                .map(|b| FoundBone {
                    name: b.name.clone(),
                    role: b.role.name().to_string(),
                    side: b.side,
                })
                .collect(),
        }
    });
    let text = report("generator", &s);
    eprintln!("{text}");
    assert_eq!(s.kinds, s.files, "{text}");
    assert_eq!(s.humanoids, s.humanoid_files, "{text}");
}

/// The zoo's VRM 1 model of rigid parts, every node renamed by `rename`; with `keep_map` its
/// VRM extension kept, with `keep_legs` its legs' parts. With no leg parts, as a VRoid
/// avatar whose mesh is its clothes and shoes, its legs carry no skin and nothing reaches
/// the ground, so only the VRM map says where the legs are.
fn vrm_copy(rename: impl Fn(usize, &str) -> String, keep_map: bool, keep_legs: bool) -> Document {
    crate::common::glb_with_json(&shared_asset("zoo/vrm1_rigid_parts.vrm"), |j| {
        let nodes = j["nodes"].as_array().expect("nodes").clone();
        let parts_of_legs: Vec<usize> = nodes
            .iter()
            .filter(|n| n["name"].as_str().is_some_and(|s| s.contains("_leg")))
            .flat_map(|n| n["children"].as_array().cloned().unwrap_or_default())
            .filter_map(|c| c.as_u64().map(|c| c as usize))
            .filter(|&c| nodes[c].get("mesh").is_some())
            .collect();
        assert_eq!(parts_of_legs.len(), 4, "the legs' parts");
        for (i, node) in j["nodes"].as_array_mut().unwrap().iter_mut().enumerate() {
            let node = node.as_object_mut().unwrap();
            if !keep_legs && parts_of_legs.contains(&i) {
                node.remove("mesh");
            }
            let name = node["name"].as_str().unwrap_or_default().to_string();
            node.insert("name".into(), rename(i, &name).into());
        }
        if !keep_map {
            j["extensions"].as_object_mut().unwrap().remove("VRMC_vrm");
            j["extensionsUsed"] = serde_json::json!([]);
        }
    })
}

/// The leg paths' bone names, sorted.
fn leg_paths(doc: &Document, a: &Anatomy) -> Vec<Vec<String>> {
    let mut legs: Vec<Vec<String>> = a
        .limbs()
        .iter()
        .filter(|l| l.kind.is_leg())
        .map(|l| l.path.iter().map(|&b| doc.bone(b).name.clone()).collect())
        .collect();
    legs.sort();
    legs
}

/// A VRoid avatar (legs with no skin, bones named `J_Bip_C_Hips`, `J_Bip_L_UpperLeg`, a full
/// VRM map) was generated as 'other' with no balance: the map was read only after the body
/// plan, and its `J_` prefix hid every name. The map is the truth for the plan as for the
/// roles: with every bone renamed `node_N` and no leg parts, the map alone finds the legs,
/// each a thigh, a shin and a foot. With no map, VRoid's names are read.
#[test]
fn a_vrm_map_finds_legs_with_no_skin_and_vroid_names_are_read() {
    let doc = vrm_copy(|i, _| format!("node_{i}"), true, false);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    let by_map = leg_paths(&doc, &a);
    assert_eq!(by_map.len(), 2, "{by_map:?}");
    for leg in &by_map {
        let roles: Vec<Role> = leg
            .iter()
            .map(|n| a.role(doc.bone_by_name(n).unwrap()))
            .collect();
        assert_eq!(roles[..3], [Role::Thigh, Role::Shin, Role::Foot], "{leg:?}");
    }

    let vroid = |_: usize, name: &str| {
        let (part, side) = match name.rsplit_once('.') {
            Some((p, "L")) => (p, "L"),
            Some((p, "R")) => (p, "R"),
            _ => (name, "C"),
        };
        let part = match part {
            "upper_leg" => "UpperLeg",
            "lower_leg" => "LowerLeg",
            "foot" => "Foot",
            "toes" => "ToeBase",
            "hips" => "Hips",
            "spine" => "Spine",
            "chest" => "Chest",
            "neck" => "Neck",
            "head" => "Head",
            "shoulder" => "Shoulder",
            "upper_arm" => "UpperArm",
            "lower_arm" => "LowerArm",
            "hand" => "Hand",
            _ => return name.to_string(),
        };
        format!("J_Bip_{side}_{part}")
    };
    let doc = vrm_copy(vroid, false, true);
    let a = Anatomy::of(&doc);
    assert_eq!(a.kind(), Kind::Biped, "{:?}", a.notes());
    for (name, role) in [
        ("J_Bip_C_Hips", Role::Pelvis),
        ("J_Bip_C_Neck", Role::Neck),
        ("J_Bip_L_UpperLeg", Role::Thigh),
        ("J_Bip_R_LowerArm", Role::Forearm),
    ] {
        let b = a.bone(doc.bone_by_name(name).expect(name));
        assert_eq!(b.role, role, "{name}");
        assert_eq!(
            b.evidence,
            Evidence::NameAndGeometry,
            "{name}: its name is read"
        );
    }
}

#[test]
fn a_vrm_map_names_the_bones_it_lists() {
    let doc = open("vrm1_rigid_parts.vrm").expect("opens");
    let a = Anatomy::of(&doc);
    let id = |n: &str| doc.bone_by_name(n).expect(n);
    assert_eq!(a.kind(), Kind::Biped);
    for (name, role, side) in [
        ("lower_arm.L", Role::Forearm, Some(Side::Left)),
        ("foot.R", Role::Foot, Some(Side::Right)),
        ("hips", Role::Pelvis, None),
    ] {
        assert_eq!(a.role(id(name)), role, "{name}");
        assert_eq!(a.side(id(name)), side, "{name}");
        assert!(
            a.confidence(id(name)) >= 0.99,
            "{name}: the map is the truth"
        );
    }
    // Its feet carry no skin of their own (rigid parts), but the map names them: each leg
    // runs on to its foot.
    let mut leg_ends: Vec<String> = a
        .limbs()
        .iter()
        .filter(|l| l.kind.is_leg())
        .filter_map(|l| l.path.last().map(|&b| doc.bone(b).name.clone()))
        .collect();
    leg_ends.sort();
    assert_eq!(leg_ends, ["foot.L", "foot.R"]);
}

/// Blender's older exporter writes the action's or the armature's name before every bone
/// (`idle_Bip01_R_Thigh`, `attack_Bip01_Head`). Read with it, no name said a role and the
/// geometry alone decided: a bird's raised wing became its neck and head, a reindeer's ear
/// its head. Every zoo file with `idle_` before each joint's name reads as it does without:
/// the same kind, and every bone the same role and side, on the same evidence.
#[test]
fn an_exporter_s_prefix_on_every_bone_changes_no_role() {
    for file in truth().kind.keys() {
        let Some(doc) = open(file) else { continue };
        let copy = crate::common::glb_with_json(&shared_asset(&format!("zoo/{file}")), |j| {
            let joints: std::collections::BTreeSet<u64> = (j["skins"].as_array().into_iter())
                .flatten()
                .flat_map(|s| s["joints"].as_array().cloned().unwrap_or_default())
                .filter_map(|n| n.as_u64())
                .collect();
            for n in joints {
                let node = &mut j["nodes"][n as usize];
                if let Some(name) = node["name"].as_str().map(|s| format!("idle_{s}")) {
                    node["name"] = name.into();
                }
            }
        });
        assert_eq!(facts(&copy), facts(&doc), "{file}");
    }
}

/// On a creature of no legged plan, the bones named `Neck` and `Head` are its neck and head:
/// names were read on bipeds only, and the zoo snake's `Neck` and `Head`, like a flying bee's
/// beside its wings, were bodies of no role (no head in the editor's anatomy panel).
#[test]
fn a_legless_creature_s_named_neck_and_head_are_its_neck_and_head() {
    let doc = open("q_snake.glb").expect("the zoo snake");
    let a = Anatomy::of(&doc);
    for (name, role) in [("Neck", Role::Neck), ("Head", Role::Head)] {
        let id = doc.bone_by_name(name).expect(name);
        assert_eq!(a.role(id), role, "{name}");
    }
}

/// What the anatomy reads in a file: its kind, and every bone's role, side and evidence.
fn facts(d: &Document) -> (Kind, Vec<(Role, Option<Side>, Evidence)>) {
    let a = Anatomy::of(d);
    let bones = (d.bone_ids())
        .map(|id| (a.role(id), a.side(id), a.bone(id).evidence))
        .collect();
    (a.kind(), bones)
}

/// Rigs named in German (a wolf's `Becken`, `Brust`, `Hals`, `Kopf`, `Oberschenkel_L`,
/// `Schwanz`), French, Spanish, Italian or Portuguese: no name was read, and a German-named
/// wolf in a running pose, one paw on the ground, was taken for a biped with its ear as its
/// head. The synthetic humanoid named in German reads as it does in Mixamo's English: the
/// same kind, and every bone the same role and side on the same evidence.
#[test]
fn bones_named_in_german_are_read_as_in_english() {
    let english = crate::generate::fixtures::humanoid();
    let parts = [
        ("ForeArm", "Unterarm"),
        ("UpLeg", "Oberschenkel"),
        ("Shoulder", "Schulter"),
        ("ToeBase", "Zeh"),
        ("Toe_End", "Zeh_End"),
        ("Thumb", "Daumen"),
        ("Hips", "Becken"),
        ("Spine", "Bauch"),
        ("Neck", "Hals"),
        ("Head", "Kopf"),
        ("Foot", "Fuss"),
        ("Leg", "Bein"),
    ];
    let german: Vec<_> = (english.iter().cloned())
        .map(|mut b| {
            let mut n = b.name.trim_start_matches("mixamorig:").to_string();
            let side = [("Left", "_L"), ("Right", "_R")]
                .into_iter()
                .find(|(s, _)| n.starts_with(s));
            if let Some((s, _)) = side {
                n = n[s.len()..].to_string();
            }
            if let Some((e, g)) = parts.iter().find(|(e, _)| n.starts_with(e)) {
                n = format!("{g}{}", &n[e.len()..]);
            }
            b.name = format!("{n}{}", side.map_or("", |(_, suffix)| suffix));
            b
        })
        .collect();
    let (_d1, en) = plans::synthetic(&english, true);
    let (_d2, de) = plans::synthetic(&german, true);
    let names: Vec<_> = de.bone_ids().map(|id| de.bone(id).name.clone()).collect();
    assert!(names.contains(&"Oberschenkel_L".to_string()), "{names:?}");
    assert_eq!(facts(&de), facts(&en), "{names:?}");
}

/// Blender's Chinese interface names bones `骨骼`, `骨骼.001`...: reading such names panicked
/// every command (inspect, validate, generate, the editor). Every zoo file with each joint so
/// renamed is read and generated.
#[test]
fn bones_named_in_any_script_are_read() {
    for file in truth().kind.keys() {
        if open(file).is_none() {
            continue;
        }
        let copy = crate::common::glb_with_json(&shared_asset(&format!("zoo/{file}")), |j| {
            let joints: Vec<u64> = (j["skins"].as_array().into_iter())
                .flatten()
                .flat_map(|s| s["joints"].as_array().cloned().unwrap_or_default())
                .filter_map(|n| n.as_u64())
                .collect();
            // As Blender names them: the first `骨骼`, then `骨骼.001`...
            for (k, n) in joints.into_iter().enumerate() {
                let name = match k {
                    0 => "骨骼".to_string(),
                    k => format!("骨骼.{k:03}"),
                };
                j["nodes"][n as usize]["name"] = name.into();
            }
        });
        let a = Anatomy::of(&copy);
        assert!(!a.kind().coarse().name().is_empty(), "{file}");
        ragdoll_tuner::generate::generate(&copy, &Default::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
}

/// A VRM model without a mesh (as the VRM add-on for Blender's test armature is): shapes
/// come from bone lengths, and the geometry took the head for a neck. The map names the
/// head, which is the truth: no note that a name overrode the geometry on a bone it maps.
#[test]
fn bones_a_vrm_map_names_get_no_name_against_geometry_notes() {
    let doc = crate::common::glb_with_json(&shared_asset("zoo/vrm1_rigid_parts.vrm"), |j| {
        for n in j["nodes"].as_array_mut().unwrap() {
            let n = n.as_object_mut().unwrap();
            n.remove("mesh");
            n.remove("skin");
        }
    });
    let a = Anatomy::of(&doc);
    let head = a.head().expect("a head");
    assert_eq!(a.bone(head).evidence, Evidence::Vrm);
    let named: Vec<&str> = (a.notes().iter())
        .filter(|n| n.text.contains("is named as"))
        .map(|n| n.text.as_str())
        .collect();
    assert!(named.is_empty(), "{named:?}");
}

/// Blender numbers every bone extruded from another (`Leg.L`, `Leg.L.001`, `Leg.L.002`...),
/// where Rigify's `DEF-thigh.L.001` is a straight bone split in two: a numbered copy is a
/// twist segment only where it carries on along its parent's line. The zoo horse with its
/// legs so named was read as a humanoid on rigid legs (every copy merged as a twist bone);
/// it reads as the horse: a quadruped, each renamed bone the role and side it has named as
/// the zoo names it. The Rigify lumberjack's split segments stay twist bones.
#[test]
fn legs_named_as_blender_numbers_extruded_bones_bend_at_their_joints() {
    let original = open("q_horse.glb").expect("the zoo horse");
    let mut renamed = std::collections::BTreeMap::new();
    for side in ["L", "R"] {
        let back = ["BackShoulder", "BackLeg", "BackUpperLeg", "BackLowerLeg"];
        let front = ["FrontShoulder", "FrontUpperLeg", "FrontLowerLeg"];
        for (chain, stem) in [(&back[..], "Leg"), (&front[..], "Arm")] {
            for (k, bone) in chain.iter().enumerate() {
                let copy = match k {
                    0 => format!("{stem}.{side}"),
                    k => format!("{stem}.{side}.{k:03}"),
                };
                renamed.insert(format!("{bone}.{side}"), copy);
            }
        }
    }
    let copy = crate::common::glb_with_json(&shared_asset("zoo/q_horse.glb"), |j| {
        for node in j["nodes"].as_array_mut().into_iter().flatten() {
            if let Some(new) = node["name"].as_str().and_then(|n| renamed.get(n)) {
                node["name"] = new.clone().into();
            }
        }
    });
    let (a0, a1) = (Anatomy::of(&original), Anatomy::of(&copy));
    assert_eq!(a1.kind(), Kind::Quadruped);
    for (old, new) in &renamed {
        let (b0, b1) = (original.bone_by_name(old), copy.bone_by_name(new));
        let (b0, b1) = (b0.expect(old), b1.expect(new));
        let (r0, r1) = ((a0.role(b0), a0.side(b0)), (a1.role(b1), a1.side(b1)));
        assert_eq!(r1, r0, "{new} (the zoo's {old})");
    }
    let rigify = open("rigify_lumberjack.glb").expect("the zoo lumberjack");
    let a = Anatomy::of(&rigify);
    for name in [
        "DEF-thigh.L.001_024",
        "DEF-upper_arm.R.001_038",
        "DEF-forearm.L.001_048",
    ] {
        let id = rigify.bone_by_name(name).expect(name);
        assert_eq!(a.role(id), Role::Twist, "{name}");
    }
}

/// On a creature of no legged plan, the bones named as its tail are its tail (tail limits
/// and gains, and `--no-tail` leaves them out): the zoo dragon's `Tail1` to `Tail4`, like a
/// bat-winged boss's, were bodies of no role.
#[test]
fn a_winged_creature_s_named_tail_is_its_tail() {
    let doc = open("q_dragon_meshopt.glb").expect("the zoo dragon");
    let a = Anatomy::of(&doc);
    for name in ["Tail1", "Tail2", "Tail3", "Tail4"] {
        let id = doc.bone_by_name(name).expect(name);
        assert_eq!(a.role(id), Role::Tail, "{name}");
    }
}
