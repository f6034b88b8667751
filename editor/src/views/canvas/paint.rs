//! What every map layer draws with: the painter in scene coordinates, the
//! transform to the screen, the visible part of the scene, the palette and
//! the frame's labels.
//!
//! Scene coordinates are world X-Z with Z pointing up the screen: a world
//! point `(x, z)` is the scene point `(x, -z)`.

use eframe::egui::{self, Pos2, Rect, Stroke, Vec2, emath::TSTransform};

use super::labels::Labels;
use crate::theme::Palette;

/// The scene point of world `(x, z)`.
pub fn to_scene(x: f32, z: f32) -> Pos2 {
    Pos2::new(x, -z)
}

/// The world `(x, z)` of scene point `p`.
pub fn to_world(p: Pos2) -> (f32, f32) {
    (p.x, -p.y)
}

/// The scene direction of a world X-Z direction.
pub fn dir_to_scene(x: f32, z: f32) -> Vec2 {
    Vec2::new(x, -z)
}

/// The drawing context of one frame's layers.
pub struct Paint<'a> {
    /// Draws in scene coordinates.
    pub painter: &'a egui::Painter,
    /// Scene to screen.
    pub to_screen: TSTransform,
    /// The visible part of the scene.
    pub visible: Rect,
    /// Scene units per screen point.
    pub px: f32,
    /// The colours.
    pub palette: &'a Palette,
    /// Labels to place after the layers.
    pub labels: &'a mut Labels,
}

impl Paint<'_> {
    /// A stroke `width` screen points wide.
    pub fn stroke(&self, width: f32, colour: egui::Color32) -> Stroke {
        Stroke::new(width * self.px, colour)
    }

    /// Screen position of scene point `p`.
    pub fn screen(&self, p: Pos2) -> Pos2 {
        self.to_screen * p
    }

    /// Screen points per world unit.
    pub fn zoom(&self) -> f32 {
        1.0 / self.px
    }

    /// The visible scene grown by `points` screen points, for culling.
    pub fn cull(&self, points: f32) -> Rect {
        self.visible.expand(points * self.px)
    }
}
