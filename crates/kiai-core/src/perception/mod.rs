//! Perception, the sense stage: which agents each agent's senses notice
//! this tick.
//!
//! An archetype carries any number of named [`Sense`]s. The sense stage
//! buckets agents into a uniform grid on X-Z (the data layer's `agent_grid.rs`), gathers the
//! candidates within each agent's largest [`Shape::reach`]
//! (`neighbourhood.rs`), and tests every sense exactly: shape and faction
//! filter as bit masks over the neighbourhood (`kernels.rs`), then for
//! `occluded` senses the potentially visible set ([`pvs`]) and a ray against
//! the walls ([`occlusion`]). A sense that saw a target last tick keeps it
//! out to its `lose_range` (hysteresis). Hearing senses hear this tick's
//! sounds ([`hearing`]) and report who made them; messages are delivered
//! (`inbox.rs`). The result, [`Percepts`], is a list of agent ids per agent
//! and sense, sorted ascending (`sort.rs`), plus what each agent heard, its
//! messages, and the events (gained, lost, heard, message) since the last
//! tick (`events.rs`); memory is refreshed afterwards (`memory.rs`). An
//! agent never senses itself.
//!
//! `stage.rs` runs the stage: it works through the agents in cell order in
//! fixed chunks, each scanned in parallel (`scan.rs`) into its own buffers,
//! so the result is identical at any thread count. With a
//! [`PerceptionBudget`] a counting scan comes first and the rays are shared
//! out in agent order (`budget.rs`).
//!
//! The types the stage reads and writes live in the data layer and are
//! re-exported here.

mod budget;
mod events;
mod held;
mod inbox;
mod kernels;
mod memory;
mod neighbourhood;
mod scan;
mod sort;
mod stage;

pub(crate) use stage::{SenseScratch, run};

pub use crate::data::budget::{PerceptionBudget, RayCursor};
pub use crate::data::hearing;
pub use crate::data::message::{Message, Recipient};
pub use crate::data::occluders::Occluders;
pub use crate::data::percepts::{MemoryEntry, Percepts};
pub use crate::data::pvs;
pub use crate::data::sense::{Sense, SenseFilter};
pub use crate::data::shape::{CompiledShape, SenseKind, Shape, half_angle_cos};
pub use crate::data::walls as occlusion;
