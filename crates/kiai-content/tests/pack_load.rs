//! Packs load straight into runtime types: the same worlds, navigation and
//! scripts as the content they were exported from, and a hostile pack is a
//! diagnostic at 1:1, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::{Path, PathBuf};

use kiai_content::def::ShapeDef;
use kiai_content::{Content, Pack};
use kiai_core::{DefaultDecider, Pipeline, state_hash};
use kiai_nav::{NavQuery, PathFilter};

const DEMOS: [&str; 5] = ["arena", "village", "fortress", "missiles", "guards"];

fn demo(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../content/demo/{name}.ron"))
}

/// The demo as text and as content loaded from its exported pack's bytes.
fn both(name: &str) -> (Content, Content, Pack) {
    let text = Content::load(&demo(name)).unwrap();
    let pack = text.to_pack().unwrap();
    let bytes = pack.encode().unwrap();
    let loaded = Content::from_pack_bytes(&bytes, &format!("{name}.kiaipack")).unwrap();
    (text, loaded, pack)
}

/// State hashes after 0, 100 and 200 ticks of the Rust decider.
fn hashes(content: &Content) -> Vec<u64> {
    let mut world = content.world(None).unwrap();
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    let mut out = vec![state_hash(&world)];
    for _ in 0..2 {
        for _ in 0..100 {
            pipeline.tick(&mut world, &mut decider);
        }
        out.push(state_hash(&world));
    }
    out
}

#[test]
fn every_demo_pack_builds_the_world_of_its_content() {
    for name in DEMOS {
        let (text, loaded, pack) = both(name);
        assert!(loaded.def().is_none() && text.pack().is_none());
        assert_eq!(loaded.pack(), Some(&pack), "{name}");
        assert_eq!(hashes(&text), hashes(&loaded), "{name}");
        assert_eq!(loaded.seed(), text.seed(), "{name}");
        let archetypes = text.def().unwrap().archetypes.len();
        for i in 0..=archetypes {
            assert_eq!(
                loaded.archetype_profile(i),
                text.archetype_profile(i),
                "{name}"
            );
        }
        // Exporting content loaded from a pack gives that pack; its
        // definitions, names restored, export to it again.
        assert_eq!(loaded.to_pack().unwrap(), pack, "{name}");
        let mut again = Pack::from_def(&loaded.to_def()).unwrap();
        again.scripts.clone_from(&pack.scripts);
        assert_eq!(again, pack, "{name}");
    }
}

#[test]
fn a_pack_brings_its_scripts_and_routes_like_its_content() {
    let (text, loaded, _) = both("guards");
    let (a, b) = (text.scripts(), loaded.scripts());
    assert!(a.len() >= 3, "{a:?}");
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(&b) {
        assert_eq!((a.index, &a.archetype), (b.index, &b.archetype));
        assert_eq!(a.path.file_name(), b.path.file_name());
        assert_eq!(a.bundled, None);
        let on_disk = std::fs::read_to_string(&a.path).unwrap();
        assert_eq!(
            b.bundled.as_deref(),
            Some(on_disk.as_str()),
            "{}",
            b.archetype
        );
    }

    let (text, loaded, _) = both("village");
    let (x, y) = (text.nav().unwrap(), loaded.nav().unwrap());
    assert_eq!(x.cost_list_names(), y.cost_list_names());
    let (gx, gy) = (x.graph.freeze(), y.graph.freeze());
    let mut query = NavQuery::default();
    for list in x.cost_list_names() {
        for (from, to) in [(0, 69), (5, 60), (69, 3)] {
            let mut route = |map: &kiai_content::NavMap, g: &kiai_nav::NavGraph| {
                let filter = PathFilter::new(map.cost_list(list).unwrap());
                let (a, b) = (map.waypoint(from).unwrap(), map.waypoint(to).unwrap());
                let r = g.find_path(a, b, &filter, &mut query).unwrap();
                let ids: Vec<u32> = query
                    .path()
                    .iter()
                    .map(|w| map.content_id(*w).unwrap())
                    .collect();
                (r.cost.to_bits(), ids)
            };
            assert_eq!(route(&x, &gx), route(&y, &gy), "{from} -> {to} {list}");
        }
    }
}

/// Loads `pack` (encoded) as `hostile.kiaipack`: its only diagnostic, as
/// printed; and what `Pack::world` says.
fn refused(pack: &Pack) -> (String, String) {
    let bytes = pack.encode().unwrap();
    let diagnostics = Content::from_pack_bytes(&bytes, "hostile.kiaipack").unwrap_err();
    assert_eq!(diagnostics.0.len(), 1, "{diagnostics}");
    let world = pack.world(None).map(|_| ()).unwrap_err();
    (diagnostics.to_string(), world.to_string())
}

#[test]
fn a_hostile_pack_is_a_diagnostic_at_1_1() {
    let village = both("village").2;
    let arena = both("arena").2;
    let fortress = both("fortress").2;
    let lists = village.cost_lists.len();
    type Mutation = fn(&mut Pack);
    let cases: [(&Pack, Mutation, String); 10] = [
        (
            &village,
            |p| p.links[0].to = 9999,
            "invalid pack: waypoint index 9999 out of range (0..70)".to_owned(),
        ),
        (
            &village,
            |p| p.waypoints[3].pos.1 = f32::NAN,
            "pos must be finite, not NaN".to_owned(),
        ),
        (
            &village,
            |p| p.link_costs[1] = -1.0,
            "a cost multiplier must be 0 or more, not -1".to_owned(),
        ),
        (
            &village,
            |p| {
                p.link_costs.pop();
            },
            format!(
                "invalid pack: {} link costs for {} links and {lists} cost lists",
                village.link_costs.len() - 1,
                village.links.len()
            ),
        ),
        (
            &arena,
            |p| p.archetypes[0].senses[0].shape = ShapeDef::Sphere { radius: -1.0 },
            "radius must be greater than 0, not -1".to_owned(),
        ),
        (
            &arena,
            |p| p.agents[0].faction = 7,
            format!(
                "invalid pack: faction index 7 out of range (0..{})",
                arena.factions.len()
            ),
        ),
        (
            &arena,
            |p| {
                if let Some(fog) = &mut p.fog {
                    fog.tile_size = 1e-6;
                }
            },
            "the grid would exceed 32768 tiles per side; use larger tiles".to_owned(),
        ),
        (
            &fortress,
            |p| p.regions[0].sees = Some(vec![99]),
            format!(
                "invalid pack: region index 99 out of range (0..{})",
                fortress.regions.len()
            ),
        ),
        (
            &fortress,
            |p| p.sounds[0].source = Some(999),
            format!(
                "invalid pack: agent index 999 out of range (0..{})",
                fortress.agents.len()
            ),
        ),
        (
            &fortress,
            |p| p.agents[0].facing = (0.0, 0.0, 0.0),
            "facing must not be zero: it is a direction".to_owned(),
        ),
    ];
    for (pack, mutate, message) in cases {
        let mut hostile = pack.clone();
        mutate(&mut hostile);
        let (diagnostic, world) = refused(&hostile);
        assert_eq!(
            diagnostic,
            format!("hostile.kiaipack:1:1: error: {message}")
        );
        let plain = message.strip_prefix("invalid pack: ").unwrap_or(&message);
        assert_eq!(world, format!("invalid pack: {plain}"));
    }
}

#[test]
fn a_pack_file_is_loaded_by_its_magic_and_named_in_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let (_, _, mut pack) = both("village");
    let good = dir.path().join("village.bin");
    std::fs::write(&good, pack.encode().unwrap()).unwrap();
    assert!(Content::load(&good).unwrap().pack().is_some());
    pack.waypoints[0].pos.0 = f32::INFINITY;
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, pack.encode().unwrap()).unwrap();
    let d = Content::load(&bad).unwrap_err();
    assert_eq!(
        d.to_string(),
        format!("{}:1:1: error: pos must be finite, not inf", bad.display())
    );
}
