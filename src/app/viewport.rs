//! The 3D viewport panel: camera input, picking, gizmo toggles, and the paint callback that
//! hands a [`SceneInput`] to the three-d scene. Without GL (tests) it draws a placeholder.

use super::state::EditorState;
use crate::document::geometry::Geometry;
use crate::render::colliders::{bone_bounds, pick, placed_colliders};
use crate::render::gizmo::{joint_segments, Segment};
use crate::render::joint::joint_gizmo;
use crate::render::offscreen::blit;
use crate::render::skin::SkinModel;
use crate::render::{GpuScene, OrbitCamera, Pose, SceneInput, Show};
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
    rest: Arc<Pose>,
    model: Option<Arc<SkinModel>>,
    seen_load: u64,
    seen: (u64, u64, Option<crate::document::BoneId>, bool),
    segments: Arc<Vec<Segment>>,
    segments_gen: u64,
    colliders: Arc<Vec<crate::render::colliders::PlacedCollider>>,
    /// The view of the whole character, set on load (F with nothing selected returns to it).
    home: OrbitCamera,
    /// A Ctrl+drag on a body: the bone and where the drag started (screen points).
    push_drag: Option<(crate::document::BoneId, egui::Pos2)>,
    /// A push the user finished: bone and impulse (N*s, world), for the simulation to take.
    pub pending_push: Option<(crate::document::BoneId, Vec3)>,
    /// Time spent preparing GL resources since the frame benchmark last took it (ms).
    pub gl_ms: f64,
}

/// The camera that shows the whole character: the box around its rest-pose bone origins.
fn home_camera(rest: &Pose) -> OrbitCamera {
    let points = rest
        .world_from_bone
        .iter()
        .map(|m| m.w_axis.truncate().as_vec3());
    let (min, max) = points.fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    );
    if rest.world_from_bone.len() < 2 || !(min.is_finite() && max.is_finite()) {
        return OrbitCamera::default();
    }
    OrbitCamera::home(min, max)
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
            rest: Arc::default(),
            model: None,
            seen_load: 0,
            seen: (0, 0, None, false),
            segments: Arc::default(),
            segments_gen: 0,
            colliders: Arc::default(),
            push_drag: None,
            pending_push: None,
            gl_ms: 0.0,
            home: OrbitCamera::default(),
        }
    }

    /// Rebuilds what depends on the document, pose, selection and toggles, when they changed.
    pub fn sync(&mut self, st: &mut EditorState) {
        if self.seen_load != st.load_gen {
            self.seen_load = st.load_gen;
            let geo = st
                .loaded_geometry
                .take()
                .unwrap_or_else(|| st.doc.load_geometry().map_err(|e| e.to_string()))
                .unwrap_or_else(|e| {
                    st.status = format!("mesh not shown: {e}");
                    Geometry::default()
                });
            self.model = Some(Arc::new(SkinModel::new(&st.doc, geo)));
            self.rest = Arc::new(Pose::rest(&st.doc));
            self.pose = self.rest.clone();
            self.pose_gen += 1;
            self.home = home_camera(&self.rest);
            self.camera = self.home;
        }
        let key = (st.doc_gen, self.pose_gen, st.selection, self.all_joints);
        if key != self.seen {
            self.seen = key;
            let (rest, pose) = (&self.rest.world_from_bone, &self.pose.world_from_bone);
            let mut segs = Vec::new();
            for id in st.doc.bone_ids() {
                if !self.all_joints && st.selection != Some(id) {
                    continue;
                }
                if let Some(mut j) = joint_gizmo(&st.doc, id, rest, pose) {
                    let selected = st.selection == Some(id);
                    // The selected joint's gizmo is drawn larger so its limits read clearly.
                    j.size *= if selected { 1.8 } else { 1.0 };
                    let thick = if selected { 0.006 } else { 0.0035 };
                    joint_segments(&j, &mut segs, thick);
                }
            }
            self.segments = Arc::new(segs);
            self.segments_gen += 1;
            self.colliders = Arc::new(placed_colliders(&st.doc, &self.pose));
        }
    }

    /// Shows a new pose (from the simulation); the mesh is re-skinned on the next frame.
    pub fn set_pose(&mut self, pose: Pose) {
        self.pose = Arc::new(pose);
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

    /// Gets the 3D scene ready for this frame's paint pass (on the UI thread, before the
    /// window is painted) and says how it is to be shown.
    fn prepare_scene(
        &mut self,
        frame: &eframe::Frame,
        input: &SceneInput,
        size: [u32; 2],
    ) -> Result<Show, String> {
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
            let show = scene.prepare(input, size);
            self.gl_ms += started.elapsed().as_secs_f64() * 1e3;
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
            model_gen: self.seen_load,
            model: self.model.clone(),
            pose_gen: self.pose_gen,
            pose: self.pose.clone(),
            colliders: self.colliders.clone(),
            selected: st.selection,
            segments_gen: self.segments_gen,
            segments: self.segments.clone(),
            camera: self.camera,
            show_mesh: self.show_mesh,
            show_colliders: self.show_colliders,
        };
        let size = (rect.size() * ui.ctx().pixels_per_point()).round();
        let shown = self.prepare_scene(frame, &input, [size.x as u32, size.y as u32]);
        let px = |r: egui::epaint::ViewportInPixels| {
            [r.left_px, r.from_bottom_px, r.width_px, r.height_px]
        };
        match shown {
            Ok(Show::Image(image)) => {
                let cb = eframe::egui_glow::CallbackFn::new(move |info, painter| {
                    blit(painter.gl(), image, px(info.viewport_in_pixels()));
                });
                ui.painter().add(egui::PaintCallback {
                    rect,
                    callback: Arc::new(cb),
                });
            }
            Ok(Show::Direct) => {
                let input = Arc::new(input);
                let cb = eframe::egui_glow::CallbackFn::new(move |info, _painter| {
                    let (v, c) = (info.viewport_in_pixels(), info.clip_rect_in_pixels());
                    GPU.with(|g| {
                        if let Some(Ok(scene)) = g.borrow().as_ref() {
                            scene.draw_direct(&input, px(v), px(c), info.screen_size_px);
                        }
                    });
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
                st.selection = self.body_at(resp, pos);
            }
        }
        if resp.double_clicked() {
            self.frame_selection(st);
        }
    }
}
