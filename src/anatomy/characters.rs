//! Several characters in one file: skeletons under armatures of their own, with skins of
//! their own, each holding a share of the skin. Two robots exported
//! side by side, four cats, a rider and its wolf: read as one, their bones were one anatomy
//! (one robot's hips a spine, its legs "other"; the other's head a neck, its arms "other";
//! the mass shared out as for one person). The character with the most skin is the one read;
//! the others' vertices are left out of the samples, so every reader of the anatomy (the
//! generator, `inspect`, the editor) sees that one alone, and their bones get no body.

use super::copies::COPY_REACH;
use super::samples::Samples;
use crate::document::Document;
use std::collections::{HashMap, HashSet};

/// A skeleton holds at least this share of the skin to count as a character of its own (a
/// sword with an armature of its own at the scene's root is none).
pub const CHARACTER_SKIN_SHARE: f64 = 0.1;

/// One character of a file that holds several.
#[derive(Debug, Clone, PartialEq)]
pub struct Character {
    /// The node its bones hang under (its armature, or its root bone).
    pub node: usize,
    /// That node's display name.
    pub name: String,
    /// Its skin's vertices.
    pub vertices: usize,
}

/// The characters of a file when it holds several: the one read and those left out, with
/// each bone's character.
struct Split {
    /// Per bone, the group (armature, joined through shared skins) it belongs to.
    group_of: Vec<usize>,
    /// Per group: its armature node and skin vertices.
    groups: Vec<(usize, usize)>,
}

/// Groups the bones by their armature ([`armature`]); two groups a skin spans are one.
fn split(doc: &Document, samples: &Samples) -> Split {
    let is_bone: HashSet<usize> = doc.bones.iter().map(|b| b.node).collect();
    let tops: Vec<usize> = (doc.bones.iter())
        .map(|b| armature(doc, &is_bone, b.node))
        .collect();
    let mut distinct: Vec<usize> = tops.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let mut root: Vec<usize> = (0..distinct.len()).collect();
    let find = |root: &[usize], mut g: usize| {
        while root[g] != g {
            g = root[g];
        }
        g
    };
    let group_of_top = |t: usize| distinct.binary_search(&t).unwrap_or(0);
    let by_node: HashMap<usize, usize> = (doc.bones.iter().enumerate())
        .map(|(i, b)| (b.node, i))
        .collect();
    for skin in &doc.skeleton.skins {
        let mut groups = (skin.joints.iter())
            .filter_map(|n| by_node.get(n))
            .map(|&i| group_of_top(tops[i]));
        let Some(first) = groups.next() else { continue };
        for g in groups {
            let (a, b) = (find(&root, first), find(&root, g));
            root[b] = a;
        }
    }
    let group_of: Vec<usize> = (tops.iter())
        .map(|&t| find(&root, group_of_top(t)))
        .collect();
    let group_of = join_copies(doc, group_of);
    let mut groups: Vec<(usize, usize)> = (0..distinct.len()).map(|g| (distinct[g], 0)).collect();
    for (i, &g) in group_of.iter().enumerate() {
        groups[g].1 += samples.by_bone.get(i).map_or(0, Vec::len);
    }
    Split { group_of, groups }
}

/// The node a bone's skeleton hangs under: the parent of its topmost bone (its armature),
/// or that bone at the scene's root. Not the scene's top-level node: a wolf and its rider,
/// each an armature, wrapped under one root node (as many exporters put a scene, and as a
/// file is wrapped to scale it) were one 43-body humanoid again.
fn armature(doc: &Document, is_bone: &HashSet<usize>, node: usize) -> usize {
    let up: Vec<usize> = std::iter::once(node)
        .chain(doc.skeleton.ancestors(node))
        .collect();
    let topmost = up.iter().rposition(|n| is_bone.contains(n)).unwrap_or(0);
    up.get(topmost + 1).copied().unwrap_or(up[topmost])
}

/// Groups whose bones are, four in five, copies of another group's (the same name, standing
/// within [`COPY_REACH`] of the file's extent, as a control rig's copies do) join it: a
/// garment's armature fitted to the body's is no character. Two robots 4.5 cm apart (2.5% of
/// their height) are two.
fn join_copies(doc: &Document, mut group_of: Vec<usize>) -> Vec<usize> {
    let at = |i: usize| {
        doc.skeleton.nodes[doc.bones[i].node]
            .world_from_node
            .w_axis
            .truncate()
    };
    let (lo, hi) = (0..doc.bones.len()).fold((glam::DVec3::MAX, glam::DVec3::MIN), |(l, h), i| {
        (l.min(at(i)), h.max(at(i)))
    });
    let reach = COPY_REACH * (hi - lo).length();
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, b) in doc.bones.iter().enumerate() {
        by_name.entry(b.name.as_str()).or_default().push(i);
    }
    let mut groups: Vec<usize> = group_of.clone();
    groups.sort_unstable();
    groups.dedup();
    for g in groups {
        let mine: Vec<usize> = (0..group_of.len()).filter(|&i| group_of[i] == g).collect();
        // Per other group, how many of `g`'s bones have a copy in it.
        let mut copies: HashMap<usize, usize> = HashMap::new();
        for &i in &mine {
            let mut found: Vec<usize> = (by_name[doc.bones[i].name.as_str()].iter())
                .filter(|&&j| group_of[j] != g && at(i).distance(at(j)) <= reach)
                .map(|&j| group_of[j])
                .collect();
            found.sort_unstable();
            found.dedup();
            for h in found {
                *copies.entry(h).or_default() += 1;
            }
        }
        let copied = (copies.into_iter())
            .filter(|&(_, n)| n * 5 >= mine.len() * 4)
            .max_by_key(|&(h, n)| (n, std::cmp::Reverse(h)));
        if let Some((h, _)) = copied {
            group_of
                .iter_mut()
                .filter(|x| **x == g)
                .for_each(|x| *x = h);
        }
    }
    group_of
}

/// Leaves out of `samples` every character but the one with the most skin, when the file
/// holds several; records it in `samples.read_character`, the others in
/// `samples.other_characters` and each of their bones in `samples.left_out`.
pub(super) fn keep_one(doc: &Document, samples: &mut Samples) {
    let s = split(doc, samples);
    let kept: usize = s.groups.iter().map(|g| g.1).sum();
    let characters: Vec<usize> = (0..s.groups.len())
        .filter(|&g| kept > 0 && s.groups[g].1 as f64 >= CHARACTER_SKIN_SHARE * kept as f64)
        .collect();
    if characters.len() < 2 {
        return;
    }
    // The most skin; the first in the file on a tie.
    let main = *characters
        .iter()
        .max_by_key(|&&g| (s.groups[g].1, std::cmp::Reverse(s.groups[g].0)))
        .expect("two characters");
    let character = |g: usize| Character {
        node: s.groups[g].0,
        name: doc.skeleton.nodes[s.groups[g].0].name.clone(),
        vertices: s.groups[g].1,
    };
    samples.read_character = Some(character(main));
    samples.other_characters = (characters.iter())
        .filter(|&&g| g != main)
        .map(|&g| character(g))
        .collect();
    samples.left_out = (s.group_of.iter())
        .map(|&g| g != main && characters.contains(&g))
        .collect();
    for (i, out) in samples.left_out.iter().enumerate() {
        if *out {
            samples.by_bone[i].clear();
            samples.secondary[i].clear();
            samples.weighted[i] = false;
            samples.skinned_len[i] = 0;
        }
    }
}
