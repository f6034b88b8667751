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

/// Windows narrower than this (points) start with [`compact_tree`].
pub(crate) const COMPACT_BELOW: f32 = 1100.0;

/// The layout for a narrow window (800 points): the map takes the whole
/// height on the left; the other tabs are in three groups on the right,
/// each narrow enough for its tab bar: Inspector, Why, Profiles and Cost
/// lists above; Outliner, Layers and Validation; Console, Timings,
/// Elevation and Breakpoints.
pub(crate) fn compact_tree() -> Tree<Pane> {
    let mut tiles = Tiles::default();
    let canvas = tiles.insert_pane(Pane::Canvas);
    let mut group = |panes: &[Pane]| {
        let ids: Vec<TileId> = panes.iter().map(|p| tiles.insert_pane(*p)).collect();
        tiles.insert_tab_tile(ids)
    };
    let upper = group(&[Pane::Inspector, Pane::Why, Pane::Profiles, Pane::CostLists]);
    let middle = group(&[Pane::Outliner, Pane::Layers, Pane::Validation]);
    let lower = group(&[
        Pane::Console,
        Pane::Timings,
        Pane::Elevation,
        Pane::Breakpoints,
    ]);
    let right = tiles.insert_vertical_tile(vec![upper, middle, lower]);
    share(
        &mut tiles,
        right,
        &[(upper, 2.0), (middle, 1.0), (lower, 1.0)],
    );
    let root = tiles.insert_horizontal_tile(vec![canvas, right]);
    share(&mut tiles, root, &[(canvas, 2.5), (right, 1.5)]);
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
