//! Sleeping: a rag doll comes to rest by sleeping once quiet (thresholds: see
//! [`SimSettings::let_sleep`]), and what wakes it.

use super::*;

impl Simulation {
    /// A rag doll (drives and balance off, no clip) may sleep once quiet, as every engine's
    /// ragdolls do; a driven or balancing one never does: its controllers act every step
    /// (the balance writes its torques without waking anything). Applied when that changes.
    /// `force`: apply even when that did not change (the settings, and with them the
    /// thresholds, did).
    pub(super) fn apply_sleep(&mut self, force: bool) {
        let s = &self.settings;
        let may = s.sleep && !s.drives && !s.balance && self.clip.is_none();
        if may == self.may_sleep && !force {
            return;
        }
        let became = may && !self.may_sleep;
        for d in &mut self.dolls {
            if became {
                d.settle.reset();
            }
            for b in &d.bodies {
                if let Some(rb) = self.world.bodies.get_mut(b.body) {
                    let a = rb.activation_mut();
                    if may {
                        s.let_sleep(a);
                    } else {
                        a.normalized_linear_threshold = -1.0;
                        a.angular_threshold = -1.0;
                    }
                    rb.wake_up(true);
                }
            }
        }
        self.may_sleep = may;
    }

    /// Wakes every body (strongly: each is given `time_until_sleep` again). Live edits and
    /// settings changes call this; impulses, velocities, poses, joint and drive changes wake
    /// the bodies they touch (and so their island) through Rapier.
    pub(crate) fn wake_all(&mut self) {
        for d in &self.dolls {
            for b in &d.bodies {
                if let Some(rb) = self.world.bodies.get_mut(b.body) {
                    rb.wake_up(true);
                }
            }
        }
    }

    /// True when every body of ragdoll 0 sleeps.
    pub fn asleep(&self) -> bool {
        self.dolls[0].bodies.iter().all(|b| {
            self.world
                .bodies
                .get(b.body)
                .is_some_and(|rb| rb.is_sleeping())
        })
    }
}
