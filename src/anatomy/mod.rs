//! The anatomy of a character, computed once per document: its kind (biped, quadruped,
//! multi-legged, legless, winged or other), each deforming bone's role and side with a
//! confidence, the limb chains, left/right twins, the mid-plane, up and forward, and notes
//! where a bone's name and the geometry disagree. Pure: glam and the document layer only (no
//! UI, no physics); the generator, the presets and the simulation's balance read it.
//!
//! Evidence, strongest first: a VRM humanoid map ([`vrm`]) is the truth for every bone it
//! names; then names in every common convention ([`name_roles`]); then topology and geometry
//! ([`detect`], [`plans`], [`axes`]). Geometry overrides a name only where it clearly
//! contradicts it (a side that the rest of the skeleton's named pairs disprove), and a note
//! says so. Only deforming bones (carrying skin weight or a rigid mesh) are candidates:
//! control, IK, pole, target, tweak, `MCH-`, `ORG-` and helper bones never get a body role.

mod affixes;
mod axes;
mod chains;
pub mod characters;
mod copies;
mod creatures;
mod detect;
mod evidence;
mod floor;
mod kinds;
pub mod lexicon;
pub mod name_roles;
pub mod names;
mod orphans;
mod plans;
pub mod plausible;
pub mod rig;
pub mod samples;
mod twins;
pub mod vrm;

pub use detect::{Indexed, IndexedLimb};
pub use kinds::{CharacterKind, Kind, LimbKind, Role};
pub use names::Side;
pub use twins::{MidPlane, Twin};

use crate::document::{BoneId, Document};
use glam::DVec3;
use name_roles::NameRole;

/// Index of a limb in [`Anatomy::limbs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LimbId(pub u32);

impl LimbId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a bone's role came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// A person's assignment (the root's `extras.physics.anatomy.roles`).
    Manual,
    /// The file's VRM humanoid map.
    Vrm,
    /// Name and geometry agree.
    NameAndGeometry,
    /// The name alone (the geometry said something else or nothing).
    Name,
    /// Topology and geometry alone.
    Geometry,
    /// The geometry, against the name (see the notes).
    GeometryOverName,
}

impl Evidence {
    /// The confidence this evidence gives a role, 0..1.
    pub fn confidence(self) -> f32 {
        match self {
            Evidence::Manual | Evidence::Vrm => 1.0,
            Evidence::NameAndGeometry => 0.95,
            Evidence::Name => 0.75,
            Evidence::GeometryOverName => 0.6,
            Evidence::Geometry => 0.55,
        }
    }
}

/// One limb chain, from the body outwards.
#[derive(Debug, Clone, PartialEq)]
pub struct Limb {
    pub kind: LimbKind,
    pub side: Option<Side>,
    /// The bone the limb hangs from.
    pub root: BoneId,
    /// Main path, body outwards.
    pub path: Vec<BoneId>,
}

/// A note where the evidence disagreed, or a fact could not be told.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub bone: Option<BoneId>,
    pub text: String,
}

/// What one bone is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneFacts {
    pub role: Role,
    pub side: Option<Side>,
    pub confidence: f32,
    pub evidence: Evidence,
    /// Carries skin weight or a rigid mesh (every bone when the file has no mesh at all).
    pub deforming: bool,
}

/// The detected anatomy of one document.
#[derive(Debug, Clone)]
pub struct Anatomy {
    kind: Kind,
    kind_confidence: f32,
    indexed: Indexed,
    facts: Vec<BoneFacts>,
    twins: Vec<Twin>,
    mid_plane: MidPlane,
    notes: Vec<Note>,
    /// The bone each bone hangs from ([`Anatomy::hangs_from`]).
    hangs_from: Vec<Option<BoneId>>,
}

/// A person's role assignments by bone index (the same index as `doc.bones` and the rig).
fn manual_roles(doc: &Document, n: usize) -> Vec<Option<crate::document::RoleAssignment>> {
    let mut out = vec![None; n];
    for (name, a) in &doc.manual_anatomy.roles {
        if let Some(slot) = doc
            .bone_by_name(name)
            .and_then(|id| out.get_mut(id.index()))
        {
            *slot = Some(*a);
        }
    }
    out
}

/// What each bone's name says; a VRM map's role stands for the name of every bone it lists
/// (the truth, whatever the bone is called), so a plan the names would find, two legs on a
/// pelvis where the skin does not reach the ground, the map finds.
fn bone_names(rig: &rig::Rig, map: Option<&[Option<vrm::MappedBone>]>) -> Vec<Option<NameRole>> {
    let mut names: Vec<Option<NameRole>> = rig
        .bones
        .iter()
        .map(|b| name_roles::role_of(&b.hints))
        .collect();
    for (name, m) in names.iter_mut().zip(map.unwrap_or_default()) {
        if let Some(m) = m {
            *name = Some(NameRole {
                role: m.role,
                side: m.side,
                strength: 1.0,
            });
        }
    }
    names
}

impl Anatomy {
    /// Detects the anatomy from the document's own geometry (a mesh that cannot be read
    /// leaves the bones alone, with a note).
    pub fn of(doc: &Document) -> Self {
        let fit = doc.fitting_geometry();
        let samples = samples::collect(doc, &fit.geometry);
        let rig = rig::Rig::new(doc, &samples);
        let mut a = Self::detect(doc, &rig, &samples, None);
        a.notes.extend(fit.notes().map(|text| Note {
            bone: None,
            text: text.clone(),
        }));
        a
    }

    /// Detects the anatomy of a rig and its skin samples; `forced` overrides the coarse kind
    /// where the topology allows it.
    pub fn detect(
        doc: &Document,
        rig: &rig::Rig,
        samples: &samples::Samples,
        forced: Option<CharacterKind>,
    ) -> Self {
        let map = vrm::humanoid_map(doc, rig);
        let names = bone_names(rig, map.as_deref());
        let manual_kind = doc.manual_anatomy.kind;
        let forced = forced
            .or(manual_kind.map(Kind::coarse))
            .or(map.is_some().then_some(CharacterKind::Humanoid));
        let manual = manual_roles(doc, rig.len());
        let geo = detect::detect(rig, samples, forced, &names);
        let mut merged = evidence::merge(rig, geo, map.as_deref(), &names, &manual);
        if let Some(k) = manual_kind {
            merged.kind = k;
            merged.kind_confidence = 1.0;
        }
        let own = merged.indexed.notes.clone();
        let texts = merged.notes.iter().map(|(_, t)| t.clone());
        merged.indexed.notes.extend(texts);
        let twins = twins::twins(rig, &merged.indexed);
        let mid_plane = twins::mid_plane(rig, &merged.indexed, &twins);
        let notes = merged
            .notes
            .into_iter()
            .chain(own.into_iter().map(|t| (None, t)))
            .map(|(bone, text)| Note {
                bone: bone.map(|b| BoneId(b as u32)),
                text,
            })
            .collect();
        Anatomy {
            kind: merged.kind,
            kind_confidence: merged.kind_confidence,
            facts: merged.facts,
            indexed: merged.indexed,
            twins,
            mid_plane,
            notes,
            hangs_from: rig
                .bones
                .iter()
                .map(|b| b.parent.map(|p| BoneId(p as u32)))
                .collect(),
        }
    }

    /// The fine kind (see [`Kind::coarse`] for the generator's body plan).
    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn kind_confidence(&self) -> f32 {
        self.kind_confidence
    }

    /// The facts of one bone (a bone the anatomy does not know is `Other`, no side).
    pub fn bone(&self, id: BoneId) -> BoneFacts {
        self.facts.get(id.index()).copied().unwrap_or(BoneFacts {
            role: Role::Other,
            side: None,
            confidence: 0.0,
            evidence: Evidence::Geometry,
            deforming: false,
        })
    }

    pub fn role(&self, id: BoneId) -> Role {
        self.bone(id).role
    }

    pub fn side(&self, id: BoneId) -> Option<Side> {
        self.bone(id).side
    }

    pub fn confidence(&self, id: BoneId) -> f32 {
        self.bone(id).confidence
    }

    /// The bones with a role (any side), in bone order.
    pub fn bones_with(&self, role: Role) -> Vec<BoneId> {
        (0..self.facts.len())
            .filter(|&i| self.facts[i].role == role)
            .map(|i| BoneId(i as u32))
            .collect()
    }

    /// The limb a bone belongs to (main path or a branch below it).
    pub fn limb_of(&self, id: BoneId) -> Option<LimbId> {
        let k = (*self.indexed.limb_of.get(id.index())?)?;
        Some(LimbId(k as u32))
    }

    pub fn limbs(&self) -> Vec<Limb> {
        let id = |b: usize| BoneId(b as u32);
        self.indexed
            .limbs
            .iter()
            .map(|l| Limb {
                kind: l.kind,
                side: l.side,
                root: id(l.root),
                path: l.path.iter().map(|&b| id(b)).collect(),
            })
            .collect()
    }

    pub fn pelvis(&self) -> Option<BoneId> {
        self.indexed.pelvis.map(|b| BoneId(b as u32))
    }

    pub fn chest(&self) -> Option<BoneId> {
        self.indexed.chest.map(|b| BoneId(b as u32))
    }

    pub fn head(&self) -> Option<BoneId> {
        self.indexed.head.map(|b| BoneId(b as u32))
    }

    /// World up (glTF's +Y: gravity is -Y).
    pub fn up(&self) -> DVec3 {
        self.indexed.up
    }

    /// The character's forward, from the names' left/right or from the geometry.
    pub fn forward(&self) -> DVec3 {
        self.indexed.forward
    }

    /// Toward the character's own left.
    pub fn left(&self) -> DVec3 {
        self.indexed.left
    }

    /// Height along up and the lowest point (file units).
    pub fn height(&self) -> f64 {
        self.indexed.height
    }

    pub fn ground(&self) -> f64 {
        self.indexed.ground
    }

    /// Left/right pairs of bones (left first).
    pub fn twins(&self) -> &[Twin] {
        &self.twins
    }

    /// The twin of a bone, if it has one.
    pub fn twin_of(&self, id: BoneId) -> Option<BoneId> {
        self.twins.iter().find_map(|t| match () {
            _ if t.left == id => Some(t.right),
            _ if t.right == id => Some(t.left),
            _ => None,
        })
    }

    pub fn mid_plane(&self) -> MidPlane {
        self.mid_plane
    }

    /// Disagreements between the evidence, and facts that could not be told.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The bone `id` hangs from: its nearest ancestor bone in the file or, for a deforming
    /// bone the file leaves loose (a deform-only Rigify export hangs every chain from the
    /// armature), the bone the anatomy attached it to by its name and its skin's position.
    pub fn hangs_from(&self, id: BoneId) -> Option<BoneId> {
        self.hangs_from.get(id.index()).copied().flatten()
    }

    /// The same facts indexed by bone position, for code that keeps per-bone arrays.
    pub fn indexed(&self) -> &Indexed {
        &self.indexed
    }
}
