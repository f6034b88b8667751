//! The assignments between two contents: [`diff`] gives the `PATH=VALUE`
//! lines that [`set`](super::set) turns the first into the second with,
//! so a tool that edits content as a whole (the editor) can hand its
//! changes to one that takes assignments (`kiai fork --set`).

use super::{ValuePath, unquote};
use crate::format::def::ContentDef;
use crate::write::{Field, Node, inline};

/// The `PATH=VALUE` assignments that turn `old` into `new` when applied
/// in order with [`set`](super::set): one per value that differs, as deep
/// as both keep the same shape. Where the shape changed (items added,
/// removed or renamed, a variant switched, a field back at its default)
/// the nearest enclosing value is assigned whole. Empty when the two are
/// equal.
///
/// ```
/// use kiai_content::value_path::diff;
///
/// let old = kiai_content::parse(
///     r#"(format: 2, archetypes: {"guard": (senses: [
///         (name: "eyes", shape: Cone(range: 18.0, fov_deg: 110.0)),
///     ])})"#,
///     "level.ron",
/// )?;
/// let mut new = old.clone();
/// let eyes = &mut new.archetypes.0[0].1.senses[0];
/// eyes.shape = kiai_content::def::ShapeDef::Cone { range: 40.0, fov_deg: 110.0 };
/// eyes.memory_ticks = 20;
/// assert_eq!(
///     diff(&old, &new)?,
///     [
///         "archetypes.guard.senses.eyes.shape.range=40.0",
///         "archetypes.guard.senses.eyes.memory_ticks=20",
///     ]
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn diff(old: &ContentDef, new: &ContentDef) -> Result<Vec<String>, super::PathError> {
    let mut out = Vec::new();
    // Every field named once: the pattern stops compiling when a field is
    // added to `ContentDef` and not here.
    macro_rules! fields {
        ($($f:ident),*) => {
            let ContentDef { format: _, $($f),* } = old;
            $(
                if *$f != new.$f {
                    section(stringify!($f), $f, &new.$f, &mut out)?;
                }
            )*
        };
    }
    fields!(
        name,
        seed,
        tick_seconds,
        bounds,
        factions,
        cost_lists,
        waypoints,
        links,
        walls,
        regions,
        sounds,
        fog,
        perception_budget,
        nav,
        navgen,
        profiles,
        archetypes,
        agents,
        interest
    );
    Ok(out)
}

/// The assignments within the top-level field `name`.
fn section<T: serde::Serialize>(
    name: &str,
    old: &T,
    new: &T,
    out: &mut Vec<String>,
) -> Result<(), super::PathError> {
    let error = |e: &dyn std::fmt::Display| super::PathError {
        path: name.to_owned(),
        message: e.to_string(),
    };
    let (a, b) = (
        Node::of(old).map_err(|e| error(&e))?,
        Node::of(new).map_err(|e| error(&e))?,
    );
    walk(&a, &b, &mut vec![name.to_owned()], out);
    Ok(())
}

/// Assigns `b` at `steps`.
fn whole(b: &Node, steps: &[String], out: &mut Vec<String>) {
    let path = ValuePath {
        steps: steps.to_vec(),
    };
    out.push(format!("{path}={}", inline(b)));
}

/// The assignments turning `a` into `b`, both at `steps`.
fn walk(a: &Node, b: &Node, steps: &mut Vec<String>, out: &mut Vec<String>) {
    if a == b {
        return;
    }
    match (a, b) {
        // A path steps through a set option by itself.
        (Node::Some(a), Node::Some(b)) => walk(a, b, steps, out),
        (
            Node::Struct {
                ty: ta,
                name: na,
                fields: fa,
            },
            Node::Struct {
                ty: tb,
                name: nb,
                fields: fb,
            },
        ) if (ta, na) == (tb, nb) && fa.len() == fb.len() => fields(fa, fb, b, steps, out),
        (Node::Seq(ia), Node::Seq(ib)) if ia.len() == ib.len() => match keys(ia) {
            Some(k) if keys(ib).as_ref() == Some(&k) => items(ia, ib, &k, steps, out),
            _ => whole(b, steps, out),
        },
        (
            Node::Tuple {
                name: na,
                items: ia,
            },
            Node::Tuple {
                name: nb,
                items: ib,
            },
        ) if na == nb && ia.len() == ib.len() => {
            let k: Vec<String> = (0..ia.len()).map(|i| i.to_string()).collect();
            items(ia, ib, &k, steps, out);
        }
        (Node::Map(ea), Node::Map(eb)) if same_keys(ea, eb) => {
            for ((k, va), (_, vb)) in ea.iter().zip(eb) {
                steps.push(unquote(k));
                walk(va, vb, steps, out);
                steps.pop();
            }
        }
        _ => whole(b, steps, out),
    }
}

/// The fields of two structs of one type (`whole_b`: the second, assigned
/// whole when a field went back to its default: a path cannot say that).
fn fields(
    fa: &[Field],
    fb: &[Field],
    whole_b: &Node,
    steps: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    let to_default = fa
        .iter()
        .zip(fb)
        .any(|(x, y)| x.name != y.name || (x.value.is_some() && y.value.is_none()));
    if to_default {
        whole(whole_b, steps, out);
        return;
    }
    for (x, y) in fa.iter().zip(fb) {
        let Some(vb) = &y.value else { continue };
        steps.push(x.name.to_owned());
        match &x.value {
            Some(va) => walk(va, vb, steps, out),
            None => whole(vb, steps, out),
        }
        steps.pop();
    }
}

/// Item by item, each named by its key.
fn items(
    ia: &[Node],
    ib: &[Node],
    keys: &[String],
    steps: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    for ((a, b), k) in ia.iter().zip(ib).zip(keys) {
        steps.push(k.clone());
        walk(a, b, steps, out);
        steps.pop();
    }
}

/// Whether two maps have the same keys in the same order, once each.
fn same_keys(ea: &[(Node, Node)], eb: &[(Node, Node)]) -> bool {
    let ka: Vec<&Node> = ea.iter().map(|(k, _)| k).collect();
    let kb: Vec<&Node> = eb.iter().map(|(k, _)| k).collect();
    ka == kb && unique(&ka)
}

fn unique<T: PartialEq>(v: &[T]) -> bool {
    v.iter().enumerate().all(|(i, x)| !v[..i].contains(x))
}

/// The step naming each item of a list as a path resolves it: waypoints
/// by `id`, named items by `name`, others by index; `None` when some item
/// cannot be named so (ids or names missing or repeated).
fn keys(items: &[Node]) -> Option<Vec<String>> {
    let text = |item: &Node, key: &str| match item.field(key) {
        Some(Field { value: Some(v), .. }) => Some(unquote(v)),
        _ => None,
    };
    let indices: Vec<String> = (0..items.len()).map(|i| i.to_string()).collect();
    let Some(first) = items.first() else {
        return Some(indices);
    };
    if first.field("id").is_some() {
        let ids: Option<Vec<String>> = items.iter().map(|i| text(i, "id")).collect();
        return ids.filter(|ids| unique(ids));
    }
    if first.field("name").is_some() {
        let names: Vec<Option<String>> = items.iter().map(|i| text(i, "name")).collect();
        if let Some(all) = names.iter().cloned().collect::<Option<Vec<String>>>()
            && unique(&all)
        {
            return Some(all);
        }
        // Unnamed items go by index, unless a name reads as one.
        let clash = names.iter().flatten().any(|n| indices.contains(n));
        return (!clash).then_some(indices);
    }
    Some(indices)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::super::{parse_assignment, set};
    use super::*;
    use crate::format::def::{ArchetypeDef, ShapeDef};

    fn demo(name: &str) -> ContentDef {
        let path = format!("{}/../../content/demo/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        crate::read::parse::parse(&text, &path).unwrap()
    }

    /// `old` with `lines` applied by `set`, in order.
    fn applied(old: &ContentDef, lines: &[String]) -> ContentDef {
        let mut def = old.clone();
        for line in lines {
            let (path, value) = parse_assignment(line).unwrap();
            set(&mut def, &path, &value).unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        def
    }

    fn round_trip(old: &ContentDef, new: &ContentDef) -> Vec<String> {
        let lines = diff(old, new).unwrap();
        assert_eq!(&applied(old, &lines), new, "{lines:#?}");
        lines
    }

    fn guard(def: &mut ContentDef) -> &mut ArchetypeDef {
        &mut def
            .archetypes
            .0
            .iter_mut()
            .find(|(n, _)| n == "guard")
            .unwrap()
            .1
    }

    #[test]
    fn equal_contents_need_nothing_and_one_value_is_one_line() {
        let old = demo("guards.ron");
        assert!(diff(&old, &old).unwrap().is_empty());
        let mut new = old.clone();
        guard(&mut new).senses[0].shape = ShapeDef::Cone {
            range: 30.0,
            fov_deg: 110.0,
        };
        let g2 = new.agents.iter().position(|a| a.name == "guard_2").unwrap();
        new.agents[g2].pos.0 = 3.5;
        new.factions[0].hostile.push("garrison".into());
        let lines = round_trip(&old, &new);
        assert_eq!(
            lines,
            [
                "factions.garrison.hostile=[\"intruders\", \"garrison\"]",
                "archetypes.guard.senses.eyes.shape.range=30.0",
                "agents.guard_2.pos.0=3.5",
            ]
        );
    }

    #[test]
    fn changed_shapes_are_assigned_whole_and_still_round_trip() {
        let old = demo("fortress.ron");
        let mut new = old.clone();
        // A variant switched, a field back at its default, an item
        // added, a wall opened, an option set.
        guard(&mut new).senses[0].shape = ShapeDef::Sphere { radius: 9.0 };
        guard(&mut new).senses[0].lose_range = None;
        guard(&mut new).noise = Some(3.0);
        new.walls[2].open = !new.walls[2].open;
        new.walls[2].door = true;
        let extra = new.agents[0].clone();
        new.agents.push(crate::format::def::AgentDef {
            name: "extra".into(),
            ..extra
        });
        new.factions[0].hostile.clear();
        new.seed = 0;
        new.tick_seconds = 0.25;
        let lines = round_trip(&old, &new);
        assert!(
            lines.iter().any(|l| l.starts_with("agents=[")),
            "{lines:#?}"
        );
        assert!(lines.contains(&"seed=0".to_owned()), "{lines:#?}");
        // Back at its default, a field cannot be named: its struct is
        // assigned whole.
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("factions.") && l.ends_with(")")),
            "{lines:#?}"
        );
    }

    #[test]
    fn every_demo_round_trips_edits_in_every_section() {
        for name in ["arena.ron", "village.ron", "missiles.ron", "crossing.ron"] {
            let old = demo(name);
            let mut new = old.clone();
            if let Some((_, a)) = new.archetypes.0.last_mut() {
                a.noise = Some(a.noise.unwrap_or(0.0) + 1.0);
                for s in &mut a.senses {
                    s.memory_ticks += 3;
                }
            }
            if let Some(w) = new.waypoints.first_mut() {
                w.pos.0 += 1.0;
                w.active = !w.active;
            }
            if let Some(p) = new.profiles.0.first_mut() {
                p.1.chase = Some(p.1.chase.unwrap_or(1.0) + 1.0);
            }
            new.agents.reverse();
            new.name.clear();
            round_trip(&old, &new);
        }
    }
}
