//! Defaults of the content types that packs also encode.
//!
//! Packs encode `FogDef`, `ProfileDef`, `SenseDef`, `MovementDef`, `WallDef`, `AvoidanceDef`,
//! `LodTierDef` and the types inside them with postcard, which needs every
//! field, so those types cannot skip their defaults when serialising (`skip_serializing_if`).
//! The text writer leaves them out here instead: a field is left out when
//! its value is the one serde's own `default` gives it, read by parsing the
//! smallest text of each type (so a default changed in `def.rs` is followed
//! here without a change).

use std::sync::OnceLock;

use serde::de::DeserializeOwned;

use serde::{Deserialize, Serialize};

use super::node::{Field, Node, NodeError};
use crate::format::def::{
    AvoidanceDef, FogDef, LearningDef, LodTierDef, MovementDef, ProfileDef, SenseDef, ShapeDef,
    ShapeFormat, WallDef,
};
use crate::format::locate::{Key, SynKind, syntax};

/// A sense shape on its own, read and written as content writes it (the
/// runtime type has no serde traits of its own).
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
struct Shape(#[serde(with = "ShapeFormat")] ShapeDef);

/// The fields of one type (or variant) that hold their default in `fields`.
struct Defaults {
    ty: &'static str,
    variant: Option<&'static str>,
    /// Only the fields the smallest text leaves out, with their defaults.
    fields: Vec<Field>,
}

/// The smallest text of each type whose defaults are not skipped by serde.
fn table() -> &'static [Defaults] {
    static TABLE: OnceLock<Vec<Defaults>> = OnceLock::new();
    TABLE.get_or_init(|| {
        [
            smallest::<ProfileDef>("()"),
            smallest::<LearningDef>("(rate: 1.0)"),
            smallest::<SenseDef>("(name: \"\", shape: Sphere(radius: 1.0))"),
            smallest::<FogDef>("(tile_size: 1.0)"),
            smallest::<Shape>("Hearing(threshold: 1.0)"),
            smallest::<MovementDef>(
                "Walker(min_speed: 0.0, max_speed: 0.0, direction_change_factor: 0)",
            ),
            smallest::<MovementDef>("Missile(speed: 0.0, turn_rate_deg: 1.0)"),
            smallest::<MovementDef>("WaypointWalker(speed: 0.0)"),
            smallest::<WallDef>("(from: (0.0, 0.0), to: (0.0, 0.0), height: 0.0)"),
            smallest::<AvoidanceDef>("()"),
            smallest::<LodTierDef>("(every: 1)"),
        ]
        .into_iter()
        .flatten()
        .collect()
    })
}

/// The defaults of `T` from its smallest text: the fields the text does
/// not give.
fn smallest<T: DeserializeOwned + serde::Serialize>(text: &str) -> Option<Defaults> {
    let value: T = crate::read::parse::parse_as(text, "defaults").ok()?;
    let Node::Struct { ty, name, fields } = Node::of_all(&value).ok()? else {
        return None;
    };
    let tree = syntax(text);
    let given: Vec<&str> = match &tree.kind {
        SynKind::Group(g) => g
            .entries
            .iter()
            .filter_map(|e| match e.key {
                Key::Field(a, b) => text.get(a..b),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some(Defaults {
        ty,
        variant: name,
        fields: fields
            .into_iter()
            .filter(|f| !given.contains(&f.name))
            .collect(),
    })
}

impl Node {
    /// The tree of `value`, without the fields that hold their default.
    pub(crate) fn of<T: Serialize + ?Sized>(value: &T) -> Result<Node, NodeError> {
        let mut node = Node::of_all(value)?;
        leave_out(&mut node);
        Ok(node)
    }
}

/// Marks every field of `node` (at any depth) that holds its type's
/// default as left out.
fn leave_out(node: &mut Node) {
    match node {
        Node::Struct { ty, name, fields } => {
            let defaults = table().iter().find(|d| d.ty == *ty && d.variant == *name);
            for f in fields.iter_mut() {
                if let Some(v) = &mut f.value {
                    leave_out(v);
                }
                if let Some(d) = defaults
                    && d.fields
                        .iter()
                        .any(|x| x.name == f.name && x.value == f.value)
                {
                    f.value = None;
                }
            }
        }
        Node::Some(inner) => leave_out(inner),
        Node::Tuple { items, .. } | Node::Seq(items) => items.iter_mut().for_each(leave_out),
        Node::Map(entries) => entries.iter_mut().for_each(|(_, v)| leave_out(v)),
        Node::Atom(_) | Node::Raw(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_packs_encode_has_its_defaults() {
        let found: Vec<(&str, Option<&str>, usize)> = table()
            .iter()
            .map(|d| (d.ty, d.variant, d.fields.len()))
            .collect();
        assert_eq!(
            found,
            [
                ("ProfileDef", None, 6),
                ("LearningDef", None, 3),
                ("SenseDef", None, 4),
                ("FogDef", None, 3),
                ("ShapeDef", Some("Hearing"), 1),
                ("MovementDef", Some("Walker"), 1),
                ("MovementDef", Some("Missile"), 4),
                ("MovementDef", Some("WaypointWalker"), 4),
                ("WallDef", None, 3),
                ("AvoidanceDef", None, 4),
                ("LodTierDef", None, 2),
            ]
        );
    }
}
