//! Checks across bones: constraint parents (missing, self, unknown, cycles), colliders on
//! both sides of a constraint, duplicate names, and the balance settings' bone names.

use super::bones::{Bone, BoneId};
use super::diagnostics::Diagnostic;
use super::fields::Key;
use super::schema::BalanceSettings;
use std::collections::HashMap;

/// Resolves defaulted parents in place and appends the cross-bone diagnostics.
pub(crate) fn check_bones(
    bones: &mut [Bone],
    names: &HashMap<String, BoneId>,
    diags: &mut Vec<Diagnostic>,
) {
    report_duplicate_names(bones, diags);
    for i in 0..bones.len() {
        resolve_parent(bones, i, names, diags);
    }
    report_cycles(bones, names, diags);
}

fn report_duplicate_names(bones: &[Bone], diags: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for b in bones {
        if let Some(first) = seen.insert(&b.name, b.node) {
            diags.push(Diagnostic::warning(
                Some(b.node),
                &b.name,
                "name",
                format!(
                    "node {first} has the same name; use 'node{}' to address this one",
                    b.node
                ),
            ));
        }
    }
}

fn resolve_parent(
    bones: &mut [Bone],
    i: usize,
    names: &HashMap<String, BoneId>,
    diags: &mut Vec<Diagnostic>,
) {
    let (node, name) = (bones[i].node, bones[i].name.clone());
    let Some(c) = bones[i].constraint() else {
        return;
    };
    let key = Key::ParentBone.path();
    let parent = match &c.parent_bone {
        Some(p) => p.clone(),
        None => match default_parent(bones, i, diags) {
            Some(pname) => pname,
            None => return,
        },
    };
    if parent == name {
        diags.push(Diagnostic::error(
            Some(node),
            &name,
            key,
            "names the bone itself",
        ));
        return;
    }
    let Some(pid) = names.get(&parent) else {
        diags.push(Diagnostic::error(
            Some(node),
            &name,
            key,
            format!("no bone named '{parent}'"),
        ));
        return;
    };
    check_joined_colliders(bones, i, *pid, &parent, diags);
}

/// A constraint without a parent bone joins the nearest ancestor with a collider (a warning,
/// and the constraint is given it); None, with an error, when there is none.
fn default_parent(bones: &mut [Bone], i: usize, diags: &mut Vec<Diagnostic>) -> Option<String> {
    let (node, name) = (bones[i].node, bones[i].name.clone());
    let key = Key::ParentBone.path();
    let nearest = std::iter::successors(bones[i].parent, |p| bones[p.index()].parent)
        .find(|p| bones[p.index()].collider().is_some());
    let Some(p) = nearest else {
        diags.push(Diagnostic::error(
            Some(node),
            &name,
            key,
            "missing, and no ancestor bone has a collider to default to",
        ));
        return None;
    };
    let pname = bones[p.index()].name.clone();
    diags.push(Diagnostic::warning(
        Some(node),
        &name,
        key,
        format!("missing; using '{pname}', the nearest ancestor bone with a collider"),
    ));
    if let Some(c) = bones[i]
        .physics
        .as_mut()
        .and_then(|p| p.constraint.as_mut())
    {
        c.parent_bone = Some(pname.clone());
    }
    Some(pname)
}

/// Both bones a constraint joins need a collider.
fn check_joined_colliders(
    bones: &[Bone],
    i: usize,
    parent_id: BoneId,
    parent: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let (node, name) = (bones[i].node, &bones[i].name);
    if bones[i].collider().is_none() {
        diags.push(Diagnostic::error(
            Some(node),
            name,
            Key::Collider.path(),
            format!("the constraint to '{parent}' needs a collider on this bone, which has none"),
        ));
    }
    if bones[parent_id.index()].collider().is_none() {
        diags.push(Diagnostic::error(
            Some(node),
            name,
            Key::ParentBone.path(),
            format!("the parent bone '{parent}' has no collider, so the constraint cannot join anything"),
        ));
    }
}

/// The constraint parent of a bone, when it names a known bone.
fn constraint_parent(b: &Bone, names: &HashMap<String, BoneId>) -> Option<BoneId> {
    let p = b.constraint()?.parent_bone.as_ref()?;
    names.get(p).copied()
}

fn report_cycles(bones: &[Bone], names: &HashMap<String, BoneId>, diags: &mut Vec<Diagnostic>) {
    // 0 = unvisited, 1 = on the current path, 2 = done.
    let mut state = vec![0u8; bones.len()];
    for start in 0..bones.len() {
        let mut path = Vec::new();
        let mut cur = Some(BoneId(start as u32));
        while let Some(id) = cur {
            match state[id.index()] {
                2 => break,
                1 => {
                    let from = path.iter().position(|p| *p == id).unwrap_or(0);
                    let cycle: Vec<&str> = path[from..]
                        .iter()
                        .map(|p: &BoneId| bones[p.index()].name.as_str())
                        .collect();
                    for p in &path[from..] {
                        let b = &bones[p.index()];
                        if cycle.len() > 1 {
                            diags.push(Diagnostic::error(
                                Some(b.node),
                                &b.name,
                                Key::ParentBone.path(),
                                format!(
                                    "constraint parents form a cycle: {} -> {}",
                                    cycle.join(" -> "),
                                    cycle[0]
                                ),
                            ));
                        }
                    }
                    break;
                }
                _ => {
                    state[id.index()] = 1;
                    path.push(id);
                    cur = constraint_parent(&bones[id.index()], names);
                }
            }
        }
        for p in path {
            state[p.index()] = 2;
        }
    }
}

/// Checks that explicitly set balance bone names exist.
pub(crate) fn check_balance(
    balance: &BalanceSettings,
    names: &HashMap<String, BoneId>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut check = |key: Key, name: &str| {
        if !names.contains_key(name) {
            diags.push(Diagnostic::error(
                None,
                "document",
                key.path(),
                format!("no bone named '{name}'"),
            ));
        }
    };
    if let Some(t) = &balance.torso_bone {
        check(Key::TorsoBone, t);
    }
    if let Some(p) = &balance.pelvis_bone {
        check(Key::PelvisBone, p);
    }
    for f in balance.foot_bones.iter().flatten() {
        check(Key::FootBones, f);
    }
}

/// A ball socket's `swing_y_axis` must not be parallel to the bone's primary axis (the joint
/// frame's X), or the frame has no Y to speak of.
pub(crate) fn check_swing_axes(doc: &super::Document) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for id in doc.bone_ids() {
        let b = doc.bone(id);
        let Some(super::ConstraintKind::BallSocket {
            swing_y_axis: Some(y),
            ..
        }) = b.constraint().map(|c| &c.kind)
        else {
            continue;
        };
        let x = doc.primary_axis(id).normalize_or_zero();
        let y = glam::DVec3::from_array(*y).normalize_or_zero();
        if x.cross(y).length() < 0.017 {
            out.push(Diagnostic::error(
                Some(b.node),
                &b.name,
                Key::SwingYAxis.path(),
                format!(
                    "{:?} is parallel to the bone's primary axis {:?}; using the default Y axis",
                    y.to_array(),
                    x.to_array()
                ),
            ));
        }
    }
    out
}
