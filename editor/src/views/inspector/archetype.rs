//! The inspector of an archetype: every field, in sections. A new
//! archetype field gets a row in the section it belongs to (steering
//! fields such as the agent radius and avoidance belong in
//! [`movement`], next to the movement's own).

use eframe::egui::{self, RichText, Ui};
use kiai_content::def::{
    ArchetypeDef, AvoidanceDef, BodyDef, ControlDef, GuidanceDef, MovementDef, RouteDef, SightDef,
};

use super::edit;
use crate::model::Item;
use crate::views::widgets::{self, Form, choose, form};
use crate::views::{Out, PathFor, UiIntent, ViewCtx};

/// What the sections may read besides the archetype.
struct Names {
    profiles: Vec<String>,
    lists: Vec<String>,
}

/// Draws archetype `index`.
pub(crate) fn ui(ctx: &ViewCtx<'_>, index: usize, ui: &mut Ui, out: &mut Out) {
    let def = ctx.model.doc.def();
    let Some((name, arch)) = def.archetypes.0.get(index) else {
        return;
    };
    ui.heading(format!("Archetype {name}"));
    if let Some(w) = &ctx.model.what_if {
        ui.label(
            RichText::new(format!(
                "What if…: edits here change the fork at tick {} (not the map); Run compares.",
                w.at
            ))
            .color(ctx.palette.status[1]),
        );
    } else if ctx.model.is_live() {
        ui.label(
            RichText::new(
                "The run keeps the archetype it started with: reset (Ctrl+R) to use edits.",
            )
            .weak(),
        );
    }
    let names = Names {
        profiles: def.profiles.0.iter().map(|(n, _)| n.clone()).collect(),
        lists: ctx.model.doc.cost_list_names(),
    };
    let mut pick_script = false;
    edit(
        out,
        index,
        &(name.clone(), arch.clone()),
        |(n, a)| Item::archetype(n, a),
        |(name, a)| {
            form(ui, ("archetype", index), |f| {
                f.field("name", "Unique; agents name their archetype", |ui| {
                    ui.add(widgets::text(name, 180.0))
                });
                body(f, a);
                decision(f, a, &names, &mut pick_script);
                movement(f, a, &names);
                fog_sight(f, a);
                super::lod::tiers(f, a);
            });
            ui.add_space(4.0);
            ui.label(RichText::new("Senses").strong());
            super::sense::list(ui, index, &mut a.senses);
        },
    );
    if pick_script {
        out.ui(UiIntent::Ask(PathFor::Script(index)));
    }
}

/// Who moves the bodies.
fn body(f: &mut Form<'_>, a: &mut ArchetypeDef) {
    f.row(
        "body",
        "Who moves these agents: kiai (Simulated), the game following kiai's desired velocity (Driven), or the game alone (Kinematic: kiai only senses with them)",
        |ui| {
            for (b, label) in [
                (BodyDef::Simulated, "Simulated"),
                (BodyDef::Driven, "Driven"),
                (BodyDef::Kinematic, "Kinematic"),
            ] {
                ui.selectable_value(&mut a.body, b, label);
            }
        },
    );
}

/// Profile, decider, script, noise.
fn decision(f: &mut Form<'_>, a: &mut ArchetypeDef, names: &Names, pick_script: &mut bool) {
    let mut profile = a.profile.clone().unwrap_or_default();
    let r = f.field(
        "profile",
        "Chase/evade weights of article 002 (none: evade beats chase)",
        |ui| {
            choose(
                ui,
                "arch-profile",
                &mut profile,
                &names.profiles,
                Some("none: evade beats chase"),
            )
        },
    );
    if r.changed() {
        a.profile = (!profile.is_empty()).then_some(profile);
    }
    let mut script = a.script.clone().unwrap_or_default();
    let typed = f.row("script", "A Lua script that decides for these agents, relative to the content file (none: the Rust decider)", |ui| {
        let r = ui.add(widgets::text(&mut script, 150.0).hint_text("none"));
        if ui.button("…").on_hover_text("Pick a .lua file").clicked() {
            *pick_script = true;
        }
        r.changed()
    });
    if typed {
        a.script = (!script.trim().is_empty()).then(|| script.trim().to_owned());
    }
    let mut decider = a.decider.clone().unwrap_or_default();
    let r = f.field(
        "decider",
        "A decider the game registers by name, asked before the profile (none: no plugin)",
        |ui| ui.add(widgets::text(&mut decider, 150.0).hint_text("none")),
    );
    if r.changed() {
        a.decider = (!decider.trim().is_empty()).then(|| decider.trim().to_owned());
    }
    optional(
        f,
        "noise",
        "Volume of the noise they make while moving (off: silent); hearing senses hear it",
        &mut a.noise,
        1.0,
        |v| widgets::number(v, 0.0..=1e6, 1),
    );
}

/// An optional number: a checkbox, then its field.
fn optional(
    f: &mut Form<'_>,
    label: &str,
    help: &str,
    value: &mut Option<f32>,
    default: f32,
    field: impl FnOnce(&mut f32) -> egui::DragValue<'_>,
) {
    f.row(label, help, |ui| {
        let mut on = value.is_some();
        ui.checkbox(&mut on, "");
        if on {
            let v = value.get_or_insert(default);
            ui.add(field(v));
        } else {
            *value = None;
        }
    });
}

/// The movement kinds, for the variant picker.
const MOVEMENTS: [&str; 6] = [
    "Static",
    "Walker",
    "WaypointWalker",
    "Wander",
    "Missile",
    "Custom",
];

fn movement_kind(m: &MovementDef) -> &'static str {
    match m {
        MovementDef::Static => "Static",
        MovementDef::Walker { .. } => "Walker",
        MovementDef::WaypointWalker { .. } => "WaypointWalker",
        MovementDef::Wander { .. } => "Wander",
        MovementDef::Missile { .. } => "Missile",
        MovementDef::Custom { .. } => "Custom",
    }
}

/// A movement of kind `kind` with its defaults.
fn movement_of(kind: &str) -> MovementDef {
    match kind {
        "Walker" => MovementDef::Walker {
            min_speed: 0.5,
            max_speed: 1.5,
            direction_change_factor: 20,
            planar: true,
        },
        "WaypointWalker" => MovementDef::WaypointWalker {
            speed: 2.0,
            route: RouteDef::Select,
            arrive_radius: 0.5,
            jitter: 0.0,
            smooth: false,
        },
        "Wander" => MovementDef::Wander {
            speed: 1.5,
            turn_deg: 15.0,
        },
        "Missile" => MovementDef::Missile {
            speed: 10.0,
            turn_rate_deg: 90.0,
            guidance: GuidanceDef::PurePursuit,
            control: ControlDef::SeedTwoAxis,
            arrival_distance: 1.0,
            precision: 0.95,
        },
        "Custom" => MovementDef::Custom {
            name: String::new(),
            max_speed: 2.0,
        },
        _ => MovementDef::Static,
    }
}

/// How they move, the cost list waypoint walkers use, and separation.
fn movement(f: &mut Form<'_>, a: &mut ArchetypeDef, names: &Names) {
    let mut kind = movement_kind(&a.movement).to_owned();
    let kinds: Vec<String> = MOVEMENTS.iter().map(|s| (*s).to_owned()).collect();
    let changed = f
        .field("movement", "How they move: never (Static), article 000's random walk (Walker), the waypoint graph (WaypointWalker), Reynolds' wander, a guided missile (article 004), or a steering behaviour the game registers (Custom)", |ui| {
            choose(ui, "arch-movement", &mut kind, &kinds, None)
        })
        .changed();
    if changed {
        a.movement = movement_of(&kind);
    }
    movement_fields(f, &mut a.movement);
    let mut list = a.cost_list.clone().unwrap_or_default();
    let r = f.field(
        "cost list",
        "The movement-cost list waypoint walkers route with (none: the first)",
        |ui| {
            choose(
                ui,
                "arch-cost-list",
                &mut list,
                &names.lists,
                Some("the first list"),
            )
        },
    );
    if r.changed() {
        a.cost_list = (!list.is_empty()).then_some(list);
    }
    optional(
        f,
        "separation",
        "Keep this far from agents the all-around senses notice, world units, > 0 (off: no separation)",
        &mut a.separation,
        1.0,
        |v| widgets::distance(v, 0.01..=1000.0),
    );
    bodies(f, a);
}

/// The body radius and local avoidance (ORCA).
fn bodies(f: &mut Form<'_>, a: &mut ArchetypeDef) {
    let mut radius = a.radius.unwrap_or(kiai_core::Archetype::DEFAULT_RADIUS);
    let r = f.field(
        "radius",
        "Radius of the body, world units, >= 0 (default 0.5; 0: a point): walls keep it this far, avoidance keeps two bodies the sum of their radii apart, and links closer to a wall are not walked",
        |ui| ui.add(widgets::distance(&mut radius, 0.0..=1000.0)),
    );
    if r.changed() {
        a.radius = Some(radius);
    }
    let mut on = a.avoidance.is_some();
    let r = f.field(
        "avoidance",
        "Avoid other agents and walls with ORCA: take the velocity nearest the preferred one that collides with nobody within the time horizon (off: walk through other bodies)",
        |ui| ui.checkbox(&mut on, ""),
    );
    if r.changed() {
        a.avoidance = on.then(AvoidanceDef::default);
    }
    let Some(av) = &mut a.avoidance else { return };
    f.field(
        "time horizon",
        "Collisions with other agents are avoided this far ahead, seconds, > 0 (default 4; shorter: pass closer and later)",
        |ui| ui.add(widgets::seconds(&mut av.time_horizon, 0.01..=1000.0)),
    );
    f.field(
        "wall horizon",
        "Collisions with walls are avoided this far ahead, seconds, > 0 (default 1)",
        |ui| ui.add(widgets::seconds(&mut av.wall_time_horizon, 0.01..=1000.0)),
    );
    f.field(
        "neighbours",
        "At most this many nearest agents are avoided, 0 to 64 (default 16; fewer cost less)",
        |ui| {
            ui.add(
                egui::DragValue::new(&mut av.max_neighbours)
                    .range(0..=64)
                    .clamp_existing_to_range(false)
                    .speed(0.2),
            )
        },
    );
    f.field(
        "priority",
        "Between agents under way the higher priority does not give way and the lower gives all of it; equals share (default 0, any whole number)",
        |ui| ui.add(egui::DragValue::new(&mut av.priority).speed(0.1)),
    );
}

fn movement_fields(f: &mut Form<'_>, m: &mut MovementDef) {
    match m {
        MovementDef::Static => {}
        MovementDef::Walker {
            min_speed,
            max_speed,
            direction_change_factor,
            planar,
        } => {
            f.field("min speed", "World units per second, >= 0", |ui| {
                ui.add(widgets::speed(min_speed, 0.0..=1000.0))
            });
            f.field("max speed", "World units per second, >= min speed", |ui| {
                ui.add(widgets::speed(max_speed, 0.0..=1000.0))
            });
            f.field(
                "turn every",
                "Mean ticks between direction changes (below 5 counts as 5)",
                |ui| ui.add(widgets::ticks(direction_change_factor)),
            );
            f.field(
                "planar",
                "Stay on the X-Z plane (off: 3D, as in article 000)",
                |ui| ui.checkbox(planar, ""),
            );
        }
        MovementDef::WaypointWalker {
            speed,
            route,
            arrive_radius,
            jitter,
            smooth,
        } => {
            f.field("speed", "World units per second, >= 0", |ui| {
                ui.add(widgets::speed(speed, 0.0..=1000.0))
            });
            f.row("route", "Article 001's local choice at each waypoint (Select), or A* routes to the destination", |ui| {
                ui.selectable_value(route, RouteDef::Select, "Select");
                ui.selectable_value(route, RouteDef::AStar, "A*");
            });
            f.field(
                "arrive within",
                "A waypoint counts as reached within this distance, world units, > 0",
                |ui| ui.add(widgets::distance(arrive_radius, 0.01..=1000.0)),
            );
            f.field(
                "jitter",
                "Random variation of the local choice's costs, >= 0",
                |ui| ui.add(widgets::number(jitter, 0.0..=1000.0, 2)),
            );
            f.field(
                "smooth",
                "Walk the A* route like a person: head straight for the farthest waypoint the body (its radius) fits to, and straight to the destination once the way is clear (off: corner to corner, as in article 001)",
                |ui| ui.checkbox(smooth, ""),
            );
        }
        MovementDef::Wander { speed, turn_deg } => {
            f.field("speed", "World units per second, >= 0", |ui| {
                ui.add(widgets::speed(speed, 0.0..=1000.0))
            });
            f.field("turn", "Largest turn per tick, degrees, 0 to 180", |ui| {
                ui.add(widgets::angle(turn_deg, 0.0..=180.0))
            });
        }
        MovementDef::Missile {
            speed,
            turn_rate_deg,
            guidance,
            control,
            arrival_distance,
            precision,
        } => missile_fields(
            f,
            speed,
            turn_rate_deg,
            guidance,
            control,
            (arrival_distance, precision),
        ),
        MovementDef::Custom { name, max_speed } => {
            f.field(
                "behaviour",
                "The steering behaviour's registered name",
                |ui| ui.add(widgets::text(name, 150.0)),
            );
            f.field(
                "max speed",
                "Speed cap, world units per second, >= 0",
                |ui| ui.add(widgets::speed(max_speed, 0.0..=1000.0)),
            );
        }
    }
}

fn missile_fields(
    f: &mut Form<'_>,
    speed: &mut f32,
    turn: &mut f32,
    guidance: &mut GuidanceDef,
    control: &mut ControlDef,
    (arrival, precision): (&mut f32, &mut f32),
) {
    f.field("speed", "World units per second, >= 0", |ui| {
        ui.add(widgets::speed(speed, 0.0..=1000.0))
    });
    f.field("turn rate", "Degrees per second, > 0", |ui| {
        ui.add(widgets::angle(turn, 0.1..=3600.0).suffix("°/s"))
    });
    f.row("guidance", "Aim at the target (pure pursuit, the seed) or lead it (proportional navigation, n times the line-of-sight rate; 3 to 5 is typical)", |ui| {
        let pn = matches!(guidance, GuidanceDef::ProportionalNavigation { .. });
        if ui.selectable_label(!pn, "pursuit").clicked() {
            *guidance = GuidanceDef::PurePursuit;
        }
        if ui.selectable_label(pn, "prop. nav.").clicked() && !pn {
            *guidance = GuidanceDef::ProportionalNavigation { n: 3.0 };
        }
        if let GuidanceDef::ProportionalNavigation { n } = guidance {
            ui.add(widgets::number(n, 0.1..=20.0, 1).prefix("n "));
        }
    });
    f.row("control", "The article's yaw-then-pitch control with a dead band, or a shortest-arc turn at the maximum rate", |ui| {
        ui.selectable_value(control, ControlDef::SeedTwoAxis, "seed two-axis");
        ui.selectable_value(control, ControlDef::MaxRate, "max rate");
    });
    f.field(
        "stop within",
        "Stops this close to the target, world units, >= 0",
        |ui| ui.add(widgets::distance(arrival, 0.0..=1000.0)),
    );
    f.field(
        "precision",
        "Cosine of the article's dead-band half-angle, -1 to 1 (0.95 ≈ 18°)",
        |ui| ui.add(widgets::number(precision, -1.0..=1.0, 3)),
    );
}

/// What they reveal in the fog of war.
fn fog_sight(f: &mut Form<'_>, a: &mut ArchetypeDef) {
    let kind = match a.sight {
        None => 0,
        Some(SightDef::Circle { .. }) => 1,
        Some(SightDef::Flashlight { .. }) => 2,
    };
    f.row("fog sight", "What these agents reveal in the fog of war: nothing, every tile within a radius, or a cone (flashlight)", |ui| {
        if ui.selectable_label(kind == 0, "none").clicked() {
            a.sight = None;
        }
        if ui.selectable_label(kind == 1, "circle").clicked() && kind != 1 {
            a.sight = Some(SightDef::Circle { radius: 10.0 });
        }
        if ui.selectable_label(kind == 2, "flashlight").clicked() && kind != 2 {
            a.sight = Some(SightDef::Flashlight {
                radius: 15.0,
                fov_deg: 90.0,
            });
        }
    });
    match &mut a.sight {
        Some(SightDef::Circle { radius }) => {
            f.field("radius", "World units, > 0 (at most 127 tiles)", |ui| {
                ui.add(widgets::distance(radius, 0.01..=10_000.0))
            });
        }
        Some(SightDef::Flashlight { radius, fov_deg }) => {
            f.field("radius", "World units, > 0 (at most 127 tiles)", |ui| {
                ui.add(widgets::distance(radius, 0.01..=10_000.0))
            });
            f.field("angle", "Full angle in degrees, 0 to 360", |ui| {
                ui.add(widgets::angle(fov_deg, 1.0..=360.0))
            });
        }
        None => {}
    }
}
