//! Every colour the editor draws, in one place: a [`Palette`] per theme
//! (dark and light), and the egui visuals that go with it.
//!
//! Agents carry two meanings and two channels: **shape is the faction**
//! (circle, square, diamond, triangle, ...) and **fill colour is the
//! behaviour state** while the run plays. Faction fills (shown while
//! editing) are pale tints in the dark theme and deep tones in the light
//! one; state colours are the saturated Okabe–Ito set, so no colour means
//! a faction in one mode and a state in the other (the unit tests measure
//! the distance). Okabe–Ito is distinguishable with the common colour
//! vision deficiencies, and shapes carry the faction without colour.

use eframe::egui::{self, Color32, Stroke, Visuals};

use crate::model::Theme;

/// Okabe–Ito's colour-blind-safe set (and a neutral grey).
pub mod okabe_ito {
    use eframe::egui::Color32;
    /// Orange.
    pub const ORANGE: Color32 = Color32::from_rgb(230, 159, 0);
    /// Sky blue.
    pub const SKY_BLUE: Color32 = Color32::from_rgb(86, 180, 233);
    /// Bluish green.
    pub const BLUISH_GREEN: Color32 = Color32::from_rgb(0, 158, 115);
    /// Yellow.
    pub const YELLOW: Color32 = Color32::from_rgb(240, 228, 66);
    /// Blue.
    pub const BLUE: Color32 = Color32::from_rgb(0, 114, 178);
    /// Vermillion.
    pub const VERMILLION: Color32 = Color32::from_rgb(213, 94, 0);
    /// Reddish purple.
    pub const REDDISH_PURPLE: Color32 = Color32::from_rgb(204, 121, 167);
    /// Grey.
    pub const GREY: Color32 = Color32::from_rgb(150, 150, 150);
}

use okabe_ito as oi;

/// The colours of one theme.
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    /// Which theme.
    pub theme: Theme,
    /// The map's background.
    pub canvas: Color32,
    /// Grid lines, every line / every tenth line.
    pub grid: [Color32; 2],
    /// The X axis (z = 0) and the Z axis (x = 0).
    pub axes: [Color32; 2],
    /// The content's bounds.
    pub bounds: Color32,
    /// Text on the map.
    pub text: Color32,
    /// Secondary text on the map.
    pub text_weak: Color32,
    /// Behind map labels, so they read over links.
    pub label_back: Color32,
    /// Leader lines of labels moved away from their object.
    pub leader: Color32,
    /// Links (no heat map).
    pub link: Color32,
    /// Active waypoints.
    pub waypoint: Color32,
    /// Inactive waypoints: the ring and the cross.
    pub waypoint_inactive: Color32,
    /// Generated waypoints (tag `generated`): smaller, and this colour.
    pub waypoint_generated: Color32,
    /// The Generate waypoints panel's preview of a net.
    pub navgen_preview: Color32,
    /// Selected objects.
    pub selected: Color32,
    /// The object under the pointer.
    pub hover: Color32,
    /// Walls.
    pub wall: Color32,
    /// Doors (open doors are drawn dashed).
    pub door: Color32,
    /// Region outlines.
    pub region: Color32,
    /// Tiles the selected agent's senses cover (translucent).
    pub sight: Color32,
    /// Ring around agents the selected agent senses.
    pub sensed: Color32,
    /// Sense handles (range, angle, axes).
    pub handle: Color32,
    /// The facing handle.
    pub handle_facing: Color32,
    /// Outline of handles and glyphs.
    pub outline: Color32,
    /// A* route preview.
    pub path_astar: Color32,
    /// Article 001's greedy walk preview.
    pub path_greedy: Color32,
    /// Path start and goal picks.
    pub path_ends: [Color32; 2],
    /// Faction fills (by faction index, cycling), shown while editing.
    pub factions: [Color32; 6],
    /// State fills: the runtime's random walk, chase, evade, then script
    /// labels in the order they appear (cycling).
    pub states: [Color32; 8],
    /// Sense outlines, by sense index (cycling).
    pub senses: [Color32; 4],
    /// Lines to what the selected agent senses now.
    pub percept_seen: Color32,
    /// Lines to sounds it hears.
    pub percept_heard: Color32,
    /// Remembered positions.
    pub percept_memory: Color32,
    /// Waypoint routes of the run.
    pub route: Color32,
    /// Velocity vectors.
    pub steering: Color32,
    /// Agents' bodies: a circle of the archetype's radius (on a halo of
    /// `label_back`, so it reads on every fill).
    pub body: Color32,
    /// The velocity steering asked for, before avoidance.
    pub velocity_preferred: Color32,
    /// The velocity avoidance chose.
    pub velocity_chosen: Color32,
    /// The way smoothing waypoint walkers take now.
    pub route_smooth: Color32,
    /// Missiles: heading, and the line to the target.
    pub missile: [Color32; 2],
    /// Rings of this tick's sounds.
    pub sound: Color32,
    /// Where agents started, while the run is past tick 0.
    pub start_ghost: Color32,
    /// Fog of war: explored but not visible, never explored.
    pub fog: [Color32; 2],
    /// Tool feedback (brush, walls and regions under way, box selection).
    pub tool: Color32,
    /// Errors, warnings, good news.
    pub status: [Color32; 3],
    /// Stage timing lines, one per stage in the order of `Stage::ALL`:
    /// sense, decide, navigate, steer, avoid, integrate, noise, fog; then
    /// the tick's upkeep (drawn dashed, its legend marked so: its colour is
    /// a blue like the sense line's).
    pub timings: [Color32; crate::model::sim::TIMED],
    /// Heat map: cheap (×1/8 and less), neutral (×1), expensive (×8 and
    /// more); ×2 is orange and ×4 vermillion on the way.
    pub heat: [Color32; 3],
}

impl Palette {
    /// The palette of `theme`.
    pub fn of(theme: Theme) -> Self {
        match theme {
            Theme::Dark => Self::dark(),
            Theme::Light => Self::light(),
        }
    }

    /// Light on dark.
    pub fn dark() -> Self {
        Self {
            theme: Theme::Dark,
            canvas: Color32::from_gray(24),
            grid: [Color32::from_gray(40), Color32::from_gray(58)],
            axes: [
                Color32::from_rgb(110, 70, 60),
                Color32::from_rgb(60, 100, 70),
            ],
            bounds: Color32::from_gray(120),
            text: Color32::from_gray(225),
            text_weak: Color32::from_gray(160),
            label_back: Color32::from_rgba_unmultiplied(20, 20, 20, 200),
            leader: Color32::from_gray(130),
            link: Color32::from_gray(115),
            waypoint: Color32::from_gray(225),
            waypoint_inactive: oi::ORANGE,
            waypoint_generated: Color32::from_rgb(120, 200, 180),
            navgen_preview: oi::REDDISH_PURPLE,
            selected: Color32::from_rgb(255, 236, 90),
            hover: oi::SKY_BLUE,
            wall: Color32::from_rgb(205, 180, 140),
            door: oi::REDDISH_PURPLE,
            region: Color32::from_rgb(110, 150, 200),
            sight: Color32::from_rgba_unmultiplied(0, 158, 115, 60),
            sensed: oi::BLUISH_GREEN,
            handle: oi::YELLOW,
            handle_facing: Color32::WHITE,
            outline: Color32::from_gray(12),
            path_astar: oi::BLUISH_GREEN,
            path_greedy: oi::ORANGE,
            path_ends: [oi::BLUISH_GREEN, oi::VERMILLION],
            factions: [
                Color32::from_rgb(240, 240, 240),
                Color32::from_rgb(245, 214, 160),
                Color32::from_rgb(195, 222, 252),
                Color32::from_rgb(205, 240, 205),
                Color32::from_rgb(250, 205, 222),
                Color32::from_rgb(218, 208, 250),
            ],
            states: Self::STATES,
            senses: [
                oi::SKY_BLUE,
                oi::YELLOW,
                oi::REDDISH_PURPLE,
                oi::BLUISH_GREEN,
            ],
            percept_seen: oi::BLUISH_GREEN,
            percept_heard: oi::YELLOW,
            percept_memory: oi::REDDISH_PURPLE,
            route: Color32::from_rgba_unmultiplied(0, 158, 115, 190),
            steering: oi::YELLOW,
            body: Color32::from_gray(235),
            velocity_preferred: oi::REDDISH_PURPLE,
            velocity_chosen: oi::SKY_BLUE,
            route_smooth: Color32::from_rgba_unmultiplied(230, 159, 0, 200),
            missile: [oi::ORANGE, Color32::from_rgba_unmultiplied(213, 94, 0, 140)],
            sound: Color32::from_rgba_unmultiplied(240, 228, 66, 170),
            start_ghost: Color32::from_gray(150),
            fog: [
                Color32::from_black_alpha(110),
                Color32::from_black_alpha(200),
            ],
            tool: Color32::from_gray(235),
            status: [
                Color32::from_rgb(255, 120, 100),
                Color32::from_rgb(240, 200, 90),
                Color32::from_rgb(110, 210, 150),
            ],
            timings: [
                oi::SKY_BLUE,
                oi::ORANGE,
                oi::VERMILLION,
                oi::BLUISH_GREEN,
                Color32::from_gray(200),
                oi::REDDISH_PURPLE,
                oi::GREY,
                oi::YELLOW,
                // Pale blue, dashed: apart from sense's sky blue by both.
                Color32::from_rgb(170, 200, 255),
            ],
            heat: [oi::BLUE, Color32::from_gray(115), DARK_RED],
        }
    }

    /// Dark on light.
    pub fn light() -> Self {
        Self {
            theme: Theme::Light,
            canvas: Color32::from_gray(246),
            grid: [Color32::from_gray(228), Color32::from_gray(205)],
            axes: [
                Color32::from_rgb(200, 140, 130),
                Color32::from_rgb(120, 170, 130),
            ],
            bounds: Color32::from_gray(120),
            text: Color32::from_gray(25),
            text_weak: Color32::from_gray(90),
            label_back: Color32::from_rgba_unmultiplied(250, 250, 250, 210),
            leader: Color32::from_gray(120),
            link: Color32::from_gray(150),
            waypoint: Color32::from_gray(40),
            waypoint_inactive: Color32::from_rgb(190, 80, 0),
            waypoint_generated: Color32::from_rgb(0, 120, 95),
            navgen_preview: Color32::from_rgb(170, 60, 130),
            selected: Color32::from_rgb(200, 120, 0),
            hover: oi::BLUE,
            wall: Color32::from_rgb(120, 90, 60),
            door: Color32::from_rgb(160, 60, 120),
            region: Color32::from_rgb(60, 100, 160),
            sight: Color32::from_rgba_unmultiplied(0, 158, 115, 55),
            sensed: Color32::from_rgb(0, 130, 95),
            handle: Color32::from_rgb(225, 170, 0),
            handle_facing: Color32::from_gray(30),
            outline: Color32::from_gray(20),
            path_astar: Color32::from_rgb(0, 140, 100),
            path_greedy: Color32::from_rgb(215, 130, 0),
            path_ends: [Color32::from_rgb(0, 140, 100), oi::VERMILLION],
            factions: [
                Color32::from_rgb(30, 30, 30),
                Color32::from_rgb(100, 62, 30),
                Color32::from_rgb(28, 48, 100),
                Color32::from_rgb(30, 75, 42),
                Color32::from_rgb(85, 30, 72),
                Color32::from_rgb(62, 72, 84),
            ],
            states: Self::STATES,
            senses: [
                oi::BLUE,
                Color32::from_rgb(200, 150, 0),
                oi::REDDISH_PURPLE,
                oi::BLUISH_GREEN,
            ],
            percept_seen: Color32::from_rgb(0, 130, 95),
            percept_heard: Color32::from_rgb(190, 150, 0),
            percept_memory: oi::REDDISH_PURPLE,
            route: Color32::from_rgba_unmultiplied(0, 140, 100, 200),
            steering: Color32::from_rgb(190, 150, 0),
            body: Color32::from_gray(25),
            velocity_preferred: oi::REDDISH_PURPLE,
            velocity_chosen: oi::BLUE,
            route_smooth: Color32::from_rgba_unmultiplied(200, 110, 0, 210),
            missile: [oi::ORANGE, Color32::from_rgba_unmultiplied(213, 94, 0, 150)],
            sound: Color32::from_rgba_unmultiplied(190, 150, 0, 180),
            start_ghost: Color32::from_gray(120),
            fog: [
                Color32::from_black_alpha(70),
                Color32::from_black_alpha(150),
            ],
            tool: Color32::from_gray(30),
            status: [
                Color32::from_rgb(190, 40, 30),
                Color32::from_rgb(160, 110, 0),
                Color32::from_rgb(20, 130, 70),
            ],
            timings: [
                oi::BLUE,
                oi::ORANGE,
                oi::VERMILLION,
                oi::BLUISH_GREEN,
                Color32::from_gray(90),
                oi::REDDISH_PURPLE,
                oi::GREY,
                Color32::from_rgb(190, 150, 0),
                // Navy, dashed: apart from sense's blue by both, and dark
                // enough to read on the light panel.
                Color32::from_rgb(30, 50, 130),
            ],
            heat: [oi::BLUE, Color32::from_gray(150), DARK_RED],
        }
    }

    /// State fills: random walk (grey), chase (vermillion), evade (sky
    /// blue), then script labels.
    const STATES: [Color32; 8] = [
        oi::GREY,
        oi::VERMILLION,
        oi::SKY_BLUE,
        oi::YELLOW,
        oi::REDDISH_PURPLE,
        oi::BLUISH_GREEN,
        oi::ORANGE,
        oi::BLUE,
    ];

    /// The fill of faction `i`.
    pub fn faction(&self, i: usize) -> Color32 {
        self.factions[i % self.factions.len()]
    }

    /// The fill of state `k` (an index into the run's state names: the
    /// runtime's three, then script labels).
    pub fn state(&self, k: usize) -> Color32 {
        if k < self.states.len() {
            self.states[k]
        } else {
            // More labels than colours: cycle over the script colours.
            self.states[3 + (k - 3) % (self.states.len() - 3)]
        }
    }

    /// The outline of sense `k`.
    pub fn sense(&self, k: usize) -> Color32 {
        self.senses[k % self.senses.len()]
    }

    /// The heat-map colour of a multiplier, on a log scale: blue (×1/8
    /// and less) through the link colour (×1), then orange (×2),
    /// vermillion (×4) and dark red (×8 and more), so that ×4 and ×8 are
    /// told apart and ×5 is red.
    pub fn heat(&self, m: f32) -> Color32 {
        if !m.is_finite() {
            return Color32::from_rgb(255, 0, 255);
        }
        let t = m.max(1e-3).log2().clamp(-3.0, 3.0);
        let [cheap, neutral, dear] = self.heat;
        if t < 0.0 {
            return lerp(neutral, cheap, -t / 3.0);
        }
        let stops = [neutral, oi::ORANGE, oi::VERMILLION, dear];
        let k = (t.floor() as usize).min(2);
        lerp(stops[k], stops[k + 1], t - k as f32)
    }

    /// Background and frame colours of panels, for [`Palette::visuals`].
    fn panel(&self) -> (Color32, Color32) {
        match self.theme {
            Theme::Dark => (Color32::from_gray(30), Color32::from_gray(16)),
            Theme::Light => (Color32::from_gray(238), Color32::from_gray(255)),
        }
    }

    /// egui's visuals for this theme: panels, and text fields with a
    /// visible edge (at least 3:1 against the panel) before they are
    /// clicked.
    pub fn visuals(&self) -> Visuals {
        let (panel, field) = self.panel();
        let mut v = match self.theme {
            Theme::Dark => Visuals::dark(),
            Theme::Light => Visuals::light(),
        };
        v.panel_fill = panel;
        v.window_fill = panel;
        v.extreme_bg_color = field;
        v.text_edit_bg_color = Some(field);
        let edge = match self.theme {
            Theme::Dark => Color32::from_gray(118),
            Theme::Light => Color32::from_gray(118),
        };
        v.widgets.inactive.bg_stroke = Stroke::new(1.0, edge);
        v.widgets.hovered.bg_stroke = Stroke::new(1.0, self.hover);
        v.selection.stroke = Stroke::new(1.0, self.text);
        v
    }
}

/// The heat map's colour of ×8 and more.
const DARK_RED: Color32 = Color32::from_rgb(160, 0, 30);

fn lerp(a: Color32, b: Color32, t: f32) -> Color32 {
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

/// Applies `theme`'s visuals to `ctx`.
pub fn apply(ctx: &egui::Context, theme: Theme) {
    let visuals = Palette::of(theme).visuals();
    ctx.all_styles_mut(|s| {
        s.visuals = visuals.clone();
        s.spacing.item_spacing = egui::vec2(8.0, 5.0);
        s.spacing.button_padding = egui::vec2(6.0, 3.0);
        s.spacing.interact_size.y = 22.0;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CIE L*a*b* of an sRGB colour.
    fn lab(c: Color32) -> [f32; 3] {
        let lin = |v: u8| {
            let v = f32::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (lin(c.r()), lin(c.g()), lin(c.b()));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f32| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        ]
    }

    fn delta_e(a: Color32, b: Color32) -> f32 {
        let (a, b) = (lab(a), lab(b));
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).powi(2))
            .sum::<f32>()
            .sqrt()
    }

    #[test]
    fn faction_and_state_colours_are_far_apart_in_both_themes() {
        for p in [Palette::dark(), Palette::light()] {
            for f in p.factions {
                for s in p.states {
                    let d = delta_e(f, s);
                    assert!(
                        d > 25.0,
                        "{:?}: faction {f:?} vs state {s:?}: ΔE {d:.1}",
                        p.theme
                    );
                }
            }
        }
    }

    #[test]
    fn state_colours_are_distinct() {
        let p = Palette::dark();
        for (i, a) in p.states.iter().enumerate() {
            for b in &p.states[i + 1..] {
                assert!(delta_e(*a, *b) > 20.0, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn the_heat_map_runs_from_blue_through_the_link_grey_to_dark_red() {
        let p = Palette::dark();
        assert_eq!(p.heat(1.0), p.heat[1]);
        assert_eq!(p.heat(2.0), oi::ORANGE);
        assert_eq!(p.heat(4.0), oi::VERMILLION);
        assert_eq!(p.heat(8.0), DARK_RED);
        assert_eq!(p.heat(0.125), oi::BLUE);
        // ×5 is red: more red than green by far, little blue.
        let c = p.heat(5.0);
        assert!(c.r() > 180 && c.g() < 80 && c.b() < 40, "{c:?}");
        assert!(delta_e(p.heat(4.0), p.heat(8.0)) > 20.0, "×4 and ×8 apart");
    }
}
