//! Pausing a run: the stability guard on every body ([`guard`]), before the first step and
//! after each, and the pause it leaves.

use super::*;

impl Simulation {
    /// The guard's speed limits now.
    fn guard_limits(&self) -> guard::Limits {
        let floor = self.clip.as_ref().map_or((0.0, 0.0), |c| c.guard_floor);
        guard::Limits::new(&self.settings, floor)
    }

    /// The guard on every body as the world is.
    pub(super) fn guard(&mut self) -> Result<(), SimPause> {
        let lim = self.guard_limits();
        let bad = (self.dolls.iter()).find_map(|d| guard::check(&self.world, &d.bodies, lim));
        match bad {
            Some(fault) => Err(self.pause(fault)),
            None => Ok(()),
        }
    }

    /// After a step: every ragdoll's bodies read once, for the guard and the whole body's
    /// centre of mass ([`Ragdoll::read_bodies`]).
    pub(super) fn read_bodies(&mut self) -> Result<(), SimPause> {
        let lim = self.guard_limits();
        for d in &mut self.dolls {
            if let Some(fault) = d.read_bodies(&self.world, Some(lim)) {
                return Err(self.pause(fault));
            }
        }
        Ok(())
    }

    /// Pauses the run for a body's `(bone, reason)`.
    fn pause(&mut self, (bone, reason): (String, String)) -> SimPause {
        let p = SimPause {
            step: self.steps,
            time_s: self.time_s,
            bone,
            reason,
        };
        self.paused = Some(p.clone());
        p
    }
}
