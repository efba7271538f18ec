//! The glTF extensions a file may require, and what the tool does with each: read it
//! (`KHR_mesh_quantization`, meshopt and Draco compression), ignore it (extensions that only
//! change how a character looks: materials, textures, lights), or refuse the file with a clear
//! error (anything that could change its skeleton, meshes or clips in a way the tool cannot
//! read, such as GPU-instanced meshes).

use super::compression;
use serde_json::Value;

/// Required extensions the document layer reads.
const READ: &[&str] = &["KHR_mesh_quantization", super::draco::EXTENSION];

/// Extensions that change only the look (materials, textures, lights, metadata).
const APPEARANCE_PREFIXES: &[&str] = &[
    "KHR_materials_",
    "KHR_texture_",
    "EXT_texture_",
    "MSFT_texture_",
    "KHR_lights_",
    "EXT_lights_",
    "EXT_materials_",
    "KHR_xmp",
];

fn is_readable(ext: &str) -> bool {
    READ.contains(&ext)
        || compression::EXTENSIONS.contains(&ext)
        || APPEARANCE_PREFIXES.iter().any(|p| ext.starts_with(p))
}

/// What an extension the tool cannot read would have given it.
fn what(ext: &str) -> &'static str {
    match ext {
        "KHR_draco_mesh_compression" => "Draco-compressed meshes",
        "EXT_mesh_gpu_instancing" => "GPU-instanced meshes",
        "KHR_animation_pointer" => "animations of arbitrary properties",
        _ => "an extension this tool does not know",
    }
}

fn required(json: &Value) -> impl Iterator<Item = &str> {
    json.get("extensionsRequired")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The first required extension the tool cannot read, and what it is for.
pub fn unreadable(json: &Value) -> Option<(String, &'static str)> {
    required(json)
        .find(|e| !is_readable(e))
        .map(|e| (e.to_string(), what(e)))
}

/// `json` as the `gltf` crate should validate it, or None when it can validate it as it is:
/// without animations (our own reader reports their faults as diagnostics), without the
/// required extensions the tool reads or may ignore, which the crate would refuse, and with
/// an empty node list on a scene that has none (the spec allows it; the crate refused the
/// whole file: a Blender export's empty "Face" scene).
pub fn for_validation(json: &Value) -> Option<Value> {
    let obj = json.as_object()?;
    let has_required = required(json).next().is_some();
    let scene_without_nodes = |s: &Value| s.is_object() && s.get("nodes").is_none();
    let bare_scene = obj
        .get("scenes")
        .and_then(Value::as_array)
        .is_some_and(|l| l.iter().any(scene_without_nodes));
    if !obj.contains_key("animations") && !has_required && !bare_scene {
        return None;
    }
    let mut out = obj.clone();
    out.remove("animations");
    if let Some(scenes) = out.get_mut("scenes").and_then(Value::as_array_mut) {
        for s in scenes.iter_mut().filter(|s| scene_without_nodes(s)) {
            s["nodes"] = Value::Array(Vec::new());
        }
    }
    if let Some(list) = out
        .get_mut("extensionsRequired")
        .and_then(Value::as_array_mut)
    {
        list.retain(|e| e.as_str().is_none_or(|e| !is_readable(e)));
    }
    Some(Value::Object(out))
}
