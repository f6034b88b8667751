//! The perception budget: a cap on the occlusion rays of one sense stage,
//! and the round-robin cursor that says where the next stage starts.

/// A cap on the occlusion rays of one sense stage; see
/// [`World::set_perception_budget`](crate::World::set_perception_budget).
///
/// The rays an unbudgeted stage would cast form a sequence: agents in id
/// order, each with its *occluded candidates* (targets of its `occluded`
/// senses that pass the shape, or the lose-range shape for a target sensed
/// last tick, the faction filter and the PVS), in sense order and then in a
/// fixed order within the sense. A budgeted stage casts the next
/// `max_rays_per_tick` rays of that sequence, cyclically, from a
/// [`RayCursor`] kept in the world, and moves the cursor past them (when
/// the whole sequence fits, every ray is cast and the cursor stays). A
/// candidate without a ray this tick keeps last tick's answer for that
/// sense: it is reported when that sense reported it last tick. The
/// allowance of every agent is settled in agent order before the parallel
/// pass, so it never depends on the thread count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerceptionBudget {
    /// Most occlusion rays per sense stage.
    pub max_rays_per_tick: u32,
}

/// Where the next budgeted sense stage starts casting rays: candidate
/// `offset` of agent `agent` (see [`PerceptionBudget`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RayCursor {
    /// Agent index.
    pub agent: u32,
    /// Index into that agent's occluded candidates.
    pub offset: u32,
}
