//! `docs/format.md` cannot drift from the serde types: every container the
//! content format reaches from `ContentDef` (found by serde reflection, so a
//! new type is found too) must have a `### `Name`` section listing exactly
//! its fields (structs) or its variants and their fields (enums), and every
//! `ron` example of the page must load without errors.

use std::collections::BTreeSet;

use kiai_content::Content;
use kiai_content::def::{
    BodyDef, ContentDef, ControlDef, FalloffFormat, FilterDef, GuidanceDef, MovementDef, RouteDef,
    ShapeFormat, SightDef,
};
use serde::de::{DeserializeSeed, Deserializer};
use serde_reflection::{ContainerFormat, Samples, Tracer, TracerConfig, VariantFormat};

const DOC: &str = include_str!("../../../docs/format.md");

/// The first cell of every table row in the doc's `### `name`` section.
fn documented(name: &str) -> Option<BTreeSet<String>> {
    let heading = format!("### `{name}`");
    let start = DOC.find(&heading)? + heading.len();
    let section = &DOC[start..];
    let section = &section[..section.find("\n#").unwrap_or(section.len())];
    Some(
        section
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split_once("` |").map(|(cell, _)| cell.to_owned()))
            .collect(),
    )
}

/// A seed that reads a runtime type through its serde mirror (the sense
/// shapes are kiai-core's types, read with serde's remote derive), so the
/// tracer sees every variant of the mirror.
macro_rules! mirror_seed {
    ($seed:ident, $mirror:ty, $value:ty) => {
        #[derive(Clone, Copy)]
        struct $seed;
        impl<'de> DeserializeSeed<'de> for $seed {
            type Value = $value;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<$value, D::Error> {
                <$mirror>::deserialize(d)
            }
        }
    };
}
mirror_seed!(ShapeSeed, ShapeFormat, kiai_content::def::ShapeDef);
mirror_seed!(FalloffSeed, FalloffFormat, kiai_content::def::FalloffDef);

/// What the types say the section must list.
fn expected(format: &ContainerFormat) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    match format {
        ContainerFormat::Struct(fields) => {
            out.extend(fields.iter().map(|f| f.name.clone()));
        }
        ContainerFormat::Enum(variants) => {
            for v in variants.values() {
                out.insert(v.name.clone());
                if let VariantFormat::Struct(fields) = &v.value {
                    out.extend(fields.iter().map(|f| format!("{}.{}", v.name, f.name)));
                }
            }
        }
        other => panic!("unexpected container {other:?}: document it and extend this test"),
    }
    out
}

#[test]
fn every_type_field_and_variant_is_documented_and_nothing_else() {
    let mut tracer = Tracer::new(TracerConfig::default());
    tracer
        .trace_simple_type::<ContentDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    // Enums need one trace each so that every variant is seen.
    let samples = Samples::new();
    tracer
        .trace_type_with_seed(&samples, ShapeSeed)
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_simple_type::<FilterDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_simple_type::<MovementDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_simple_type::<BodyDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_simple_type::<SightDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_simple_type::<GuidanceDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_simple_type::<ControlDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_type_with_seed(&samples, FalloffSeed)
        .unwrap_or_else(|e| panic!("{e}"));
    tracer
        .trace_simple_type::<RouteDef>()
        .unwrap_or_else(|e| panic!("{e}"));
    let registry = tracer.registry().unwrap_or_else(|e| panic!("{e}"));
    assert!(registry.len() >= 15, "{registry:?}");
    let mut problems = Vec::new();
    for (name, format) in &registry {
        let want = expected(format);
        match documented(name) {
            None => problems.push(format!("docs/format.md has no section ### `{name}`")),
            Some(have) => {
                for missing in want.difference(&have) {
                    problems.push(format!("`{name}`: `{missing}` is not documented"));
                }
                for stale in have.difference(&want) {
                    problems.push(format!(
                        "`{name}`: `{stale}` is documented but does not exist"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_example_loads_without_errors_or_warnings() {
    let mut n = 0;
    for (i, block) in DOC.split("```ron\n").skip(1).enumerate() {
        let text = &block[..block.find("```").unwrap_or(block.len())];
        match Content::from_str(text, &format!("example {i}")) {
            // A format-1 example warns only that it was migrated.
            Ok(c) => match c.migrated_from {
                None => assert!(c.warnings.is_empty(), "example {i}: {:?}", c.warnings),
                Some(_) => {
                    assert_eq!(c.warnings.len(), 1, "example {i}: {:?}", c.warnings);
                    assert!(c.warnings[0].message.contains("kiai migrate"));
                }
            },
            Err(e) => panic!("example {i}:\n{e}"),
        }
        n += 1;
    }
    assert!(n >= 2);
}
