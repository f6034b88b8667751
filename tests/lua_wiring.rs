//! `kiai::lua::decider_for`: content's scripted archetypes get their
//! scripts, from files or from the text a pack bundles, with the same run
//! either way.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::{Path, PathBuf};

use kiai::content::Content;
use kiai::lua::{Limits, LuaDecider, decider_for};
use kiai::prelude::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Exports `content` as a pack into `dir` and loads it back.
fn pack_of(content: &Content, dir: &Path) -> Content {
    let path = dir.join("level.kiaipack");
    let bytes = content.to_pack().unwrap().encode().unwrap();
    std::fs::write(&path, bytes).unwrap();
    Content::load(&path).unwrap()
}

/// The state hash and the scripts' state names after `ticks` ticks.
fn run(content: &Content, lua: Option<LuaDecider>, ticks: u32) -> (u64, Vec<Option<String>>) {
    let mut world = content.world(None).unwrap();
    let mut pipeline = Pipeline::new();
    let mut lua = lua;
    for _ in 0..ticks {
        match &mut lua {
            Some(d) => pipeline.tick(&mut world, d),
            None => pipeline.tick(&mut world, &mut DefaultDecider::default()),
        }
    }
    let labels = (0..world.agents().len())
        .map(|i| {
            lua.as_ref()
                .and_then(|d| d.label(AgentId::from_index(i)))
                .map(str::to_owned)
        })
        .collect();
    (state_hash(&world), labels)
}

#[test]
fn a_pack_plays_with_its_bundled_scripts_like_the_content_file() {
    let ron = Content::load(&root().join("content/demo/guards.ron")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pack = pack_of(&ron, dir.path());
    // The pack's scripts are not on disk next to it: only the bundled text
    // can run.
    let scripts = pack.scripts();
    assert_eq!(scripts.len(), 4);
    assert!(
        scripts
            .iter()
            .all(|s| !s.path.exists() && s.bundled.is_some())
    );

    let (from_file, errors) = decider_for(&ron, Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    let (from_pack, errors) = decider_for(&pack, Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    let (file_hash, file_labels) = run(&ron, from_file, 100);
    let (pack_hash, pack_labels) = run(&pack, from_pack, 100);
    assert_eq!(pack_hash, file_hash);
    assert_eq!(pack_labels, file_labels);
    assert!(file_labels.iter().any(|l| l.as_deref() == Some("patrol")));
    // The scripts changed the run.
    assert_ne!(run(&ron, None, 100).0, file_hash);
}

const SHARED: &str = r#"(
    format: 2,
    factions: [(name: "red")],
    archetypes: { "a": (script: "s.lua"), "b": (script: "s.lua") },
    agents: [
        (name: "a0", archetype: "a", faction: "red", pos: (0.0, 0.0, 0.0)),
        (name: "b0", archetype: "b", faction: "red", pos: (5.0, 0.0, 0.0)),
    ],
)"#;

#[test]
fn archetypes_naming_one_script_share_its_state_from_files_and_packs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.lua"),
        "calls = 0\nfunction decide(agent, ctx)\n  calls = calls + 1\n  return \"call\" .. calls\nend\n",
    )
    .unwrap();
    let level = dir.path().join("level.ron");
    std::fs::write(&level, SHARED).unwrap();
    let ron = Content::load(&level).unwrap();
    let packed = tempfile::tempdir().unwrap();
    let pack = pack_of(&ron, packed.path());
    for content in [&ron, &pack] {
        let (lua, errors) = decider_for(content, Limits::default());
        assert!(errors.is_empty(), "{errors:?}");
        let (_, labels) = run(content, lua, 1);
        assert_eq!(
            labels,
            [Some("call1".to_owned()), Some("call2".to_owned())],
            "{}",
            content.file
        );
    }
}

#[test]
fn a_script_that_does_not_load_is_reported_and_its_agents_use_the_default() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.lua"),
        "function decide(agent, ctx)\n  return (\nend\n",
    )
    .unwrap();
    let level = dir.path().join("level.ron");
    std::fs::write(&level, SHARED).unwrap();
    let ron = Content::load(&level).unwrap();
    let packed = tempfile::tempdir().unwrap();
    let pack = pack_of(&ron, packed.path());
    let plain = run(&ron, None, 20).0;
    for content in [&ron, &pack] {
        let (lua, errors) = decider_for(content, Limits::default());
        // Once, though two archetypes use it.
        assert_eq!(errors.len(), 1, "{errors:?}");
        let shown = errors[0].to_string();
        assert!(
            shown.contains("s.lua:3:") && shown.contains("unexpected symbol near 'end'"),
            "{shown}"
        );
        assert!(lua.as_ref().is_some_and(LuaDecider::has_scripts));
        assert_eq!(run(content, lua, 20).0, plain, "{}", content.file);
    }
}

#[test]
fn content_without_scripts_gets_no_lua_decider() {
    let arena = Content::load(&root().join("content/demo/arena.ron")).unwrap();
    let (lua, errors) = decider_for(&arena, Limits::default());
    assert!(lua.is_none() && errors.is_empty());
}
