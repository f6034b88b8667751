//! Semantic checks on parsed content: every problem at once, in file order.

use std::collections::BTreeMap;

use kiai_core::MAX_FACTIONS;

use crate::def::{ContentDef, FalloffDef, MovementDef, ShapeDef, SightDef, Vec3Def};
use crate::diag::{Diagnostic, hint};
use crate::locate::SpanIndex;

struct Checker<'a> {
    spans: &'a SpanIndex,
    file: &'a str,
    out: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn error(&mut self, path: &str, message: impl Into<String>) {
        let pos = self.spans.pos(path);
        self.out.push(Diagnostic::error(self.file, pos, message));
    }

    fn warning(&mut self, path: &str, message: impl Into<String>) {
        let pos = self.spans.pos(path);
        self.out.push(Diagnostic::warning(self.file, pos, message));
    }

    /// `value` must be finite and > 0.
    fn positive(&mut self, path: &str, what: &str, value: f32) {
        if !value.is_finite() {
            self.error(path, format!("{what} must be a finite number, not {value}"));
        } else if value <= 0.0 {
            self.error(path, format!("{what} must be greater than 0, not {value}"));
        }
    }

    /// `value` must be finite and >= 0.
    fn non_negative(&mut self, path: &str, what: &str, value: f32) {
        if !value.is_finite() {
            self.error(path, format!("{what} must be a finite number, not {value}"));
        } else if value < 0.0 {
            self.error(path, format!("{what} must be 0 or more, not {value}"));
        }
    }

    fn finite(&mut self, path: &str, what: &str, value: f32) {
        if !value.is_finite() {
            self.error(path, format!("{what} must be a finite number, not {value}"));
        }
    }

    fn finite3(&mut self, path: &str, what: &str, v: Vec3Def) -> bool {
        let mut ok = true;
        for (i, c) in [v.0, v.1, v.2].into_iter().enumerate() {
            if !c.is_finite() {
                self.error(
                    &format!("{path}[{i}]"),
                    format!("{what} must be finite, not {c}"),
                );
                ok = false;
            }
        }
        ok
    }

    fn fov(&mut self, path: &str, fov_deg: f32) {
        if !(fov_deg > 0.0 && fov_deg <= 360.0) {
            self.error(
                path,
                format!("fov_deg must be in (0, 360] degrees (the full angle), not {fov_deg}"),
            );
        }
    }

    /// Reports names given more than once (at the later ones).
    fn unique<'n>(&mut self, what: &str, names: impl IntoIterator<Item = (String, &'n str)>) {
        let mut seen: BTreeMap<&str, ()> = BTreeMap::new();
        for (path, name) in names {
            if name.is_empty() {
                self.error(&path, format!("{what} name must not be empty"));
            } else if seen.insert(name, ()).is_some() {
                self.error(&path, format!("duplicate {what} name `{name}`"));
            }
        }
    }
}

/// Checks `def` (parsed from the text `spans` indexes) and returns every
/// problem found, errors and warnings, ordered by position.
pub fn validate(def: &ContentDef, spans: &SpanIndex, file: &str) -> Vec<Diagnostic> {
    let mut c = Checker {
        spans,
        file,
        out: Vec::new(),
    };
    if def.format != crate::FORMAT_VERSION {
        c.error("format", crate::load::unsupported(u64::from(def.format)));
    }
    c.positive("tick_seconds", "tick_seconds", def.tick_seconds);
    if let Some(b) = def.bounds {
        let ok = c.finite3("bounds.min", "bounds.min", b.min)
            & c.finite3("bounds.max", "bounds.max", b.max);
        if ok && (b.min.0 > b.max.0 || b.min.1 > b.max.1 || b.min.2 > b.max.2) {
            c.error(
                "bounds.max",
                "bounds.max must be at least bounds.min on every axis",
            );
        }
    }
    if def
        .perception_budget
        .is_some_and(|b| b.max_rays_per_tick == 0)
    {
        c.error(
            "perception_budget.max_rays_per_tick",
            "max_rays_per_tick must be at least 1 (0 would freeze every occluded sense)",
        );
    }

    // Factions.
    c.unique(
        "faction",
        def.factions
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("factions[{i}].name"), f.name.as_str())),
    );
    if def.factions.len() > MAX_FACTIONS {
        c.error(
            &format!("factions[{MAX_FACTIONS}]"),
            format!("at most {MAX_FACTIONS} factions are supported"),
        );
    }
    let faction_names = || def.factions.iter().map(|f| f.name.as_str());
    for (i, f) in def.factions.iter().enumerate() {
        for (j, h) in f.hostile.iter().enumerate() {
            let path = format!("factions[{i}].hostile[{j}]");
            if !faction_names().any(|n| n == h) {
                c.error(
                    &path,
                    format!("unknown faction `{h}`{}", hint(h, faction_names())),
                );
            } else if *h == f.name {
                c.warning(
                    &path,
                    format!("faction `{h}` is listed as hostile to itself; ignored"),
                );
            }
        }
    }

    // Navigation.
    c.unique(
        "cost list",
        def.cost_lists
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("cost_lists[{i}]"), n.as_str())),
    );
    // Paths are formatted only for problems: these loops run per waypoint
    // and per link, hundreds of thousands of times on big maps.
    for (i, w) in def.waypoints.iter().enumerate() {
        let (x, y, z) = w.pos;
        if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            c.finite3(&format!("waypoints[{i}].pos"), "pos", w.pos);
        }
    }
    let ids = crate::ids::WaypointIndex::new(&def.waypoints);
    if ids.has_duplicates() {
        let mut seen: BTreeMap<u32, ()> = BTreeMap::new();
        for (i, w) in def.waypoints.iter().enumerate() {
            if seen.insert(w.id, ()).is_some() {
                c.error(
                    &format!("waypoints[{i}].id"),
                    format!("duplicate waypoint id {}", w.id),
                );
            }
        }
    }
    let known = |id: u32| ids.get(id).is_some();
    for (i, l) in def.links.iter().enumerate() {
        let base = || format!("links[{i}]");
        for (field, id) in [("from", l.from), ("to", l.to)] {
            if !known(id) {
                c.error(
                    &format!("{}.{field}", base()),
                    format!(
                        "link {} -> {} names waypoint {id}, which does not exist",
                        l.from, l.to
                    ),
                );
            }
        }
        if l.from == l.to {
            c.warning(
                &format!("{}.to", base()),
                format!("waypoint {} links to itself", l.from),
            );
        }
        let list_names = || {
            def.cost_lists.iter().map(String::as_str).chain(
                def.cost_lists
                    .is_empty()
                    .then_some(crate::DEFAULT_COST_LIST),
            )
        };
        for (j, (list, cost)) in l.costs.iter().enumerate() {
            let key = || format!("{}.costs{{{j}}}", base());
            if !list_names().any(|n| n == list) {
                c.error(
                    &key(),
                    format!(
                        "unknown cost list `{list}`{}",
                        match hint(list, list_names()) {
                            h if h.is_empty() => format!(
                                "; this file has: {}",
                                list_names().collect::<Vec<_>>().join(", ")
                            ),
                            h => h,
                        }
                    ),
                );
            } else if l.costs.position(list) != Some(j) {
                c.error(&key(), format!("cost list `{list}` given twice"));
            }
            if !(cost.is_finite() && *cost >= 0.0) {
                // Format 2 writes `{"name": cost}`, format 1 wrote `[cost]`.
                let value = format!("{}#value", key());
                let path = if c.spans.contains(&value) {
                    value
                } else {
                    format!("{}.costs[{j}]", base())
                };
                c.non_negative(&path, "a cost multiplier", *cost);
            }
        }
    }

    // Walls, regions, sounds.
    for (i, w) in def.walls.iter().enumerate() {
        let base = format!("walls[{i}]");
        for (field, (x, z)) in [("from", w.from), ("to", w.to)] {
            if !(x.is_finite() && z.is_finite()) {
                c.error(
                    &format!("{base}.{field}"),
                    format!("{field} must be finite, not ({x}, {z})"),
                );
            }
        }
        c.positive(&format!("{base}.height"), "height", w.height);
    }
    c.unique(
        "region",
        def.regions
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("regions[{i}].name"), r.name.as_str())),
    );
    let region_names = || def.regions.iter().map(|r| r.name.as_str());
    for (i, r) in def.regions.iter().enumerate() {
        let base = format!("regions[{i}]");
        if r.polygon.len() < 3 {
            c.error(
                &format!("{base}.polygon"),
                "a region's polygon needs at least 3 corners",
            );
        }
        for (j, (x, z)) in r.polygon.iter().enumerate() {
            if !(x.is_finite() && z.is_finite()) {
                c.error(
                    &format!("{base}.polygon[{j}]"),
                    format!("corner must be finite, not ({x}, {z})"),
                );
            }
        }
        for (j, seen) in r.sees.iter().flatten().enumerate() {
            if !region_names().any(|n| n == seen) {
                c.error(
                    &format!("{base}.sees[{j}]"),
                    format!("unknown region `{seen}`{}", hint(seen, region_names())),
                );
            }
        }
    }
    let agent_names = || def.agents.iter().map(|a| a.name.as_str());
    for (i, snd) in def.sounds.iter().enumerate() {
        let base = format!("sounds[{i}]");
        c.finite3(&format!("{base}.pos"), "pos", snd.pos);
        c.non_negative(&format!("{base}.volume"), "volume", snd.volume);
        if let Some(src) = &snd.source
            && !agent_names().any(|n| n == src)
        {
            c.error(
                &format!("{base}.source"),
                format!("unknown agent `{src}`{}", hint(src, agent_names())),
            );
        }
    }

    // Fog of war.
    let mut fog_tile = None;
    if let Some(fog) = &def.fog {
        c.positive("fog.tile_size", "tile_size", fog.tile_size);
        if !(1..=1024).contains(&fog.directions) {
            c.error(
                "fog.directions",
                format!("directions must be 1..=1024, not {}", fog.directions),
            );
        }
        if def.factions.len() > kiai_core::fog::MAX_FACTIONS as usize {
            c.error(
                "fog",
                format!(
                    "fog of war supports at most {} factions",
                    kiai_core::fog::MAX_FACTIONS
                ),
            );
        }
        match def.bounds {
            None => c.error(
                "fog",
                "fog needs `bounds`: the tile grid covers the bounds on X-Z",
            ),
            Some(b) => match crate::build::fog_grid(fog, b) {
                Some(grid) => {
                    for (i, &(x, z)) in fog.blocking.iter().enumerate() {
                        if x >= grid.width || z >= grid.height {
                            c.error(
                                &format!("fog.blocking[{i}]"),
                                format!(
                                    "tile ({x}, {z}) is outside the {} x {} grid",
                                    grid.width, grid.height
                                ),
                            );
                        }
                    }
                    fog_tile = Some(fog.tile_size);
                }
                None if fog.tile_size.is_finite() && fog.tile_size > 0.0 => c.error(
                    "fog.tile_size",
                    "the grid would exceed 32768 tiles per side; use larger tiles",
                ),
                None => {}
            },
        }
    }

    // Profiles.
    c.unique(
        "profile",
        def.profiles
            .0
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (format!("profiles{{{i}}}"), name.as_str())),
    );
    for (i, (_, p)) in def.profiles.0.iter().enumerate() {
        let base = format!("profiles{{{i}}}");
        match (p.chase, p.evade, &p.entries) {
            (Some(chase), Some(evade), None) => {
                c.non_negative(&format!("{base}.chase"), "chase", chase);
                c.non_negative(&format!("{base}.evade"), "evade", evade);
                if chase.is_finite() && evade.is_finite() && chase + evade <= 0.0 {
                    c.error(
                        &format!("{base}.chase"),
                        "chase + evade must be greater than 0",
                    );
                }
            }
            (None, None, Some(entries)) => {
                if entries.is_empty() {
                    c.error(&format!("{base}.entries"), "entries must not be empty");
                }
                for (j, e) in entries.iter().enumerate() {
                    if !(0..=1).contains(e) {
                        c.error(
                            &format!("{base}.entries[{j}]"),
                            format!("an entry is 0 (chase) or 1 (evade), not {e}"),
                        );
                    }
                }
            }
            _ => c.error(
                &base,
                "give either `chase` and `evade` weights or the seed's `entries` array",
            ),
        }
        for (field, value) in [
            ("use_profile", p.use_profile),
            ("keep_decision", p.keep_decision),
        ] {
            if !(0.0..=100.0).contains(&value) {
                c.error(
                    &format!("{base}.{field}"),
                    format!("{field} is a percentage in 0..=100, not {value}"),
                );
            }
        }
        if let Some(l) = p.learning {
            let lb = format!("{base}.learning");
            c.positive(&format!("{lb}.rate"), "rate", l.rate);
            c.non_negative(&format!("{lb}.min_weight"), "min_weight", l.min_weight);
            c.non_negative(&format!("{lb}.max_weight"), "max_weight", l.max_weight);
            if l.max_weight < l.min_weight {
                c.error(
                    &format!("{lb}.max_weight"),
                    "max_weight must be at least min_weight",
                );
            }
            c.positive(
                &format!("{lb}.catch_distance"),
                "catch_distance",
                l.catch_distance,
            );
        }
    }
    let profile_names = || def.profiles.0.iter().map(|(n, _)| n.as_str());

    // Archetypes.
    c.unique(
        "archetype",
        def.archetypes
            .0
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (format!("archetypes{{{i}}}"), name.as_str())),
    );
    for (i, (_, a)) in def.archetypes.0.iter().enumerate() {
        let base = format!("archetypes{{{i}}}");
        c.unique(
            "sense",
            a.senses
                .iter()
                .enumerate()
                .map(|(j, s)| (format!("{base}.senses[{j}].name"), s.name.as_str())),
        );
        for (j, s) in a.senses.iter().enumerate() {
            let shape = format!("{base}.senses[{j}].shape");
            let field = |f: &str| format!("{shape}.{f}");
            match s.shape {
                ShapeDef::Sphere { radius } => c.positive(&field("radius"), "radius", radius),
                ShapeDef::Cone { range, fov_deg } => {
                    c.positive(&field("range"), "range", range);
                    c.fov(&field("fov_deg"), fov_deg);
                }
                ShapeDef::Sector {
                    range,
                    fov_deg,
                    max_height_diff,
                } => {
                    c.positive(&field("range"), "range", range);
                    c.fov(&field("fov_deg"), fov_deg);
                    c.non_negative(
                        &field("max_height_diff"),
                        "max_height_diff",
                        max_height_diff,
                    );
                }
                ShapeDef::Hearing { threshold, falloff } => {
                    c.positive(&field("threshold"), "threshold", threshold);
                    if let FalloffDef::Linear { range } = falloff {
                        c.positive(&field("falloff.range"), "range", range);
                    }
                }
                ShapeDef::Ellipse { a, b, center_ahead } => {
                    c.positive(&field("a"), "a", a);
                    c.positive(&field("b"), "b", b);
                    c.finite(&field("center_ahead"), "center_ahead", center_ahead);
                    if a.is_finite() && b.is_finite() && b > a {
                        c.error(
                            &field("b"),
                            format!("b ({b}) must not exceed a ({a}): a is the half-length along the facing"),
                        );
                    }
                }
            }
        }
        for (j, sense) in a.senses.iter().enumerate() {
            let path = format!("{base}.senses[{j}]");
            if let Some(lose) = sense.lose_range {
                let reach = crate::build::shape(&sense.shape).reach();
                if !(lose.is_finite() && lose >= reach) {
                    c.error(
                        &format!("{path}.lose_range"),
                        format!(
                            "lose_range must be at least the sense's reach ({reach}), not {lose}"
                        ),
                    );
                }
            }
            if sense.occluded && def.walls.is_empty() && def.regions.is_empty() {
                c.warning(
                    &format!("{path}.occluded"),
                    "occluded has no effect: the file has no walls or regions",
                );
            }
        }
        if let Some(noise) = a.noise {
            c.non_negative(&format!("{base}.noise"), "noise", noise);
        }
        if let Some(p) = &a.profile
            && def.profiles.get(p).is_none()
        {
            c.error(
                &format!("{base}.profile"),
                format!("unknown profile `{p}`{}", hint(p, profile_names())),
            );
        }
        if let Some(sight) = a.sight {
            let path = format!("{base}.sight");
            let (SightDef::Circle { radius } | SightDef::Flashlight { radius, .. }) = sight;
            c.positive(&format!("{path}.radius"), "radius", radius);
            if let SightDef::Flashlight { fov_deg, .. } = sight {
                c.fov(&format!("{path}.fov_deg"), fov_deg);
            }
            match fog_tile {
                Some(tile) if radius / tile > kiai_core::fog::MAX_SIGHT_RADIUS => c.error(
                    &format!("{path}.radius"),
                    format!(
                        "radius {radius} is {} tiles; at most {} tiles are supported",
                        radius / tile,
                        kiai_core::fog::MAX_SIGHT_RADIUS
                    ),
                ),
                None if def.fog.is_none() => {
                    c.warning(&path, "sight has no effect: the file has no `fog` section")
                }
                _ => {}
            }
        }
        if let MovementDef::Missile {
            speed,
            turn_rate_deg,
            guidance,
            arrival_distance,
            precision,
            ..
        } = a.movement
        {
            let m = format!("{base}.movement");
            c.non_negative(&format!("{m}.speed"), "speed", speed);
            c.positive(
                &format!("{m}.turn_rate_deg"),
                "turn_rate_deg",
                turn_rate_deg,
            );
            c.non_negative(
                &format!("{m}.arrival_distance"),
                "arrival_distance",
                arrival_distance,
            );
            if !(-1.0..=1.0).contains(&precision) {
                c.error(
                    &format!("{m}.precision"),
                    format!("precision is a cosine in [-1, 1], not {precision}"),
                );
            }
            if let crate::def::GuidanceDef::ProportionalNavigation { n } = guidance {
                c.positive(&format!("{m}.guidance.n"), "n", n);
            }
        }
        if let MovementDef::WaypointWalker {
            speed,
            arrive_radius,
            jitter,
            ..
        } = a.movement
        {
            let m = format!("{base}.movement");
            c.non_negative(&format!("{m}.speed"), "speed", speed);
            c.positive(
                &format!("{m}.arrive_radius"),
                "arrive_radius",
                arrive_radius,
            );
            c.non_negative(&format!("{m}.jitter"), "jitter", jitter);
            if def.waypoints.is_empty() {
                c.error(&m, "a WaypointWalker needs waypoints: the file has none");
            }
        }
        if let Some(list) = &a.cost_list
            && !def.cost_lists.iter().any(|l| l == list)
        {
            c.error(
                &format!("{base}.cost_list"),
                format!(
                    "unknown cost list `{list}`{}",
                    hint(list, def.cost_lists.iter().map(String::as_str))
                ),
            );
        }
        if let MovementDef::Wander { speed, turn_deg } = a.movement {
            c.non_negative(&format!("{base}.movement.speed"), "speed", speed);
            if !(0.0..=180.0).contains(&turn_deg) {
                c.error(
                    &format!("{base}.movement.turn_deg"),
                    format!("turn_deg must be in [0, 180], not {turn_deg}"),
                );
            }
        }
        if let Some(script) = &a.script
            && script.trim().is_empty()
        {
            c.error(&format!("{base}.script"), "script path must not be empty");
        }
        if let Some(sep) = a.separation {
            c.positive(&format!("{base}.separation"), "separation", sep);
        }
        if let MovementDef::Custom { max_speed, .. } = a.movement {
            c.non_negative(
                &format!("{base}.movement.max_speed"),
                "max_speed",
                max_speed,
            );
        }
        if let MovementDef::Walker {
            min_speed,
            max_speed,
            direction_change_factor,
            ..
        } = a.movement
        {
            let m = format!("{base}.movement");
            c.non_negative(&format!("{m}.min_speed"), "min_speed", min_speed);
            c.non_negative(&format!("{m}.max_speed"), "max_speed", max_speed);
            if min_speed.is_finite() && max_speed.is_finite() && max_speed < min_speed {
                c.error(
                    &format!("{m}.max_speed"),
                    format!("max_speed ({max_speed}) must be at least min_speed ({min_speed})"),
                );
            }
            if direction_change_factor < kiai_core::steering::MIN_DIRECTION_CHANGE_FACTOR {
                c.warning(
                    &format!("{m}.direction_change_factor"),
                    format!(
                        "direction_change_factor {direction_change_factor} counts as {}",
                        kiai_core::steering::MIN_DIRECTION_CHANGE_FACTOR
                    ),
                );
            }
        }
    }

    // Agents.
    c.unique(
        "agent",
        def.agents
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("agents[{i}].name"), a.name.as_str())),
    );
    let archetype_names = || def.archetypes.0.iter().map(|(n, _)| n.as_str());
    for (i, a) in def.agents.iter().enumerate() {
        let base = format!("agents[{i}]");
        if def.archetypes.get(&a.archetype).is_none() {
            c.error(
                &format!("{base}.archetype"),
                format!(
                    "unknown archetype `{}`{}",
                    a.archetype,
                    hint(&a.archetype, archetype_names())
                ),
            );
        }
        if !faction_names().any(|n| n == a.faction) {
            c.error(
                &format!("{base}.faction"),
                format!(
                    "unknown faction `{}`{}",
                    a.faction,
                    hint(&a.faction, faction_names())
                ),
            );
        }
        let pos_ok = c.finite3(&format!("{base}.pos"), "pos", a.pos);
        if c.finite3(&format!("{base}.facing"), "facing", a.facing)
            && a.facing.0 == 0.0
            && a.facing.1 == 0.0
            && a.facing.2 == 0.0
        {
            c.error(
                &format!("{base}.facing"),
                "facing must not be zero: it is a direction",
            );
        }
        if let (true, Some(b)) = (pos_ok, def.bounds) {
            let p = a.pos;
            let inside = |v: f32, lo: f32, hi: f32| v >= lo && v <= hi;
            if !(inside(p.0, b.min.0, b.max.0)
                && inside(p.1, b.min.1, b.max.1)
                && inside(p.2, b.min.2, b.max.2))
            {
                c.warning(
                    &format!("{base}.pos"),
                    format!("agent `{}` starts outside the bounds", a.name),
                );
            }
        }
    }

    c.out.sort_by_key(|d| (d.line, d.column));
    c.out
}
