//! Generated waypoints in a content file: regenerating an unchanged file
//! is byte-identical; after one wall moves, hand-placed waypoints, hand
//! links and costs painted on surviving links are kept, and the changed
//! waypoints lie within `local_reach` of the wall.

use kiai_content::def::ContentDef;
use kiai_content::navgen::{gen_input, is_generated, merge};
use kiai_content::{parse, to_ron_preserving};
use kiai_core::glam::Vec2;
use kiai_nav::navgen::generate;

/// A walled yard with a hand waypoint pair and a comment.
const YARD: &str = r#"(
    format: 2,
    bounds: (min: (0.0, 0.0, 0.0), max: (40.0, 5.0, 30.0)),
    cost_lists: ["infantry"],
    // The gate guard's two posts, placed by hand.
    waypoints: [
        (id: 0, pos: (5.0, 0.0, 5.0), name: "post_a"),
        (id: 1, pos: (5.0, 0.0, 12.0), name: "post_b"),
    ],
    links: [(from: 0, to: 1, costs: {"infantry": 2.0}, two_way: true)],
    walls: [
        (from: (10.0, 0.0), to: (10.0, 20.0), height: 3.0),
        (from: (20.0, 10.0), to: (30.0, 10.0), height: 3.0),
        (from: (25.0, 18.0), to: (25.0, 28.0), height: 3.0),
        (from: (14.0, 24.0), to: (18.0, 24.0), height: 0.05),
    ],
)
"#;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// `text` with its generated net regenerated (radius 0.5, spacing 4).
fn regenerate(text: &str) -> Result<String> {
    let def = parse(text, "yard.ron").map_err(|d| format!("{:?}", d.0))?;
    let input = gen_input(&def, 0.5, 4.0)?;
    let net = generate(&input)?;
    Ok(to_ron_preserving(text, &merge(&def, &net, (0.5, 4.0)))?.text)
}

/// The parsed content of `text`.
fn def(text: &str) -> Result<ContentDef> {
    Ok(parse(text, "yard.ron").map_err(|d| format!("{:?}", d.0))?)
}

#[test]
fn regenerating_an_unchanged_file_is_byte_identical() -> Result<()> {
    let once = regenerate(YARD)?;
    assert!(once.contains("// The gate guard's two posts, placed by hand."));
    assert!(once.contains("\"generated\""));
    let twice = regenerate(&once)?;
    assert_eq!(once.as_bytes(), twice.as_bytes());
    Ok(())
}

#[test]
fn a_moved_wall_keeps_hand_work_and_changes_only_its_neighbourhood() -> Result<()> {
    let once = def(&regenerate(YARD)?)?;
    // Paint a cost on every generated link, then move the middle wall.
    let mut painted = once.clone();
    for l in &mut painted.links {
        if l.costs.is_empty() {
            l.costs.0.push(("infantry".to_owned(), 3.0));
        }
    }
    let text = to_ron_preserving(&regenerate(YARD)?, &painted)?.text;
    let moved = text.replace(
        "(from: (20.0, 10.0), to: (30.0, 10.0), height: 3.0)",
        "(from: (21.0, 12.0), to: (31.0, 12.0), height: 3.0)",
    );
    assert_ne!(moved, text);
    let after = def(&regenerate(&moved)?)?;
    // Hand waypoints and the hand link, unchanged.
    for w in painted.waypoints.iter().filter(|w| !is_generated(w)) {
        assert!(after.waypoints.contains(w), "hand waypoint {} lost", w.id);
    }
    assert!(after.links.contains(&painted.links[0]));
    // Every surviving generated link keeps its painted cost.
    for l in &after.links {
        if let Some(old) = painted
            .links
            .iter()
            .find(|o| (o.from, o.to) == (l.from, l.to))
        {
            assert_eq!(old, l, "link {} -> {} changed", l.from, l.to);
        }
    }
    let survivors = after
        .links
        .iter()
        .filter(|l| l.costs.get("infantry") == Some(&3.0))
        .count();
    assert!(
        survivors > after.links.len() / 2,
        "{survivors} painted links survived"
    );
    // Changed waypoints lie near the wall (old or new place).
    let input = gen_input(&after, 0.5, 4.0)?;
    let reach = input.local_reach();
    let walls = [
        (Vec2::new(20.0, 10.0), Vec2::new(30.0, 10.0)),
        (Vec2::new(21.0, 12.0), Vec2::new(31.0, 12.0)),
    ];
    let dist = |p: Vec2| {
        walls
            .iter()
            .map(|&(a, b)| {
                let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                p.distance(a + (b - a) * t)
            })
            .fold(f32::INFINITY, f32::min)
    };
    let before: Vec<_> = painted.waypoints.iter().map(|w| (w.id, w.pos)).collect();
    let now: Vec<_> = after.waypoints.iter().map(|w| (w.id, w.pos)).collect();
    for (id, pos) in before
        .iter()
        .filter(|w| !now.contains(w))
        .chain(now.iter().filter(|w| !before.contains(w)))
    {
        let p = Vec2::new(pos.0, pos.2);
        assert!(
            dist(p) <= reach,
            "waypoint {id} at {p} changed, {} from the wall",
            dist(p)
        );
    }
    Ok(())
}

#[test]
fn no_bounds_is_a_clear_error() -> Result<()> {
    let d = def("(format: 2)")?;
    let e = gen_input(&d, 0.5, 4.0).err().ok_or("no error")?;
    assert!(e.to_string().contains("add `bounds"));
    Ok(())
}
