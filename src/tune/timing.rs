//! Where a run's time went: wall and CPU seconds per phase, measured for the report only.
//! Nothing here is read by the search or the plan (those count body-steps, [`super::cost`]),
//! so the same seed still gives the same bytes on any machine and at any load.

use std::time::Instant;

/// This process's CPU time over all its threads (s); None where the clock is not available.
pub fn process_cpu_s() -> Option<f64> {
    cpu_clock_s(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// The calling thread's CPU time (s); None where the clock is not available.
pub fn thread_cpu_s() -> Option<f64> {
    cpu_clock_s(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn cpu_clock_s(clock: libc::clockid_t) -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(clock, &mut t) };
    (rc == 0).then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// One phase's measured seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Spent {
    pub wall_s: f64,
    /// CPU seconds of every thread of the process over the phase; null when not measured.
    pub cpu_s: Option<f64>,
}

/// A stopwatch for one phase: wall and process CPU time from its start.
#[derive(Debug, Clone, Copy)]
pub struct Watch {
    wall: Instant,
    cpu: Option<f64>,
}

impl Watch {
    pub fn start() -> Self {
        Watch {
            wall: Instant::now(),
            cpu: process_cpu_s(),
        }
    }

    /// The time since [`Watch::start`].
    pub fn spent(&self) -> Spent {
        Spent {
            wall_s: self.wall.elapsed().as_secs_f64(),
            cpu_s: self.cpu.zip(process_cpu_s()).map(|(a, b)| b - a),
        }
    }
}

/// The measured phases of a `tune` run: the report before the search (its runs also score
/// the document's own gains), the search, the report after.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Phases {
    pub report_before: Spent,
    pub search: Spent,
    pub report_after: Spent,
}
