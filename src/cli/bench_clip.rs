//! `bench-clip`: the cost of following an animation clip. The same world is stepped twice
//! side by side, in alternating rounds: once following the clip (targets and kinematic root
//! every step), once holding the rest pose with the same root pinned; balance off in both.

use crate::anim::Playback;
use crate::document::UriPolicy;
use crate::sim::{ClipDriver, RootMode, SimSettings, Simulation};
use anyhow::{anyhow, Context};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

pub fn run(
    file: &Path,
    clip: &str,
    seconds: f64,
    as_json: bool,
    policy: UriPolicy,
) -> anyhow::Result<ExitCode> {
    let doc = super::open(file, policy)?;
    let anims = doc.load_animations()?;
    let clip = anims
        .find(clip)
        .cloned()
        .ok_or_else(|| anyhow!("{}: no animation '{clip}'", file.display()))?;
    let settings = SimSettings {
        balance: false,
        ..SimSettings::default()
    };
    let ctx = || format!("{}", file.display());
    let mut following = Simulation::new(&doc, settings.clone()).with_context(ctx)?;
    let driver = ClipDriver::new(&doc, clip.clone(), Playback::default(), RootMode::Kinematic);
    following.set_clip(Some(driver)).with_context(ctx)?;
    let mut resting = Simulation::new(&doc, settings).with_context(ctx)?;
    for root in crate::anim::Follower::new(&doc).roots {
        resting.set_pinned(root, true).with_context(ctx)?;
    }
    for _ in 0..10 {
        following.step().map_err(|p| anyhow!("{p}"))?;
        resting.step().map_err(|p| anyhow!("{p}"))?;
    }
    let step = |sim: &mut Simulation| sim.step().map_err(|p| anyhow!("{p}"));
    let (f, r) = super::bench::alternate(
        Duration::from_secs_f64(seconds.max(0.2)),
        || step(&mut following),
        || step(&mut resting),
    )?;
    let extra = (r / f - 1.0) * 100.0;
    if as_json {
        println!(
            "{}",
            json!({"clip": clip.name, "following_steps_per_sec": f.round(), "rest_steps_per_sec": r.round(), "extra_cost_pct": (extra * 10.0).round() / 10.0})
        );
    } else {
        println!(
            "{}: following '{}' {f:.0} steps/s, holding the rest pose {r:.0} steps/s: {extra:+.1}% cost",
            file.display(),
            clip.name
        );
    }
    Ok(ExitCode::SUCCESS)
}
