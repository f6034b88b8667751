//! The scene: factions and the agents placed in them.

use serde::{Deserialize, Serialize};

use super::*;

/// A faction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactionDef {
    /// Unique name.
    pub name: String,
    /// Names of the factions this one is hostile to (one direction).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hostile: Vec<String>,
}

/// One agent of the scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentDef {
    /// Unique name.
    pub name: String,
    /// Name of its archetype.
    pub archetype: String,
    /// Name of its faction.
    pub faction: String,
    /// Position, world units.
    pub pos: Vec3Def,
    /// Facing, any non-zero length (default +X).
    #[serde(default = "default_facing", skip_serializing_if = "is_default_facing")]
    pub facing: Vec3Def,
    /// Where the agent goes when it has nothing to chase or evade (its
    /// standing goal), world units; default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Vec3Def>,
    /// Whether the agent is a point of interest wherever it stands (the
    /// player): agents of archetypes with `lod` tiers near it think more
    /// often. Default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub interest: bool,
}

fn default_facing() -> Vec3Def {
    (1.0, 0.0, 0.0)
}

fn is_default_facing(v: &Vec3Def) -> bool {
    let d = default_facing();
    same_bits(v.0, d.0) && same_bits(v.1, d.1) && same_bits(v.2, d.2)
}
