//! The glyphs of the tool bar, menus and transport bar: characters of the
//! monochrome icon and emoji fonts egui bundles (`monochrome_emoji_fonts`),
//! so they draw the same on every machine.

use crate::model::Tool;

/// The glyph of a canvas tool.
pub fn tool(tool: Tool) -> &'static str {
    match tool {
        Tool::Select => "⬉",
        Tool::Waypoint => "📍",
        Tool::Link => "🔗",
        Tool::Paint => "🖊",
        Tool::Wall => "▓",
        Tool::Region => "⬟",
        Tool::Agent => "👤",
        Tool::Path => "🚩",
    }
}

/// Play.
pub const PLAY: &str = "▶";
/// Pause.
pub const PAUSE: &str = "⏸";
/// One tick.
pub const STEP: &str = "⏭";
/// To the selected agent's next event.
pub const STEP_TO_EVENT: &str = "⏩";
/// Rebuild the run.
pub const RESET: &str = "⟲";
/// A breakpoint.
pub const BREAKPOINT: &str = "⏺";
/// A new document.
pub const NEW: &str = "🗋";
/// Open a file.
pub const OPEN: &str = "🗁";
/// Save.
pub const SAVE: &str = "💾";
/// Export the pack.
pub const EXPORT: &str = "📦";
/// Frame the map.
pub const FIT: &str = "⛶";
/// Grid snapping.
pub const SNAP: &str = "⊞";
/// Auto-connect.
pub const CONNECT: &str = "⛓";
/// Delete.
pub const DELETE: &str = "🗑";
/// Compute the potentially visible set.
pub const PVS: &str = "🔦";
/// What the selected agent senses.
pub const SIGHT: &str = "👁";
/// The heat map of costs.
pub const HEAT: &str = "🎨";
/// Light or dark.
pub const THEME: &str = "🌓";
/// Warnings.
pub const WARNING: &str = "⚠";
/// Information.
pub const INFO: &str = "ℹ";

#[cfg(test)]
mod tests {
    use eframe::egui::{self, FontId};

    use super::*;
    use crate::model::Tool;

    /// Every glyph the editor draws in its proportional font exists in the
    /// fonts it ships (a missing one draws a box, or panics in tests).
    #[test]
    fn every_glyph_the_editor_shows_is_in_its_fonts() {
        let ctx = egui::Context::default();
        let mut first = ctx.run_ui(Default::default(), |_| {});
        first.textures_delta.clear();
        let mut glyphs: Vec<&str> = Tool::ALL.iter().map(|t| tool(*t)).collect();
        glyphs.extend([
            PLAY,
            PAUSE,
            STEP,
            STEP_TO_EVENT,
            RESET,
            BREAKPOINT,
            NEW,
            OPEN,
            SAVE,
            EXPORT,
            FIT,
            SNAP,
            CONNECT,
            DELETE,
            PVS,
            SIGHT,
            HEAT,
            THEME,
            WARNING,
            INFO,
        ]);
        // Text the views write besides ASCII.
        glyphs.push("↔×°±²·—“”…≈•✖⏷⏵");
        for g in glyphs {
            let ok = ctx.fonts_mut(|f| f.has_glyphs(&FontId::proportional(14.0), g));
            assert!(ok, "no glyph for {g:?}");
        }
    }
}
