//! The `kiai` command line as pipelines use it: determinism of `run`, the
//! shape of `perceive`, help texts, and errors on bad content.

mod common;

use common::{json, kiai, path_json};

const ARENA: &str = "content/demo/arena.ron";

#[test]
fn run_is_deterministic_per_seed_and_thread_count() {
    let a = json(&["run", ARENA, "--ticks", "600", "--seed", "1", "--json"]);
    let b = json(&["run", ARENA, "--ticks", "600", "--seed", "1", "--json"]);
    let c = json(&["run", ARENA, "--ticks", "600", "--seed", "2", "--json"]);
    let one = json(&[
        "run",
        ARENA,
        "--ticks",
        "600",
        "--seed",
        "1",
        "--threads",
        "1",
        "--json",
    ]);
    let two = json(&[
        "run",
        ARENA,
        "--ticks",
        "600",
        "--seed",
        "1",
        "--threads",
        "2",
        "--json",
    ]);
    let hash = &a["state_hash"];
    assert!(hash.as_str().is_some_and(|h| h.len() == 16));
    assert_eq!(hash, &b["state_hash"]);
    assert_ne!(hash, &c["state_hash"]);
    assert_eq!(hash, &one["state_hash"]);
    assert_eq!(hash, &two["state_hash"]);
    assert_eq!(a["ticks"], 600);
    assert_eq!(a["agents"], 50);
    let states = a["states"].as_object().cloned().unwrap_or_default();
    let total: u64 = states.values().filter_map(|v| v.as_u64()).sum();
    assert_eq!(total, 50);
    assert!(a["ms_per_tick"].as_f64().is_some_and(|ms| ms > 0.0));
}

#[test]
fn agents_move_and_stay_in_bounds() {
    // Hash changes tick by tick, and perceive after many ticks still lists
    // every agent.
    let t0 = json(&["run", ARENA, "--ticks", "1", "--json"]);
    let t1 = json(&["run", ARENA, "--ticks", "50", "--json"]);
    assert_ne!(t0["state_hash"], t1["state_hash"]);
    let p = json(&["perceive", ARENA, "--tick", "300", "--json"]);
    assert_eq!(p["tick"], 300);
    assert_eq!(p["agents"].as_array().map(Vec::len), Some(50));
}

#[test]
fn perceive_reports_sorted_names_per_sense() {
    let p = json(&["perceive", ARENA, "--json"]);
    assert_eq!(p["tick"], 0);
    let agents = p["agents"].as_array().cloned().unwrap_or_default();
    assert_eq!(agents.len(), 50);
    let mut any = 0;
    for a in &agents {
        let senses = a["senses"].as_object().cloned().unwrap_or_default();
        assert!(senses.contains_key("radar"), "{a}");
        for (_, list) in senses {
            let names: Vec<&str> = list
                .as_array()
                .map(|l| l.iter().filter_map(|n| n.as_str()).collect())
                .unwrap_or_default();
            let mut sorted = names.clone();
            sorted.sort_unstable();
            assert_eq!(names, sorted);
            assert!(
                !names.contains(&a["name"].as_str().unwrap_or("")),
                "an agent never senses itself"
            );
            any += names.len();
        }
        assert!(a["hears"].is_array());
    }
    assert!(
        any > 0,
        "the demo is dense enough that someone senses someone"
    );
}

#[test]
fn every_command_explains_itself() {
    for cmd in [
        &["--help"][..],
        &["run", "--help"],
        &["perceive", "--help"],
        &["validate", "--help"],
        &["bench", "--help"],
    ] {
        let out = kiai(cmd);
        assert!(out.status.success(), "{cmd:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage:"), "{cmd:?}: {text}");
    }
    let out = kiai(&["--version"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("kiai "));
}

#[test]
fn bad_content_is_reported_not_run() {
    let out = kiai(&["run", "tests/malformed/19_three_mistakes.ron", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "no JSON for a failed load");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.contains(": error: ")).count(),
        3,
        "{stderr}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = kiai(&["run"]);
    assert_eq!(out.status.code(), Some(2));
    let out = kiai(&["run", ARENA, "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

const VILLAGE: &str = "content/demo/village.ron";

#[test]
fn infantry_cuts_across_while_vehicles_take_the_road() {
    let infantry = path_json(VILLAGE, "0", "69", "infantry");
    let vehicle = path_json(VILLAGE, "0", "69", "vehicle");
    assert_eq!(infantry["found"], true);
    assert_eq!(vehicle["found"], true);
    let route = |v: &serde_json::Value| -> Vec<u64> {
        v["waypoints"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_u64()).collect())
            .unwrap_or_default()
    };
    // Documented in content/demo/village.ron.
    assert_eq!(route(&infantry), [0, 1, 2, 13, 24, 35, 46, 57, 68, 69]);
    assert_eq!(
        route(&vehicle),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 19, 29, 39, 49, 59, 69]
    );
    // The road costs 0.5 per unit of length for vehicles: 15 links of 10.
    assert!((vehicle["cost"].as_f64().unwrap_or(0.0) - 75.0).abs() < 1e-3);
    // The first cost list is the default.
    let default = json(&["path", VILLAGE, "--from", "0", "--to", "69", "--json"]);
    assert_eq!(route(&default), route(&infantry));
}

#[test]
fn the_smoothed_infantry_route_across_the_village_is_shorter() {
    let p = json(&[
        "path",
        VILLAGE,
        "--from",
        "0",
        "--to",
        "69",
        "--cost-list",
        "infantry",
        "--smooth",
        "--json",
    ]);
    let length = p["length"].as_f64().unwrap_or(0.0);
    let smoothed = p["smoothed_length"].as_f64().unwrap_or(f64::MAX);
    // docs/movement.md quotes these: 114.9 units by the waypoints, 108.2
    // smoothed (one straight line from 0 to 69).
    assert!((length - 114.92).abs() < 0.01, "{p}");
    assert!((smoothed - 108.17).abs() < 0.01, "{p}");
    assert_eq!(p["smoothed"].as_array().map(Vec::len), Some(2), "{p}");
}

#[test]
fn routes_avoid_the_inactive_footbridge() {
    for list in ["infantry", "vehicle"] {
        for (from, to) in [("24", "44"), ("33", "35"), ("0", "69")] {
            let p = path_json(VILLAGE, from, to, list);
            assert_eq!(p["found"], true);
            assert!(
                !p["waypoints"]
                    .as_array()
                    .is_some_and(|w| w.iter().any(|x| x == 34)),
                "{p}"
            );
        }
    }
    // Routing to the footbridge itself finds nothing.
    let p = json(&["path", VILLAGE, "--from", "0", "--to", "34", "--json"]);
    assert_eq!(p["found"], false);
}

#[test]
fn select_follows_seed_001() {
    // Toward 69 from 0 on foot: the diagonal 11 minimises cost x distance².
    let s = json(&[
        "select", VILLAGE, "--at", "0", "--dest", "69", "--toward", "--json",
    ]);
    assert_eq!(s["selected"], 11);
    // A vehicle prefers the cheap road (0.5) to the orchard.
    let s = json(&[
        "select",
        VILLAGE,
        "--at",
        "0",
        "--dest",
        "69",
        "--toward",
        "--cost-list",
        "vehicle",
        "--json",
    ]);
    assert_eq!(s["selected"], 1);
    // Excluded waypoints are never picked.
    let s = json(&[
        "select",
        VILLAGE,
        "--at",
        "0",
        "--dest",
        "69",
        "--toward",
        "--exclude",
        "11,1",
        "--json",
    ]);
    assert_eq!(s["selected"], 10);
    // Away from 69, standing on 22: the farthest qualifying neighbour.
    let s = json(&[
        "select", VILLAGE, "--at", "22", "--dest", "69", "--away", "--json",
    ]);
    assert_eq!(s["selected"], 11);
    // A max distance shorter than every link leaves nothing.
    let s = json(&[
        "select",
        VILLAGE,
        "--at",
        "0",
        "--dest",
        "69",
        "--toward",
        "--max-distance",
        "5",
        "--json",
    ]);
    assert!(s["selected"].is_null());
    // Jitter is deterministic per seed.
    let a = json(&[
        "select", VILLAGE, "--at", "22", "--dest", "69", "--toward", "--jitter", "0.8", "--seed",
        "4", "--json",
    ]);
    let b = json(&[
        "select", VILLAGE, "--at", "22", "--dest", "69", "--toward", "--jitter", "0.8", "--seed",
        "4", "--json",
    ]);
    assert_eq!(a, b);
}

#[test]
fn nav_errors_are_clear() {
    let out = kiai(&["path", VILLAGE, "--from", "0", "--to", "999"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no waypoint with id 999"));
    let out = kiai(&[
        "path",
        VILLAGE,
        "--from",
        "0",
        "--to",
        "1",
        "--cost-list",
        "tank",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no cost list `tank`; this file has: infantry, vehicle")
    );
    let out = kiai(&["select", VILLAGE, "--at", "0", "--dest", "1"]);
    assert_eq!(out.status.code(), Some(2), "--toward or --away is required");
}

#[test]
fn fog_reports_per_faction_counts_and_keeps_explored_tiles() {
    let t0 = json(&["fog", ARENA, "--json"]);
    assert_eq!(
        (t0["width"].as_u64(), t0["height"].as_u64()),
        (Some(50), Some(50))
    );
    let red0 = &t0["factions"]["red"];
    // At tick 0 everything explored is visible, and something is.
    assert!(red0["visible"].as_u64().is_some_and(|v| v > 0));
    assert_eq!(red0["visible"], red0["explored"]);
    // Walking on, the explored area only grows and includes what is visible.
    let mut last = 0;
    for tick in ["50", "150", "300"] {
        let t = json(&["fog", ARENA, "--tick", tick, "--faction", "blue", "--json"]);
        let blue = &t["factions"]["blue"];
        let (v, e) = (
            blue["visible"].as_u64().unwrap_or(0),
            blue["explored"].as_u64().unwrap_or(0),
        );
        assert!(
            e >= v && e >= last,
            "tick {tick}: visible {v}, explored {e}, before {last}"
        );
        last = e;
        assert!(
            t["factions"].get("red").is_none(),
            "--faction reports only that faction"
        );
    }
    // The dump agrees with the counts.
    let d = json(&[
        "fog",
        ARENA,
        "--tick",
        "300",
        "--faction",
        "blue",
        "--dump",
        "--json",
    ]);
    let rows: Vec<String> = d["grid"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(rows.len(), 50);
    let count = |c: char| {
        rows.iter()
            .map(|r| r.chars().filter(|&x| x == c).count())
            .sum::<usize>() as u64
    };
    assert_eq!(
        count('#'),
        d["factions"]["blue"]["visible"].as_u64().unwrap_or(0)
    );
    assert_eq!(
        count('#') + count('.'),
        d["factions"]["blue"]["explored"].as_u64().unwrap_or(0)
    );
    // Same at one and two threads.
    let one = json(&["fog", ARENA, "--tick", "100", "--threads", "1", "--json"]);
    let two = json(&["fog", ARENA, "--tick", "100", "--threads", "2", "--json"]);
    assert_eq!(one, two);
}

#[test]
fn fog_needs_a_fog_section() {
    let out = kiai(&["fog", "content/demo/village.ron"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no `fog` section"));
}

/// The arena with every profile replaced by `replacement`.
fn arena_with_profiles(replacement: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let text =
        std::fs::read_to_string(common::root().join(ARENA)).unwrap_or_else(|e| panic!("{e}"));
    let start = text
        .find("    profiles: {")
        .unwrap_or_else(|| panic!("no profiles"));
    let end = start
        + text[start..]
            .find("\n    },\n")
            .unwrap_or_else(|| panic!("no end"))
        + 7;
    let profiles = format!(
        "    profiles: {{\n        \"berserker\": {replacement},\n        \"coward\": {replacement},\n        \"balanced\": {replacement},\n    }},\n"
    );
    let changed = format!("{}{}{}", &text[..start], profiles, &text[end..]);
    std::fs::write(dir.path().join("arena.ron"), changed).unwrap_or_else(|e| panic!("{e}"));
    dir
}

#[test]
fn state_counts_move_with_the_profiles() {
    let counts = |dir: &tempfile::TempDir| {
        let file = dir.path().join("arena.ron");
        let v = json(&[
            "run",
            file.to_str().unwrap_or_default(),
            "--ticks",
            "300",
            "--json",
        ]);
        (
            v["states"]["chase"].as_u64().unwrap_or(0),
            v["states"]["evade"].as_u64().unwrap_or(0),
        )
    };
    let hunters = counts(&arena_with_profiles("(chase: 1, evade: 0)"));
    let cowards = counts(&arena_with_profiles("(chase: 0, evade: 1)"));
    let demo = json(&["run", ARENA, "--ticks", "300", "--json"]);
    assert!(
        hunters.0 > cowards.0,
        "chase: hunters {hunters:?} vs cowards {cowards:?}"
    );
    assert!(
        cowards.1 > hunters.1,
        "evade: hunters {hunters:?} vs cowards {cowards:?}"
    );
    assert_ne!(
        (
            demo["states"]["chase"].as_u64().unwrap_or(0),
            demo["states"]["evade"].as_u64().unwrap_or(0)
        ),
        hunters
    );
}

#[test]
fn traces_explain_every_decision_deterministically() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let run = json(&[
        "run",
        ARENA,
        "--ticks",
        "120",
        "--trace",
        a.to_str().unwrap_or_default(),
        "--json",
    ]);
    json(&[
        "run",
        ARENA,
        "--ticks",
        "120",
        "--threads",
        "1",
        "--trace",
        b.to_str().unwrap_or_default(),
        "--json",
    ]);
    let ta = std::fs::read_to_string(&a).unwrap_or_default();
    assert_eq!(
        ta,
        std::fs::read_to_string(&b).unwrap_or_default(),
        "same trace at 1 and 2 threads"
    );
    let lines: Vec<serde_json::Value> = ta
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 120 * 50);
    let mut kept = 0;
    for l in &lines {
        let rolls = l["rolls"].as_array().cloned().unwrap_or_default();
        let roll = |kind: &str| {
            rolls.iter().find(|r| r["kind"] == kind).map(|r| {
                (
                    r["value"].as_f64().unwrap_or(-1.0),
                    r["threshold"].as_f64().unwrap_or(-1.0),
                )
            })
        };
        match l["decided_by"].as_str().unwrap_or_default() {
            "no_option" => assert_eq!(l["state"], "random_walk"),
            "fixed_rule" => {
                let (v, t) = roll("use_profile").unwrap_or_else(|| panic!("{l}"));
                assert!(v > t, "{l}");
                let expected = if l["options"]["evade"].is_null() {
                    "chase"
                } else {
                    "evade"
                };
                assert_eq!(l["state"], expected, "{l}");
            }
            "kept" => {
                let (v, t) = roll("keep_decision").unwrap_or_else(|| panic!("{l}"));
                assert!(v <= t, "{l}");
                kept += 1;
            }
            "weights" => {
                let (v, t) = roll("weights").unwrap_or_else(|| panic!("{l}"));
                assert_eq!(l["state"], if v < t { "chase" } else { "evade" }, "{l}");
            }
            "single_option" => assert!(
                l["options"]["chase"].is_null() != l["options"]["evade"].is_null(),
                "{l}"
            ),
            other => panic!("unknown decided_by {other}"),
        }
        if l["state"] != "random_walk" {
            assert!(!l["target"].is_null(), "{l}");
        }
    }
    assert!(kept > 0, "the demo's hysteresis shows up in traces");
    // The last tick's trace agrees with the final state counts.
    let last: Vec<&serde_json::Value> = lines.iter().filter(|l| l["tick"] == 119).collect();
    let chase = last.iter().filter(|l| l["state"] == "chase").count() as u64;
    assert_eq!(Some(chase), run["states"]["chase"].as_u64());
}

#[test]
fn learned_weights_are_reported_and_deterministic() {
    let a = json(&["run", ARENA, "--ticks", "300", "--json"]);
    let b = json(&["run", ARENA, "--ticks", "300", "--threads", "1", "--json"]);
    assert_eq!(a["learned"], b["learned"]);
    let sentinel = &a["learned"]["sentinel"];
    let (c, e) = (
        sentinel["chase"].as_f64().unwrap_or(0.0),
        sentinel["evade"].as_f64().unwrap_or(0.0),
    );
    assert!(c > 0.0 && e > 0.0);
    assert!(
        (c, e) != (5.0, 5.0),
        "learning moved the weights from the profile's 5:5"
    );
    assert!(
        a["learned"].get("guard").is_none(),
        "only learning profiles are reported"
    );
}

#[test]
fn the_fortress_hides_hears_and_culls() {
    let senses = |v: &serde_json::Value, agent: &str, sense: &str| -> Vec<String> {
        v["agents"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|a| a["name"] == agent)
            .and_then(|a| {
                a["senses"][sense].as_array().map(|l| {
                    l.iter()
                        .filter_map(|x| x.as_str().map(str::to_owned))
                        .collect()
                })
            })
            .unwrap_or_default()
    };
    let t0 = json(&["perceive", "content/demo/fortress.ron", "--json"]);
    assert_eq!(
        senses(&t0, "gate_guard", "eyes"),
        ["thief_at_gate"],
        "through the gate"
    );
    assert!(
        senses(&t0, "vault_guard", "eyes").is_empty(),
        "the vault sees nothing"
    );
    assert!(
        senses(&t0, "thief_at_wall", "eyes").is_empty(),
        "the east wall hides the vault"
    );
    assert_eq!(senses(&t0, "hall_guard", "eyes"), ["thief_in_hall"]);
    // The bell rings at tick 5 in the hall: its guard hears it, the gate guard does not.
    let t5 = json(&[
        "perceive",
        "content/demo/fortress.ron",
        "--tick",
        "5",
        "--json",
    ]);
    let hears = |agent: &str| {
        t5["agents"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|a| a["name"] == agent)
            .map(|a| a["hears"].clone())
            .unwrap_or_default()
    };
    assert!(
        hears("hall_guard").as_array().is_some_and(|h| h
            .iter()
            .any(|x| x["tag"] == 1 && x["loudness"].as_f64().unwrap_or(0.0) > 0.5)),
        "{}",
        hears("hall_guard")
    );
    assert!(
        !hears("gate_guard")
            .as_array()
            .is_some_and(|h| h.iter().any(|x| x["tag"] == 1))
    );
}

#[test]
fn lua_defs_writes_the_shipped_definitions() {
    let printed = kiai(&["lua-defs"]);
    assert!(printed.status.success());
    let shipped = std::fs::read(common::root().join("scripts/kiai.d.lua"))
        .unwrap_or_else(|e| panic!("scripts/kiai.d.lua: {e}"));
    assert_eq!(printed.stdout, shipped, "scripts/kiai.d.lua is out of date");
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("kiai.d.lua");
    let written = kiai(&["lua-defs", "-o", &out.to_string_lossy()]);
    assert!(written.status.success());
    assert_eq!(
        std::fs::read(&out).unwrap_or_else(|e| panic!("{e}")),
        shipped
    );
    let note = String::from_utf8_lossy(&written.stderr);
    assert!(
        note.starts_with("wrote ") && note.contains("workspace.library"),
        "{note}"
    );
    let help = String::from_utf8_lossy(&kiai(&["lua-defs", "--help"]).stdout).into_owned();
    assert!(
        help.contains(".luarc.json") && help.contains("-o, --out <FILE>"),
        "{help}"
    );
}

/// The four figures of one spread, in the order a reader compares them.
fn spread(v: &serde_json::Value, what: &str) -> [f64; 4] {
    ["mean", "p50", "p99", "max"].map(|k| {
        v[k].as_f64()
            .unwrap_or_else(|| panic!("{what}.{k} is not a number: {v}"))
    })
}

#[test]
fn run_reports_the_worst_tick_beside_the_mean_for_the_tick_and_every_stage() {
    let j = json(&["run", ARENA, "--ticks", "30", "--json"]);
    let [mean, p50, p99, max] = spread(&j["tick_ms"], "tick_ms");
    assert!(0.0 < p50 && p50 <= p99 && p99 <= max, "{}", j["tick_ms"]);
    assert!(mean <= max);
    let stages = j["stage_ms"].as_object().cloned().unwrap_or_default();
    let names: Vec<&str> = stages.keys().map(String::as_str).collect();
    let mut all: Vec<&str> = kiai_core::Stage::ALL.iter().map(|s| s.name()).collect();
    all.push("upkeep");
    assert_eq!(names, all);
    let mut parts = 0.0;
    for (name, s) in &stages {
        let [mean, p50, p99, max] = spread(s, name);
        assert!(
            0.0 <= p50 && p50 <= p99 && p99 <= max && mean <= max,
            "{name}: {s}"
        );
        parts += mean;
    }
    // The tick is its stages and the upkeep, nothing left out.
    assert!(
        (parts - mean).abs() <= 1e-9 * mean.max(1.0),
        "{parts} vs {mean}"
    );
    // The summary: the mean line, a header, then the tick, every stage and
    // the upkeep with four figures each, last in the output.
    let text = common::stdout(&["run", ARENA, "--ticks", "30"]);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("time        "))
        .unwrap_or_else(|| panic!("no time line in:\n{text}"));
    assert!(lines[at].contains(" ms/tick (sense "), "{text}");
    assert!(
        lines[at].contains(", fog ") && lines[at].contains(", upkeep "),
        "{text}"
    );
    assert!(lines[at + 1].contains("mean") && lines[at + 1].contains("max"));
    assert!(
        lines[at + 1].ends_with("ms per tick, over 30 ticks"),
        "{text}"
    );
    let rows = &lines[at + 2..];
    assert_eq!(rows.len(), 10, "{text}");
    for (row, name) in rows.iter().zip(["tick"].iter().chain(&names)) {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words.len(), 5, "{row}");
        assert_eq!(words[0], *name);
        let figures: Vec<f64> = words[1..].iter().filter_map(|w| w.parse().ok()).collect();
        assert_eq!(figures.len(), 4, "{row}");
        assert!(
            figures[1] <= figures[2] && figures[2] <= figures[3],
            "{row}"
        );
    }
}
