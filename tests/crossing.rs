//! The crossing demo (content/demo/crossing.ron): two groups of 100 agents
//! swap sides through a doorway three agents wide. With avoidance every
//! agent is across within [`LIMIT`] ticks and bodies barely overlap;
//! without it they walk through each other. docs/movement.md quotes the
//! figures these tests print.

use kiai::content::Content;
use kiai::core::{DefaultDecider, Pipeline};

/// Ticks the demo documents for everyone to be across (0.1 s each).
const LIMIT: u64 = 2000;

/// Agent radius in the demo, world units.
const RADIUS: f32 = 0.5;

/// What one run of the crossing showed.
struct Outcome {
    /// Tick each agent first stood on the far side, by slot.
    across: Vec<Option<u64>>,
    /// Agent-ticks (sampled every tick) whose deepest overlap with another
    /// agent exceeds 10% of the radii, and all agent-ticks sampled.
    overlapping: (usize, usize),
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn demo() -> Result<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../content/demo/crossing.ron"
    );
    Ok(std::fs::read_to_string(path)?)
}

fn run(text: &str) -> Result<Outcome> {
    let content = Content::from_str(text, "crossing.ron")?;
    let mut world = content.world(None)?;
    let names: Vec<String> = world.agents().names().to_vec();
    let mut across = vec![None; names.len()];
    let mut overlapping = (0, 0);
    let (mut pipeline, mut decider) = (Pipeline::new(), DefaultDecider::default());
    for _ in 0..LIMIT {
        pipeline.tick(&mut world, &mut decider);
        let positions = world.agents().positions();
        for (slot, name) in names.iter().enumerate() {
            let x = positions[slot].x;
            let far = if name.starts_with("west") {
                x > 32.0
            } else {
                x < -2.0
            };
            if far && across[slot].is_none() {
                across[slot] = Some(world.tick());
            }
            let deepest = positions
                .iter()
                .enumerate()
                .filter(|&(other, _)| other != slot)
                .map(|(_, p)| {
                    2.0 * RADIUS - (p.x - positions[slot].x).hypot(p.z - positions[slot].z)
                })
                .fold(f32::MIN, f32::max);
            overlapping.1 += 1;
            if deepest > 0.1 * 2.0 * RADIUS {
                overlapping.0 += 1;
            }
        }
        if across.iter().all(Option::is_some) {
            break;
        }
    }
    Ok(Outcome {
        across,
        overlapping,
    })
}

fn report(label: &str, outcome: &Outcome) {
    let mut ticks: Vec<u64> = outcome.across.iter().flatten().copied().collect();
    ticks.sort_unstable();
    let (over, all) = outcome.overlapping;
    println!(
        "{label}: {} of {} across, last at tick {:?}, median {:?}; \
         {over} of {all} agent-ticks overlap by more than 10% ({:.2}%)",
        ticks.len(),
        outcome.across.len(),
        ticks.last(),
        ticks.get(ticks.len() / 2),
        100.0 * over as f64 / all.max(1) as f64,
    );
}

#[test]
fn everyone_crosses_within_the_limit_and_bodies_stay_apart() -> Result<()> {
    let outcome = run(&demo()?)?;
    report("avoidance", &outcome);
    assert_eq!(outcome.across.len(), 200);
    let stuck: Vec<usize> = (0..200).filter(|&s| outcome.across[s].is_none()).collect();
    assert!(
        stuck.is_empty(),
        "slots not across after {LIMIT} ticks: {stuck:?}"
    );
    let (over, all) = outcome.overlapping;
    // The doorway is a crush (1.8% of agent-ticks measured); without
    // avoidance it is 60%, see the other test.
    assert!(
        over * 20 < all,
        "{over} of {all} agent-ticks overlap by more than 10% of the radii"
    );
    Ok(())
}

#[test]
fn without_avoidance_agents_walk_through_each_other() -> Result<()> {
    let text: String = demo()?
        .lines()
        .filter(|line| !line.trim_start().starts_with("avoidance:"))
        .map(|line| format!("{line}\n"))
        .collect();
    let without = run(&text)?;
    report("no avoidance", &without);
    let (over, all) = without.overlapping;
    assert!(
        over * 10 > all,
        "without avoidance only {over} of {all} agent-ticks overlap"
    );
    Ok(())
}
