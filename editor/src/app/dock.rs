//! The dock: egui_tiles panes, their default layout, and bringing a pane
//! to the front.

use eframe::egui;
use egui_tiles::{Container, Tile, TileId, Tiles, Tree};

use crate::views::Pane;

/// Where the dock layout is remembered (the version changes when panes
/// change, so an old layout does not hide new panes).
pub(crate) const LAYOUT_KEY: &str = "layout-2";

/// The default layout: outliner and layers on the left; the map over
/// validation, console, timings, elevation and breakpoints; inspector,
/// why, profiles and cost lists on the right.
pub(crate) fn default_tree() -> Tree<Pane> {
    let mut tiles = Tiles::default();
    let mut pane = |p| tiles.insert_pane(p);
    let (outliner, layers) = (pane(Pane::Outliner), pane(Pane::Layers));
    let canvas = pane(Pane::Canvas);
    let bottom: Vec<TileId> = [
        Pane::Validation,
        Pane::Console,
        Pane::Timings,
        Pane::Elevation,
        Pane::Breakpoints,
    ]
    .into_iter()
    .map(&mut pane)
    .collect();
    let right: Vec<TileId> = [Pane::Inspector, Pane::Why, Pane::Profiles, Pane::CostLists]
        .into_iter()
        .map(&mut pane)
        .collect();
    let left = tiles.insert_tab_tile(vec![outliner, layers]);
    let bottom = tiles.insert_tab_tile(bottom);
    let right = tiles.insert_tab_tile(right);
    let middle = tiles.insert_vertical_tile(vec![canvas, bottom]);
    share(&mut tiles, middle, &[(canvas, 3.3), (bottom, 1.0)]);
    let root = tiles.insert_horizontal_tile(vec![left, middle, right]);
    share(
        &mut tiles,
        root,
        &[(left, 1.0), (middle, 3.8), (right, 1.7)],
    );
    Tree::new(egui::Id::unique("kiai-editor-dock"), root, tiles)
}

fn share(tiles: &mut Tiles<Pane>, container: TileId, shares: &[(TileId, f32)]) {
    if let Some(Tile::Container(Container::Linear(lin))) = tiles.get_mut(container) {
        for &(t, s) in shares {
            lin.shares.set_share(t, s);
        }
    }
}

/// The tile of `pane`, if the layout has it.
pub(crate) fn find(tree: &Tree<Pane>, pane: Pane) -> Option<TileId> {
    tree.tiles
        .iter()
        .find(|(_, t)| matches!(t, Tile::Pane(p) if *p == pane))
        .map(|(id, _)| *id)
}

/// Whether `pane` is drawn now (its tab in front).
pub(crate) fn is_shown(tree: &Tree<Pane>, pane: Pane) -> bool {
    find(tree, pane).is_some_and(|id| tree.active_tiles().contains(&id))
}

/// Brings `pane`'s tab to the front; a layout without it gets it next to
/// the inspector (or at the root).
pub(crate) fn focus(tree: &mut Tree<Pane>, pane: Pane) {
    if find(tree, pane).is_none() {
        let id = tree.tiles.insert_pane(pane);
        let host = find(tree, Pane::Inspector)
            .and_then(|i| tree.tiles.parent_of(i))
            .or(tree.root);
        match host.and_then(|h| tree.tiles.get_mut(h)) {
            Some(Tile::Container(c)) => c.add_child(id),
            _ => {
                let root = tree.tiles.insert_tab_tile(vec![id]);
                tree.root = Some(root);
            }
        }
    }
    tree.make_active(|_, t| matches!(t, Tile::Pane(p) if *p == pane));
}
