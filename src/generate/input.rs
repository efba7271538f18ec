//! Warnings about the input character itself (its size, orientation, placement, skin and
//! scales), reported with the generated ragdoll.

use super::roles::{Anatomy, CharacterKind, LimbKind};
use super::{rig, samples};
use crate::anatomy::Kind;
use crate::document::ground::GROUND_TOLERANCE;
use crate::document::Diagnostic;
use glam::DVec3;

fn warn(key: &str, msg: String) -> Diagnostic {
    Diagnostic::warning(None, "document", key, msg)
}

/// Appends the input's warnings to `out`.
pub(super) fn input_diagnostics(
    rig: &rig::Rig,
    samples: &samples::Samples,
    (a, kind): (&Anatomy, Kind),
    out: &mut Vec<Diagnostic>,
) {
    for n in &a.notes {
        out.push(warn("generate", n.clone()));
    }
    if !a.kind.plausible_height_m().contains(&a.height) {
        let h = crate::document::fields::fixed_or_readable(a.height, 4);
        // Past the solver's largest collider the file cannot be simulated at all.
        let then = match a.height > crate::document::fields::MAX_EXTENT {
            true => format!(
                "its colliders will be past the largest the simulation takes ({} units), so it cannot be simulated: scale its root node down",
                crate::document::fields::readable(crate::document::fields::MAX_EXTENT)
            ),
            false => {
                let scale = a.kind.unit_fix(a.height);
                format!(
                    "it is simulated at that size; if the file is in {}, scale its root node by {} and generate again",
                    CharacterKind::unit_named(scale),
                    crate::document::fields::readable(scale)
                )
            }
        };
        out.push(warn(
            "generate",
            format!("the character is {h} units tall: implausible in metres (glTF's unit); {then}"),
        ));
    }
    // A legless creature (read so only when it lies longer than twice its height along the
    // ground) is as flat as it is: a snake 12.1 long and 0.43 high was told to fix a Z-up root.
    // Where the names say where its head and its feet are, they say which way is up: a
    // humanoid exported Z-up, lying on its back, is read as legless too and was told nothing.
    let four_legged = matches!(kind, Kind::Quadruped | Kind::MultiLegged);
    let named = named_up(rig).filter(|_| !four_legged);
    match named.and_then(|up| named_up_diagnostic(up, a.height)) {
        Some(d) => out.push(d),
        None if kind != Kind::Legless => out.extend(orientation_diagnostic(rig, samples, a)),
        None => {}
    }
    if a.ground < -0.02 * a.height || a.ground > 0.05 * a.height {
        out.push(warn("generate", ground_note(a.ground, a.height)));
    }
    skin_diagnostics(rig, samples, out);
    out.extend(characters_left_out(samples));
    out.extend(several_characters(rig, samples));
}

/// A warning naming the characters left out of a file that holds several.
fn characters_left_out(samples: &samples::Samples) -> Option<Diagnostic> {
    let read = samples.read_character.as_ref()?;
    let others: Vec<String> = (samples.other_characters.iter())
        .map(|c| format!("'{}' ({} vertices)", c.name, c.vertices))
        .collect();
    Some(warn(
        "generate",
        format!(
            "the file holds {} characters, each a skeleton with a skin of its own: the ragdoll is made for the one under '{}' ({} vertices, the most skin); {} {} left out with no physics: to make theirs, open a file of each alone",
            others.len() + 1,
            read.name,
            read.vertices,
            others.join(", "),
            if others.len() == 1 { "is" } else { "are" },
        ),
    ))
}

/// A warning when the file holds several skeletons apart from each other, each with a share
/// of the skin: several characters (a file of four cats side by side was made one ragdoll
/// document of 103 bodies, "Other, 7.8 units tall", and said nothing).
fn several_characters(rig: &rig::Rig, samples: &samples::Samples) -> Option<Diagnostic> {
    let kept = samples.kept() as f64;
    let skin_of = |r: usize| -> usize {
        (rig.subtree(r).iter())
            .map(|&b| samples.by_bone.get(b).map_or(0, Vec::len))
            .sum()
    };
    let roots: Vec<usize> = (0..rig.len())
        .filter(|&i| rig.bones[i].structural && rig.s_parent[i].is_none())
        .filter(|&r| {
            kept > 0.0
                && skin_of(r) as f64 >= crate::anatomy::characters::CHARACTER_SKIN_SHARE * kept
        })
        .collect();
    if roots.len() < 2 {
        return None;
    }
    let names: Vec<String> = (roots.iter())
        .map(|&r| format!("'{}'", rig.bones[r].name))
        .collect();
    Some(warn(
        "generate",
        format!(
            "the file holds {} skeletons apart from each other (rooted at {}): several characters, or one whose parts no bone joins? Each becomes a ragdoll of its own, but the height, the anatomy and the balance are read as if they were one character: to tune one character, open a file of it alone",
            roots.len(),
            names.join(", ")
        ),
    ))
}

/// From the bones named as feet (or toes) to those named as the head, when the file names
/// both and they lie apart: the way up its names say (a humanoid, a creature with a head
/// and feet).
fn named_up(rig: &rig::Rig) -> Option<DVec3> {
    use crate::anatomy::{name_roles, Role};
    let centre = |want: &dyn Fn(Role) -> bool| {
        let at: Vec<DVec3> = (rig.bones.iter())
            .filter(|b| b.structural)
            .filter(|b| name_roles::role_of(&b.hints).is_some_and(|n| want(n.role)))
            .map(|b| b.pos)
            .collect();
        (!at.is_empty()).then(|| at.iter().sum::<DVec3>() / at.len() as f64)
    };
    let head = centre(&|r| r == Role::Head)?;
    let feet = centre(&|r| matches!(r, Role::Foot | Role::Toe))?;
    Some(head - feet)
}

/// A warning when the head the names find lies more than 60 degrees off +Y from the feet
/// they find and the character is lower than half that distance: lying down, or exported
/// Z-up (Blender's "+Y Up" unticked; a Character Creator figure read as "Other, 0.261 units
/// tall, 0.23 kg" and told nothing). Four-legged creatures carry their heads forward of
/// their feet, low (a rat 82 degrees off, a wolf 73): they are not asked.
fn named_up_diagnostic(up: DVec3, height: f64) -> Option<Diagnostic> {
    let length = up.length();
    let dir = up.try_normalize()?;
    if dir.y > 0.5 || height > 0.5 * length {
        return None;
    }
    let (k, v) = (0..3)
        .map(|k| (k, dir[k]))
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))?;
    let axis = format!("{}{}", if v < 0.0 { "-" } else { "+" }, ["X", "Y", "Z"][k]);
    Some(warn(
        "generate",
        format!(
            "the bones named as the head and the feet say this character's up is {axis} (the head {length:.3} units from the feet, {:.0} degrees off +Y): if it was exported Z-up or lies down, fix its root rotation (glTF is Y-up; gravity is -Y)",
            dir.y.clamp(-1.0, 1.0).acos().to_degrees()
        ),
    ))
}

/// Where the character starts against the simulation's ground ([`Document::ground_y`]):
/// near y = 0 (within [`GROUND_TOLERANCE`] of its height) the ground is y = 0 and it starts
/// sunk into it or above it; farther, the ground is the plane under its lowest collider
/// (a character on a stage, 50 units tall below its origin) and it stands where it is.
///
/// [`Document::ground_y`]: crate::document::Document::ground_y
fn ground_note(lowest_y: f64, height: f64) -> String {
    if lowest_y.abs() > GROUND_TOLERANCE * height {
        return format!(
            "the character's lowest point is at y = {lowest_y:.4}, far from y = 0: the simulation's ground is the plane under its lowest collider (`inspect --json`: ground_y)"
        );
    }
    format!(
        "the character's lowest point is at y = {lowest_y:.4}, not on the simulation's ground (y = 0): it starts {} it",
        if lowest_y < 0.0 { "sunk into" } else { "above" }
    )
}

/// A warning when the character is flat along Y (lying down or Z-up). A quadruped long for
/// its height stands on its legs (a beaver 136 long and 47 high): not flat; nor is a bird
/// standing on its legs with its wings spread (an eagle 1.9 wide and 0.74 high), nor a
/// spider on its eight.
fn orientation_diagnostic(
    rig: &rig::Rig,
    samples: &samples::Samples,
    a: &Anatomy,
) -> Option<Diagnostic> {
    let pts: Vec<DVec3> = if samples.kept() > 0 {
        samples.all().copied().collect()
    } else {
        rig.bones.iter().map(|b| b.pos).collect()
    };
    let ext = |f: fn(&DVec3) -> f64| {
        let v = rig::sorted(pts.iter().map(f));
        rig::percentile(&v, 0.99) - rig::percentile(&v, 0.01)
    };
    let (x, y, z) = (ext(|p| p.x), ext(|p| p.y), ext(|p| p.z));
    let legs = a.limbs.iter().any(|l| l.kind.is_leg());
    // A creature standing on legs is as flat as it is (a spider 5.8 x 1.8 x 5.0); a humanoid
    // standing never is.
    let standing = legs && a.kind != CharacterKind::Humanoid;
    // A flier with its wings spread and its body level is as flat as its wings (a flying
    // dragon 4.2 x 1.5 x 2.4); Z-up or on its back, its body would stand along Y.
    let level = match (a.pelvis, a.head) {
        (Some(p), Some(h)) => (rig.bones[h].pos - rig.bones[p].pos)
            .try_normalize()
            .is_some_and(|d| d.y.abs() < 0.5),
        _ => false,
    };
    let winged = level && a.limbs.iter().any(|l| l.kind == LimbKind::Wing);
    let flat = y < 0.35 * x.max(z) && a.kind != CharacterKind::Quadruped && !standing && !winged;
    // Lying or Z-up, Y is the thinnest way through a body; a spinosaurus read as no kind,
    // 0.18 wide, 0.43 high and 0.93 long, stands.
    let no_legs =
        a.kind == CharacterKind::Other && !legs && !winged && x.max(z) > 1.5 * y && y <= x.min(z);
    (flat || no_legs).then(|| {
        warn(
            "generate",
            format!(
                "the character is {x:.3} x {y:.3} x {z:.3} (X, Y, Z), flat along Y: if it is Z-up or lies down, fix its root rotation (glTF is Y-up; gravity is -Y)"
            ),
        )
    })
}

/// More meshes left out than this are one warning: an Auto-Rig Pro horse's 47 control
/// widgets (`cs_arrow_cross_solid`, `cs_circle_ik`, ...) were 47 lines before the rest.
const UNATTACHED_NAMED_ONE_BY_ONE: usize = 3;

/// A warning per mesh neither skinned nor under a bone (on its node), or one for them all
/// naming the first few.
fn unattached_meshes(list: &[samples::UnattachedMesh]) -> Vec<Diagnostic> {
    let each = |u: &samples::UnattachedMesh| {
        Diagnostic::warning(
            Some(u.node),
            &u.name,
            "mesh",
            format!(
                "{} vertices neither skinned nor under a bone: left out of the ragdoll",
                u.vertices
            ),
        )
    };
    if list.len() <= UNATTACHED_NAMED_ONE_BY_ONE {
        return list.iter().map(each).collect();
    }
    let vertices: usize = list.iter().map(|u| u.vertices).sum();
    let named: Vec<String> = (list.iter().take(UNATTACHED_NAMED_ONE_BY_ONE))
        .map(|u| format!("'{}'", u.name))
        .collect();
    vec![warn(
        "mesh",
        format!(
            "{} meshes ({vertices} vertices) neither skinned nor under a bone: left out of the ragdoll ({} and {} more)",
            list.len(),
            named.join(", "),
            list.len() - UNATTACHED_NAMED_ONE_BY_ONE
        ),
    )]
}

/// Warnings about the skin samples and the bones' scales.
fn skin_diagnostics(rig: &rig::Rig, samples: &samples::Samples, out: &mut Vec<Diagnostic>) {
    let (kept, bones) = (samples.kept(), rig.bones.len());
    if kept == 0 {
        out.push(warn(
            "generate",
            "no skinned vertices: shapes come from the bone lengths alone".into(),
        ));
    } else if kept < bones {
        // A VRM exporter's test file skins one triangle to a 54-bone skeleton.
        out.push(warn(
            "generate",
            format!(
                "only {kept} skinned vertices for {bones} bones: too few to fit shapes to; they come from the bone lengths"
            ),
        ));
    }
    if samples.dropped > 0 {
        out.push(warn(
            "generate",
            format!(
                "{} of {} vertices dropped (no weight, unknown joint, NaN or huge position)",
                samples.dropped, samples.total
            ),
        ));
    }
    out.extend(unattached_meshes(&samples.unattached));
    // Once per subtree: a scale on the armature makes every bone's world scale non-uniform,
    // and a warning per bone buried the rest (22 lines for a 22-bone man). Only where a body
    // may be: a Rigify rig's scaled pole-target widgets (`VIS_thigh_ik_pole.L`), helpers with
    // no shape, gave six warnings about shapes.
    for (i, b) in rig.bones.iter().enumerate() {
        let inherited = b.parent.is_some_and(|p| rig.bones[p].nonuniform);
        if !b.nonuniform || inherited {
            continue;
        }
        let shaped: Vec<usize> = (rig.subtree_all(i).into_iter())
            .filter(|&d| rig.bones[d].nonuniform && rig.bones[d].structural)
            .collect();
        if shaped.is_empty() {
            continue;
        }
        let below = shaped.iter().filter(|&&d| d != i).count();
        let text = match below {
            0 => "non-uniform world scale: shapes use the mean scale".to_string(),
            n => format!(
                "non-uniform world scale, here and on the {n} bones below: shapes use the mean scale"
            ),
        };
        out.push(Diagnostic::warning(Some(b.node), &b.name, "scale", text));
    }
}
