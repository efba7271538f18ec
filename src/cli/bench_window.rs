//! The stretch of simulated time `bench` measures every world in. The worlds of a case are
//! the same bodies and joints, but not the same controllers: left to run, they part (under
//! `crowd` the editor's mannequin, whose balance lets go once it is judged fallen, lay on the
//! ground 40 s in, with 15 touching pairs and 33 contact points, while the bare worlds, held
//! up by the upright joint no controller ever releases, stood on 4 pairs and 10 points), and
//! a rate then compares a lying body with a standing one, not the cost of stepping. So each
//! world is rewound to where it stood after the warm-up whenever it has stepped
//! [`WINDOW_S`] past it, the bare Rapier build's too (`tools/bare-rapier`'s `window`): every
//! rate is measured on the same first seconds of standing, in every world alike. A rewind is
//! a copy of the world, inside the timed slices as a step is, in every world alike: once
//! per window, under 0.1% of the window's stepping.

use super::bench_bare::CHECK_STEPS;
use crate::document::Document;
use crate::sim::{SimSettings, Simulation};

/// Simulated seconds after the warm-up within which every world is measured.
pub const WINDOW_S: f64 = 10.0;

/// Steps of `dt_s` in [`WINDOW_S`].
pub fn window_steps(dt_s: f32) -> u64 {
    (WINDOW_S / f64::from(dt_s)).round().max(1.0) as u64
}

/// How a world of ours is stepped.
pub type StepFn = fn(&mut Simulation) -> anyhow::Result<()>;

/// The worlds `bench` steps side by side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum World {
    /// Controllers, Rapier, guard, telemetry.
    Editor,
    /// The editor without telemetry (the same trajectory: telemetry feeds no controller).
    Untraced,
    /// Rapier alone, with the hooks the world carries.
    Bare,
    /// Rapier alone with no hook flags at all, as the bare build's scene: Rapier 0.36 never
    /// recycles the contacts of a pair with a hook flag, so the flags cost with no hook called.
    Unhooked,
}

impl World {
    /// By its `bench --solo` name.
    pub fn named(name: &str) -> anyhow::Result<Self> {
        Ok(match name {
            "editor" => World::Editor,
            "untraced" => World::Untraced,
            "bare" => World::Bare,
            "unhooked" => World::Unhooked,
            _ => anyhow::bail!("unknown world {name:?} (editor, untraced, bare, unhooked)"),
        })
    }

    /// Its `bench --solo` / `--serve` name.
    pub fn name(self) -> &'static str {
        match self {
            World::Editor => "editor",
            World::Untraced => "untraced",
            World::Bare => "bare",
            World::Unhooked => "unhooked",
        }
    }

    fn step_fn(self) -> StepFn {
        match self {
            World::Editor | World::Untraced => |s| Ok(s.step()?),
            World::Bare => |s| {
                s.step_bare();
                Ok(())
            },
            World::Unhooked => |s| {
                s.step_unhooked();
                Ok(())
            },
        }
    }

    /// `n` copies of `doc` under `settings` as this world steps them, warmed up by
    /// [`CHECK_STEPS`] of its own steps.
    pub fn warmed(
        self,
        doc: &Document,
        settings: &SimSettings,
        n: usize,
    ) -> anyhow::Result<Windowed> {
        let settings = SimSettings {
            telemetry: settings.telemetry && self != World::Untraced,
            ..settings.clone()
        };
        let mut sim = Simulation::with_copies(doc, settings, n)?;
        if self == World::Unhooked {
            sim.drop_hooks();
        }
        let step = self.step_fn();
        for _ in 0..CHECK_STEPS {
            step(&mut sim)?;
        }
        Ok(Windowed::new(sim, step))
    }
}

/// One world of ours with the state it is rewound to.
pub struct Windowed {
    pub sim: Simulation,
    start: Simulation,
    step: StepFn,
    window_steps: u64,
    /// Times it was rewound.
    pub rewinds: u64,
}

impl Windowed {
    /// `sim` as it is now (after its warm-up) is where it is rewound to.
    fn new(sim: Simulation, step: StepFn) -> Self {
        Windowed {
            start: sim.clone(),
            window_steps: window_steps(sim.settings().dt_s),
            sim,
            step,
            rewinds: 0,
        }
    }

    /// One step, back at the start first once the window is stepped through.
    pub fn step(&mut self) -> anyhow::Result<()> {
        if self.sim.steps() - self.start.steps() >= self.window_steps {
            self.sim = self.start.clone();
            self.rewinds += 1;
        }
        self.step_unwindowed()
    }

    /// From now on within `window_steps` of the world as it is now (0: no window), its
    /// rewinds counted afresh.
    pub fn mark(&mut self, window_steps: u64) {
        self.start = self.sim.clone();
        self.rewinds = 0;
        self.window_steps = if window_steps == 0 {
            u64::MAX
        } else {
            window_steps
        };
    }

    /// One step with no rewind (`bench --solo`: a profiler's run).
    pub fn step_unwindowed(&mut self) -> anyhow::Result<()> {
        (self.step)(&mut self.sim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::bench_bare::counts_agree;

    fn warmed(settings: SimSettings, world: World) -> Windowed {
        let doc = crate::cli::bench::mannequin().unwrap();
        world.warmed(&doc, &settings, 1).unwrap()
    }

    /// A rewound world steps again exactly as it did from the start of its window.
    #[test]
    fn a_world_steps_within_its_window_and_repeats_it_bit_for_bit() {
        let mut w = warmed(SimSettings::crowd(), World::Editor);
        let n = window_steps(w.sim.settings().dt_s);
        assert_eq!(n, 1200, "10 s at 120 Hz");
        let mut first = Vec::new();
        for k in 0..2 * n + 7 {
            w.step().unwrap();
            if k < 7 {
                first.push(w.sim.state_hash());
            }
        }
        assert_eq!(w.rewinds, 2);
        assert_eq!(w.sim.steps() - CHECK_STEPS, 7);
        assert_eq!(w.sim.state_hash(), first[6]);
    }

    /// What the window is for: through it, the editor's world (controllers, guard, telemetry)
    /// and Rapier's alone stand on the same contacts, so their rates compare stepping costs.
    #[test]
    fn the_editor_and_the_bare_world_stand_alike_through_the_window() {
        for settings in [SimSettings::crowd(), SimSettings::default()] {
            let mut editor = warmed(settings.clone(), World::Editor);
            let mut bare = warmed(settings, World::Bare);
            let n = window_steps(editor.sim.settings().dt_s);
            for k in 1..=n {
                editor.step().unwrap();
                bare.step().unwrap();
                if k % 120 == 0 {
                    let (a, b) = (editor.sim.world_counts(), bare.sim.world_counts());
                    assert!(
                        counts_agree(&a, &b),
                        "after {k} steps: editor {a:?}, bare {b:?}"
                    );
                    assert!(
                        editor.sim.fell_at_s().is_none(),
                        "the editor's mannequin fell"
                    );
                }
            }
        }
    }
}
