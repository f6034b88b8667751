//! The content pipeline end to end: `kiai export` packs give the same
//! results as their content in every command, and `kiai migrate` turns a
//! format-1 file into a format-2 one that behaves the same.

mod common;

use std::path::Path;

use common::{json, kiai, path_json, path_str, root, stdout};

/// Drops the timings, which differ between runs.
fn without_timing(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(o) = v.as_object_mut() {
        for key in ["ms_per_tick", "tick_ms", "stage_ms"] {
            o.remove(key);
        }
    }
    v
}

#[test]
fn a_pack_gives_the_same_results_as_its_content() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for demo in ["arena", "village", "fortress", "missiles", "guards"] {
        let ron = format!("content/demo/{demo}.ron");
        let pack = dir.path().join(format!("{demo}.kpack"));
        let pack = path_str(&pack);
        let out = json(&["export", &ron, "-o", pack, "--json"]);
        assert_eq!(out["ok"], true);
        assert_eq!(out["out"], pack);
        let bytes = std::fs::metadata(pack).map(|m| m.len()).unwrap_or(0);
        assert_eq!(out["bytes"], bytes);
        assert!(
            std::fs::read(pack)
                .unwrap_or_default()
                .starts_with(b"KIAIPACK")
        );

        let run = |file: &str| {
            without_timing(json(&[
                "run", file, "--ticks", "300", "--seed", "3", "--json",
            ]))
        };
        let a = run(&ron);
        assert_eq!(a, run(pack), "{demo}: run");
        assert!(a["state_hash"].is_string());
        // The file's own seed, longer, on two threads.
        let run = |file: &str| {
            without_timing(json(&[
                "run",
                file,
                "--ticks",
                "600",
                "--threads",
                "2",
                "--json",
            ]))
        };
        let (a, b) = (run(&ron), run(pack));
        assert_eq!(a["state_hash"], b["state_hash"], "{demo}: run --ticks 600");
        assert_eq!(a, b, "{demo}: run --ticks 600");
        for args in [
            vec!["perceive", "--tick", "20", "--json"],
            vec!["validate", "--json"],
        ] {
            let with = |file: &str| {
                let mut v = args.clone();
                v.insert(1, file);
                json(&v)
            };
            let (x, mut y) = (with(&ron), with(pack));
            if args[0] == "validate" {
                // Diagnostics would name the file; there are none.
                assert_eq!(y["diagnostics"], serde_json::json!([]));
                y = x.clone();
            }
            assert_eq!(x, y, "{demo}: {}", args[0]);
        }
    }
    let village = "content/demo/village.ron";
    let pack = dir.path().join("village.kpack");
    let pack = path_str(&pack);
    for (from, to, list) in [
        ("0", "69", "vehicle"),
        ("0", "69", "infantry"),
        ("5", "60", "vehicle"),
    ] {
        let p = |file: &str| path_json(file, from, to, list);
        assert_eq!(p(village), p(pack), "path {from} -> {to} {list}");
    }
    let s = |file: &str| {
        json(&[
            "select", file, "--at", "0", "--dest", "69", "--toward", "--jitter", "0.3", "--seed",
            "5", "--json",
        ])
    };
    assert_eq!(s(village), s(pack));
    let arena_pack = dir.path().join("arena.kpack");
    let arena_pack = path_str(&arena_pack);
    let fog = |file: &str| json(&["fog", file, "--tick", "50", "--json"]);
    assert_eq!(fog("content/demo/arena.ron"), fog(arena_pack));
    let dump = |file: &str| {
        stdout(&[
            "fog",
            file,
            "--tick",
            "80",
            "--faction",
            "red",
            "--dump",
            "--json",
        ])
    };
    assert_eq!(dump("content/demo/arena.ron"), dump(arena_pack));
    let perceive = |file: &str| stdout(&["perceive", file, "--tick", "35"]);
    assert_eq!(
        perceive("content/demo/fortress.ron"),
        perceive(path_str(&dir.path().join("fortress.kpack")))
    );

    // Traces name profiles and decisions the same, line for line.
    let trace = |file: &str, out: &str| {
        let out = dir.path().join(out);
        stdout(&["run", file, "--ticks", "40", "--trace", path_str(&out)]);
        std::fs::read_to_string(&out).unwrap_or_default()
    };
    let from_text = trace("content/demo/arena.ron", "text.jsonl");
    assert!(from_text.lines().count() >= 40 * 50, "{from_text:.200}");
    assert_eq!(
        from_text,
        trace(arena_pack, "pack.jsonl"),
        "arena: run --trace"
    );

    // A pack exports to itself.
    let again = dir.path().join("again.kpack");
    stdout(&["export", arena_pack, "-o", path_str(&again)]);
    assert_eq!(std::fs::read(&again).ok(), std::fs::read(arena_pack).ok());
}

#[test]
fn a_hostile_pack_is_reported_at_1_1_and_never_runs() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let content = kiai_content::Content::load(&root().join("content/demo/village.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut pack = content.to_pack().unwrap_or_else(|e| panic!("{e}"));
    pack.links[5].to = 9999;
    let file = dir.path().join("hostile.kpack");
    std::fs::write(&file, pack.encode().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
    let f = path_str(&file);
    let line = format!("{f}:1:1: error: invalid pack: waypoint index 9999 out of range (0..70)");
    let out = kiai(&["validate", f]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{line}\n"));
    for args in [
        vec!["run", f],
        vec!["perceive", f],
        vec!["path", f, "--from", "0", "--to", "69"],
    ] {
        let out = kiai(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&line), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn export_as_ron_is_readable_and_json_reports_failure() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("arena.pack.ron");
    let o = json(&[
        "export",
        "content/demo/arena.ron",
        "-o",
        path_str(&out),
        "--format",
        "ron",
        "--json",
    ]);
    assert_eq!(o["ok"], true);
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(text.contains("scripts: []"), "{text}");
    assert!(text.contains("hostile: [1]"), "{text}");
    // The binary body's columns are plain lists for people.
    let out = dir.path().join("village.pack.ron");
    stdout(&[
        "export",
        "content/demo/village.ron",
        "-o",
        path_str(&out),
        "--format",
        "ron",
    ]);
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    for expected in [
        "        (id: 0, pos: (0.0, 0.0, 0.0), active: true, name: Some(\"north_gate\"), tags: [\"road\"]),\n",
        "    links: [\n        (from: 0, to: 1),\n        (from: 1, to: 0),\n",
        "    link_costs: [\n",
    ] {
        assert!(text.contains(expected), "{expected}\n{text:.2000}");
    }

    let bad = kiai(&[
        "export",
        "tests/malformed/01_unknown_archetype.ron",
        "-o",
        path_str(&dir.path().join("x.kpack")),
        "--json",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap_or_default();
    assert_eq!(v["ok"], false);
    assert!(!dir.path().join("x.kpack").exists());
}

#[test]
fn a_corrupted_pack_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let pack = dir.path().join("arena.kpack");
    stdout(&["export", "content/demo/arena.ron", "-o", path_str(&pack)]);
    let mut bytes = std::fs::read(&pack).unwrap_or_default();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&pack, &bytes).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["run", path_str(&pack), "--ticks", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(":1:1: error: pack checksum mismatch"), "{err}");
}

#[test]
fn migrate_rewrites_a_v1_file_in_place_with_a_backup() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("village.ron");
    let v1 = std::fs::read_to_string(root().join("tests/data/village_v1.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(v1.contains("format: 1,"));
    std::fs::write(&file, &v1).unwrap_or_else(|e| panic!("{e}"));
    let f = path_str(&file);
    let before = path_json(f, "0", "69", "vehicle");

    let dry = json(&["migrate", f, "--dry-run", "--json"]);
    assert_eq!(dry["written"], false);
    assert_eq!(std::fs::read_to_string(&file).unwrap_or_default(), v1);

    let m = json(&["migrate", f, "--json"]);
    assert_eq!(m["from"], 1);
    assert_eq!(m["to"], 2);
    assert_eq!(m["written"], true);
    assert_eq!(m["kept_layout"], true);
    assert_eq!(m["changes"][0]["path"], "format");
    assert_eq!(
        m["changes"][1]["change"],
        "[1.0, 0.5] -> {\"infantry\": 1.0, \"vehicle\": 0.5}"
    );
    let now = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(now.contains("format: 2,"));
    assert!(now.contains("// "), "comments kept");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("village.ron.bak")).unwrap_or_default(),
        v1
    );
    // The migrated file is the demo, byte for byte, and routes the same.
    assert_eq!(
        now,
        std::fs::read_to_string(root().join("content/demo/village.ron")).unwrap_or_default()
    );
    let after = path_json(f, "0", "69", "vehicle");
    assert_eq!(before, after);

    let again = json(&["migrate", f, "--json"]);
    assert_eq!(again["written"], false);
    assert_eq!(again["changes"], serde_json::json!([]));
    let text = stdout(&["migrate", f]);
    assert!(
        text.contains("already format 2; nothing to change"),
        "{text}"
    );
}

/// Every format-1 file under tests/ that `kiai migrate` accepts: only the
/// `format` and positional `costs` lines change, every comment line stays,
/// and no default the file did not have is written out.
#[test]
fn migrate_keeps_every_format_1_file_but_its_format_and_costs() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ron") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("tests"), &mut files);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut migrated = 0;
    for file in files {
        let Ok(v1) = std::fs::read_to_string(&file) else {
            continue;
        };
        if kiai_content::migrate::peek_format(&v1) != Some(1) {
            continue;
        }
        let copy = dir.path().join("v1.ron");
        std::fs::write(&copy, &v1).unwrap_or_else(|e| panic!("{e}"));
        let out = kiai(&["migrate", path_str(&copy), "--json"]);
        if !out.status.success() {
            continue; // invalid in format 1 already: refused
        }
        migrated += 1;
        let name = file.display().to_string();
        let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        assert_eq!(m["kept_layout"], true, "{name}");
        let now = std::fs::read_to_string(&copy).unwrap_or_default();
        let (a, b): (Vec<&str>, Vec<&str>) = (v1.lines().collect(), now.lines().collect());
        assert_eq!(a.len(), b.len(), "{name}:\n{now}");
        for (before, after) in a.iter().zip(&b).filter(|(x, y)| x != y) {
            assert!(
                before.contains("format:") || before.contains("costs:"),
                "{name}: {before:?} -> {after:?}"
            );
            assert_eq!(before.contains("//"), after.contains("//"), "{name}");
        }
    }
    assert!(migrated >= 2, "{migrated}");
}
