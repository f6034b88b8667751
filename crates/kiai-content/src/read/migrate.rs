//! Older content format versions and their migration to the newest.
//!
//! Every file names its version in `format`. The loader reads that number
//! first ([`peek_format`]); a file of an older version is parsed with that
//! version's frozen types and migrated step by step to
//! [`FORMAT_VERSION`](crate::FORMAT_VERSION). Diagnostics keep pointing into
//! the original text: migrated values keep their paths (`links[3].costs`).
//!
//! ## Version 1 -> 2
//!
//! A link's `costs` was a positional list, one multiplier per entry of
//! `cost_lists`, in order (`costs: [1.0, 2.5]`): adding a cost list meant
//! editing every link, and a list in the wrong order silently priced
//! vehicles as infantry. Version 2 names them (`costs: {"infantry": 1.0,
//! "vehicle": 2.5}`); lists left out cost 1.0. Everything else is unchanged.
//!
//! [`migrate_text`](crate::migrate::migrate_text) (a layer up: it loads and
//! writes) rewrites a version-1 text in place of only the changed values, so
//! comments and layout survive `kiai migrate`.

use serde::{Deserialize, Serialize};

use crate::format::def::{
    AgentDef, ArchetypeDef, BoundsDef, ContentDef, DEFAULT_COST_LIST, FactionDef, FogDef, LinkDef,
    OrderedMap, ProfileDef, WaypointDef,
};
use crate::format::diag::Diagnostic;
use crate::format::locate::SpanIndex;

/// The frozen types of format version 1 (only the parts that differ from the
/// newest version; the rest is shared).
pub mod v1 {
    use super::*;

    // Fields holding their default are not serialised, as in the newest
    // version: the writer compares a format-1 file's values with the
    // migrated ones and must see the same fields left out.

    /// A whole version-1 content file.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields, rename = "ContentDef")]
    pub struct ContentDefV1 {
        /// Format version, 1.
        pub format: u32,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        pub name: String,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "is_zero_u64")]
        pub seed: u64,
        /// As in the newest version.
        #[serde(
            default = "default_tick_seconds",
            skip_serializing_if = "is_default_tick_seconds"
        )]
        pub tick_seconds: f32,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub bounds: Option<BoundsDef>,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub factions: Vec<FactionDef>,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub cost_lists: Vec<String>,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub waypoints: Vec<WaypointDef>,
        /// Links with positional costs.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub links: Vec<LinkDefV1>,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub fog: Option<FogDef>,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
        pub profiles: OrderedMap<ProfileDef>,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
        pub archetypes: OrderedMap<ArchetypeDef>,
        /// As in the newest version.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub agents: Vec<AgentDef>,
    }

    fn default_tick_seconds() -> f32 {
        0.1
    }

    fn is_default_tick_seconds(v: &f32) -> bool {
        v.to_bits() == default_tick_seconds().to_bits()
    }

    fn is_zero_u64(v: &u64) -> bool {
        *v == 0
    }

    /// A version-1 link: costs by position in `cost_lists`.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields, rename = "LinkDef")]
    pub struct LinkDefV1 {
        /// Waypoint id the link leaves.
        pub from: u32,
        /// Waypoint id the link enters.
        pub to: u32,
        /// One multiplier per cost list, in `cost_lists` order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub costs: Vec<f32>,
        /// Also add the link `to -> from`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub two_way: bool,
    }
}

/// One thing a migration changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Path of the value in the file (`links[3].costs`).
    pub path: String,
    /// What it was and what it became.
    pub message: String,
}

/// A migration problem: the old file cannot be expressed in the new format
/// (it was already invalid in the old one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigrationError {
    /// Path of the value in the file.
    pub path: String,
    /// One line saying what is wrong.
    pub message: String,
}

/// The result of migrating a parsed version-1 file.
#[derive(Clone, Debug)]
pub struct Migrated {
    /// The content in the newest format.
    pub def: ContentDef,
    /// What changed, in file order.
    pub changes: Vec<Change>,
    /// Problems found on the way (reported as errors with their positions).
    pub errors: Vec<MigrationError>,
}

/// Migrates version-1 definitions to the newest version.
pub fn migrate_v1(old: v1::ContentDefV1) -> Migrated {
    let mut changes = vec![Change {
        path: "format".to_owned(),
        message: format!("format 1 -> {}", crate::format::def::FORMAT_VERSION),
    }];
    let mut errors = Vec::new();
    let names: Vec<String> = if old.cost_lists.is_empty() {
        vec![DEFAULT_COST_LIST.to_owned()]
    } else {
        old.cost_lists.clone()
    };
    let links = old
        .links
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            let path = format!("links[{i}].costs");
            if !l.costs.is_empty() && l.costs.len() != names.len() {
                let lists = names.len();
                errors.push(MigrationError {
                    path: path.clone(),
                    message: format!(
                        "{} costs given but there {} {lists} cost list{} ({}); give one per list, in order",
                        l.costs.len(),
                        if lists == 1 { "is" } else { "are" },
                        if lists == 1 { "" } else { "s" },
                        if old.cost_lists.is_empty() {
                            "the implicit `default`".to_owned()
                        } else {
                            old.cost_lists.join(", ")
                        }
                    ),
                });
            }
            let costs = OrderedMap(
                names
                    .iter()
                    .zip(&l.costs)
                    .map(|(n, c)| (n.clone(), *c))
                    .collect(),
            );
            if !l.costs.is_empty() {
                changes.push(Change {
                    message: format!("{} -> {}", list_text(&l.costs), map_text(&costs)),
                    path,
                });
            }
            LinkDef {
                from: l.from,
                to: l.to,
                costs,
                two_way: l.two_way,
            }
        })
        .collect();
    Migrated {
        def: ContentDef {
            format: crate::format::def::FORMAT_VERSION,
            name: old.name,
            seed: old.seed,
            tick_seconds: old.tick_seconds,
            bounds: old.bounds,
            factions: old.factions,
            cost_lists: old.cost_lists,
            waypoints: old.waypoints,
            links,
            fog: old.fog,
            profiles: old.profiles,
            archetypes: old.archetypes,
            agents: old.agents,
            walls: Vec::new(),
            regions: Vec::new(),
            sounds: Vec::new(),
            perception_budget: None,
            nav: Default::default(),
            navgen: None,
            interest: Vec::new(),
        },
        changes,
        errors,
    }
}

fn number(v: f32) -> String {
    format!("{v:?}")
}

fn list_text(costs: &[f32]) -> String {
    let items: Vec<String> = costs.iter().map(|c| number(*c)).collect();
    format!("[{}]", items.join(", "))
}

fn map_text(costs: &OrderedMap<f32>) -> String {
    let items: Vec<String> = costs
        .iter()
        .map(|(k, v)| format!("{k:?}: {}", number(*v)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// The value of the top-level `format` field, when the text has one written
/// as a plain integer. Linear, allocation-free, never panics; used to pick
/// the version's types before parsing.
pub fn peek_format(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let mut i = 0usize;
    let mut depth = 0usize;
    // Whether the next identifier at depth 1 starts a field.
    let mut field_start = false;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut nest = 1usize;
                i += 2;
                while i < b.len() && nest > 0 {
                    if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        nest -= 1;
                        i += 2;
                    } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        nest += 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                field_start = false;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                field_start = depth == 1 && b[i] == b'(';
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                field_start = false;
            }
            b',' => field_start = depth == 1,
            c if c.is_ascii_whitespace() => {}
            c if depth == 1 && field_start && (c.is_ascii_alphabetic() || c == b'_') => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                field_start = false;
                if &b[start..i] == b"format" {
                    let mut j = i;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if b.get(j) != Some(&b':') {
                        continue;
                    }
                    j += 1;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let digits = j;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    return text.get(digits..j)?.parse().ok();
                }
                continue;
            }
            _ => field_start = false,
        }
        i += 1;
    }
    None
}

/// Turns migration errors into diagnostics at their places in `spans`' text.
pub(crate) fn diagnostics(
    errors: &[MigrationError],
    spans: &SpanIndex,
    file: &str,
) -> Vec<Diagnostic> {
    errors
        .iter()
        .map(|e| Diagnostic::error(file, spans.pos(&e.path), e.message.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peeks_the_top_level_format_only() {
        assert_eq!(peek_format("(format: 1)"), Some(1));
        assert_eq!(
            peek_format("( // format: 9\n name: \"format: 3\", format : 2 )"),
            Some(2)
        );
        assert_eq!(peek_format("(a: (format: 5), format: 7)"), Some(7));
        assert_eq!(peek_format("(a: (format: 5))"), None);
        assert_eq!(peek_format("(format: x)"), None);
        assert_eq!(peek_format(""), None);
        assert_eq!(peek_format("\"(format: 1"), None);
    }
}
