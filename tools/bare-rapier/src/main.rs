//! Steps a scene exported by `ragdoll-tuner bench --export-scene FILE` in bare Rapier
//! (default features, no hooks, no controllers): the baseline `bench --bare-rapier` compares
//! ragdoll-tuner's stepping with.
//!
//! Usage:
//!   bare-rapier SCENE.json [SECONDS]   steps for SECONDS (default 2) and prints steps/s
//!   bare-rapier SCENE.json --serve     answers commands on stdin, one per line:
//!     `step N`   steps N times, answers `ok`
//!     `run S`    steps for S seconds (at least once), answers `STEPS ELAPSED_S CPU_S`
//!                (CPU_S: the CPU time of its thread, which a loaded machine's waits leave out)
//!     `counts`   answers the world's counts as JSON
//!     `window N` from now on steps within N steps of the world as it is now: a step past
//!                them goes back to it first (0: no window), answers `ok`
//!     `quit`
//!   It first prints `ready COUNTS_JSON`.

use rapier3d::prelude::*;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

type Res<T> = Result<T, String>;

fn f(v: &Value) -> Res<f32> {
    v.as_f64()
        .map(|x| x as f32)
        .ok_or_else(|| format!("not a number: {v}"))
}

fn u(v: &Value) -> Res<u64> {
    v.as_u64()
        .ok_or_else(|| format!("not an unsigned integer: {v}"))
}

fn b(v: &Value) -> Res<bool> {
    v.as_bool().ok_or_else(|| format!("not a bool: {v}"))
}

fn s(v: &Value) -> Res<&str> {
    v.as_str().ok_or_else(|| format!("not a string: {v}"))
}

fn arr<const N: usize>(v: &Value) -> Res<[f32; N]> {
    let a = v.as_array().ok_or_else(|| format!("not an array: {v}"))?;
    if a.len() != N {
        return Err(format!("expected {N} numbers: {v}"));
    }
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(a) {
        *o = f(x)?;
    }
    Ok(out)
}

fn v3(v: &Value) -> Res<Vector> {
    Ok(Vector::from_array(arr::<3>(v)?))
}

fn quat(v: &Value) -> Res<Rotation> {
    Ok(Rotation::from_array(arr::<4>(v)?))
}

fn pose(v: &Value) -> Res<Pose> {
    Ok(Pose::from_parts(
        v3(&v["translation"])?,
        quat(&v["rotation"])?,
    ))
}

fn groups(v: &Value) -> Res<InteractionGroups> {
    let mode = match s(&v["test_mode"])? {
        "And" => InteractionTestMode::And,
        "Or" => InteractionTestMode::Or,
        m => return Err(format!("unknown test mode {m}")),
    };
    Ok(InteractionGroups::new(
        Group::from_bits_retain(u(&v["memberships"])? as u32),
        Group::from_bits_retain(u(&v["filter"])? as u32),
        mode,
    ))
}

fn combine(v: &Value) -> Res<CoefficientCombineRule> {
    Ok(match s(v)? {
        "Average" => CoefficientCombineRule::Average,
        "Min" => CoefficientCombineRule::Min,
        "Multiply" => CoefficientCombineRule::Multiply,
        "Max" => CoefficientCombineRule::Max,
        "ClampedSum" => CoefficientCombineRule::ClampedSum,
        r => return Err(format!("unknown combine rule {r}")),
    })
}

fn params(v: &Value) -> Res<IntegrationParameters> {
    let spring = |v: &Value| -> Res<SpringCoefficients<f32>> {
        let [natural_frequency, damping_ratio] = arr::<2>(v)?;
        Ok(SpringCoefficients {
            natural_frequency,
            damping_ratio,
        })
    };
    Ok(IntegrationParameters {
        dt: f(&v["dt"])?,
        min_ccd_dt: f(&v["min_ccd_dt"])?,
        contact_softness: spring(&v["contact_softness"])?,
        static_contact_softness: spring(&v["static_contact_softness"])?,
        warmstart_coefficient: f(&v["warmstart_coefficient"])?,
        length_unit: f(&v["length_unit"])?,
        normalized_allowed_linear_error: f(&v["normalized_allowed_linear_error"])?,
        normalized_max_corrective_velocity: f(&v["normalized_max_corrective_velocity"])?,
        normalized_prediction_distance: f(&v["normalized_prediction_distance"])?,
        normalized_max_linear_velocity: f(&v["normalized_max_linear_velocity"])?,
        num_solver_iterations: u(&v["num_solver_iterations"])? as usize,
        num_internal_pgs_iterations: u(&v["num_internal_pgs_iterations"])? as usize,
        num_internal_stabilization_iterations: u(&v["num_internal_stabilization_iterations"])?
            as usize,
        max_ccd_substeps: u(&v["max_ccd_substeps"])? as usize,
        contact_clustering: b(&v["contact_clustering"])?,
        contact_recycling: b(&v["contact_recycling"])?,
        normalized_contact_recycle_distance: f(&v["normalized_contact_recycle_distance"])?,
        friction_in_bias_pass: b(&v["friction_in_bias_pass"])?,
        warmstart_joints: b(&v["warmstart_joints"])?,
        friction_model: match s(&v["friction_model"])? {
            "Simplified" => FrictionModel::Simplified,
            "Coulomb" => FrictionModel::Coulomb,
            m => return Err(format!("unknown friction model {m}")),
        },
        ..IntegrationParameters::default()
    })
}

fn body(v: &Value) -> Res<RigidBody> {
    let builder = match s(&v["type"])? {
        "Dynamic" => RigidBodyBuilder::dynamic(),
        "Fixed" => RigidBodyBuilder::fixed(),
        "KinematicPositionBased" => RigidBodyBuilder::kinematic_position_based(),
        "KinematicVelocityBased" => RigidBodyBuilder::kinematic_velocity_based(),
        t => return Err(format!("unknown body type {t}")),
    };
    let mut rb = builder
        .pose(pose(&v["pose"])?)
        .linvel(v3(&v["linvel"])?)
        .angvel(v3(&v["angvel"])?)
        .linear_damping(f(&v["lin_damping"])?)
        .angular_damping(f(&v["ang_damping"])?)
        .ccd_enabled(b(&v["ccd_enabled"])?)
        .gravity_scale(f(&v["gravity_scale"])?)
        .dominance_group(v["dominance_group"].as_i64().unwrap_or(0) as i8)
        .can_sleep(b(&v["can_sleep"])?)
        .build();
    let a = &v["activation"];
    if !a.is_null() {
        let act = rb.activation_mut();
        act.normalized_linear_threshold = f(&a["normalized_linear_threshold"])?;
        act.angular_threshold = f(&a["angular_threshold"])?;
        act.time_until_sleep = f(&a["time_until_sleep"])?;
    }
    rb.add_force(v3(&v["user_force"])?, false);
    rb.add_torque(v3(&v["user_torque"])?, false);
    Ok(rb)
}

fn shape(v: &Value) -> Res<SharedShape> {
    if let Some(x) = v.get("ball") {
        Ok(SharedShape::ball(f(&x["r"])?))
    } else if let Some(x) = v.get("capsule") {
        Ok(SharedShape::capsule(
            v3(&x["a"])?,
            v3(&x["b"])?,
            f(&x["r"])?,
        ))
    } else if let Some(x) = v.get("cuboid") {
        let [hx, hy, hz] = arr::<3>(&x["half_sizes"])?;
        Ok(SharedShape::cuboid(hx, hy, hz))
    } else if let Some(x) = v.get("halfspace") {
        Ok(SharedShape::halfspace(v3(&x["normal"])?))
    } else {
        Err(format!("unsupported shape {v}"))
    }
}

fn collider(v: &Value) -> Res<Collider> {
    let m = &v["mass_properties"];
    let mp = MassProperties {
        local_com: v3(&m["local_com"])?,
        inv_mass: f(&m["inv_mass"])?,
        inv_principal_inertia: v3(&m["inv_principal_inertia"])?,
        principal_inertia_local_frame: quat(&m["principal_inertia_local_frame"])?,
    };
    let mut c = ColliderBuilder::new(shape(&v["shape"])?)
        .friction(f(&v["friction_coefficient"])?)
        .friction_combine_rule(combine(&v["friction_combine_rule"])?)
        .restitution(f(&v["restitution_coefficient"])?)
        .restitution_combine_rule(combine(&v["restitution_combine_rule"])?)
        .collision_groups(groups(&v["collision_groups"])?)
        .solver_groups(groups(&v["solver_groups"])?)
        .sensor(b(&v["sensor"])?)
        .contact_skin(f(&v["contact_skin"])?);
    if !v["position_wrt_parent"].is_null() {
        c = c.position(pose(&v["position_wrt_parent"])?);
    }
    // A fixed body's collider (the ground) has no mass; setting one would be a change.
    if m["inv_mass"].as_f64() != Some(0.0) {
        c = c.mass_properties(mp);
    }
    Ok(c.build())
}

fn joint(v: &Value) -> Res<GenericJoint> {
    let mask =
        |k: &str| -> Res<JointAxesMask> { Ok(JointAxesMask::from_bits_retain(u(&v[k])? as u8)) };
    let mut j = GenericJoint {
        local_frame1: pose(&v["local_frame1"])?,
        local_frame2: pose(&v["local_frame2"])?,
        locked_axes: mask("locked_axes")?,
        limit_axes: mask("limit_axes")?,
        motor_axes: mask("motor_axes")?,
        coupled_axes: mask("coupled_axes")?,
        ..GenericJoint::default()
    };
    let limits = v["limits"].as_array().ok_or("limits")?;
    for (l, x) in j.limits.iter_mut().zip(limits) {
        let [min, max] = arr::<2>(x)?;
        l.min = min;
        l.max = max;
    }
    let motors = v["motors"].as_array().ok_or("motors")?;
    for (m, x) in j.motors.iter_mut().zip(motors) {
        m.target_pos = f(&x["target_pos"])?;
        m.target_vel = f(&x["target_vel"])?;
        m.stiffness = f(&x["spring"])?;
        m.damping = f(&x["damper"])?;
        m.max_force = f(&x["max_force"])?;
        m.model = match s(&x["model"])? {
            "AccelerationBased" => MotorModel::AccelerationBased,
            "ForceBased" => MotorModel::ForceBased,
            t => return Err(format!("unknown motor model {t}")),
        };
    }
    let [natural_frequency, damping_ratio] = arr::<2>(&v["softness"])?;
    j.softness = SpringCoefficients {
        natural_frequency,
        damping_ratio,
    };
    j.contacts_enabled = b(&v["contacts_enabled"])?;
    j.set_enabled(b(&v["is_enabled"])?);
    Ok(j)
}

fn build(scene: &Value) -> Res<PhysicsWorld> {
    if scene["format"].as_u64() != Some(2) {
        return Err(format!("unknown scene format {}", scene["format"]));
    }
    let mut w = PhysicsWorld::new();
    w.gravity = v3(&scene["gravity"])?;
    w.integration_parameters = params(&scene["integration_parameters"])?;
    let mut handles = Vec::new();
    for v in scene["bodies"].as_array().ok_or("bodies")? {
        handles.push(w.insert_body(body(v)?));
    }
    for v in scene["colliders"].as_array().ok_or("colliders")? {
        let parent = match v["parent"].as_u64() {
            Some(i) => Some(*handles.get(i as usize).ok_or("collider parent")?),
            None => None,
        };
        w.insert_collider(collider(v)?, parent);
    }
    for v in scene["impulse_joints"].as_array().ok_or("impulse_joints")? {
        let h = |k: &str| -> Res<RigidBodyHandle> {
            Ok(*handles.get(u(&v[k])? as usize).ok_or("joint body")?)
        };
        w.insert_impulse_joint(h("body1")?, h("body2")?, joint(v)?);
    }
    Ok(w)
}

fn counts(w: &PhysicsWorld) -> Value {
    let (mut touching_pairs, mut contact_points) = (0usize, 0usize);
    for pair in w.narrow_phase.contact_pairs() {
        if pair.has_any_active_contact() {
            touching_pairs += 1;
        }
        if let PairContacts::Rigid(r) = &pair.contacts {
            contact_points += r
                .manifolds
                .iter()
                .map(|m| m.data.solver_contacts.len())
                .sum::<usize>();
        }
    }
    json!({
        "bodies": w.bodies.len(),
        "colliders": w.colliders.len(),
        "joints": w.impulse_joints.len(),
        "touching_pairs": touching_pairs,
        "contact_points": contact_points,
    })
}

/// This thread's CPU time (s).
fn thread_cpu_s() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return f64::NAN;
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Steps for `secs` (at least once); returns (steps, elapsed seconds, CPU seconds).
fn run(step: &mut dyn FnMut(), secs: f64) -> (u64, f64, f64) {
    let budget = Duration::from_secs_f64(secs.max(0.0));
    let (t, cpu) = (Instant::now(), thread_cpu_s());
    let mut n = 0u64;
    while n == 0 || t.elapsed() < budget {
        step();
        n += 1;
    }
    (n, t.elapsed().as_secs_f64(), thread_cpu_s() - cpu)
}

/// A copy of a world's state with fresh pipelines (their workspaces are rebuilt each step).
/// The same as ragdoll-tuner's `sim::snapshot`, written again on purpose: this program must
/// not link ragdoll-tuner, or it would build Rapier with ragdoll-tuner's features.
fn clone_world(w: &PhysicsWorld) -> PhysicsWorld {
    PhysicsWorld {
        gravity: w.gravity,
        integration_parameters: w.integration_parameters,
        physics_pipeline: PhysicsPipeline::new(),
        collision_pipeline: CollisionPipeline::new(),
        islands: w.islands.clone(),
        broad_phase: w.broad_phase.clone(),
        narrow_phase: w.narrow_phase.clone(),
        bodies: w.bodies.clone(),
        colliders: w.colliders.clone(),
        impulse_joints: w.impulse_joints.clone(),
        multibody_joints: w.multibody_joints.clone(),
        soft_bodies: w.soft_bodies.clone(),
        ccd_solver: w.ccd_solver.clone(),
    }
}

/// A world stepped within a window of steps from a mark (`bench` measures every world within
/// the same stretch of simulated time).
struct Windowed {
    w: PhysicsWorld,
    mark: Option<(PhysicsWorld, u64)>,
    since_mark: u64,
}

impl Windowed {
    fn step(&mut self) {
        if let Some((mark, n)) = &self.mark {
            if self.since_mark >= *n {
                self.w = clone_world(mark);
                self.since_mark = 0;
            }
        }
        self.w.step();
        self.since_mark += 1;
    }
}

/// Answers the commands of the module's usage.
fn serve(w: PhysicsWorld) -> Res<()> {
    let mut w = Windowed {
        w,
        mark: None,
        since_mark: 0,
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    let say = |out: &mut std::io::StdoutLock, line: String| -> Res<()> {
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .map_err(|e| e.to_string())
    };
    say(&mut out, format!("ready {}", counts(&w.w)))?;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("step"), Some(n)) => {
                let n: u64 = n.parse().map_err(|_| format!("bad count {n}"))?;
                for _ in 0..n {
                    w.step();
                }
                say(&mut out, "ok".into())?;
            }
            (Some("run"), Some(secs)) => {
                let secs: f64 = secs.parse().map_err(|_| format!("bad seconds {secs}"))?;
                let (n, t, cpu) = run(&mut || w.step(), secs);
                say(&mut out, format!("{n} {t} {cpu}"))?;
            }
            (Some("counts"), _) => say(&mut out, counts(&w.w).to_string())?,
            (Some("window"), Some(n)) => {
                let n: u64 = n.parse().map_err(|_| format!("bad count {n}"))?;
                w.mark = (n > 0).then(|| (clone_world(&w.w), n));
                w.since_mark = 0;
                say(&mut out, "ok".into())?;
            }
            (Some("quit"), _) | (None, _) => break,
            _ => return Err(format!("unknown command {line:?}")),
        }
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = (|| -> Res<()> {
        let path = args
            .first()
            .ok_or("usage: bare-rapier SCENE.json [SECONDS | --serve]")?;
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let scene: Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        let mut w = build(&scene).map_err(|e| format!("{path}: {e}"))?;
        match args.get(1).map(String::as_str) {
            Some("--serve") => serve(w),
            secs => {
                let secs = secs.map_or(Ok(2.0), |x| x.parse::<f64>().map_err(|e| e.to_string()))?;
                let (n, t, cpu) = run(&mut || w.step(), secs);
                println!(
                    "{:.1} steps/s ({:.1} per CPU second)  {}",
                    n as f64 / t,
                    n as f64 / cpu,
                    counts(&w)
                );
                Ok(())
            }
        }
    })();
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bare-rapier: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
