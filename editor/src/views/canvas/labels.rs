//! Map labels placed so they never overlap: each label asks for a spot
//! next to its object (below, above, right, left), then farther out with a
//! leader line back to the object; a label that finds no free spot is not
//! drawn. Objects drawn on the map (agent glyphs) are obstacles too.
//! Labels are placed by priority: the selection first, then agents,
//! named waypoints, regions, sense names.

use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Stroke, Vec2};

/// How important a label is: higher ones are placed first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// Sense names.
    Sense,
    /// Region names.
    Region,
    /// Waypoint names and ids.
    Waypoint,
    /// Agent names.
    Agent,
    /// The hovered or selected object.
    Focus,
}

/// One label asked for.
#[derive(Clone, Debug)]
pub struct Request {
    /// The object's centre, screen points.
    pub anchor: Pos2,
    /// How far from the centre the object reaches, screen points.
    pub clearance: f32,
    /// The text.
    pub text: String,
    /// Its colour.
    pub colour: Color32,
    /// Its priority.
    pub priority: Priority,
}

/// The labels of one frame.
#[derive(Debug, Default)]
pub struct Labels {
    requests: Vec<Request>,
    obstacles: Vec<Rect>,
}

impl Labels {
    /// Asks for a label.
    pub fn add(&mut self, request: Request) {
        self.requests.push(request);
    }

    /// Marks a screen rectangle as taken (an agent's glyph).
    pub fn obstacle(&mut self, rect: Rect) {
        self.obstacles.push(rect);
    }

    /// Whether any label was asked for.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// Places and draws the labels inside `clip` (screen points) and returns
    /// the rectangles and texts drawn.
    pub fn draw(
        mut self,
        painter: &egui::Painter,
        clip: Rect,
        style: &LabelStyle,
    ) -> Vec<(Rect, String)> {
        // Higher priority first; equal priority in request order.
        let mut order: Vec<usize> = (0..self.requests.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.requests[i].priority));
        let mut taken = std::mem::take(&mut self.obstacles);
        let mut drawn = Vec::new();
        for i in order {
            let r = &self.requests[i];
            if !clip.contains(r.anchor) {
                continue;
            }
            let galley = painter.layout_no_wrap(r.text.clone(), style.font.clone(), r.colour);
            let size = galley.size() + Vec2::splat(2.0 * style.pad);
            let Some((rect, leader)) = place(r, size, &taken, clip) else {
                continue;
            };
            if leader {
                let end = rect.clamp(r.anchor);
                let from = r.anchor + (end - r.anchor).normalized() * r.clearance;
                painter.line_segment([from, end], Stroke::new(1.0, style.leader));
            }
            painter.rect_filled(rect, 3.0, style.back);
            painter.galley(rect.min + Vec2::splat(style.pad), galley, r.colour);
            taken.push(rect);
            drawn.push((rect, r.text.clone()));
        }
        drawn
    }
}

/// How labels look.
#[derive(Clone, Debug)]
pub struct LabelStyle {
    /// The font.
    pub font: FontId,
    /// Behind the text.
    pub back: Color32,
    /// Leader lines.
    pub leader: Color32,
    /// Space around the text, points.
    pub pad: f32,
}

/// The first free spot for a label of `size` around `r`'s object, and
/// whether it needs a leader line.
fn place(r: &Request, size: Vec2, taken: &[Rect], clip: Rect) -> Option<(Rect, bool)> {
    let gap = r.clearance + 2.0;
    let near = [
        (Align2::CENTER_TOP, Vec2::new(0.0, gap)),
        (Align2::CENTER_BOTTOM, Vec2::new(0.0, -gap)),
        (Align2::LEFT_CENTER, Vec2::new(gap, 0.0)),
        (Align2::RIGHT_CENTER, Vec2::new(-gap, 0.0)),
    ];
    let far = gap + 18.0;
    let away = [
        (Align2::CENTER_TOP, Vec2::new(0.0, far)),
        (Align2::CENTER_BOTTOM, Vec2::new(0.0, -far)),
        (Align2::LEFT_TOP, Vec2::new(far * 0.7, far * 0.7)),
        (Align2::RIGHT_TOP, Vec2::new(-far * 0.7, far * 0.7)),
        (Align2::LEFT_BOTTOM, Vec2::new(far * 0.7, -far * 0.7)),
        (Align2::RIGHT_BOTTOM, Vec2::new(-far * 0.7, -far * 0.7)),
    ];
    let fits = |rect: Rect| clip.contains_rect(rect) && taken.iter().all(|t| !t.intersects(rect));
    for (align, offset) in near {
        let rect = align.anchor_size(r.anchor + offset, size);
        if fits(rect) {
            return Some((rect, false));
        }
    }
    for (align, offset) in away {
        let rect = align.anchor_size(r.anchor + offset, size);
        if fits(rect) {
            return Some((rect, true));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(x: f32, text: &str, priority: Priority) -> Request {
        Request {
            anchor: Pos2::new(x, 100.0),
            clearance: 8.0,
            text: text.to_owned(),
            colour: Color32::WHITE,
            priority,
        }
    }

    #[test]
    fn crowded_labels_move_aside_or_hide_but_never_overlap() {
        let clip = Rect::from_min_size(Pos2::ZERO, Vec2::new(400.0, 200.0));
        let size = Vec2::new(60.0, 16.0);
        let mut taken: Vec<Rect> = Vec::new();
        let mut placed = 0;
        for k in 0..12 {
            let r = request(150.0 + k as f32 * 3.0, "agent", Priority::Agent);
            if let Some((rect, _)) = place(&r, size, &taken, clip) {
                assert!(taken.iter().all(|t| !t.intersects(rect)));
                taken.push(rect);
                placed += 1;
            }
        }
        assert!(placed >= 6, "{placed} of 12 found a spot");
        assert!(placed < 12, "some hide rather than overlap");
    }

    #[test]
    fn a_lone_label_sits_right_below_its_object() {
        let clip = Rect::from_min_size(Pos2::ZERO, Vec2::new(400.0, 200.0));
        let (rect, leader) = place(
            &request(200.0, "x", Priority::Focus),
            Vec2::new(20.0, 10.0),
            &[],
            clip,
        )
        .unwrap_or((Rect::NOTHING, true));
        assert!(!leader);
        assert_eq!(rect.center_top(), Pos2::new(200.0, 110.0));
    }
}
