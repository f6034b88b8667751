//! Embedding kiai in a game loop: load content, tick at a fixed step, read
//! positions and senses.
//!
//! ```text
//! cargo run -p kiai --example embed -- content/demo/arena.ron
//! ```

use kiai::content::Content;
use kiai::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "content/demo/arena.ron".to_owned());
    // Content errors come back as `file:line:col: error: message` lines.
    let content = Content::load(path.as_ref())?;
    let mut world = content.world(None)?;
    let mut pipeline = Pipeline::new();

    // A classic fixed-step loop: the game renders at its own frame rate and
    // the AI advances in `tick_seconds` steps, so results never depend on the
    // frame rate. A real game adds its measured frame time; this example
    // pretends to run at 60 frames per second so its output is reproducible.
    let step = f64::from(world.config().tick_seconds);
    let frame_time = 1.0 / 60.0;
    let mut accumulator = 0.0;
    for frame in 0..240 {
        accumulator += frame_time;
        while accumulator >= step {
            pipeline.tick(&mut world, &mut DefaultDecider::default());
            accumulator -= step;
        }

        if frame % 60 == 0 {
            let agents = world.agents();
            let first = AgentId::from_index(0);
            let pos = agents.positions()[first.index()];
            println!(
                "tick {:>4}: {} at ({:6.2}, {:6.2}) is {:?}",
                world.tick(),
                agents.names()[first.index()],
                pos.x,
                pos.z,
                agents.state(first).unwrap_or_default()
            );
            for (sense, sensed) in ["radar", "eyes"]
                .iter()
                .filter_map(|s| Some((*s, world.sensed_by_name(first, s)?)))
            {
                let names: Vec<&str> = sensed
                    .iter()
                    .map(|a| agents.names()[a.index()].as_str())
                    .collect();
                println!("           {sense}: {names:?}");
            }
        }
    }
    println!(
        "{} agents after {} ticks, state hash {:016x}",
        world.agents().len(),
        world.tick(),
        state_hash(&world)
    );
    Ok(())
}
