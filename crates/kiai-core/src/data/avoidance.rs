//! Local avoidance settings of an archetype: how its agents take others'
//! movement into account (ORCA, the avoid stage).

/// How an archetype's agents avoid each other and walls with ORCA
/// (reciprocal velocity obstacles) on the X-Z plane. Agents without it are
/// still avoided by those that have it, but never adjust their own
/// velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Avoidance {
    /// How far ahead collisions with other agents are avoided, seconds,
    /// > 0 (default 4, typical 2-5). Longer makes agents swerve earlier and further.
    pub time_horizon: f32,
    /// How far ahead collisions with walls are avoided, seconds, > 0
    /// (typical 0.5-1). Longer keeps agents further from walls.
    pub wall_time_horizon: f32,
    /// At most this many nearest agents are taken into account, >= 0
    /// (default 16; 0 avoids walls only).
    pub max_neighbours: u32,
    /// Agents of higher priority are avoided and do not avoid (vehicles
    /// among infantry); equal priorities share the avoidance half and
    /// half. Any integer; higher wins.
    pub priority: i32,
}

impl Default for Avoidance {
    /// Four seconds ahead for agents, one for walls, sixteen neighbours,
    /// priority 0: in open crowds bodies overlap by more than a tenth of
    /// their radii in under 0.1% of agent-ticks (tests/movement_properties.rs);
    /// two seconds and ten neighbours, RVO2's usual figures, let about
    /// twice as many through.
    fn default() -> Self {
        Self {
            time_horizon: 4.0,
            wall_time_horizon: 1.0,
            max_neighbours: 16,
            priority: 0,
        }
    }
}

impl Avoidance {
    /// The share of avoiding a neighbour of priority `other` that an agent
    /// of priority `self.priority` takes: 0.5 between equals, 1.0 toward
    /// a higher priority (it alone gives way), 0.0 toward a lower one (it
    /// does not give way at all).
    pub fn responsibility(&self, other: i32) -> f32 {
        match self.priority.cmp(&other) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        }
    }
}
