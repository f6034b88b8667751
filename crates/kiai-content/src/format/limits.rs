//! Resource limits on content: counts per section, so that a hostile or
//! broken file gets a clear error instead of exhausting memory or time
//! later. File size and nesting depth are checked before parsing
//! ([`MAX_FILE_BYTES`], [`MAX_NESTING`]).

use super::def::ContentDef;
use super::diag::Diagnostic;
use super::locate::SpanIndex;

/// Largest content file read, in bytes (64 MiB).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Deepest nesting accepted, in brackets; deeper text is an error, never a
/// stack overflow.
pub const MAX_NESTING: usize = 64;

/// Most waypoints in one file.
pub const MAX_WAYPOINTS: usize = 1_000_000;
/// Most links in one file (a two-way link counts once).
pub const MAX_LINKS: usize = 4_000_000;
/// Most agents in one file.
pub const MAX_AGENTS: usize = 1_000_000;
/// Most archetypes in one file (the runtime indexes them with 16 bits).
pub const MAX_ARCHETYPES: usize = 4096;
/// Most senses of one archetype.
pub const MAX_SENSES: usize = 64;
/// Most behaviour profiles in one file.
pub const MAX_PROFILES: usize = 4096;
/// Most movement-cost lists in one file.
pub const MAX_COST_LISTS: usize = 256;
/// Most blocking fog tiles in one file.
pub const MAX_BLOCKING_TILES: usize = 4_000_000;
/// Longest name (of anything) and tag, in bytes.
pub const MAX_NAME_BYTES: usize = 1024;

/// Checks every count limit; an empty result means all are kept.
pub fn check(def: &ContentDef, spans: &SpanIndex, file: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut count = |path: &str, what: &str, n: usize, max: usize| {
        if n > max {
            out.push(Diagnostic::error(
                file,
                spans.pos(&format!("{path}[{max}]")),
                format!("{n} {what}; at most {max} are allowed"),
            ));
        }
    };
    count("waypoints", "waypoints", def.waypoints.len(), MAX_WAYPOINTS);
    count("links", "links", def.links.len(), MAX_LINKS);
    count("agents", "agents", def.agents.len(), MAX_AGENTS);
    count(
        "cost_lists",
        "cost lists",
        def.cost_lists.len(),
        MAX_COST_LISTS,
    );
    if let Some(fog) = &def.fog {
        count(
            "fog.blocking",
            "blocking tiles",
            fog.blocking.len(),
            MAX_BLOCKING_TILES,
        );
    }
    let mut entries = |path: &str, what: &str, n: usize, max: usize| {
        if n > max {
            out.push(Diagnostic::error(
                file,
                spans.pos(&format!("{path}{{{max}}}")),
                format!("{n} {what}; at most {max} are allowed"),
            ));
        }
    };
    entries(
        "archetypes",
        "archetypes",
        def.archetypes.len(),
        MAX_ARCHETYPES,
    );
    entries("profiles", "profiles", def.profiles.len(), MAX_PROFILES);
    for (i, (_, a)) in def.archetypes.0.iter().enumerate() {
        if a.senses.len() > MAX_SENSES {
            out.push(Diagnostic::error(
                file,
                spans.pos(&format!("archetypes{{{i}}}.senses[{MAX_SENSES}]")),
                format!(
                    "{} senses; at most {MAX_SENSES} per archetype are allowed",
                    a.senses.len()
                ),
            ));
        }
    }
    let mut name = |text: &str, path: &dyn Fn() -> String| {
        if text.len() > MAX_NAME_BYTES {
            out.push(Diagnostic::error(
                file,
                spans.pos(&path()),
                format!(
                    "name is {} bytes long; at most {MAX_NAME_BYTES} are allowed",
                    text.len()
                ),
            ));
        }
    };
    name(&def.name, &|| "name".to_owned());
    for (i, f) in def.factions.iter().enumerate() {
        name(&f.name, &|| format!("factions[{i}].name"));
    }
    for (i, n) in def.cost_lists.iter().enumerate() {
        name(n, &|| format!("cost_lists[{i}]"));
    }
    for (i, (n, a)) in def.archetypes.0.iter().enumerate() {
        name(n, &|| format!("archetypes{{{i}}}"));
        for (j, s) in a.senses.iter().enumerate() {
            name(&s.name, &|| format!("archetypes{{{i}}}.senses[{j}].name"));
        }
    }
    for (i, (n, _)) in def.profiles.0.iter().enumerate() {
        name(n, &|| format!("profiles{{{i}}}"));
    }
    for (i, a) in def.agents.iter().enumerate() {
        name(&a.name, &|| format!("agents[{i}].name"));
    }
    for (i, w) in def.waypoints.iter().enumerate() {
        if let Some(n) = &w.name {
            name(n, &|| format!("waypoints[{i}].name"));
        }
        for (j, t) in w.tags.iter().enumerate() {
            name(t, &|| format!("waypoints[{i}].tags[{j}]"));
        }
    }
    out
}
