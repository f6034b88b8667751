//! The value rules of content: numbers that must be finite, positive or in
//! range, and what each section's values require of the rest. Text content
//! ([`crate::validate`]) and packs (which hold the same values with names
//! resolved to indices) are checked by these same functions; only the
//! checks on names differ between the two.

use kiai_nav::navgen::MIN_SPACING;

use crate::format::def::{
    ArchetypeDef, BoundsDef, FalloffDef, FogDef, GuidanceDef, MovementDef, NavDef, NavGenDef,
    PerceptionBudgetDef, ProfileDef, SenseDef, ShapeDef, SightDef, Vec3Def, WallDef,
};
use crate::format::diag::Diagnostic;
use crate::format::locate::SpanIndex;

/// Most neighbours an archetype's avoidance may take into account.
const MAX_NEIGHBOURS: u32 = 64;

/// Collects diagnostics, placing each at its path in the text (1:1 when
/// there is no text, as for a pack).
pub(crate) struct Checker<'a> {
    spans: &'a SpanIndex,
    pub(crate) file: &'a str,
    pub(crate) out: Vec<Diagnostic>,
}

/// What an archetype's values are checked against: the rest of the content.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scene {
    /// The content has walls or regions.
    pub(crate) occluders: bool,
    /// The content has waypoints.
    pub(crate) waypoints: bool,
    /// The content has a `fog` section.
    pub(crate) fog: bool,
    /// The fog's tile size, world units, when its grid is valid.
    pub(crate) fog_tile: Option<f32>,
}

/// The values of an archetype, whichever form it came in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArchetypeValues<'a> {
    pub(crate) senses: &'a [SenseDef],
    pub(crate) movement: &'a MovementDef,
    pub(crate) body: crate::format::def::BodyDef,
    pub(crate) sight: Option<SightDef>,
    pub(crate) noise: Option<f32>,
    pub(crate) separation: Option<f32>,
    pub(crate) radius: Option<f32>,
    pub(crate) avoidance: Option<crate::format::def::AvoidanceDef>,
    pub(crate) script: Option<&'a str>,
    /// The game-registered decider it names (checked when a world is built).
    pub(crate) decider: Option<&'a str>,
}

/// The [`ArchetypeValues`] of `$a`: an `ArchetypeDef` or a pack's
/// `PackArchetype`, which hold them under the same names.
macro_rules! archetype_values {
    ($a:expr) => {{
        let a = $a;
        $crate::check::rules::ArchetypeValues {
            senses: &a.senses,
            movement: &a.movement,
            body: a.body,
            sight: a.sight,
            noise: a.noise,
            separation: a.separation,
            radius: a.radius,
            avoidance: a.avoidance,
            script: a.script.as_deref(),
            decider: a.decider.as_deref(),
        }
    }};
}
pub(crate) use archetype_values;

impl<'a> From<&'a ArchetypeDef> for ArchetypeValues<'a> {
    fn from(a: &'a ArchetypeDef) -> Self {
        archetype_values!(a)
    }
}

impl<'a> Checker<'a> {
    /// A checker for `file`, whose text `spans` indexes.
    pub(crate) fn new(spans: &'a SpanIndex, file: &'a str) -> Self {
        Self {
            spans,
            file,
            out: Vec::new(),
        }
    }

    /// Whether `path` names a value in the text.
    pub(crate) fn has_path(&self, path: &str) -> bool {
        self.spans.contains(path)
    }

    pub(crate) fn error(&mut self, path: &str, message: impl Into<String>) {
        let pos = self.spans.pos(path);
        self.out.push(Diagnostic::error(self.file, pos, message));
    }

    pub(crate) fn warning(&mut self, path: &str, message: impl Into<String>) {
        let pos = self.spans.pos(path);
        self.out.push(Diagnostic::warning(self.file, pos, message));
    }

    /// `value` must be finite and > 0.
    pub(crate) fn positive(&mut self, path: &str, what: &str, value: f32) {
        if !value.is_finite() {
            self.error(path, format!("{what} must be a finite number, not {value}"));
        } else if value <= 0.0 {
            self.error(path, format!("{what} must be greater than 0, not {value}"));
        }
    }

    /// `value` must be finite and >= 0.
    pub(crate) fn non_negative(&mut self, path: &str, what: &str, value: f32) {
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

    /// Every component of `v` must be finite; reports each that is not.
    pub(crate) fn finite3(&mut self, path: &str, what: &str, v: Vec3Def) -> bool {
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

    /// `tick_seconds`, `bounds`, `perception_budget` and `nav`.
    pub(crate) fn settings(
        &mut self,
        tick_seconds: f32,
        bounds: Option<BoundsDef>,
        (budget, nav): (Option<PerceptionBudgetDef>, NavDef),
    ) {
        self.positive("tick_seconds", "tick_seconds", tick_seconds);
        if let Some(b) = bounds {
            let ok = self.finite3("bounds.min", "bounds.min", b.min)
                & self.finite3("bounds.max", "bounds.max", b.max);
            if ok && (b.min.0 > b.max.0 || b.min.1 > b.max.1 || b.min.2 > b.max.2) {
                self.error(
                    "bounds.max",
                    "bounds.max must be at least bounds.min on every axis",
                );
            }
        }
        if budget.is_some_and(|b| b.max_rays_per_tick == 0) {
            self.error(
                "perception_budget.max_rays_per_tick",
                "max_rays_per_tick must be at least 1 (0 would freeze every occluded sense)",
            );
        }
        if nav.budget == Some(0) {
            self.error(
                "nav.budget",
                "nav.budget must be at least 1 waypoint per tick (0 would leave every walker without a route); write None for no limit",
            );
        }
    }

    /// `navgen`: the radius and spacing the generated waypoints were made
    /// with, as `kiai navgen` accepts them; a spacing wider than the map
    /// (`bounds` on X-Z) is allowed but warned about.
    pub(crate) fn navgen(&mut self, navgen: Option<NavGenDef>, bounds: Option<BoundsDef>) {
        let Some(NavGenDef { radius, spacing }) = navgen else {
            return;
        };
        if let Some(b) = bounds {
            let (w, d) = (b.max.0 - b.min.0, b.max.2 - b.min.2);
            let side = w.max(d);
            if spacing.is_finite() && spacing > side && side > 0.0 {
                self.warning(
                    "navgen.spacing",
                    format!(
                        "navgen.spacing {spacing} is wider than the map ({w} x {d} world units): \
                         coverage is checked at a handful of points and the net is sparse; \
                         regenerate with `kiai navgen {} --spacing S --write`, S at most {}",
                        self.file, side
                    ),
                );
            }
        }
        if !(radius.is_finite() && radius >= 0.0) {
            self.error(
                "navgen.radius",
                format!(
                    "navgen.radius must be a finite body radius >= 0 world units, not {radius}"
                ),
            );
        }
        if !(spacing.is_finite() && spacing > MIN_SPACING) {
            self.error(
                "navgen.spacing",
                format!(
                    "navgen.spacing must be finite and > {MIN_SPACING} world units, not {spacing}"
                ),
            );
        }
    }

    /// Waypoint `i`'s position must be finite (the path is formatted only
    /// for a problem: this runs per waypoint).
    pub(crate) fn waypoint_pos(&mut self, i: usize, pos: Vec3Def) {
        let (x, y, z) = pos;
        if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            self.finite3(&format!("waypoints[{i}].pos"), "pos", pos);
        }
    }

    /// Wall `i`: finite ends, positive height.
    pub(crate) fn wall(&mut self, i: usize, w: &WallDef) {
        let base = format!("walls[{i}]");
        for (field, (x, z)) in [("from", w.from), ("to", w.to)] {
            if !(x.is_finite() && z.is_finite()) {
                self.error(
                    &format!("{base}.{field}"),
                    format!("{field} must be finite, not ({x}, {z})"),
                );
            }
        }
        self.positive(&format!("{base}.height"), "height", w.height);
    }

    /// Region `i`'s polygon: at least 3 finite corners.
    pub(crate) fn polygon(&mut self, i: usize, polygon: &[(f32, f32)]) {
        let base = format!("regions[{i}]");
        if polygon.len() < 3 {
            self.error(
                &format!("{base}.polygon"),
                "a region's polygon needs at least 3 corners",
            );
        }
        for (j, (x, z)) in polygon.iter().enumerate() {
            if !(x.is_finite() && z.is_finite()) {
                self.error(
                    &format!("{base}.polygon[{j}]"),
                    format!("corner must be finite, not ({x}, {z})"),
                );
            }
        }
    }

    /// Sound `i`: a finite position and a volume >= 0.
    pub(crate) fn sound(&mut self, i: usize, pos: Vec3Def, volume: f32) {
        let base = format!("sounds[{i}]");
        self.finite3(&format!("{base}.pos"), "pos", pos);
        self.non_negative(&format!("{base}.volume"), "volume", volume);
    }

    /// The fog section against the bounds and the faction count; returns the
    /// tile size when the grid is valid (sights are checked against it).
    pub(crate) fn fog(
        &mut self,
        fog: &FogDef,
        bounds: Option<BoundsDef>,
        factions: usize,
    ) -> Option<f32> {
        self.positive("fog.tile_size", "tile_size", fog.tile_size);
        if !(1..=1024).contains(&fog.directions) {
            self.error(
                "fog.directions",
                format!("directions must be 1..=1024, not {}", fog.directions),
            );
        }
        if factions > kiai_core::fog::MAX_FACTIONS as usize {
            self.error(
                "fog",
                format!(
                    "fog of war supports at most {} factions",
                    kiai_core::fog::MAX_FACTIONS
                ),
            );
        }
        let Some(b) = bounds else {
            self.error(
                "fog",
                "fog needs `bounds`: the tile grid covers the bounds on X-Z",
            );
            return None;
        };
        match fog.grid(b) {
            Some(grid) => {
                for (i, &(x, z)) in fog.blocking.iter().enumerate() {
                    if x >= grid.width || z >= grid.height {
                        self.error(
                            &format!("fog.blocking[{i}]"),
                            format!(
                                "tile ({x}, {z}) is outside the {} x {} grid",
                                grid.width, grid.height
                            ),
                        );
                    }
                }
                Some(fog.tile_size)
            }
            None if fog.tile_size.is_finite() && fog.tile_size > 0.0 => {
                self.error(
                    "fog.tile_size",
                    "the grid would exceed 32768 tiles per side; use larger tiles",
                );
                None
            }
            None => None,
        }
    }

    /// Profile `i`: one weight form, weights and percentages in range,
    /// learning parameters.
    pub(crate) fn profile(&mut self, i: usize, p: &ProfileDef) {
        let base = format!("profiles{{{i}}}");
        match (p.chase, p.evade, &p.entries) {
            (Some(chase), Some(evade), None) => {
                self.non_negative(&format!("{base}.chase"), "chase", chase);
                self.non_negative(&format!("{base}.evade"), "evade", evade);
                if chase.is_finite() && evade.is_finite() && chase + evade <= 0.0 {
                    self.error(
                        &format!("{base}.chase"),
                        "chase + evade must be greater than 0",
                    );
                }
            }
            (None, None, Some(entries)) => {
                if entries.is_empty() {
                    self.error(&format!("{base}.entries"), "entries must not be empty");
                }
                for (j, e) in entries.iter().enumerate() {
                    if !(0..=1).contains(e) {
                        self.error(
                            &format!("{base}.entries[{j}]"),
                            format!("an entry is 0 (chase) or 1 (evade), not {e}"),
                        );
                    }
                }
            }
            _ => self.error(
                &base,
                "give either `chase` and `evade` weights or the article's `entries` array",
            ),
        }
        for (field, value) in [
            ("use_profile", p.use_profile),
            ("keep_decision", p.keep_decision),
        ] {
            if !(0.0..=100.0).contains(&value) {
                self.error(
                    &format!("{base}.{field}"),
                    format!("{field} is a percentage in 0..=100, not {value}"),
                );
            }
        }
        if let Some(l) = p.learning {
            let lb = format!("{base}.learning");
            self.positive(&format!("{lb}.rate"), "rate", l.rate);
            self.non_negative(&format!("{lb}.min_weight"), "min_weight", l.min_weight);
            self.non_negative(&format!("{lb}.max_weight"), "max_weight", l.max_weight);
            if l.max_weight < l.min_weight {
                self.error(
                    &format!("{lb}.max_weight"),
                    "max_weight must be at least min_weight",
                );
            }
            self.positive(
                &format!("{lb}.catch_distance"),
                "catch_distance",
                l.catch_distance,
            );
        }
    }

    /// Archetype `i`'s senses (shapes in range, `lose_range` beyond the
    /// reach) and noise.
    pub(crate) fn archetype_senses(&mut self, i: usize, a: ArchetypeValues<'_>, scene: &Scene) {
        let base = format!("archetypes{{{i}}}");
        for (j, s) in a.senses.iter().enumerate() {
            self.shape(&format!("{base}.senses[{j}].shape"), &s.shape);
        }
        for (j, sense) in a.senses.iter().enumerate() {
            let path = format!("{base}.senses[{j}]");
            if let Some(lose) = sense.lose_range {
                let reach = sense.shape.reach();
                if !(lose.is_finite() && lose >= reach) {
                    self.error(
                        &format!("{path}.lose_range"),
                        format!(
                            "lose_range must be at least the sense's reach ({reach}), not {lose}"
                        ),
                    );
                }
            }
            if sense.occluded && !scene.occluders {
                self.warning(
                    &format!("{path}.occluded"),
                    "occluded has no effect: the file has no walls or regions",
                );
            }
        }
        if let Some(noise) = a.noise {
            self.non_negative(&format!("{base}.noise"), "noise", noise);
        }
    }

    fn shape(&mut self, shape: &str, def: &ShapeDef) {
        let field = |f: &str| format!("{shape}.{f}");
        match *def {
            ShapeDef::Sphere { radius } => self.positive(&field("radius"), "radius", radius),
            ShapeDef::Cone { range, fov_deg } => {
                self.positive(&field("range"), "range", range);
                self.fov(&field("fov_deg"), fov_deg);
            }
            ShapeDef::Sector {
                range,
                fov_deg,
                max_height_diff,
            } => {
                self.positive(&field("range"), "range", range);
                self.fov(&field("fov_deg"), fov_deg);
                self.non_negative(
                    &field("max_height_diff"),
                    "max_height_diff",
                    max_height_diff,
                );
            }
            ShapeDef::Hearing { threshold, falloff } => {
                self.positive(&field("threshold"), "threshold", threshold);
                if let FalloffDef::Linear { range } = falloff {
                    self.positive(&field("falloff.range"), "range", range);
                }
            }
            ShapeDef::Ellipse { a, b, center_ahead } => {
                self.positive(&field("a"), "a", a);
                self.positive(&field("b"), "b", b);
                self.finite(&field("center_ahead"), "center_ahead", center_ahead);
                if a.is_finite() && b.is_finite() && b > a {
                    self.error(
                        &field("b"),
                        format!(
                            "b ({b}) must not exceed a ({a}): a is the half-length along the facing"
                        ),
                    );
                }
            }
        }
    }

    /// Archetype `i`'s sight (against the fog grid), and the missile and
    /// waypoint-walker movements.
    pub(crate) fn archetype_sight_and_guidance(
        &mut self,
        i: usize,
        a: ArchetypeValues<'_>,
        scene: &Scene,
    ) {
        let base = format!("archetypes{{{i}}}");
        if let Some(sight) = a.sight {
            self.sight(&format!("{base}.sight"), sight, scene);
        }
        let m = format!("{base}.movement");
        if let MovementDef::Missile {
            speed,
            turn_rate_deg,
            guidance,
            arrival_distance,
            precision,
            ..
        } = *a.movement
        {
            self.non_negative(&format!("{m}.speed"), "speed", speed);
            self.positive(
                &format!("{m}.turn_rate_deg"),
                "turn_rate_deg",
                turn_rate_deg,
            );
            self.non_negative(
                &format!("{m}.arrival_distance"),
                "arrival_distance",
                arrival_distance,
            );
            if !(-1.0..=1.0).contains(&precision) {
                self.error(
                    &format!("{m}.precision"),
                    format!("precision is a cosine in [-1, 1], not {precision}"),
                );
            }
            if let GuidanceDef::ProportionalNavigation { n } = guidance {
                self.positive(&format!("{m}.guidance.n"), "n", n);
            }
        }
        if let MovementDef::WaypointWalker {
            speed,
            arrive_radius,
            jitter,
            ..
        } = *a.movement
        {
            self.non_negative(&format!("{m}.speed"), "speed", speed);
            self.positive(
                &format!("{m}.arrive_radius"),
                "arrive_radius",
                arrive_radius,
            );
            self.non_negative(&format!("{m}.jitter"), "jitter", jitter);
            if !scene.waypoints {
                self.error(&m, "a WaypointWalker needs waypoints: the file has none");
            }
        }
    }

    fn sight(&mut self, path: &str, sight: SightDef, scene: &Scene) {
        let (SightDef::Circle { radius } | SightDef::Flashlight { radius, .. }) = sight;
        self.positive(&format!("{path}.radius"), "radius", radius);
        if let SightDef::Flashlight { fov_deg, .. } = sight {
            self.fov(&format!("{path}.fov_deg"), fov_deg);
        }
        match scene.fog_tile {
            Some(tile) if radius / tile > kiai_core::fog::MAX_SIGHT_RADIUS => self.error(
                &format!("{path}.radius"),
                format!(
                    "radius {radius} is {} tiles; at most {} tiles are supported",
                    radius / tile,
                    kiai_core::fog::MAX_SIGHT_RADIUS
                ),
            ),
            None if !scene.fog => {
                self.warning(path, "sight has no effect: the file has no `fog` section")
            }
            _ => {}
        }
    }

    /// Archetype `i`'s other movements, script path and separation.
    pub(crate) fn archetype_motion(&mut self, i: usize, a: ArchetypeValues<'_>) {
        let base = format!("archetypes{{{i}}}");
        if let MovementDef::Wander { speed, turn_deg } = *a.movement {
            self.non_negative(&format!("{base}.movement.speed"), "speed", speed);
            if !(0.0..=180.0).contains(&turn_deg) {
                self.error(
                    &format!("{base}.movement.turn_deg"),
                    format!("turn_deg must be in [0, 180], not {turn_deg}"),
                );
            }
        }
        if let Some(script) = a.script
            && script.trim().is_empty()
        {
            self.error(&format!("{base}.script"), "script path must not be empty");
        }
        if let Some(sep) = a.separation {
            self.positive(&format!("{base}.separation"), "separation", sep);
        }
        if let Some(radius) = a.radius {
            self.non_negative(&format!("{base}.radius"), "radius", radius);
        }
        if let Some(av) = a.avoidance {
            self.avoidance(&format!("{base}.avoidance"), av);
        }
        if let MovementDef::Custom { max_speed, .. } = *a.movement {
            self.non_negative(
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
        } = *a.movement
        {
            self.walker(
                &format!("{base}.movement"),
                min_speed,
                max_speed,
                direction_change_factor,
            );
        }
    }

    /// An archetype's avoidance: positive horizons, at most 64 neighbours.
    fn avoidance(&mut self, base: &str, av: crate::format::def::AvoidanceDef) {
        self.positive(
            &format!("{base}.time_horizon"),
            "time_horizon",
            av.time_horizon,
        );
        self.positive(
            &format!("{base}.wall_time_horizon"),
            "wall_time_horizon",
            av.wall_time_horizon,
        );
        if av.max_neighbours > MAX_NEIGHBOURS {
            self.error(
                &format!("{base}.max_neighbours"),
                format!(
                    "max_neighbours must be at most {MAX_NEIGHBOURS}, not {}",
                    av.max_neighbours
                ),
            );
        }
    }

    /// An agent's standing goal must be finite.
    pub(crate) fn goal(&mut self, i: usize, goal: Option<Vec3Def>) {
        if let Some(g) = goal {
            self.finite3(&format!("agents[{i}].goal"), "goal", g);
        }
    }

    fn walker(&mut self, m: &str, min_speed: f32, max_speed: f32, direction_change_factor: u32) {
        self.non_negative(&format!("{m}.min_speed"), "min_speed", min_speed);
        self.non_negative(&format!("{m}.max_speed"), "max_speed", max_speed);
        if min_speed.is_finite() && max_speed.is_finite() && max_speed < min_speed {
            self.error(
                &format!("{m}.max_speed"),
                format!("max_speed ({max_speed}) must be at least min_speed ({min_speed})"),
            );
        }
        if direction_change_factor < kiai_core::steering::MIN_DIRECTION_CHANGE_FACTOR {
            self.warning(
                &format!("{m}.direction_change_factor"),
                format!(
                    "direction_change_factor {direction_change_factor} counts as {}",
                    kiai_core::steering::MIN_DIRECTION_CHANGE_FACTOR
                ),
            );
        }
    }

    /// Agent `i`: a finite position, a finite non-zero facing; a warning
    /// when it starts outside the bounds.
    pub(crate) fn agent(
        &mut self,
        i: usize,
        name: &str,
        (pos, facing): (Vec3Def, Vec3Def),
        bounds: Option<BoundsDef>,
    ) {
        // Paths are formatted only for problems: this runs per agent.
        let base = || format!("agents[{i}]");
        let finite = |v: Vec3Def| v.0.is_finite() && v.1.is_finite() && v.2.is_finite();
        let pos_ok = finite(pos) || self.finite3(&format!("{}.pos", base()), "pos", pos);
        let facing_ok =
            finite(facing) || self.finite3(&format!("{}.facing", base()), "facing", facing);
        if facing_ok && facing.0 == 0.0 && facing.1 == 0.0 && facing.2 == 0.0 {
            self.error(
                &format!("{}.facing", base()),
                "facing must not be zero: it is a direction",
            );
        }
        if let (true, Some(b)) = (pos_ok, bounds) {
            let inside = |v: f32, lo: f32, hi: f32| v >= lo && v <= hi;
            if !(inside(pos.0, b.min.0, b.max.0)
                && inside(pos.1, b.min.1, b.max.1)
                && inside(pos.2, b.min.2, b.max.2))
            {
                self.warning(
                    &format!("{}.pos", base()),
                    format!("agent `{name}` starts outside the bounds"),
                );
            }
        }
    }
}
