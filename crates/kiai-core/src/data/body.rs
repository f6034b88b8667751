//! Who moves an agent's body: kiai, or the game.

/// Who moves an agent's body, per archetype (content `body`) and per agent
/// ([`World::set_body_mode`](crate::World::set_body_mode)). Perception, fog
/// of war and memory treat all three alike: every agent senses (with the
/// senses its archetype has) and can be sensed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BodyMode {
    /// kiai decides, steers and moves it (the integrate stage applies the
    /// steered velocity, walls and bounds).
    #[default]
    Simulated,
    /// kiai decides and steers it but does not move it: the steered
    /// velocity and facing are its *desired* ones
    /// ([`World::desired_velocities`](crate::World::desired_velocities)),
    /// which the game's physics or character controller follows as it can;
    /// the game writes the real position, velocity and facing back before
    /// the next tick.
    Driven,
    /// The game alone moves it (the player, a thrown bottle, a vehicle):
    /// kiai never decides, steers or moves it, only senses with it and lets
    /// others sense it. One with no senses costs nothing but its place in
    /// the grid.
    Kinematic,
}

impl BodyMode {
    /// The name used in content and reports (`"simulated"`).
    pub fn name(self) -> &'static str {
        match self {
            BodyMode::Simulated => "simulated",
            BodyMode::Driven => "driven",
            BodyMode::Kinematic => "kinematic",
        }
    }

    /// Whether kiai decides and steers the agent.
    #[inline]
    pub fn is_steered(self) -> bool {
        self != BodyMode::Kinematic
    }
}
