//! Edit → Generate waypoints: the panel's parameters, a preview of the net
//! kiai-nav generates from the map's bounds and walls (drawn over the map
//! before anything changes), and the one undoable edit that merges it in
//! as `kiai navgen --write` does (kiai-content's `merge`: hand-placed
//! waypoints and links kept and linked in, generated ones replaced, costs
//! painted on surviving links kept).

use kiai_content::def::{ContentDef, LinkDef, WallDef, WaypointDef};
use kiai_content::navgen::{gen_input, has_generated, is_generated, merge, params};
use kiai_core::glam::Vec2;
use kiai_nav::navgen::{GeneratedNet, generate, measure_coverage, regenerate_local, zone_around};

use super::doc::{Edit, Item};
use super::ops::Op;

/// Seed of the coverage samples (the figure is the same at every seed to
/// within a sample or two; a fixed one keeps it still while typing).
const SAMPLES_SEED: u64 = 1;

/// The Generate waypoints panel.
#[derive(Clone, Debug, Default)]
pub struct NavGen {
    /// Whether the panel is open (its preview is drawn while it is).
    pub open: bool,
    /// Agent radius, world units (>= 0).
    pub radius: f32,
    /// Coverage spacing and distance, world units (> 0.01).
    pub spacing: f32,
    /// The preview, and the inputs it was made for.
    preview: Option<(PreviewKey, Result<Preview, String>)>,
    /// The wall drag the generated net follows, if one is under way.
    pub follow: Option<Follow>,
}

/// What a preview was made for: document revision, radius and spacing
/// (their bits).
type PreviewKey = (u64, u32, u32);

/// What the panel's parameters generate now.
#[derive(Clone, Debug)]
pub struct Preview {
    /// The generated net (hand-placed waypoints first, as fixed points).
    pub net: GeneratedNet,
    /// How many of its waypoints were placed by hand.
    pub hand: usize,
    /// Fraction (0..=1) of walkable samples that see a waypoint within
    /// the spacing along a clear line.
    pub coverage: f32,
    /// Generation time, seconds (wall clock, shown only).
    pub seconds: f64,
    /// The agent radius and spacing it was generated with, world units.
    pub params: (f32, f32),
}

impl NavGen {
    /// Opens the panel with the parameters `def` was generated with (its
    /// `navgen`, else the archetypes' largest body radius and 8 radii of
    /// spacing), as `kiai navgen` without flags uses them.
    pub fn open(&mut self, def: &ContentDef) {
        (self.radius, self.spacing) = params(def);
        self.open = true;
    }

    /// Closes the panel and forgets the preview.
    pub fn close(&mut self) {
        self.open = false;
        self.preview = None;
    }

    /// Generates the preview for `def` at `revision` unless the one held is
    /// for the same revision and parameters.
    pub fn prepare(&mut self, def: &ContentDef, revision: u64) {
        if !self.open {
            return;
        }
        let key = (revision, self.radius.to_bits(), self.spacing.to_bits());
        if self.preview.as_ref().is_none_or(|(k, _)| *k != key) {
            self.preview = Some((key, preview(def, self.radius, self.spacing)));
        }
    }

    /// The preview of the last [`NavGen::prepare`]: the net, or why none
    /// can be generated.
    pub fn preview(&self) -> Option<&Result<Preview, String>> {
        self.preview.as_ref().map(|(_, p)| p)
    }
}

/// The net `def`'s walls and bounds generate at `radius` and `spacing`.
fn preview(def: &ContentDef, radius: f32, spacing: f32) -> Result<Preview, String> {
    // Timed for the panel only; nothing depends on it.
    let started = std::time::Instant::now();
    let input = gen_input(def, radius, spacing).map_err(|e| e.to_string())?;
    let net = generate(&input).map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    let coverage = measure_coverage(&input, &net, SAMPLES_SEED)
        .map_err(|e| e.to_string())?
        .coverage;
    Ok(Preview {
        hand: input.fixed.len(),
        net,
        coverage,
        seconds,
        params: (radius, spacing),
    })
}

/// The edit that merges `net` into `def`: every waypoint and link
/// replaced by the merged ones and the radius and spacing recorded in
/// `navgen` (one undo step), as `kiai navgen --write` writes them.
pub fn apply(def: &ContentDef, preview: &Preview) -> Result<Op, String> {
    let merged = merge(def, &preview.net, preview.params);
    let (radius, spacing) = preview.params;
    let recorded = (merged.navgen != def.navgen).then_some(Edit::Set {
        index: 0,
        old: Item::NavGen(def.navgen),
        new: Item::NavGen(merged.navgen),
    });
    if merged.waypoints == def.waypoints && merged.links == def.links {
        return match recorded {
            Some(edit) => Ok((
                edit,
                format!(
                    "the map already holds this net; recorded its radius {radius} and spacing {spacing}"
                ),
            )),
            None => Err("the map already holds this net: nothing to generate".into()),
        };
    }
    let mut edits = vec![replace_net(
        (&def.waypoints, &def.links),
        (&merged.waypoints, &merged.links),
    )];
    edits.extend(recorded);
    let edit = Edit::Batch(edits);
    let generated = merged.waypoints.iter().filter(|w| is_generated(w)).count();
    let message = format!(
        "generated {generated} waypoints and {} links ({} placed by hand kept); coverage {:.1}%",
        merged.links.len(),
        preview.hand,
        preview.coverage * 100.0
    );
    Ok((edit, message))
}

/// The edit that replaces the waypoints and links `old` by `new` (links
/// first, from the end, so that indices hold and no link names a missing
/// waypoint for longer than the edit).
fn replace_net(old: (&[WaypointDef], &[LinkDef]), new: (&[WaypointDef], &[LinkDef])) -> Edit {
    let mut edits = Vec::with_capacity(old.0.len() + old.1.len() + new.0.len() + new.1.len());
    for (index, l) in old.1.iter().enumerate().rev() {
        edits.push(Edit::Remove {
            index,
            item: Item::Link(l.clone()),
        });
    }
    for (index, w) in old.0.iter().enumerate().rev() {
        edits.push(Edit::Remove {
            index,
            item: Item::Waypoint(w.clone()),
        });
    }
    for (index, w) in new.0.iter().enumerate() {
        edits.push(Edit::Insert {
            index,
            item: Item::Waypoint(w.clone()),
        });
    }
    for (index, l) in new.1.iter().enumerate() {
        edits.push(Edit::Insert {
            index,
            item: Item::Link(l.clone()),
        });
    }
    Edit::Batch(edits)
}

/// A wall being dragged on a map with generated waypoints: the net follows
/// it, regenerated only around the wall ([`regenerate_local`]) each frame.
#[derive(Clone, Debug)]
pub struct Follow {
    /// The waypoints and links when the drag began.
    waypoints: Vec<WaypointDef>,
    links: Vec<LinkDef>,
    /// The net generated from the map when the drag began.
    net: GeneratedNet,
    /// Agent radius and spacing it was generated with.
    radius: f32,
    spacing: f32,
    /// Time of the last regeneration, seconds (shown only).
    pub seconds: f64,
}

/// `op` (a new wall) with the generated net regenerated around the wall,
/// as one step, when `def` has generated waypoints; `op` itself otherwise.
pub fn with_net(def: &ContentDef, op: Op) -> Op {
    let (edit, message) = op;
    let Some(mut follow) = Follow::start(def) else {
        return (edit, message);
    };
    let mut after = def.clone();
    let Some(wall) = edit
        .apply(&mut after)
        .ok()
        .and_then(|()| after.walls.last().cloned())
    else {
        return (edit, message);
    };
    follow.update(&mut after, (&wall, &wall));
    let net = follow.edit(&after);
    (
        Edit::Batch(vec![edit, net]),
        format!("{message}; the generated waypoints around it regenerated"),
    )
}

impl Follow {
    /// Starts following walls on `def` (before the drag changed it), with
    /// the parameters its net was generated with (its `navgen`, else
    /// `kiai navgen`'s defaults); `None` when nothing is generated there or
    /// no net can be (no bounds).
    pub fn start(def: &ContentDef) -> Option<Self> {
        if !has_generated(def) {
            return None;
        }
        let (radius, spacing) = params(def);
        let input = gen_input(def, radius, spacing).ok()?;
        let net = generate(&input).ok()?;
        Some(Self {
            waypoints: def.waypoints.clone(),
            links: def.links.clone(),
            net,
            radius,
            spacing,
            seconds: 0.0,
        })
    }

    /// Regenerates around `moved` (a wall's place at the drag's start and
    /// now) and writes the merged waypoints and links into `def` (whose
    /// walls are the current ones).
    pub fn update(&mut self, def: &mut ContentDef, moved: (&WallDef, &WallDef)) {
        // Timed for the status bar only.
        let started = std::time::Instant::now();
        let Ok(input) = gen_input(def, self.radius, self.spacing) else {
            return;
        };
        let ends =
            [moved.0.from, moved.0.to, moved.1.from, moved.1.to].map(|(x, z)| Vec2::new(x, z));
        let Ok(net) = regenerate_local(&input, &self.net, zone_around(ends)) else {
            return;
        };
        def.waypoints.clone_from(&self.waypoints);
        def.links.clone_from(&self.links);
        let merged = merge(def, &net, (self.radius, self.spacing));
        def.waypoints = merged.waypoints;
        def.links = merged.links;
        self.seconds = started.elapsed().as_secs_f64();
    }

    /// The edit from the drag's start to `def` now, waypoints and links
    /// only (the wall's own edit goes beside it).
    pub fn edit(&self, def: &ContentDef) -> Edit {
        replace_net((&self.waypoints, &self.links), (&def.waypoints, &def.links))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn village() -> ContentDef {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../content/demo/village.ron");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        kiai_content::parse(&text, path).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn applying_the_preview_is_what_kiai_navgen_writes_and_undoes_exactly() {
        let def = village();
        let mut panel = NavGen::default();
        panel.open(&def);
        panel.prepare(&def, 1);
        let Some(Ok(preview)) = panel.preview() else {
            panic!(
                "no preview: {:?}",
                panel.preview().map(|p| p.as_ref().err())
            );
        };
        assert!(preview.coverage > 0.999, "{}", preview.coverage);
        let (edit, message) = apply(&def, preview).unwrap_or_else(|e| panic!("{e}"));
        assert!(message.starts_with("generated "), "{message}");
        let mut after = def.clone();
        edit.apply(&mut after).unwrap_or_else(|e| panic!("{e}"));
        let input = gen_input(&def, panel.radius, panel.spacing).unwrap_or_else(|e| panic!("{e}"));
        let net = generate(&input).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(after, merge(&def, &net, (panel.radius, panel.spacing)));
        edit.inverse()
            .apply(&mut after)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(after, def, "undo restores the map exactly");
    }

    #[test]
    fn a_map_without_bounds_says_what_to_add() {
        let mut def = village();
        def.bounds = None;
        let mut panel = NavGen::default();
        panel.open(&def);
        panel.prepare(&def, 1);
        let Some(Err(why)) = panel.preview() else {
            panic!("a preview without bounds");
        };
        assert!(why.contains("add `bounds"), "{why}");
    }
}
