//! The 3D viewport panel: camera input, picking, gizmo toggles, and the paint callback that
//! hands a [`SceneInput`] to the three-d scene. Without GL (tests) it draws a placeholder.

use super::state::EditorState;
use crate::document::geometry::Geometry;
use crate::document::BoneId;
use crate::render::colliders::{bone_bounds, pick, placed_colliders};
use crate::render::gizmo::{joint_segments, Segment};
use crate::render::joint::joint_gizmo;
use crate::render::offscreen::blit;
use crate::render::offscreen::ImageHandle;
use crate::render::skin::SkinModel;
use crate::render::{GpuScene, OrbitCamera, Pose, SceneInput};
use glam::{Vec2, Vec3};
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// The GL scene lives on the GL thread: the UI prepares it there and the paint pass,
    /// on the same thread, draws it.
    static GPU: RefCell<Option<Result<GpuScene, String>>> = const { RefCell::new(None) };
}

/// Viewport state.
pub struct Viewport {
    pub camera: OrbitCamera,
    pub all_joints: bool,
    pub show_mesh: bool,
    pub show_colliders: bool,
    pub has_gl: bool,
    /// The pose drawn (rest pose until a simulation supplies one).
    pub pose: Arc<Pose>,
    pub pose_gen: u64,
    /// The animation target drawn as a ghost skeleton over the simulated one, while a clip plays.
    pub ghost: Option<Arc<Pose>>,
    rest: Arc<Pose>,
    model: Option<Arc<SkinModel>>,
    seen_load: u64,
    seen: (u64, u64, Vec<crate::document::BoneId>, bool),
    segments: Arc<Vec<Segment>>,
    /// `segments` and the doctor's joint marks: what the scene draws.
    drawn: Arc<Vec<Segment>>,
    segments_gen: u64,
    colliders: Arc<Vec<crate::render::colliders::PlacedCollider>>,
    colliders_gen: u64,
    /// The view of the whole character, set on load (F with nothing selected returns to it).
    home: OrbitCamera,
    /// The character's size (m), from its mesh and joints at rest: gizmos, axes and the
    /// grid are drawn in proportion to it.
    pub character_m: f32,
    /// The ground plane's height (world y, [`crate::document::Document::ground_y`]).
    ground_y: f32,
    seen_bones: u64,
    /// A Ctrl+drag on a body: the bone and where the drag started (screen points).
    push_drag: Option<(crate::document::BoneId, egui::Pos2)>,
    /// A push the user finished: bone and impulse (N*s, world), for the simulation to take.
    pub pending_push: Option<(crate::document::BoneId, Vec3)>,
    /// Time spent preparing GL resources since the frame benchmark last took it (ms).
    pub gl_ms: f64,
    /// Whether the scene's image was drawn again since the frame benchmark last took it.
    pub drew_scene: bool,
    /// Pixels per world unit at the camera's target in the last frame's view (None before
    /// the first frame): what [`Viewport::offer_pose`] judges a visible move by.
    px_per_m: Option<f32>,
}

/// A new simulation pose is drawn only when something in it moved at least this far on
/// screen (pixels) since the pose drawn: a ragdoll standing balanced sways by thousandths
/// of a pixel a frame, and drawing the same image again costs a software renderer as much
/// as drawing a falling one.
pub const MIN_VISIBLE_MOVE_PX: f64 = 0.25;

/// The box around the whole character at rest: its skinned mesh and its bone origins (a
/// skin may reach far past the joints, like a robot's head above its last joint). None when
/// there is nothing to bound.
fn character_bounds(model: &SkinModel, rest: &Pose) -> Option<(Vec3, Vec3)> {
    let bones = rest
        .world_from_bone
        .iter()
        .map(|m| m.w_axis.truncate().as_vec3())
        .filter(|p| p.is_finite());
    let mesh = model.bounds(rest).into_iter().flat_map(|(lo, hi)| [lo, hi]);
    bones.chain(mesh).fold(None, |acc, p| {
        Some(match acc {
            Some((lo, hi)) => (p.min(lo), p.max(hi)),
            None => (p, p),
        })
    })
}

/// The size (m) of a character spanning `bounds`: its largest extent. A character of one
/// point (or none) counts as the 1.8 m the default view is made for.
fn character_size_m(bounds: Option<(Vec3, Vec3)>) -> f32 {
    match bounds {
        Some((lo, hi)) if (hi - lo).max_element() > 1e-4 => (hi - lo).max_element(),
        _ => 1.8,
    }
}

/// A character of this size (m) has the gizmo proportions the constants below were set for.
const REFERENCE_SIZE_M: f32 = 1.8;

/// The world size (m) of a joint's gizmo: its bone's world length, kept between 3% and 22%
/// of the character's size so short and missing bones stay readable and long ones do not
/// swamp the view.
fn gizmo_size_m(st: &EditorState, rest: &Pose, id: BoneId, character_m: f32) -> f64 {
    let scale = rest
        .get(id)
        .map_or(1.0, |m| m.to_scale_rotation_translation().0.max_element());
    let c = character_m as f64;
    st.doc
        .bone_to_child(id)
        .map_or(0.055 * c, |d| d.length() * scale)
        .clamp(0.033 * c, 0.22 * c)
}

/// Impulse per screen point of a Ctrl+drag push (N*s).
const PUSH_N_S_PER_POINT: f32 = 1.0;

impl Viewport {
    pub fn new(has_gl: bool) -> Self {
        Self {
            camera: OrbitCamera::default(),
            all_joints: true,
            show_mesh: true,
            show_colliders: true,
            has_gl,
            pose: Arc::default(),
            pose_gen: 0,
            ghost: None,
            rest: Arc::default(),
            model: None,
            seen_load: 0,
            seen: (u64::MAX, u64::MAX, Vec::new(), false),
            segments: Arc::default(),
            drawn: Arc::default(),
            segments_gen: 0,
            colliders: Arc::default(),
            colliders_gen: 0,
            push_drag: None,
            pending_push: None,
            gl_ms: 0.0,
            drew_scene: false,
            px_per_m: None,
            home: OrbitCamera::default(),
            character_m: REFERENCE_SIZE_M,
            ground_y: 0.0,
            seen_bones: 0,
        }
    }

    /// Rebuilds what depends on the document, pose, selection and toggles, when they changed.
    pub fn sync(&mut self, st: &mut EditorState) {
        if self.seen_bones != st.bones_gen {
            self.rebuild_for_bones(st);
        }
        let chosen = st.selected_bones();
        let key = (st.doc_gen(), self.pose_gen, chosen.clone(), self.all_joints);
        if key != self.seen {
            if key.0 != self.seen.0 {
                self.ground_y = st.doc.ground_y() as f32;
            }
            self.seen = key;
            let segs = self.gizmo_segments(st, &chosen);
            // The scene also rings the joints the doctor flags.
            let mut drawn = segs.clone();
            super::pair_view::joint_marks(st, &self.pose, self.character_m, &mut drawn);
            self.drawn = Arc::new(drawn);
            self.segments = Arc::new(segs);
            self.segments_gen += 1;
            self.colliders = Arc::new(placed_colliders(&st.doc, &self.pose));
            self.colliders_gen += 1;
        }
    }

    /// A new document, or the same one with its bones renumbered: everything indexed by bone
    /// is rebuilt; the camera moves only for a new document.
    fn rebuild_for_bones(&mut self, st: &mut EditorState) {
        self.seen_bones = st.bones_gen;
        let geo = st
            .loaded_geometry
            .take()
            .unwrap_or_else(|| st.doc.load_geometry().map_err(|e| e.to_string()))
            .unwrap_or_else(|e| {
                st.status = format!("mesh not shown: {e}");
                Geometry::default()
            });
        let model = SkinModel::new(&st.doc, geo);
        self.rest = Arc::new(Pose::rest(&st.doc));
        let bounds = character_bounds(&model, &self.rest);
        self.model = Some(Arc::new(model));
        self.pose = self.rest.clone();
        self.pose_gen += 1;
        self.seen = (u64::MAX, u64::MAX, Vec::new(), false);
        if self.seen_load != st.load_gen {
            self.seen_load = st.load_gen;
            self.character_m = character_size_m(bounds);
            self.home =
                bounds.map_or_else(OrbitCamera::default, |(lo, hi)| OrbitCamera::home(lo, hi));
            self.camera = self.home;
        }
    }

    /// The joint gizmos (every joint's, or the chosen ones') and the ghost pose, as line
    /// segments.
    fn gizmo_segments(&self, st: &EditorState, chosen: &[BoneId]) -> Vec<Segment> {
        let (rest, pose) = (&self.rest.world_from_bone, &self.pose.world_from_bone);
        let mut segs = Vec::new();
        for id in st.doc.bone_ids() {
            let selected = chosen.contains(&id);
            if !self.all_joints && !selected {
                continue;
            }
            if let Some(mut j) = joint_gizmo(&st.doc, id, rest, pose) {
                // The selected joint's gizmo is drawn larger so its limits read clearly.
                j.size = gizmo_size_m(st, &self.rest, id, self.character_m)
                    * if selected { 1.8 } else { 1.0 };
                let thick = if selected { 0.006 } else { 0.0035 };
                let thick = thick * self.character_m / REFERENCE_SIZE_M;
                joint_segments(&j, &mut segs, thick);
            }
        }
        if let Some(g) = &self.ghost {
            let thick = 0.004 * self.character_m / REFERENCE_SIZE_M;
            segs.extend(crate::render::gizmo::ghost_segments(
                &st.doc,
                &g.world_from_bone,
                thick,
            ));
        }
        segs
    }

    /// Shows a new pose (from the simulation); the mesh is re-skinned on the next frame.
    pub fn set_pose(&mut self, pose: Pose) {
        self.pose = Arc::new(pose);
        self.pose_gen += 1;
    }

    /// Shows a new simulation pose (and animation ghost) if anything in them moved visibly
    /// (see [`MIN_VISIBLE_MOVE_PX`]) from what is drawn; returns whether it did. The bodies'
    /// turns count at the reach of the whole character, so a turn of a long limb is never
    /// missed.
    pub fn offer_pose(&mut self, pose: &Pose, ghost: Option<&Pose>) -> bool {
        let px_per_m = match self.px_per_m {
            Some(p) if p.is_finite() => f64::from(p),
            _ => f64::INFINITY,
        };
        let reach = f64::from(self.character_m);
        let moved = |new: &Pose, shown: &Pose| new.largest_move(shown, reach) * px_per_m;
        let ghost_moved = match (ghost, &self.ghost) {
            (None, None) => 0.0,
            (Some(g), Some(shown)) => moved(g, shown),
            _ => f64::INFINITY,
        };
        let visible = moved(pose, &self.pose).max(ghost_moved) >= MIN_VISIBLE_MOVE_PX;
        if visible {
            self.set_pose(pose.clone());
            self.set_ghost(ghost.cloned());
        }
        visible
    }

    /// Shows (or hides) the animation target's ghost skeleton.
    pub fn set_ghost(&mut self, ghost: Option<Pose>) {
        if ghost.is_none() && self.ghost.is_none() {
            return;
        }
        self.ghost = ghost.map(Arc::new);
        self.pose_gen += 1;
    }

    /// Centres the camera on the selection (or the whole character).
    pub fn frame_selection(&mut self, st: &EditorState) {
        match st
            .selection
            .and_then(|id| bone_bounds(&self.colliders, &self.pose, id))
        {
            Some((c, r)) => self.camera.frame(c, r),
            None => self.camera = self.home,
        }
    }

    pub fn toolbar(&mut self, ui: &mut egui::Ui, st: &EditorState) {
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.show_mesh, "Mesh");
            ui.checkbox(&mut self.show_colliders, "Colliders");
            ui.checkbox(&mut self.all_joints, "All joints");
            if ui.button("Frame selection (F)").clicked() {
                self.frame_selection(st);
            }
        });
    }

    /// Gets the 3D scene's image ready for this frame's paint pass (on the UI thread, before
    /// the window is painted).
    fn prepare_scene(
        &mut self,
        frame: &eframe::Frame,
        input: &SceneInput,
        size: [u32; 2],
    ) -> Result<ImageHandle, String> {
        let Some(gl) = frame.gl() else {
            return Err("no GL context".into());
        };
        GPU.with(|g| {
            let mut g = g.borrow_mut();
            let scene = g
                .get_or_insert_with(|| GpuScene::new(gl.clone()))
                .as_mut()
                .map_err(|e| e.clone())?;
            let started = std::time::Instant::now();
            let (show, drew) = scene.prepare(input, size);
            self.gl_ms += started.elapsed().as_secs_f64() * 1e3;
            self.drew_scene |= drew;
            Ok(show)
        })
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, st: &mut EditorState, frame: &eframe::Frame) {
        self.sync(st);
        let rect = ui.available_rect_before_wrap();
        let resp = ui.allocate_rect(rect, egui::Sense::click_and_drag());
        self.input(ui, &resp, st);
        if !self.has_gl {
            ui.painter()
                .rect_filled(rect, 0.0, egui::Color32::from_rgb(40, 42, 50));
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "3D viewport (no GL)",
                egui::FontId::proportional(16.0),
                egui::Color32::GRAY,
            );
            return;
        }
        let input = SceneInput {
            model_gen: self.seen_bones,
            model: self.model.clone(),
            pose_gen: self.pose_gen,
            pose: self.pose.clone(),
            colliders_gen: self.colliders_gen,
            colliders: self.colliders.clone(),
            selected: st.selected_bones(),
            shell_colors: super::pair_view::shell_colors(st, &self.colliders),
            segments_gen: self.segments_gen,
            segments: self.drawn.clone(),
            camera: self.camera,
            character_m: self.character_m,
            ground_y: self.ground_y,
            show_mesh: self.show_mesh,
            show_colliders: self.show_colliders,
        };
        let size = (rect.size() * ui.ctx().pixels_per_point()).round();
        self.px_per_m = Some(self.camera.px_per_m(size.y));
        let shown = self.prepare_scene(frame, &input, [size.x as u32, size.y as u32]);
        let px = |r: egui::epaint::ViewportInPixels| {
            [r.left_px, r.from_bottom_px, r.width_px, r.height_px]
        };
        match shown {
            Ok(image) => {
                let cb = eframe::egui_glow::CallbackFn::new(move |info, painter| {
                    blit(painter.gl(), image, px(info.viewport_in_pixels()));
                });
                ui.painter().add(egui::PaintCallback {
                    rect,
                    callback: Arc::new(cb),
                });
            }
            Err(e) => {
                ui.painter().text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    format!("3D unavailable: {e}"),
                    egui::FontId::proportional(14.0),
                    egui::Color32::RED,
                );
            }
        }
    }

    /// The body under a screen position, if any.
    fn body_at(&self, resp: &egui::Response, pos: egui::Pos2) -> Option<crate::document::BoneId> {
        let local = pos - resp.rect.min;
        let (o, dir) = self.camera.ray(
            Vec2::new(local.x, local.y),
            Vec2::new(resp.rect.width(), resp.rect.height()),
        );
        pick(&self.colliders, o, dir)
    }

    /// Ctrl+drag from a body pushes it: the drag, in the camera's plane, becomes an impulse
    /// applied when the button is released. Returns true while such a drag is under way.
    fn push_input(&mut self, ui: &egui::Ui, resp: &egui::Response) -> bool {
        let ctrl = ui.input(|i| i.modifiers.command);
        if resp.drag_started_by(egui::PointerButton::Primary) && ctrl {
            let start = resp.interact_pointer_pos();
            self.push_drag = start.and_then(|p| Some((self.body_at(resp, p)?, p)));
        }
        let Some((bone, start)) = self.push_drag else {
            return false;
        };
        let now = resp
            .interact_pointer_pos()
            .or(ui.input(|i| i.pointer.latest_pos()))
            .unwrap_or(start);
        if resp.drag_stopped() {
            let d = now - start;
            let view_inv = self.camera.view().inverse();
            let (right, up) = (view_inv.x_axis.truncate(), view_inv.y_axis.truncate());
            self.pending_push = Some((bone, (right * d.x - up * d.y) * PUSH_N_S_PER_POINT));
            self.push_drag = None;
        } else {
            let stroke = egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 170, 40));
            ui.painter().arrow(start, now - start, stroke);
            let n_s = (now - start).length() * PUSH_N_S_PER_POINT;
            ui.painter().text(
                now,
                egui::Align2::LEFT_BOTTOM,
                format!("{n_s:.0} N·s"),
                egui::FontId::proportional(14.0),
                egui::Color32::WHITE,
            );
        }
        true
    }

    fn input(&mut self, ui: &egui::Ui, resp: &egui::Response, st: &mut EditorState) {
        if self.push_input(ui, resp) {
            return;
        }
        let d = resp.drag_delta();
        let d = Vec2::new(d.x, d.y);
        let shift = ui.input(|i| i.modifiers.shift);
        if resp.dragged_by(egui::PointerButton::Primary) && !shift {
            self.camera.orbit(d);
        } else if resp.dragged_by(egui::PointerButton::Secondary)
            || resp.dragged_by(egui::PointerButton::Middle)
            || (resp.dragged_by(egui::PointerButton::Primary) && shift)
        {
            self.camera.pan(d, resp.rect.height());
        }
        if resp.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.camera.zoom(scroll / 50.0);
            }
            if ui.input(|i| i.key_pressed(egui::Key::F)) && !ui.ctx().egui_wants_keyboard_input() {
                self.frame_selection(st);
            }
        }
        if resp.clicked() {
            if let Some(pos) = resp.interact_pointer_pos() {
                // Ctrl-click adds or removes a bone (multi-select); a plain click selects one.
                match (self.body_at(resp, pos), ui.input(|i| i.modifiers.command)) {
                    (Some(b), true) => st.toggle_select(b),
                    (hit, _) => st.select_only(hit),
                }
            }
        }
        if resp.double_clicked() {
            self.frame_selection(st);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::container::{parse_glb, write_glb};
    use crate::document::UriPolicy;

    /// The bundled mannequin with its armature scaled by `k` (a 0.2 m figure at k = 1/9).
    fn scaled_mannequin(k: f64) -> crate::document::Document {
        let glb = crate::mannequin::EMBEDDED_GLB;
        let chunks = parse_glb(glb).expect("mannequin GLB");
        let mut json: serde_json::Value = serde_json::from_slice(chunks.json).expect("JSON");
        json["nodes"][0]["scale"] = serde_json::json!([k, k, k]);
        let text = serde_json::to_vec(&json).expect("JSON");
        let mut out = Vec::new();
        write_glb(&mut out, &text, chunks.bin).expect("GLB");
        crate::document::Document::from_bytes(
            std::path::Path::new("scaled.glb"),
            &out,
            UriPolicy::default(),
        )
        .expect("scaled mannequin")
    }

    fn gizmos(k: f64) -> (f32, Vec<Segment>) {
        let mut st = EditorState::new(scaled_mannequin(k), UriPolicy::default());
        st.selection = st.doc.bone_by_name("forearm_l");
        let mut v = Viewport::new(false);
        v.sync(&mut st);
        (v.character_m, v.segments.as_ref().clone())
    }

    /// Gizmos, grid and axes follow the character's size: a mannequin scaled to 0.2 m gets
    /// exactly the scaled-down gizmos of the full-size one, and axes shorter than itself.
    #[test]
    fn gizmo_and_axis_sizes_follow_the_character() {
        let k = 1.0 / 9.0;
        let (full_m, full) = gizmos(1.0);
        let (tiny_m, tiny) = gizmos(k);
        assert!((full_m - 1.85).abs() < 0.1, "mannequin {full_m} m");
        assert!((tiny_m / full_m - k as f32).abs() < 1e-3, "{tiny_m} m");
        assert_eq!(full.len(), tiny.len());
        let k = k as f32;
        for (a, b) in full.iter().zip(&tiny) {
            assert!((a.a * k - b.a).length() < 1e-4, "{a:?} vs {b:?}");
            assert!((a.b * k - b.b).length() < 1e-4, "{a:?} vs {b:?}");
            assert!((a.radius * k - b.radius).abs() < 1e-6, "{a:?} vs {b:?}");
        }
        let axes = crate::render::gizmo::grid_and_axes(5, tiny_m, 0.0);
        let longest = axes
            .iter()
            .map(|s| (s.b - s.a).length())
            .fold(0.0, f32::max);
        let axis = axes.last().map(|s| (s.b - s.a).length()).unwrap_or(0.0);
        assert!(
            axis < 0.5 * tiny_m,
            "axis {axis} m on a {tiny_m} m character"
        );
        assert!(longest <= 1.0 + 1e-6, "grid {longest} m across");
    }

    /// With "All joints" off, every bone of a multi-selection shows its gizmo, not only the
    /// primary one.
    #[test]
    fn every_selected_joint_shows_its_gizmo() {
        let mut st = EditorState::new(scaled_mannequin(1.0), UriPolicy::default());
        let mut v = Viewport::new(false);
        v.all_joints = false;
        st.selection = st.doc.bone_by_name("thigh_l");
        v.sync(&mut st);
        let one = v.segments.len();
        let thigh_r = st.doc.bone_by_name("thigh_r").expect("bone");
        st.toggle_select(thigh_r);
        v.sync(&mut st);
        assert_eq!(st.selected_bones().len(), 2);
        assert!(
            v.segments.len() >= 2 * one - 2,
            "{one} then {}",
            v.segments.len()
        );
    }

    /// A pose that moved less than a quarter pixel on screen is not drawn; one that moved
    /// more is, and so is a ghost that appears. Before the first frame (no view yet) every
    /// move counts.
    #[test]
    fn only_visible_moves_are_drawn() {
        let mut st = EditorState::new(scaled_mannequin(1.0), UriPolicy::default());
        let mut v = Viewport::new(false);
        v.sync(&mut st);
        let shift = |pose: &Pose, dx: f64| Pose {
            world_from_bone: pose
                .world_from_bone
                .iter()
                .map(|m| glam::DMat4::from_translation(glam::DVec3::X * dx) * *m)
                .collect(),
        };
        let rest = v.pose.as_ref().clone();
        assert!(v.offer_pose(&shift(&rest, 1e-9), None), "no view yet");
        v.px_per_m = Some(200.0);
        let (shown, generation) = (v.pose.clone(), v.pose_gen);
        // 0.5 mm at 200 px/m is 0.1 px: not drawn.
        assert!(!v.offer_pose(&shift(&shown, 0.0005), None));
        assert_eq!((v.pose_gen, &v.pose), (generation, &shown));
        // 2 mm is 0.4 px: drawn.
        assert!(v.offer_pose(&shift(&shown, 0.002), None));
        assert!(v.pose_gen > generation);
        // A ghost appearing is drawn even when the body holds still.
        let still = v.pose.as_ref().clone();
        assert!(v.offer_pose(&still, Some(&still)));
        assert!(!v.offer_pose(&still, Some(&still)));
    }
}
