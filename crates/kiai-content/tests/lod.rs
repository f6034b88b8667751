//! Tick level of detail in content: `lod` tiers as the issue writes them,
//! `interest` agents and points, their checks at `file:line:col`, packs
//! (version 7, and version 6 packs still loading), the text writer and the
//! events that move the points of interest.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;

use kiai_content::events::Schedule;
use kiai_content::pack::{OLDEST_PACK_VERSION, PACK_VERSION};
use kiai_content::{Content, Pack, to_ron, to_ron_preserving};
use kiai_core::glam::Vec3;
use kiai_core::{DefaultDecider, LodTier, Pipeline, state_hash};

fn example() -> (String, Content) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/examples/lod.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let content = Content::from_str(&text, "lod.ron").unwrap();
    (text, content)
}

/// The smallest scene with one archetype of tiers `lod` (RON text).
fn scene(lod: &str) -> String {
    format!(
        r#"(
    format: 2,
    factions: [(name: "f")],
    archetypes: {{
        "a": (
            lod: {lod},
        ),
    }},
    agents: [(name: "x", archetype: "a", faction: "f", pos: (0.0, 0.0, 0.0))],
)
"#
    )
}

fn errors(text: &str) -> Vec<String> {
    match Content::from_str(text, "t.ron") {
        Ok(_) => Vec::new(),
        Err(d) => d.0.iter().map(|d| d.to_string()).collect(),
    }
}

#[test]
fn the_issues_syntax_builds_tiers_and_points_of_interest() {
    let (_, content) = example();
    let world = content.world(None).unwrap();
    let townsfolk = world
        .archetypes()
        .iter()
        .find(|a| a.name == "townsfolk")
        .unwrap();
    let mut far = LodTier::new(None, 16);
    far.avoidance = false;
    assert_eq!(
        townsfolk.lod,
        [
            LodTier::new(Some(50.0), 1),
            LodTier::new(Some(150.0), 4),
            far
        ]
    );
    let player = world.agents().find("player").unwrap();
    assert_eq!(world.interest_agents(), [player]);
    assert_eq!(world.interest_points(), [Vec3::new(-250.0, 0.0, 250.0)]);
    assert!(world.lod_active());
}

#[test]
fn bad_tiers_are_errors_at_their_field() {
    let text = scene("[(within: 50.0, every: 0), (every: 4), (within: 20.0, every: 2000)]");
    assert_eq!(
        errors(&text),
        [
            "t.ron:6:41: error: every must be 1 to 1024 ticks, not 0",
            "t.ron:6:45: error: only the last lod tier may leave out `within`; give tier 1 a `within` distance",
            "t.ron:6:66: error: within (20) must be larger than the tier before's (50): tiers go from near to far",
            "t.ron:6:79: error: every must be 1 to 1024 ticks, not 2000",
        ]
    );
    let text = scene("[(within: -1.0, every: 1)]");
    assert_eq!(
        errors(&text),
        ["t.ron:6:28: error: within must be greater than 0, not -1"]
    );
    let many: Vec<String> = (1..=17)
        .map(|k| format!("(within: {k}.0, every: 1)"))
        .collect();
    let text = scene(&format!("[{}]", many.join(", ")));
    let found = errors(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].ends_with("error: at most 16 lod tiers, not 17; merge tiers"),
        "{found:?}"
    );
    let text = scene("[]").replace(
        "pos: (0.0, 0.0, 0.0))],",
        "pos: (0.0, 0.0, 0.0))],\n    interest: [(1.0, NaN, 0.0)],",
    );
    assert_eq!(
        errors(&text),
        ["t.ron:10:22: error: a point of interest must be finite, not NaN"]
    );
}

#[test]
fn packs_carry_tiers_and_interest_and_build_the_same_world() {
    let (_, content) = example();
    let pack = content.to_pack().unwrap();
    let bytes = pack.encode().unwrap();
    assert_eq!(bytes[8..12], PACK_VERSION.to_le_bytes());
    let loaded = Content::from_pack_bytes(&bytes, "lod.kpack").unwrap();
    let (a, b) = (loaded.to_def().into_owned(), content.to_def().into_owned());
    assert_eq!(
        (a.archetypes, a.agents, a.interest),
        (b.archetypes, b.agents, b.interest)
    );
    let run = |c: &Content| {
        let mut world = c.world(None).unwrap();
        let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
        for _ in 0..40 {
            pipeline.tick(&mut world, &mut decider);
        }
        (state_hash(&world), world.lod_counts().to_vec())
    };
    let (a, b) = (run(&content), run(&loaded));
    assert_eq!(a, b);
    assert_eq!(a.1.iter().sum::<usize>(), 10);
}

#[test]
fn version_6_packs_still_load_without_level_of_detail() {
    let (_, content) = example();
    let mut pack = content.to_pack().unwrap();
    pack.lod = Default::default();
    let v7 = pack.encode().unwrap();
    // A version 6 pack is the same body without the section at its end
    // (three empty lists: three zero bytes).
    assert_eq!(v7[v7.len() - 3..], [0, 0, 0]);
    let body = &v7[32..v7.len() - 3];
    let mut v6 = v7[..32].to_vec();
    v6[8..12].copy_from_slice(&OLDEST_PACK_VERSION.to_le_bytes());
    v6[16..24].copy_from_slice(&(body.len() as u64).to_le_bytes());
    v6[24..32].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(body).to_le_bytes());
    v6.extend_from_slice(body);
    assert_eq!(Pack::decode(&v6).unwrap(), pack);
    let mut v5 = v6.clone();
    v5[8..12].copy_from_slice(&5u32.to_le_bytes());
    assert_eq!(
        Pack::decode(&v5).unwrap_err().to_string(),
        "pack version 5 is not supported; this kiai reads versions 6 to 7: export it again with `kiai export`"
    );
}

#[test]
fn the_writer_writes_tiers_as_the_issue_does() {
    let (text, content) = example();
    let mut def = content.into_def();
    let written = to_ron(&def).unwrap();
    assert!(
        written.contains("\n                (within: 150.0, every: 4),\n                (every: 16, avoidance: false),\n"),
        "{written}"
    );
    assert!(
        written.contains("lod: [(within: 60.0, every: 1), (every: 8)],"),
        "{written}"
    );
    assert!(written.contains("interest: true"), "{written}");
    def.archetypes.0[2].1.lod[1].every = 4;
    def.archetypes.0[2].1.lod.insert(
        1,
        kiai_content::def::LodTierDef {
            within: Some(120.0),
            every: 2,
            avoidance: true,
        },
    );
    let out = to_ron_preserving(&text, &def).unwrap();
    let changed: Vec<&str> = out
        .text
        .lines()
        .zip(text.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a)
        .collect();
    assert_eq!(
        changed,
        ["            lod: [(within: 60.0, every: 1), (within: 120.0, every: 2), (every: 4)],"]
    );
}

#[test]
fn events_set_the_points_of_interest() {
    let (_, content) = example();
    let events = r#"(events: [
    (tick: 2, do: Interest(points: [(5.0, 0.0, 5.0), (9.0, 0.0, 9.0)])),
    (tick: 3, do: InterestAgent(agent: "baker")),
    (tick: 4, do: InterestAgent(agent: "player", on: false)),
])"#;
    let mut schedule = Schedule::from_str(events, "e.ron", &content).unwrap();
    let mut world = content.world(None).unwrap();
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    let id = |name: &str| world.agents().find(name).unwrap();
    let (player, baker) = (id("player"), id("baker"));
    for _ in 0..5 {
        assert!(schedule.apply_due(&mut world).is_empty());
        pipeline.tick(&mut world, &mut decider);
    }
    assert!(schedule.apply_due(&mut world).is_empty());
    assert_eq!(
        world.interest_points(),
        [Vec3::new(5.0, 0.0, 5.0), Vec3::new(9.0, 0.0, 9.0)]
    );
    assert_eq!(world.interest_agents(), [baker]);
    assert_ne!(player, baker);

    let bad = r#"(events: [
    (tick: 1, do: InterestAgent(agent: "bakr")),
    (tick: 1, do: Interest(points: [(0.0, inf, 0.0)])),
])"#;
    let e = Schedule::from_str(bad, "e.ron", &content).unwrap_err();
    let lines: Vec<String> = e.0.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        lines,
        [
            "e.ron:2:40: error: no agent `bakr` is in the world at tick 1; did you mean `baker`?",
            "e.ron:3:37: error: points[0] must be finite, not [0, inf, 0]",
        ]
    );
}
