//! `kiai perceive --json` at tick 0 equals an all-pairs brute force written
//! here, over random scenes (2..300 agents, every shape, faction filters,
//! dense and sparse layouts). The brute force tests every ordered pair with
//! the formulas of docs/algorithms.md (article 000), with no broadphase.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;

use kiai_core::glam::{Vec2, Vec3};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Shape {
    Sphere(f32),
    Cone(f32, f32),
    Sector(f32, f32, f32),
    Ellipse(f32, f32, f32),
}

#[derive(Clone, Debug)]
struct Sense {
    shape: Shape,
    /// 0 all, 1 hostile, 2 friendly.
    filter: u8,
}

#[derive(Clone, Debug)]
struct Agent {
    archetype: usize,
    faction: usize,
    pos: [f32; 3],
    facing: [f32; 3],
}

#[derive(Clone, Debug)]
struct Scene {
    hostile: Vec<Vec<bool>>,
    archetypes: Vec<Vec<Sense>>,
    agents: Vec<Agent>,
}

/// A number with two decimals, so the RON text and the test hold the same f32.
fn dec(lo: f32, hi: f32) -> impl Strategy<Value = f32> {
    ((lo * 100.0) as i32..=(hi * 100.0) as i32).prop_map(|v| v as f32 / 100.0)
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        dec(0.5, 40.0).prop_map(Shape::Sphere),
        (dec(0.5, 40.0), dec(1.0, 360.0)).prop_map(|(r, f)| Shape::Cone(r, f)),
        (dec(0.5, 40.0), dec(1.0, 360.0), dec(0.0, 5.0))
            .prop_map(|(r, f, h)| Shape::Sector(r, f, h)),
        (dec(0.5, 30.0), dec(0.1, 1.0), dec(-10.0, 20.0)).prop_map(|(a, k, c)| Shape::Ellipse(
            a,
            (a * k * 100.0).round().max(1.0) / 100.0,
            c
        )),
    ]
}

fn scene() -> impl Strategy<Value = Scene> {
    (1usize..=3, 1usize..=3, 2usize..300, dec(5.0, 200.0)).prop_flat_map(|(nf, na, n, side)| {
        let hostile = prop::collection::vec(prop::collection::vec(any::<bool>(), nf), nf);
        let senses = prop::collection::vec(
            prop::collection::vec(
                (shape(), 0u8..3).prop_map(|(shape, filter)| Sense { shape, filter }),
                0..4,
            ),
            na,
        );
        let agent = (
            0..na,
            0..nf,
            [dec(-side, side), dec(0.0, 4.0), dec(-side, side)],
            [dec(-1.0, 1.0), dec(-1.0, 1.0), dec(-1.0, 1.0)],
        )
            .prop_filter("non-zero facing", |(_, _, _, f)| {
                f.iter().any(|c| *c != 0.0)
            })
            .prop_map(|(archetype, faction, pos, facing)| Agent {
                archetype,
                faction,
                pos,
                facing,
            });
        (hostile, senses, prop::collection::vec(agent, n)).prop_map(
            |(hostile, archetypes, agents)| Scene {
                hostile,
                archetypes,
                agents,
            },
        )
    })
}

fn ron(scene: &Scene) -> String {
    let mut s = String::from("(\n    format: 1,\n    factions: [\n");
    for (i, row) in scene.hostile.iter().enumerate() {
        let hostile: Vec<String> = row
            .iter()
            .enumerate()
            .filter(|&(j, h)| *h && j != i)
            .map(|(j, _)| format!("\"f{j}\""))
            .collect();
        let _ = writeln!(
            s,
            "        (name: \"f{i}\", hostile: [{}]),",
            hostile.join(", ")
        );
    }
    s.push_str("    ],\n    archetypes: {\n");
    for (i, senses) in scene.archetypes.iter().enumerate() {
        let _ = write!(s, "        \"a{i}\": (senses: [");
        for (k, sense) in senses.iter().enumerate() {
            let shape = match sense.shape {
                Shape::Sphere(r) => format!("Sphere(radius: {r:.2})"),
                Shape::Cone(r, f) => format!("Cone(range: {r:.2}, fov_deg: {f:.2})"),
                Shape::Sector(r, f, h) => {
                    format!("Sector(range: {r:.2}, fov_deg: {f:.2}, max_height_diff: {h:.2})")
                }
                Shape::Ellipse(a, b, c) => {
                    format!("Ellipse(a: {a:.2}, b: {b:.2}, center_ahead: {c:.2})")
                }
            };
            let filter = ["All", "Hostile", "Friendly"][sense.filter as usize];
            let _ = write!(s, "(name: \"s{k}\", shape: {shape}, filter: {filter}), ");
        }
        s.push_str("]),\n");
    }
    s.push_str("    },\n    agents: [\n");
    for (i, a) in scene.agents.iter().enumerate() {
        let _ = writeln!(
            s,
            "        (name: \"n{i:03}\", archetype: \"a{}\", faction: \"f{}\", pos: ({:.2}, {:.2}, {:.2}), facing: ({:.2}, {:.2}, {:.2})),",
            a.archetype,
            a.faction,
            a.pos[0],
            a.pos[1],
            a.pos[2],
            a.facing[0],
            a.facing[1],
            a.facing[2]
        );
    }
    s.push_str("    ],\n)\n");
    s
}

fn cos_half(fov_deg: f32) -> f32 {
    (fov_deg / 2.0).to_radians().cos()
}

/// Does an observer at `p` facing `f` (unit) sense a target at `q`?
fn senses(shape: &Shape, p: Vec3, f: Vec3, q: Vec3) -> bool {
    let d = q - p;
    match *shape {
        Shape::Sphere(r) => r * r > d.length_squared(),
        Shape::Cone(r, fov) => {
            let dsq = d.length_squared();
            dsq > 0.0 && r * r > dsq && f.dot(d * (1.0 / dsq.sqrt())) > cos_half(fov)
        }
        Shape::Sector(r, fov, h) => {
            let hd = Vec2::new(d.x, d.z);
            let dsq = hd.length_squared();
            let hf = Vec2::new(f.x, f.z).normalize_or_zero();
            d.y.abs() <= h
                && dsq > 0.0
                && r * r > dsq
                && hf.dot(hd * (1.0 / dsq.sqrt())) > cos_half(fov)
        }
        Shape::Ellipse(a, b, c_ahead) => {
            let hf = Vec2::new(f.x, f.z).normalize_or_zero();
            let c = (a * a - b * b).max(0.0).sqrt();
            let e = Vec2::new(p.x, p.z);
            let t = Vec2::new(q.x, q.z);
            t.distance(e + hf * (c_ahead - c)) + t.distance(e + hf * (c_ahead + c)) <= 2.0 * a
        }
    }
}

/// Per agent name, per sense name, the sorted names it senses.
fn brute_force(scene: &Scene) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let v = |a: [f32; 3]| Vec3::new(a[0], a[1], a[2]);
    let mut out = BTreeMap::new();
    for (i, a) in scene.agents.iter().enumerate() {
        let mut per_sense = BTreeMap::new();
        for (k, sense) in scene.archetypes[a.archetype].iter().enumerate() {
            let mut seen = Vec::new();
            for (j, b) in scene.agents.iter().enumerate() {
                if i == j {
                    continue;
                }
                let hostile = a.faction != b.faction && scene.hostile[a.faction][b.faction];
                let pass = match sense.filter {
                    1 => hostile,
                    2 => !hostile,
                    _ => true,
                };
                if pass && senses(&sense.shape, v(a.pos), v(a.facing).normalize(), v(b.pos)) {
                    seen.push(format!("n{j:03}"));
                }
            }
            seen.sort();
            per_sense.insert(format!("s{k}"), seen);
        }
        out.insert(format!("n{i:03}"), per_sense);
    }
    out
}

fn cli(scene: &Scene) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("scene.ron");
    std::fs::write(&file, ron(scene)).unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_kiai"))
        .args(["perceive", "--json"])
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["tick"], 0);
    let mut result = BTreeMap::new();
    for a in v["agents"].as_array().cloned().unwrap_or_default() {
        let mut per_sense = BTreeMap::new();
        for (k, list) in a["senses"].as_object().cloned().unwrap_or_default() {
            let names = list
                .as_array()
                .map(|l| {
                    l.iter()
                        .filter_map(|n| n.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            per_sense.insert(k, names);
        }
        result.insert(a["name"].as_str().unwrap_or_default().to_owned(), per_sense);
    }
    result
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn perceive_equals_all_pairs(scene in scene()) {
        prop_assert_eq!(cli(&scene), brute_force(&scene));
    }
}
