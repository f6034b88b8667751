//! The map's links and waypoints drawn on the CPU into one image, for large
//! maps: a frame then draws one textured rectangle instead of tens of
//! thousands of triangles (which software renderers such as Mesa's llvmpipe
//! pay for one by one), with the background grid under them. The image is
//! redrawn only when the document, the view, the grid or the colouring
//! changes.

use eframe::egui::{self, Color32, ColorImage, Pos2, Rect, TextureHandle, emath::TSTransform};
use kiai_content::def::ContentDef;

/// Maps with more waypoints plus links than this draw them as an image.
pub(crate) const RASTER_ABOVE: usize = 3000;

/// Crowds larger than this are drawn into the image too (redrawn when
/// they move: once per tick while playing).
pub(crate) const CROWD_ABOVE: usize = 300;

/// One agent of a crowd drawn into the image: scene position, colour and
/// unit facing in scene coordinates.
pub(crate) type CrowdAgent = (Pos2, Color32, egui::Vec2);

/// What the image depends on.
#[derive(Clone, Debug, PartialEq)]
struct Key {
    revision: u64,
    transform: [u32; 3],
    size: [usize; 2],
    heat: bool,
    list: String,
    grid_step: u32,
    crowd: Option<u64>,
    dark: bool,
}

/// The cached image of the map layer.
#[derive(Default)]
pub(crate) struct MapLayer {
    key: Option<Key>,
    texture: Option<TextureHandle>,
    /// The links and waypoints alone, for redrawing only a moved crowd.
    base: Vec<Color32>,
}

impl std::fmt::Debug for MapLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapLayer")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl Clone for MapLayer {
    fn clone(&self) -> Self {
        // A clone redraws its image on first use.
        Self::default()
    }
}

/// Pixel canvas with clipped drawing.
struct Canvas {
    w: usize,
    h: usize,
    px: Vec<Color32>,
}

impl Canvas {
    fn put(&mut self, x: i32, y: i32, c: Color32) {
        if x >= 0 && y >= 0 && (x as usize) < self.w && (y as usize) < self.h {
            self.px[y as usize * self.w + x as usize] = c;
        }
    }

    /// A line from `a` to `b` (pixels), `width` 1 or 2.
    fn line(&mut self, a: Pos2, b: Pos2, c: Color32, width: i32) {
        let (w, h) = (self.w as f32, self.h as f32);
        if (a.x < 0.0 && b.x < 0.0)
            || (a.y < 0.0 && b.y < 0.0)
            || (a.x >= w && b.x >= w)
            || (a.y >= h && b.y >= h)
        {
            return;
        }
        let d = b - a;
        let steps = d.x.abs().max(d.y.abs()).ceil().clamp(1.0, 8192.0) as i32;
        let (sx, sy) = (d.x / steps as f32, d.y / steps as f32);
        let thick_x = d.y.abs() > d.x.abs();
        for k in 0..=steps {
            let x = (a.x + sx * k as f32).floor() as i32;
            let y = (a.y + sy * k as f32).floor() as i32;
            self.put(x, y, c);
            if width > 1 {
                if thick_x {
                    self.put(x + 1, y, c);
                } else {
                    self.put(x, y + 1, c);
                }
            }
        }
    }

    /// A one-pixel ring of radius `r` with a cross through it.
    fn ring(&mut self, c: Pos2, r: i32, colour: Color32) {
        let steps = (r * 8).max(8);
        for k in 0..steps {
            let a = k as f32 / steps as f32 * std::f32::consts::TAU;
            let p = c + egui::vec2(a.cos(), a.sin()) * r as f32;
            self.put(p.x.floor() as i32, p.y.floor() as i32, colour);
        }
        let d = r as f32 * 0.7;
        self.line(c + egui::vec2(-d, -d), c + egui::vec2(d, d), colour, 1);
        self.line(c + egui::vec2(-d, d), c + egui::vec2(d, -d), colour, 1);
    }

    fn square(&mut self, c: Pos2, half: i32, colour: Color32) {
        let (x, y) = (c.x.floor() as i32, c.y.floor() as i32);
        for dy in -half..=half {
            for dx in -half..=half {
                self.put(x + dx, y + dy, colour);
            }
        }
    }
}

/// What the map image shows this frame.
pub(crate) struct Frame<'a> {
    /// The content.
    pub def: &'a ContentDef,
    /// Waypoint positions and link ends (scene coordinates).
    pub geometry: &'a crate::views::canvas::layers::network::Geometry,
    /// Scene to screen.
    pub to_screen: TSTransform,
    /// The visible part of the scene.
    pub visible: Rect,
    /// The document revision drawn.
    pub revision: u64,
    /// Colour links by `list`'s multipliers.
    pub heat: bool,
    /// The current cost list.
    pub list: &'a str,
    /// The grid's step (scene units) and its lines over `visible`.
    pub grid: (f32, &'a [crate::views::canvas::layers::ground::GridLine]),
    /// The crowd drawn over the map: a key that changes when it moves, and
    /// the agents.
    pub crowd: Option<(u64, &'a [CrowdAgent])>,
    /// The colours.
    pub palette: &'a crate::theme::Palette,
}

/// Draws the layer for this frame: redraws the image if anything it
/// depends on changed, then paints it over the canvas (`f.visible` in
/// scene coordinates).
pub(crate) fn paint(layer: &mut MapLayer, painter: &egui::Painter, f: &Frame<'_>) {
    let (to_screen, visible, revision, heat, list, grid, crowd) = (
        f.to_screen,
        f.visible,
        f.revision,
        f.heat,
        f.list,
        f.grid,
        f.crowd,
    );
    let ppp = painter.ctx().pixels_per_point();
    let screen = to_screen * visible;
    let size = [
        (screen.width() * ppp).round().max(1.0) as usize,
        (screen.height() * ppp).round().max(1.0) as usize,
    ];
    let key = Key {
        revision,
        transform: [
            to_screen.translation.x.to_bits(),
            to_screen.translation.y.to_bits(),
            to_screen.scaling.to_bits(),
        ],
        size,
        heat,
        list: list.to_owned(),
        grid_step: grid.0.to_bits(),
        crowd: crowd.map(|(k, _)| k),
        dark: f.palette.theme == crate::model::Theme::Dark,
    };
    if layer.key.as_ref() != Some(&key) || layer.texture.is_none() {
        let to_px = |p: Pos2| ((to_screen * p) - screen.min.to_vec2()) * ppp;
        let same_map = layer.key.as_ref().is_some_and(|k| {
            Key {
                crowd: key.crowd,
                ..k.clone()
            } == key
        }) && layer.base.len() == size[0] * size[1];
        if !same_map {
            layer.base = draw_map(f, size, ppp, to_px);
        }
        let image = ColorImage::new(size, draw_crowd(f, &layer.base, size, ppp, to_px));
        match &mut layer.texture {
            Some(t) => t.set(image, egui::TextureOptions::NEAREST),
            None => {
                layer.texture = Some(painter.ctx().load_texture(
                    "kiai-map-layer",
                    image,
                    egui::TextureOptions::NEAREST,
                ));
            }
        }
        layer.key = Some(key);
    }
    if let Some(t) = &layer.texture {
        painter.image(
            t.id(),
            visible,
            Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
            Color32::WHITE,
        );
    }
}

/// The map without the crowd, `size` pixels: the grid, the links (by
/// cost when colouring by heat) and the waypoints. `to_px` maps scene
/// points to pixels.
fn draw_map(
    f: &Frame<'_>,
    size: [usize; 2],
    ppp: f32,
    to_px: impl Fn(Pos2) -> Pos2,
) -> Vec<Color32> {
    let positions = &f.geometry.positions;
    let mut c = Canvas {
        w: size[0],
        h: size[1],
        px: vec![Color32::TRANSPARENT; size[0] * size[1]],
    };
    for &([a, b], colour) in f.grid.1 {
        c.line(to_px(a), to_px(b), colour, 1);
    }
    for (l, ends) in f.def.links.iter().zip(&f.geometry.link_ends) {
        let Some((a, b)) = *ends else { continue };
        let m = l.costs.get(f.list).copied().unwrap_or(1.0);
        let colour = if f.heat {
            f.palette.heat(m)
        } else {
            f.palette.link
        };
        let width = if f.heat && m != 1.0 { 2 } else { 1 };
        c.line(to_px(positions[a]), to_px(positions[b]), colour, width);
    }
    let half = ((2.5 * ppp).round() as i32).max(1);
    for (w, &p) in f.def.waypoints.iter().zip(positions) {
        if w.active && kiai_content::navgen::is_generated(w) {
            c.square(to_px(p), (half - 1).max(1), f.palette.waypoint_generated);
        } else if w.active {
            c.square(to_px(p), half, f.palette.waypoint);
        } else {
            c.ring(to_px(p), half + 2, f.palette.waypoint_inactive);
        }
    }
    c.px
}

/// The crowd drawn on a copy of the map image `base`.
fn draw_crowd(
    f: &Frame<'_>,
    base: &[Color32],
    size: [usize; 2],
    ppp: f32,
    to_px: impl Fn(Pos2) -> Pos2,
) -> Vec<Color32> {
    let mut c = Canvas {
        w: size[0],
        h: size[1],
        px: base.to_vec(),
    };
    if let Some((_, agents)) = f.crowd {
        let r = ((3.0 * ppp).round() as i32).max(1);
        for &(p, colour, facing) in agents {
            let at = to_px(p);
            c.square(at, r + 1, f.palette.outline);
            c.square(at, r, colour);
            c.line(at, at + facing * (9.0 * ppp), colour, 2);
        }
    }
    c.px
}
