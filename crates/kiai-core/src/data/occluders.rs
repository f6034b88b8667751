//! What hides agents from each other: walls and potentially visible sets.

use crate::data::{Pvs, Walls};

/// Walls and potentially visible sets of a world.
#[derive(Clone, Debug)]
pub struct Occluders {
    /// Walls, in a uniform grid for ray walks.
    pub walls: Walls,
    /// Region visibility; `None`: every region may see every other.
    pub pvs: Option<Pvs>,
}
