//! Walls that change while the world runs: doors opening and closing,
//! walls built and torn down. The grid is updated in place (one pass over
//! its rows); only a wall beyond the grid's extent makes it build anew,
//! from the walls it holds.

use super::grid::Grid;
use super::{Wall, WallState, Walls};

impl Walls {
    /// Whether wall `index` stands (`None` for an unknown index).
    pub fn is_enabled(&self, index: usize) -> Option<bool> {
        self.state.get(index).map(|s| *s == WallState::Enabled)
    }

    /// Stands wall `index` up or takes it down (opens a door): a disabled
    /// wall blocks nothing. Returns the previous state; `None` for an
    /// unknown or removed wall.
    pub fn set_enabled(&mut self, index: usize, enabled: bool) -> Option<bool> {
        let state = *self.state.get(index)?;
        let was = match state {
            WallState::Enabled => true,
            WallState::Disabled => false,
            WallState::Removed => return None,
        };
        if was == enabled {
            return Some(was);
        }
        self.state[index] = if enabled {
            WallState::Enabled
        } else {
            WallState::Disabled
        };
        let wall = self.walls[index];
        if !wall.is_finite() {
            return Some(was);
        }
        if !enabled {
            self.grid.remove(index as u32);
        } else if self.grid.holds(&wall) {
            self.grid.insert(index as u32, &wall);
        } else {
            self.reindex();
        }
        Some(was)
    }

    /// Adds a standing wall and returns its index (indices are never
    /// reused).
    pub fn push(&mut self, wall: Wall) -> usize {
        let index = self.walls.len();
        self.walls.push(wall);
        self.state.push(WallState::Disabled);
        self.set_enabled(index, true);
        index
    }

    /// Adds one wall (see [`Walls::push`]).
    pub fn add(&mut self, wall: Wall) {
        self.push(wall);
    }

    /// Removes wall `index` for good (its index stays taken). Returns
    /// whether it existed.
    pub fn remove(&mut self, index: usize) -> bool {
        if self.set_enabled(index, false).is_none() {
            return false;
        }
        self.state[index] = WallState::Removed;
        true
    }

    /// Builds the grid again from the standing walls.
    pub(super) fn reindex(&mut self) {
        let indexed: Vec<bool> = self
            .state
            .iter()
            .map(|s| *s == WallState::Enabled)
            .collect();
        self.grid = Grid::build(&self.walls, &indexed, self.requested_cell_size);
    }
}
