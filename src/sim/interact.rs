//! Reaching into a running simulation from outside: impulses, velocities, torques and poses
//! on bodies by bone (a shove in the editor, `simulate --push`, a kinematic clip root).

use super::*;

impl Simulation {
    pub(super) fn body_of(&self, ragdoll: usize, bone: &str) -> Result<RigidBodyHandle, SimError> {
        let d = self
            .dolls
            .get(ragdoll)
            .ok_or_else(|| SimError::BadInput(format!("no ragdoll {ragdoll}")))?;
        d.bodies
            .iter()
            .find(|b| b.name == bone)
            .map(|b| b.body)
            .ok_or_else(|| SimError::UnknownBone(bone.into()))
    }

    /// Applies an impulse (N*s, world frame) at a bone's centre of mass, before the next step.
    pub fn apply_impulse(&mut self, bone: &str, impulse_n_s: Vec3) -> Result<(), SimError> {
        if !impulse_n_s.is_finite() {
            return Err(SimError::BadInput(format!(
                "impulse {impulse_n_s:?} is not finite"
            )));
        }
        let h = self.body_of(0, bone)?;
        self.world.bodies[h].apply_impulse(impulse_n_s, true);
        self.check_before_step = true;
        Ok(())
    }

    /// Sets a bone's velocities (m/s, rad/s, world frame). Non-finite values are accepted and
    /// pause the simulation at the next step, naming the bone.
    pub fn set_body_velocity(
        &mut self,
        bone: &str,
        linvel_m_s: Vec3,
        angvel_rad_s: Vec3,
    ) -> Result<(), SimError> {
        let h = self.body_of(0, bone)?;
        let rb = &mut self.world.bodies[h];
        rb.set_linvel(linvel_m_s, true);
        rb.set_angvel(angvel_rad_s, true);
        self.check_before_step = true;
        Ok(())
    }

    /// Sets a persistent external torque (N*m, world frame) on a bone's body, replacing the
    /// previous one (the ankle controller also writes torques on the pelvis and feet).
    pub fn set_external_torque(&mut self, bone: &str, torque_n_m: Vec3) -> Result<(), SimError> {
        if !torque_n_m.is_finite() {
            return Err(SimError::BadInput(format!(
                "torque {torque_n_m:?} is not finite"
            )));
        }
        let h = self.body_of(0, bone)?;
        let rb = &mut self.world.bodies[h];
        rb.reset_torques(true);
        rb.add_torque(torque_n_m, true);
        Ok(())
    }

    /// Places a bone's body at a world pose with zero velocity (tests, animation seeding).
    /// A non-finite pose is refused.
    pub fn set_body_pose(&mut self, bone: &str, world_from_body: Pose) -> Result<(), SimError> {
        let finite =
            world_from_body.translation.is_finite() && world_from_body.rotation.is_finite();
        if !finite {
            return Err(SimError::BadInput(format!(
                "pose {world_from_body:?} of {bone} is not finite"
            )));
        }
        let h = self.body_of(0, bone)?;
        let rb = &mut self.world.bodies[h];
        rb.set_position(world_from_body, true);
        rb.set_linvel(Vec3::ZERO, true);
        rb.set_angvel(Vec3::ZERO, true);
        self.check_before_step = true;
        Ok(())
    }

    /// [`Self::set_body_pose`] by bone id.
    pub fn set_body_pose_of(
        &mut self,
        bone: BoneId,
        world_from_body: Pose,
    ) -> Result<(), SimError> {
        let name = self.dolls[0]
            .bodies
            .iter()
            .find(|b| b.bone == bone)
            .map(|b| b.name.clone())
            .ok_or_else(|| SimError::UnknownBone(format!("bone #{}", bone.0)))?;
        self.set_body_pose(&name, world_from_body)
    }

    /// [`Self::set_body_pose_of`], then moving: the body's origin at `origin_vel` (world
    /// units/s) and turning at `angvel_rad_s` (world frame); its centre of mass gets the
    /// origin's velocity plus the turn's about the origin.
    pub fn set_body_motion_of(
        &mut self,
        bone: BoneId,
        world_from_body: Pose,
        (origin_vel, angvel_rad_s): (Vec3, Vec3),
    ) -> Result<(), SimError> {
        self.set_body_pose_of(bone, world_from_body)?;
        if !(origin_vel.is_finite() && angvel_rad_s.is_finite()) {
            return Ok(());
        }
        let Some(h) = self.dolls[0]
            .bodies
            .iter()
            .find(|b| b.bone == bone)
            .map(|b| b.body)
        else {
            return Ok(());
        };
        let rb = &mut self.world.bodies[h];
        if !rb.is_dynamic() {
            return Ok(());
        }
        let com = world_from_body.rotation * rb.mass_properties().local_mprops.local_com;
        rb.set_linvel(origin_vel + angvel_rad_s.cross(com), true);
        rb.set_angvel(angvel_rad_s, true);
        Ok(())
    }

    /// Current world pose of every body of ragdoll 0, by bone (the rest of the skeleton
    /// follows its nearest posed ancestor; that is the caller's business).
    pub fn body_poses(&self) -> impl Iterator<Item = (BoneId, Pose)> + '_ {
        self.dolls[0]
            .bodies
            .iter()
            .filter_map(|b| Some((b.bone, *self.world.bodies.get(b.body)?.position())))
    }
}
