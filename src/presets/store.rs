//! User presets as named JSON files (`NAME.json`) in the user's config folder: the eframe
//! storage folder of the app (`…/ragdoll-tuner/presets`), or the folder named by
//! [`DIR_ENV`] (tests, shared studio presets).

use super::{Preset, PresetError};
use std::path::{Path, PathBuf};

/// The environment variable that overrides the presets folder.
pub const DIR_ENV: &str = "RAGDOLL_TUNER_PRESETS";

/// The presets folder (it need not exist yet).
pub fn user_dir() -> Option<PathBuf> {
    match std::env::var_os(DIR_ENV) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => eframe::storage_dir("ragdoll-tuner").map(|d| d.join("presets")),
    }
}

/// A preset name is a file name: letters, digits, space, `-` and `_`.
pub fn check_name(name: &str) -> Result<(), PresetError> {
    let ok = !name.trim().is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if ok {
        Ok(())
    } else {
        Err(PresetError::BadName(name.into()))
    }
}

/// The names of the presets in `dir`, sorted (none when the folder does not exist).
pub fn list(dir: &Path) -> Result<Vec<String>, PresetError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => {
            return Err(PresetError::Io {
                path: dir.display().to_string(),
                error,
            })
        }
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    Ok(names)
}

/// Writes `preset` as `dir/NAME.json` (creating the folder), returning the path.
pub fn save(dir: &Path, preset: &Preset) -> Result<PathBuf, PresetError> {
    check_name(&preset.name)?;
    let path = dir.join(format!("{}.json", preset.name));
    let io = |error| PresetError::Io {
        path: path.display().to_string(),
        error,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let text = serde_json::to_string_pretty(preset).map_err(|error| PresetError::Parse {
        path: path.display().to_string(),
        error,
    })?;
    std::fs::write(&path, text + "\n").map_err(io)?;
    Ok(path)
}

/// Reads a preset file.
pub fn load(path: &Path) -> Result<Preset, PresetError> {
    let text = std::fs::read_to_string(path).map_err(|error| PresetError::Io {
        path: path.display().to_string(),
        error,
    })?;
    serde_json::from_str(&text).map_err(|error| PresetError::Parse {
        path: path.display().to_string(),
        error,
    })
}

/// A preset by file path (an existing file, or a name ending in `.json`), else by name in
/// `dir` (the user folder when None).
pub fn resolve(name_or_file: &str, dir: Option<&Path>) -> Result<Preset, PresetError> {
    let as_path = Path::new(name_or_file);
    if as_path.is_file() || name_or_file.ends_with(".json") {
        return load(as_path);
    }
    check_name(name_or_file)?;
    let dir = dir
        .map(Path::to_path_buf)
        .or_else(user_dir)
        .ok_or(PresetError::NoDir)?;
    let path = dir.join(format!("{name_or_file}.json"));
    if path.is_file() {
        return load(&path);
    }
    Err(PresetError::Unknown {
        name: name_or_file.into(),
        dir: dir.display().to_string(),
        known: match list(&dir)?.join(", ") {
            k if k.is_empty() => "none".into(),
            k => k,
        },
    })
}
