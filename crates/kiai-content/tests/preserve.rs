//! Saving keeps the designer's file: the saved TEXT is compared with the
//! original, line by line, for every demo and the migrated format-1 file.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

mod common;

use common::{changed_lines, demos, lost_comments, owned_lines, root};
use kiai_content::def::{AgentDef, ContentDef, ShapeDef};
use kiai_content::{Layout, SpanIndex, parse, save, to_ron, to_ron_preserving};

fn def_of(name: &str, text: &str) -> ContentDef {
    parse(text, name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn saving_unchanged_content_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in demos() {
        let def = def_of(&name, &text);
        let written = to_ron_preserving(&text, &def).unwrap();
        assert_eq!(written.layout, Layout::Kept, "{name}");
        assert_eq!(written.text, text, "{name}");
        // Through the file API the editor uses: same bytes on disk.
        let path = dir.path().join("level.ron");
        std::fs::write(&path, &text).unwrap();
        save(&path, &def).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), text.as_bytes(), "{name}");
    }
}

/// The text of the tuple starting at `pos` (1-based line and column).
fn tuple_at(text: &str, line: u32, column: u32) -> String {
    let l = text.lines().nth(line as usize - 1).unwrap();
    let from: String = l.chars().skip(column as usize - 1).collect();
    from[..=from.find(')').unwrap()].to_owned()
}

#[test]
fn one_changed_value_changes_only_that_value_on_its_line() {
    for (name, text) in demos() {
        let def = def_of(&name, &text);
        let spans = SpanIndex::new(&text);
        let mut edited = def.clone();
        let pos = &mut edited.agents[0].pos;
        pos.0 += 1.5;
        pos.2 -= 0.25;
        let new_pos = format!("({:?}, {:?}, {:?})", pos.0, pos.1, pos.2);
        let written = to_ron_preserving(&text, &edited).unwrap();
        assert_eq!(written.layout, Layout::Kept, "{name}");
        assert_eq!(parse(&written.text, &name).unwrap(), edited, "{name}");
        let changed = changed_lines(&text, &written.text);
        assert_eq!(changed.len(), 1, "{name}: {changed:?}");
        let at = spans.pos("agents[0].pos");
        let (line, before, after) = changed[0];
        assert_eq!(line + 1, at.line as usize, "{name}");
        let old_pos = tuple_at(&text, at.line, at.column);
        assert_eq!(before.replacen(&old_pos, &new_pos, 1), after, "{name}");
    }
}

#[test]
fn a_nested_value_changes_only_its_number() {
    for (name, text) in demos() {
        let def = def_of(&name, &text);
        let mut edited = def.clone();
        // The first archetype with a sense (the crossing's have none).
        let Some(archetype) = edited
            .archetypes
            .0
            .iter_mut()
            .find(|a| !a.1.senses.is_empty())
        else {
            continue;
        };
        let shape = &mut archetype.1.senses[0].shape;
        let (old, new) = match shape {
            ShapeDef::Sphere { radius: r }
            | ShapeDef::Cone { range: r, .. }
            | ShapeDef::Sector { range: r, .. }
            | ShapeDef::Ellipse { a: r, .. }
            | ShapeDef::Hearing { threshold: r, .. } => {
                let old = *r;
                *r += 7.0;
                (old, *r)
            }
        };
        let written = to_ron_preserving(&text, &edited).unwrap();
        assert_eq!(parse(&written.text, &name).unwrap(), edited, "{name}");
        let changed = changed_lines(&text, &written.text);
        assert_eq!(changed.len(), 1, "{name}: {changed:?}");
        let (_, before, after) = changed[0];
        assert_eq!(
            before.replacen(&format!("{old:?}"), &format!("{new:?}"), 1),
            after,
            "{name}"
        );
    }
}

/// Removes one item (a waypoint and its links, else a wall, else the first
/// agent) and returns the 1-based lines the removed items start
/// on.
fn remove_one_item(def: &mut ContentDef, spans: &SpanIndex) -> Vec<u32> {
    let line = |path: String| spans.pos(&path).line;
    if !def.waypoints.is_empty() {
        let i = def.waypoints.len() / 2;
        let id = def.waypoints[i].id;
        let mut lines = vec![line(format!("waypoints[{i}]"))];
        for (k, l) in def.links.iter().enumerate() {
            if l.from == id || l.to == id {
                lines.push(line(format!("links[{k}]")));
            }
        }
        def.waypoints.remove(i);
        def.links.retain(|l| l.from != id && l.to != id);
        lines
    } else if !def.walls.is_empty() {
        def.walls.remove(1);
        vec![line("walls[1]".into())]
    } else {
        def.agents.remove(0);
        vec![line("agents[0]".into())]
    }
}

#[test]
fn adding_an_agent_and_removing_an_item_touch_only_their_lines() {
    for (name, text) in demos() {
        let def = def_of(&name, &text);
        let spans = SpanIndex::new(&text);
        let mut edited = def.clone();
        let removed = remove_one_item(&mut edited, &spans);
        let last = edited.agents.last().unwrap().clone();
        let added = AgentDef {
            name: "added_in_a_test".to_owned(),
            pos: (last.pos.0 + 1.0, last.pos.1, last.pos.2),
            ..last
        };
        edited.agents.push(added);
        let written = to_ron_preserving(&text, &edited).unwrap();
        assert_eq!(written.layout, Layout::Kept, "{name}");
        assert_eq!(parse(&written.text, &name).unwrap(), edited, "{name}");

        // Expected: the original lines without the removed items' lines
        // (and their comment lines), plus one line after the last agent in
        // its style.
        let lines: Vec<&str> = text.lines().collect();
        let gone: Vec<usize> = removed
            .iter()
            .flat_map(|&l| owned_lines(&text, l))
            .collect();
        let last_agent = spans.pos(&format!("agents[{}]", def.agents.len() - 1)).line as usize - 1;
        let indent =
            &lines[last_agent][..lines[last_agent].len() - lines[last_agent].trim_start().len()];
        let mut expected = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            if !gone.contains(&i) {
                expected.push((*l).to_owned());
            }
            if i == last_agent {
                let a = edited.agents.last().unwrap();
                let facing = if a.facing == (1.0, 0.0, 0.0) {
                    String::new()
                } else {
                    format!(
                        ", facing: ({:?}, {:?}, {:?})",
                        a.facing.0, a.facing.1, a.facing.2
                    )
                };
                let goal = a.goal.map_or(String::new(), |g| {
                    format!(", goal: ({:?}, {:?}, {:?})", g.0, g.1, g.2)
                });
                expected.push(format!(
                    "{indent}(name: {:?}, archetype: {:?}, faction: {:?}, pos: ({:?}, {:?}, {:?}){facing}{goal}),",
                    a.name, a.archetype, a.faction, a.pos.0, a.pos.1, a.pos.2
                ));
            }
        }
        let got: Vec<&str> = written.text.lines().collect();
        assert_eq!(got, expected, "{name}");
        let lost = lost_comments(&text, &written.text, &gone);
        assert!(lost.is_empty(), "{name}: lost {lost:?}");
    }
}

#[test]
fn removing_an_item_takes_its_comment_lines_and_nothing_else() {
    let text = "(\n    format: 2,\n    walls: [\n        // The gate.\n        // Two lines about it.\n        (from: (0.0, 0.0), to: (1.0, 0.0), height: 2.0),   // west\n\n        // Not about the gate.\n        (from: (2.0, 0.0), to: (3.0, 0.0), height: 2.0), // east\n    ],\n)\n";
    let mut def = def_of("t", text);
    def.walls.remove(0);
    let written = to_ron_preserving(text, &def).unwrap();
    assert_eq!(
        written.text,
        "(\n    format: 2,\n    walls: [\n\n        // Not about the gate.\n        (from: (2.0, 0.0), to: (3.0, 0.0), height: 2.0), // east\n    ],\n)\n"
    );
}

#[test]
fn fields_left_out_stay_out_unless_they_change() {
    let text = "(\n    format: 2, // the header stays\n    agents: [\n        (name: \"a\", archetype: \"x\", faction: \"f\", pos: (0.0, 0.0, 0.0)),\n        (name: \"b\", archetype: \"x\", faction: \"f\", pos: (0.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),\n    ],\n)\n";
    let mut def = def_of("t", text);
    def.agents[0].pos.0 = 2.0;
    def.agents[1].pos.0 = 3.0;
    let once = to_ron_preserving(text, &def).unwrap().text;
    // `facing` is still the default: left out of `a`, kept as written in `b`.
    assert!(
        once.contains("(name: \"a\", archetype: \"x\", faction: \"f\", pos: (2.0, 0.0, 0.0)),")
    );
    assert!(once.contains("pos: (3.0, 0.0, 0.0), facing: (1.0, 0.0, 0.0)),"));
    // A facing that changes from its default is written after `pos`.
    def.agents[0].facing = (0.0, 0.0, 1.0);
    let twice = to_ron_preserving(&once, &def).unwrap().text;
    assert!(
        twice.contains("pos: (2.0, 0.0, 0.0), facing: (0.0, 0.0, 1.0)),"),
        "{twice}"
    );
    // Set back to the default: taken out again.
    def.agents[0].facing = (1.0, 0.0, 0.0);
    assert_eq!(to_ron_preserving(&twice, &def).unwrap().text, once);
}

#[test]
fn migrating_every_format_1_file_changes_only_format_and_costs() {
    let mut files = Vec::new();
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ron") {
                out.push(p);
            }
        }
    }
    walk(&root().join("tests"), &mut files);
    let mut migrated = 0;
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if kiai_content::migrate::peek_format(&text) != Some(1) {
            continue;
        }
        // Invalid files are refused; the rest must keep every line but the
        // format and the positional costs.
        let Ok(m) = kiai_content::migrate::migrate_text(&text, "f.ron") else {
            continue;
        };
        migrated += 1;
        let name = file.display().to_string();
        assert!(m.kept_layout, "{name}");
        for (_, before, after) in changed_lines(&text, &m.text) {
            assert!(
                before.contains("format:") || before.contains("costs:"),
                "{name}: {before:?} -> {after:?}"
            );
        }
        assert!(lost_comments(&text, &m.text, &[]).is_empty(), "{name}");
    }
    assert!(migrated >= 2, "{migrated}");
}

#[test]
fn new_files_are_readable_one_item_per_line_and_without_defaults() {
    for (name, text) in demos() {
        let def = def_of(&name, &text);
        let fresh = to_ron(&def).unwrap();
        assert_eq!(parse(&fresh, &name).unwrap(), def, "{name}");
        for line in fresh.lines() {
            assert!(line.chars().count() <= 100, "{name}: {line}");
        }
        for default in [
            ": None",
            "Some(",
            "occluded: false",
            "memory_ticks: 0",
            "filter: All",
            "source:",
            "use_profile: 100.0",
            "keep_decision: 0.0",
        ] {
            assert!(!fresh.contains(default), "{name}: {default}\n{fresh}");
        }
        if def.tick_seconds == 0.1 {
            assert!(!fresh.contains("tick_seconds"), "{name}");
        }
        // Each agent starts a line of its own.
        for a in &def.agents {
            let start = format!("(name: {:?}", a.name);
            assert!(
                fresh
                    .lines()
                    .any(|l| l.trim_start().starts_with(&start) || l.trim_start() == "("),
                "{name}: {}",
                a.name
            );
        }
        // And saving it unchanged keeps it byte for byte.
        assert_eq!(to_ron_preserving(&fresh, &def).unwrap().text, fresh);
    }
}

#[test]
fn text_that_does_not_parse_is_replaced_by_a_new_file() {
    let def = def_of("t", "(format: 2, name: \"x\")");
    let written = to_ron_preserving("(format: 2, name: ", &def).unwrap();
    assert_eq!(written.layout, Layout::New);
    assert_eq!(written.text, "(\n    format: 2,\n    name: \"x\",\n)\n");
}

#[test]
fn an_edit_that_cannot_be_placed_rewrites_only_its_section() {
    // A `//` line inside a block comment looks like a comment line owned by
    // the wall below it; cutting it would leave `/*` open. The result is
    // checked, so the writer falls back to rewriting the walls section.
    let text = "// Header.\n(\n    format: 2,\n    seed: 4, // kept\n    walls: [\n        /* A block comment\n        // ending here */\n        (from: (0.0, 0.0), to: (1.0, 0.0), height: 2.0),\n        (from: (2.0, 0.0), to: (3.0, 0.0), height: 2.0),\n    ],\n    agents: [\n        // The only agent.\n        (name: \"a\", archetype: \"x\", faction: \"f\", pos: (0.0, 0.0, 0.0)),\n    ],\n)\n";
    let mut def = def_of("t", text);
    def.walls.remove(0);
    let written = to_ron_preserving(text, &def).unwrap();
    assert_eq!(parse(&written.text, "t").unwrap(), def);
    assert!(
        matches!(
            written.layout,
            Layout::ItemsRewritten | Layout::SectionsRewritten
        ),
        "{:?}",
        written.layout
    );
    assert_eq!(
        written.text,
        "// Header.\n(\n    format: 2,\n    seed: 4, // kept\n    walls: [\n        (from: (2.0, 0.0), to: (3.0, 0.0), height: 2.0),\n    ],\n    agents: [\n        // The only agent.\n        (name: \"a\", archetype: \"x\", faction: \"f\", pos: (0.0, 0.0, 0.0)),\n    ],\n)\n"
    );
}

#[test]
fn files_with_crlf_line_ends_keep_them() {
    let (name, text) = demos().remove(0);
    let text = text.replace('\n', "\r\n");
    let mut def = def_of(&name, &text);
    assert_eq!(to_ron_preserving(&text, &def).unwrap().text, text);
    let mut added = def.agents[0].clone();
    added.name = "added".to_owned();
    def.agents.push(added);
    def.archetypes.0[0].1.noise = Some(2.5);
    let written = to_ron_preserving(&text, &def).unwrap();
    assert_eq!(written.layout, Layout::Kept);
    assert_eq!(parse(&written.text, &name).unwrap(), def);
    assert_eq!(
        written.text.matches('\n').count(),
        text.matches('\n').count() + 2
    );
    assert_eq!(
        written.text.matches("\r\n").count(),
        written.text.matches('\n').count()
    );
}
