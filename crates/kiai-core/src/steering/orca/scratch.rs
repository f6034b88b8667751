//! Memory the solver reuses from call to call.

use super::half_plane::HalfPlane;

/// Buffers of [`compute_velocity`](super::compute_velocity), owned by the
/// caller and reused: once they have grown to the largest call's size, a
/// call allocates nothing. One per thread.
#[derive(Clone, Debug, Default)]
pub struct OrcaScratch {
    /// The last call's half-planes: the walls' first, then the neighbours'.
    pub(super) lines: Vec<HalfPlane>,
    /// How many of `lines` are the walls'.
    pub(super) wall_lines: usize,
    /// The 3D program's projected half-planes.
    pub(super) projected: Vec<HalfPlane>,
}

impl OrcaScratch {
    /// Empty buffers; they grow on first use.
    pub fn new() -> OrcaScratch {
        OrcaScratch::default()
    }

    /// The half-planes of the last call, in the order the program took
    /// them: the walls' (at most one per wall, none for a wall an earlier
    /// one covers), then one per neighbour not ignored. For drawing and
    /// debugging.
    pub fn half_planes(&self) -> &[HalfPlane] {
        &self.lines
    }

    /// How many of [`half_planes`](Self::half_planes) come from walls.
    pub fn wall_half_planes(&self) -> usize {
        self.wall_lines
    }
}
