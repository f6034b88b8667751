//! Tile grid geometry over the X-Z plane: sizes, world <-> tile conversion.

/// Largest width or height of a grid, in tiles.
pub const MAX_GRID_SIDE: u32 = 32_768;

/// A tile's integer coordinates: `x` in `0..width`, `z` in `0..height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TilePos {
    /// Column, `0..width`, growing with world X.
    pub x: u32,
    /// Row, `0..height`, growing with world Z.
    pub z: u32,
}

impl TilePos {
    /// A tile position from its column and row.
    pub const fn new(x: u32, z: u32) -> Self {
        Self { x, z }
    }
}

/// Where the tile grid lies in the world: `width` x `height` square tiles of
/// `tile_size` world units, tile `(0, 0)` starting at `origin` (its minimum X-Z corner).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    /// Tiles along X, `1..=MAX_GRID_SIDE`.
    pub width: u32,
    /// Tiles along Z, `1..=MAX_GRID_SIDE`.
    pub height: u32,
    /// Side of one tile in world units, finite and > 0.
    pub tile_size: f32,
    /// World `[x, z]` of the grid's minimum corner (the outer corner of tile `(0, 0)`).
    pub origin: [f32; 2],
}

impl GridSpec {
    /// A grid of `width` x `height` tiles of `tile_size` world units with its corner at the world origin.
    pub fn new(width: u32, height: u32, tile_size: f32) -> Self {
        Self {
            width,
            height,
            tile_size,
            origin: [0.0, 0.0],
        }
    }

    /// The same grid with its minimum corner at world `[x, z]`.
    pub fn with_origin(self, origin: [f32; 2]) -> Self {
        Self { origin, ..self }
    }

    /// True when sizes are in range and the tile size is finite and positive.
    pub fn is_valid(&self) -> bool {
        (1..=MAX_GRID_SIDE).contains(&self.width)
            && (1..=MAX_GRID_SIDE).contains(&self.height)
            && self.tile_size.is_finite()
            && self.tile_size > 0.0
            && self.origin.iter().all(|v| v.is_finite())
    }

    /// Number of tiles, `width * height`.
    pub fn tile_count(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// True when `tile` lies on the grid.
    pub fn contains(&self, tile: TilePos) -> bool {
        tile.x < self.width && tile.z < self.height
    }

    /// Row-major index of a tile (`z * width + x`), the order of `FogGrid::states`.
    pub fn index(&self, tile: TilePos) -> usize {
        tile.z as usize * self.width as usize + tile.x as usize
    }

    /// The tile at row-major `index` (`< tile_count()`).
    pub fn tile_of_index(&self, index: usize) -> TilePos {
        let w = self.width as usize;
        TilePos::new((index % w) as u32, (index / w) as u32)
    }

    /// Fractional tile coordinates of a world `[x, z]` point (not clamped).
    fn tile_coords(&self, pos: [f32; 2]) -> [f32; 2] {
        [
            ((pos[0] - self.origin[0]) / self.tile_size).floor(),
            ((pos[1] - self.origin[1]) / self.tile_size).floor(),
        ]
    }

    /// The tile containing world `[x, z]`, or `None` outside the grid (or for NaN).
    /// A tile covers `[origin + i * tile_size, origin + (i + 1) * tile_size)` on each axis.
    pub fn tile_at(&self, pos: [f32; 2]) -> Option<TilePos> {
        let [x, z] = self.tile_coords(pos);
        let inside = |v: f32, n: u32| v >= 0.0 && v < n as f32;
        (inside(x, self.width) && inside(z, self.height)).then(|| TilePos::new(x as u32, z as u32))
    }

    /// The tile containing world `[x, z]`, clamped to the nearest edge tile when outside
    /// (NaN counts as 0). This is how unit positions are placed.
    pub fn tile_at_clamped(&self, pos: [f32; 2]) -> TilePos {
        // Negative values clamp to 0, so truncation (`as`) equals `floor` here; `as` also
        // saturates and maps NaN to 0. (No `floor` call: it is a libm call on baseline x86-64.)
        let clamp = |v: f32, n: u32| (v as u32).min(n - 1);
        TilePos::new(
            clamp((pos[0] - self.origin[0]) / self.tile_size, self.width),
            clamp((pos[1] - self.origin[1]) / self.tile_size, self.height),
        )
    }

    /// World `[x, z]` of a tile's centre.
    pub fn tile_centre(&self, tile: TilePos) -> [f32; 2] {
        [
            self.origin[0] + (tile.x as f32 + 0.5) * self.tile_size,
            self.origin[1] + (tile.z as f32 + 0.5) * self.tile_size,
        ]
    }
}
