//! The tick level of detail of a built world: its fixed points of
//! interest and the agents that are points of interest.

use kiai_core::{AgentId, World, WorldError};

use super::v3;
use crate::format::def::Vec3Def;

/// Gives `world` the content's fixed points of interest and makes each of
/// `agents` a point of interest. Content without either changes nothing.
pub(crate) fn set_interest(
    world: &mut World,
    points: &[Vec3Def],
    agents: impl IntoIterator<Item = AgentId>,
) -> Result<(), WorldError> {
    if !points.is_empty() {
        world.set_interest_points(points.iter().copied().map(v3));
    }
    for id in agents {
        world.set_interest_agent(id, true)?;
    }
    Ok(())
}
