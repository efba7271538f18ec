//! What the user set up of the window, kept between sessions in eframe's storage (one JSON
//! value under [`STORAGE_KEY`]): viewport toggles, the plot window and panel sizes.

use serde::{Deserialize, Serialize};

/// The storage key of the settings.
pub const STORAGE_KEY: &str = "view";

/// View settings. Missing or unreadable fields take their defaults (an older or hand-edited
/// storage never stops the editor from opening).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    pub show_mesh: bool,
    pub show_colliders: bool,
    /// Gizmos on every joint, not just the selected one.
    pub all_joints: bool,
    /// The plots' rolling window (s).
    pub plot_window_s: f64,
    pub plot_all_joints: bool,
    /// Widths and heights of the resizable panels (points).
    pub left_panel_w: f32,
    pub right_panel_w: f32,
    pub plot_panel_h: f32,
    pub diagnostics_panel_h: f32,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            show_mesh: true,
            show_colliders: true,
            all_joints: true,
            plot_window_s: 10.0,
            plot_all_joints: false,
            left_panel_w: 270.0,
            right_panel_w: 340.0,
            plot_panel_h: 230.0,
            diagnostics_panel_h: 150.0,
        }
    }
}

impl ViewSettings {
    /// The stored settings, or the defaults when there are none (or they do not parse).
    pub fn load(storage: Option<&dyn eframe::Storage>) -> Self {
        storage
            .and_then(|s| s.get_string(STORAGE_KEY))
            .and_then(|text| serde_json::from_str::<Self>(&text).ok())
            .map(Self::sane)
            .unwrap_or_default()
    }

    pub fn store(&self, storage: &mut dyn eframe::Storage) {
        if let Ok(text) = serde_json::to_string(self) {
            storage.set_string(STORAGE_KEY, text);
        }
    }

    /// Replaces sizes no window could show (non-finite, negative, absurd) by the defaults.
    fn sane(self) -> Self {
        let d = Self::default();
        let size = |v: f32, dflt: f32| {
            if v.is_finite() && (40.0..=4000.0).contains(&v) {
                v
            } else {
                dflt
            }
        };
        let window =
            if self.plot_window_s.is_finite() && (1.0..=120.0).contains(&self.plot_window_s) {
                self.plot_window_s
            } else {
                d.plot_window_s
            };
        Self {
            plot_window_s: window,
            left_panel_w: size(self.left_panel_w, d.left_panel_w),
            right_panel_w: size(self.right_panel_w, d.right_panel_w),
            plot_panel_h: size(self.plot_panel_h, d.plot_panel_h),
            diagnostics_panel_h: size(self.diagnostics_panel_h, d.diagnostics_panel_h),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_or_absurd_values_fall_back_to_defaults() {
        let s: ViewSettings = serde_json::from_str(
            r#"{"show_mesh": false, "left_panel_w": -5, "plot_window_s": 1e9}"#,
        )
        .expect("parses");
        let s = s.sane();
        assert!(!s.show_mesh);
        assert_eq!(s.left_panel_w, 270.0);
        assert_eq!(s.plot_window_s, 10.0);
        assert_eq!(ViewSettings::load(None), ViewSettings::default());
    }
}
