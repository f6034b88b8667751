//! What the editor computes from the document with the runtime's own code:
//! diagnostics, path previews, what an agent senses, decision
//! distributions, auto-connect and the potentially visible set.

use kiai_content::def::{ContentDef, FilterDef, LinkDef, ProfileDef, ShapeDef};
use kiai_content::{Content, Diagnostic, SpanIndex, build_nav};
use kiai_core::behaviour::choose;
use kiai_core::glam::{Vec2, Vec3};
use kiai_core::nav::{
    AutoConnect, Destination, Heading, NavQuery, PathFilter, PathStatus, SelectOptions,
};
use kiai_core::perception::occlusion::RayScratch;
use kiai_core::{BehaviourState, Occluders, RollLog};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::selection::Sel;

/// One diagnostic and the object it is about, when known.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The diagnostic, positions in the text that was checked.
    pub diagnostic: Diagnostic,
    /// The object at the diagnostic's position.
    pub target: Option<Sel>,
}

/// Parses and validates `text` as `kiai validate` does and maps each
/// diagnostic to the object it points at: a script file an archetype names
/// that does not exist is an error (and then nothing else is checked);
/// else each script that does not compile is an error, then come the
/// content's warnings. Script files are resolved against `file`'s
/// directory.
pub fn check_text(text: &str, file: &str) -> Vec<Finding> {
    let diagnostics = match Content::from_str(text, file) {
        Ok(content) => {
            let missing = content.missing_scripts();
            if missing.is_empty() {
                [script_errors(&content), content.warnings].concat()
            } else {
                missing
            }
        }
        Err(d) => d.0,
    };
    let spans = SpanIndex::new(text);
    diagnostics
        .into_iter()
        .map(|diagnostic| {
            let pos = kiai_content::Pos {
                line: diagnostic.line,
                column: diagnostic.column,
            };
            let target = spans.path_at(pos).and_then(Sel::from_path);
            Finding { diagnostic, target }
        })
        .collect()
}

/// One error per script of `content` that does not compile, as `kiai
/// validate` reports it (`file:line:1: error: message`).
fn script_errors(content: &Content) -> Vec<Diagnostic> {
    content
        .scripts()
        .iter()
        .filter_map(|script| {
            let checked = match &script.bundled {
                Some(text) => kiai::lua::check_syntax(&script.path.display().to_string(), text),
                None => kiai::lua::check_file(&script.path),
            };
            let e = checked.err()?;
            Some(Diagnostic {
                file: e.file.clone(),
                line: e.line.unwrap_or(1),
                column: 1,
                severity: kiai_content::Severity::Error,
                message: e.message.clone(),
            })
        })
        .collect()
}

/// Writes `def` as saving it over `original` (the file's text now, if
/// any) would, keeping the file's layout, and checks that text: with no
/// edit, it is the file's own text and the diagnostics are `kiai
/// validate`'s.
pub fn check_def(def: &ContentDef, file: &str, original: Option<&str>) -> Vec<Finding> {
    let text = match original {
        Some(o) => kiai_content::to_ron_preserving(o, def)
            .map(|w| w.text)
            .map_err(|e| e.to_string()),
        None => kiai_content::to_ron(def).map_err(|e| e.to_string()),
    };
    match text {
        Ok(text) => check_text(&text, file),
        Err(e) => vec![Finding {
            diagnostic: Diagnostic::error(
                file,
                kiai_content::Pos { line: 1, column: 1 },
                format!("cannot write the content: {e}"),
            ),
            target: None,
        }],
    }
}

/// A route between two waypoints for one cost list, by A* and by seed
/// 001's greedy neighbour selection.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathPreview {
    /// A*'s route (content ids), empty when there is none.
    pub astar: Vec<u32>,
    /// A*'s cost (length × multipliers), when complete.
    pub astar_cost: Option<f32>,
    /// The greedy walk: at each waypoint article 001 picks the neighbour
    /// closest to the goal; stops on arrival, a dead end or a loop.
    pub greedy: Vec<u32>,
    /// Whether the greedy walk reached the goal.
    pub greedy_arrived: bool,
    /// Why there is no preview, if there is none.
    pub error: Option<String>,
}

/// Computes both routes from waypoint id `from` to `to` for `cost_list`.
pub fn path_preview(def: &ContentDef, from: u32, to: u32, cost_list: &str) -> PathPreview {
    let fail = |e: String| PathPreview {
        error: Some(e),
        ..PathPreview::default()
    };
    let nav = match build_nav(def) {
        Ok(nav) => nav,
        Err(e) => return fail(format!("the graph does not build: {e}")),
    };
    let (Some(a), Some(b)) = (nav.waypoint(from), nav.waypoint(to)) else {
        return fail("pick two waypoints".into());
    };
    let Some(list) = nav.cost_list(cost_list).or_else(|| nav.first_cost_list()) else {
        return fail("no cost list".into());
    };
    let frozen = nav.graph.freeze();
    let mut query = NavQuery::new(u32::MAX);
    let mut out = PathPreview::default();
    match frozen.find_path(a, b, &PathFilter::new(list), &mut query) {
        Ok(result) => {
            if matches!(result.status, PathStatus::Complete) {
                out.astar = query
                    .path()
                    .iter()
                    .filter_map(|w| nav.content_id(*w))
                    .collect();
                out.astar_cost = Some(result.cost);
            }
        }
        Err(e) => out.error = Some(e.to_string()),
    }
    let options = SelectOptions::new(Heading::Toward, list);
    let mut rng = ChaCha8Rng::seed_from_u64(def.seed);
    let mut at = a;
    let mut seen = std::collections::HashSet::new();
    out.greedy.extend(nav.content_id(at));
    seen.insert(at);
    while at != b && out.greedy.len() <= def.waypoints.len() {
        let Some(next) =
            nav.graph
                .select_neighbour(at, Destination::Waypoint(b), &options, &mut rng)
        else {
            break;
        };
        out.greedy.extend(nav.content_id(next));
        at = next;
        if !seen.insert(next) {
            break;
        }
    }
    out.greedy_arrived = at == b;
    out
}

/// What one agent senses now, by the runtime's shape and occlusion tests.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sight {
    /// For every agent of the document: the senses (indices into the
    /// archetype's senses) that sense it.
    pub agents: Vec<Vec<usize>>,
    /// Tiles around the agent, X-Z centre and side (world units), that some
    /// non-hearing sense contains and no wall hides.
    pub tiles: Vec<(Vec2, f32)>,
    /// Side of the tiles, world units.
    pub tile: f32,
}

fn v3(v: (f32, f32, f32)) -> Vec3 {
    Vec3::new(v.0, v.1, v.2)
}

/// Which agents and tiles agent `index` senses in `def` at the start
/// positions, walls and PVS of `occluders` included. `tile` is the tile
/// side (world units, > 0).
pub fn sight(def: &ContentDef, index: usize, occluders: Option<&Occluders>, tile: f32) -> Sight {
    let mut out = Sight {
        agents: vec![Vec::new(); def.agents.len()],
        tiles: Vec::new(),
        tile,
    };
    let Some(me) = def.agents.get(index) else {
        return out;
    };
    let Some(archetype) = def.archetypes.get(&me.archetype) else {
        return out;
    };
    let eye = v3(me.pos);
    let facing = unit(v3(me.facing));
    let hostile = |a: &str, b: &str| {
        def.factions
            .iter()
            .find(|f| f.name == a)
            .is_some_and(|f| f.hostile.iter().any(|h| h == b))
    };
    let mut scratch = RayScratch::new();
    let senses: Vec<_> = archetype
        .senses
        .iter()
        .map(|s| (kiai_content::shape(&s.shape).compile(), s))
        .collect();
    for (j, other) in def.agents.iter().enumerate() {
        if j == index {
            continue;
        }
        let target = v3(other.pos);
        for (s, (shape, sense)) in senses.iter().enumerate() {
            let passes_filter = match sense.filter {
                FilterDef::All => true,
                FilterDef::Hostile => hostile(&me.faction, &other.faction),
                FilterDef::Friendly => !hostile(&me.faction, &other.faction),
            };
            if passes_filter
                && shape.contains(eye, facing, target)
                && (!sense.occluded || visible(occluders, eye, target, &mut scratch))
            {
                out.agents[j].push(s);
            }
        }
    }
    let (tiles, side) = sight_tiles(archetype, eye, facing, occluders, tile);
    out.tiles = tiles;
    out.tile = side;
    out
}

fn unit(f: Vec3) -> Vec3 {
    if f.length_squared() > 0.0 {
        f.normalize()
    } else {
        Vec3::X
    }
}

/// Whether `target` can be seen from `eye` through the walls and PVS.
fn visible(
    occluders: Option<&Occluders>,
    eye: Vec3,
    target: Vec3,
    scratch: &mut RayScratch,
) -> bool {
    match occluders {
        Some(o) => {
            o.pvs.as_ref().is_none_or(|p| p.can_see_points(eye, target))
                && !o.walls.blocks(eye, target, scratch)
        }
        None => true,
    }
}

/// The tiles around an agent of `archetype` at `eye` facing `facing` that
/// some non-hearing sense contains and no wall hides: X-Z centres, and the
/// tile side used (world units; at most 96 tiles per side, so long senses
/// get coarser tiles than `tile`).
pub fn sight_tiles(
    archetype: &kiai_content::def::ArchetypeDef,
    eye: Vec3,
    facing: Vec3,
    occluders: Option<&Occluders>,
    tile: f32,
) -> (Vec<(Vec2, f32)>, f32) {
    let facing = unit(facing);
    let senses: Vec<_> = archetype
        .senses
        .iter()
        .map(|s| (kiai_content::shape(&s.shape).compile(), s))
        .collect();
    let reach = archetype
        .senses
        .iter()
        .map(|s| kiai_content::shape(&s.shape).reach())
        .fold(0.0f32, f32::max);
    if reach <= 0.0 || !tile.is_finite() || tile <= 0.0 {
        return (Vec::new(), tile);
    }
    let tile = tile.max(2.0 * reach / 96.0);
    let n = (reach / tile).ceil() as i32;
    let base = Vec2::new(
        (eye.x / tile).floor() * tile + tile * 0.5,
        (eye.z / tile).floor() * tile + tile * 0.5,
    );
    let mut scratch = RayScratch::new();
    let mut tiles = Vec::new();
    for dz in -n..=n {
        for dx in -n..=n {
            let c = base + Vec2::new(dx as f32, dz as f32) * tile;
            let target = Vec3::new(c.x, eye.y, c.y);
            let hit = senses.iter().any(|(shape, sense)| {
                !matches!(sense.shape, ShapeDef::Hearing { .. })
                    && shape.contains(eye, facing, target)
                    && (!sense.occluded || visible(occluders, eye, target, &mut scratch))
            });
            if hit {
                tiles.push((c, tile));
            }
        }
    }
    (tiles, tile)
}

/// Shares of each decision for three situations, sampled from article 002's
/// `choose` (the runtime decider's own function) with the profile's
/// weights: `[situation][state]`, situations = only chase possible, only
/// evade possible, both; states = random walk, chase, evade. Each row sums
/// to 1. Decisions are drawn in a chain so `keep_decision` sees the
/// previous contested decision, as an agent does tick after tick.
pub fn decision_shares(profile: &ProfileDef, samples: usize, seed: u64) -> [[f32; 3]; 3] {
    let p = kiai_content::profile(profile);
    let weights = [p.chase, p.evade];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = [[0.0f32; 3]; 3];
    let samples = samples.max(1);
    for (row, (can_chase, can_evade)) in [(true, false), (false, true), (true, true)]
        .into_iter()
        .enumerate()
    {
        let mut saved = None;
        for _ in 0..samples {
            let mut rolls = RollLog::default();
            let choice = choose(
                can_chase,
                can_evade,
                &p,
                weights,
                saved,
                &mut |upper| rng.random_range(0.0..upper),
                &mut rolls,
            );
            saved = choice.saved;
            let col = match choice.state {
                BehaviourState::RandomWalk => 0,
                BehaviourState::Chase => 1,
                BehaviourState::Evade => 2,
            };
            out[row][col] += 1.0;
        }
        for v in &mut out[row] {
            *v /= samples as f32;
        }
    }
    out
}

/// Links auto-connect would add between the waypoints at `indices` (all
/// when empty): pairs within `range` whose line of sight no wall blocks, in
/// the runtime's deterministic order. Existing links are kept.
pub fn auto_connect(
    def: &ContentDef,
    indices: &[usize],
    range: f32,
    two_way: bool,
    occluders: Option<&Occluders>,
) -> Result<Vec<LinkDef>, String> {
    let mut sub = def.clone();
    if !indices.is_empty() {
        let keep: std::collections::HashSet<u32> = indices
            .iter()
            .filter_map(|&i| def.waypoints.get(i).map(|w| w.id))
            .collect();
        sub.waypoints.retain(|w| keep.contains(&w.id));
        sub.links
            .retain(|l| keep.contains(&l.from) && keep.contains(&l.to));
    }
    let mut nav = build_nav(&sub).map_err(|e| e.to_string())?;
    let before = nav.graph.link_count();
    let mut scratch = RayScratch::new();
    nav.graph
        .auto_connect(
            &AutoConnect {
                range,
                two_way,
                active_only: false,
            },
            |a, b| {
                let lift = Vec3::Y * 0.5;
                occluders.is_none_or(|o| !o.walls.blocks(a + lift, b + lift, &mut scratch))
            },
        )
        .map_err(|e| e.to_string())?;
    let mut out: Vec<LinkDef> = Vec::new();
    let mut made = std::collections::HashSet::new();
    for link in nav.graph.link_ids().skip(before) {
        let Some((a, b)) = nav.graph.link_endpoints(link) else {
            continue;
        };
        let (Some(from), Some(to)) = (nav.content_id(a), nav.content_id(b)) else {
            continue;
        };
        // Two-way: the runtime added both directions; one link says it.
        if two_way && made.contains(&(to, from)) {
            continue;
        }
        made.insert((from, to));
        out.push(LinkDef {
            from,
            to,
            costs: Default::default(),
            two_way,
        });
    }
    Ok(out)
}

/// The potentially visible set of `def`'s regions computed by sample rays
/// against its walls (as the runtime does when a `sees` list is missing):
/// for each region, the names of the other regions it sees.
pub fn compute_pvs(def: &ContentDef) -> Vec<Vec<String>> {
    let mut open = def.clone();
    for r in &mut open.regions {
        r.sees = None;
    }
    let Some(pvs) = kiai_content::occluders(&open, def.seed).and_then(|o| o.pvs) else {
        return vec![Vec::new(); def.regions.len()];
    };
    (0..def.regions.len())
        .map(|i| {
            (0..def.regions.len())
                .filter(|&j| j != i && pvs.can_see(Some(i), Some(j)))
                .map(|j| def.regions[j].name.clone())
                .collect()
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    fn village() -> ContentDef {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../content/demo/village.ron");
        Content::load(std::path::Path::new(path))
            .unwrap()
            .into_def()
    }

    #[test]
    fn path_preview_matches_the_cli_routes() {
        let def = village();
        let infantry = path_preview(&def, 0, 69, "infantry");
        assert_eq!(infantry.astar, vec![0, 1, 2, 13, 24, 35, 46, 57, 68, 69]);
        let vehicle = path_preview(&def, 0, 69, "vehicle");
        assert_eq!(vehicle.astar_cost, Some(75.0));
        assert_eq!(vehicle.greedy.first(), Some(&0));
    }

    #[test]
    fn decision_shares_follow_the_profile() {
        let mut p = ProfileDef {
            chase: Some(3.0),
            evade: Some(1.0),
            entries: None,
            use_profile: 100.0,
            keep_decision: 0.0,
            learning: None,
        };
        let s = decision_shares(&p, 20_000, 1);
        assert_eq!(s[0], [0.0, 1.0, 0.0]);
        assert_eq!(s[1], [0.0, 0.0, 1.0]);
        assert!((s[2][1] - 0.75).abs() < 0.02, "{:?}", s[2]);
        p.use_profile = 0.0;
        let s = decision_shares(&p, 1_000, 1);
        assert_eq!(s[2], [0.0, 0.0, 1.0], "the fixed rule: evade beats chase");
    }
}
