//! A small stealth game on kiai-bevy: sneak past two guards.
//!
//! ```text
//! cargo run -p kiai-bevy --example stealth
//! ```
//!
//! WASD or the arrow keys move the thief (a `Kinematic` body the game
//! moves), Shift runs (loud: guards hear it), E opens and closes the door
//! when the thief stands next to it, F1 toggles kiai's overlays. Guards
//! patrol the waypoints, see through cones that walls block, chase what
//! they see and search where they last saw it (`assets/scripts/searcher.lua`,
//! reloaded when you edit it). The fog of war is the thief's.
//!
//! `--demo FRAMES` plays a scripted run of FRAMES frames (one kiai tick per
//! frame) and exits; `--screenshot PATH` saves the window near its end.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::time::TimeUpdateStrategy;
use kiai_bevy::kiai::core::BodyMode;
use kiai_bevy::{
    Kiai, KiaiAgent, KiaiDebug, KiaiDebugPlugin, KiaiPlugin, KiaiSet, KiaiWall, Plane, state_colour,
};

/// Pixels per world unit at the window's size.
const ZOOM: f32 = 18.0;
/// The thief's walking and running speeds, world units per second.
const WALK: f32 = 3.0;
const RUN: f32 = 6.0;

fn main() -> AppExit {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("stealth: {e}\nusage: stealth [--demo FRAMES] [--screenshot PATH]");
            return AppExit::from_code(2);
        }
    };
    explain_missing_gpu();
    let mut app = App::new();
    let window = WindowPlugin {
        primary_window: Some(Window {
            title: "kiai stealth".into(),
            resolution: (1120, 760).into(),
            ..default()
        }),
        ..default()
    };
    // The level and its script live beside this example, wherever the
    // binary is run from.
    let assets = AssetPlugin {
        file_path: concat!(env!("CARGO_MANIFEST_DIR"), "/assets").into(),
        ..default()
    };
    app.add_plugins(DefaultPlugins.set(window).set(assets))
        .add_plugins((
            KiaiPlugin::new("stealth.ron").on_plane(Plane::Xy),
            KiaiDebugPlugin,
        ))
        .insert_resource(ClearColor(Color::srgb(0.08, 0.09, 0.08)))
        .insert_resource(options.clone())
        .init_resource::<Intent>()
        .add_systems(Startup, setup)
        .add_systems(
            FixedUpdate,
            (
                play_demo.run_if(move |o: Res<Options>| o.demo.is_some()),
                move_thief,
                toggle_door,
            )
                .chain()
                .before(KiaiSet::SyncIn),
        )
        .add_systems(
            PreUpdate,
            read_keys
                .run_if(|o: Res<Options>| o.demo.is_none())
                .after(bevy::input::InputSystems),
        )
        .add_systems(
            Update,
            (dress_agents, colour_agents, draw_fog, hud, toggle_overlays),
        );
    if let Some(frames) = options.demo {
        // One kiai tick per frame, whatever the frame rate: the demo is the
        // same run on every machine.
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )))
        .add_systems(
            Update,
            finish_demo.run_if(move |f: Res<Frames>| f.0 >= frames),
        )
        .init_resource::<Frames>()
        .add_systems(Last, |mut f: ResMut<Frames>| f.0 += 1);
    }
    app.run()
}

/// Bevy's renderer panics when the machine has no graphics adapter it can
/// use (on Linux, most often: no Vulkan driver installed): say what to do
/// in one line instead of a panic trace, and exit with status 1.
fn explain_missing_gpu() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info
            .payload_as_str()
            .is_some_and(|m| m.contains("Unable to find a GPU"))
        {
            eprintln!(
                "stealth: no graphics adapter found: install Vulkan drivers (Debian/Ubuntu: \
                 `sudo apt install mesa-vulkan-drivers`; see docs/bevy.md), or try \
                 WGPU_BACKEND=gl"
            );
            std::process::exit(1);
        }
        default(info);
    }));
}

/// Command-line options.
#[derive(Resource, Clone, Debug, Default)]
struct Options {
    /// Play the scripted input for this many frames, then exit.
    demo: Option<u32>,
    /// Save a screenshot here near the end of the demo.
    screenshot: Option<PathBuf>,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut o = Options::default();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--demo" => {
                    let n = args.next().ok_or("--demo needs a frame count")?;
                    o.demo = Some(n.parse().map_err(|_| format!("--demo {n}: not a count"))?);
                }
                "--screenshot" => {
                    o.screenshot = Some(args.next().ok_or("--screenshot needs a path")?.into());
                }
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(o)
    }
}

/// Frames drawn in the demo.
#[derive(Resource, Default)]
struct Frames(u32);

/// The player's body.
#[derive(Component)]
struct Thief;

/// The HUD's text.
#[derive(Component)]
struct Hud;

/// A fog tile's shade, by tile index.
#[derive(Component)]
struct FogTile(usize);

/// The door's sprite.
#[derive(Component)]
struct DoorSprite;

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / ZOOM,
            ..OrthographicProjection::default_2d()
        }),
    ));
    // The yard (the content's bounds).
    commands.spawn((
        Mesh2d(meshes.add(Rectangle::new(60.0, 40.0))),
        MeshMaterial2d(materials.add(Color::srgb(0.18, 0.22, 0.17))),
        Transform::from_xyz(0.0, 0.0, -1.0),
    ));
    commands.spawn((
        KiaiAgent::new("thief", "thieves"),
        Thief,
        Name::new("thief"),
        Transform::from_xyz(-12.0, 6.0, 1.0),
    ));
    commands.spawn(KiaiWall {
        name: "door".into(),
        enabled: true,
    });
    commands.spawn((
        Text::new("loading…"),
        TextFont::from_font_size(16.0),
        TextColor(Color::WHITE),
        Node {
            position_type: PositionType::Absolute,
            top: px(8),
            left: px(10),
            ..default()
        },
        Hud,
    ));
}

/// Gives every new agent entity a body to draw (walls and fog once, when
/// the level has loaded).
fn dress_agents(
    mut commands: Commands,
    new: Query<(Entity, &KiaiAgent), Added<KiaiAgent>>,
    kiai: Res<Kiai>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut walls_drawn: Local<bool>,
) {
    for (entity, agent) in &new {
        let colour = if agent.archetype == "thief" {
            Color::srgb(0.35, 0.6, 1.0)
        } else {
            Color::srgb(0.6, 0.6, 0.6)
        };
        commands.entity(entity).insert((
            Mesh2d(meshes.add(Circle::new(0.6))),
            MeshMaterial2d(materials.add(colour)),
        ));
    }
    let Some(world) = kiai.world() else { return };
    if std::mem::replace(&mut *walls_drawn, true) {
        return;
    }
    if let Some(occluders) = world.occluders() {
        for (i, wall) in occluders.walls.walls().iter().enumerate() {
            let (a, b) = (wall.from, wall.to);
            let mid = (a + b) * 0.5;
            let d = b - a;
            let door = world.wall_name(i) == Some("door");
            let colour = if door {
                Color::srgb(0.55, 0.35, 0.15)
            } else {
                Color::srgb(0.75, 0.72, 0.65)
            };
            let mut e = commands.spawn((
                Sprite::from_color(colour, Vec2::new(d.length(), 0.5)),
                Transform::from_xyz(mid.x, mid.y, 2.0)
                    .with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
            ));
            if door {
                e.insert(DoorSprite);
            }
        }
    }
    if let Some(fog) = world.fog() {
        let spec = fog.grid().spec();
        for index in 0..spec.tile_count() {
            let [x, z] = spec.tile_centre(spec.tile_of_index(index));
            commands.spawn((
                Sprite::from_color(Color::BLACK, Vec2::splat(spec.tile_size)),
                Transform::from_xyz(x, z, 5.0),
                FogTile(index),
            ));
        }
    }
}

/// Guards in their state's colour (chase vermillion, search yellow).
fn colour_agents(
    kiai: Res<Kiai>,
    agents: Query<(&kiai_bevy::KiaiId, &MeshMaterial2d<ColorMaterial>), Without<Thief>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let Some(world) = kiai.world() else { return };
    for (id, material) in &agents {
        let Some(state) = world.agents().state(id.0) else {
            continue;
        };
        let colour = match kiai.state_name(id.0) {
            Some("search") => Color::srgb(0.94, 0.89, 0.26),
            _ => state_colour(state),
        };
        if let Some(mut m) = materials.get_mut(&material.0)
            && m.color != colour
        {
            m.color = colour;
        }
    }
}

/// The thief's fog: black where it never looked, dim where it looked
/// before, clear where it sees now.
fn draw_fog(kiai: Res<Kiai>, mut tiles: Query<(&FogTile, &mut Sprite)>) {
    let Some(world) = kiai.world() else { return };
    let (Some(fog), Some(thieves)) = (world.fog(), world.factions().find("thieves")) else {
        return;
    };
    let grid = fog.grid();
    let faction = kiai_bevy::kiai::core::fog::FactionId(thieves.index() as u8);
    for (tile, mut sprite) in &mut tiles {
        let t = grid.spec().tile_of_index(tile.0);
        let alpha = if grid.is_visible(t, faction) {
            0.0
        } else if grid.is_explored(t, faction) {
            0.45
        } else {
            0.85
        };
        sprite.color = Color::srgba(0.0, 0.0, 0.0, alpha);
    }
}

/// What the player asks of the thief this tick.
#[derive(Resource, Default, Clone, Copy)]
struct Intent {
    /// Unit direction (or zero), app axes.
    dir: Vec2,
    /// Running: twice as fast, and loud.
    run: bool,
    /// E: open or close the door when next to it.
    door: bool,
}

/// One step of the demo's scripted input.
#[derive(Clone, Copy)]
enum Step {
    /// Walk to a point.
    Walk(f32, f32),
    /// Run to a point.
    Run(f32, f32),
    /// Press E.
    Door,
}

/// The demo: walk to the door, open it, slip through, run past the east
/// guard and back through the door.
const DEMO: [Step; 7] = [
    Step::Walk(-2.0, 0.0),
    Step::Door,
    Step::Walk(6.0, 0.0),
    Step::Run(16.0, -8.0),
    Step::Run(6.0, -1.0),
    Step::Run(-4.0, 0.0),
    Step::Run(-14.0, 6.0),
];

/// The player's intent from the keyboard, every frame; a press of E is
/// kept until a kiai tick has used it (ticks are rarer than frames).
fn read_keys(keys: Option<Res<ButtonInput<KeyCode>>>, mut intent: ResMut<Intent>) {
    let Some(keys) = keys else { return };
    let mut dir = Vec2::ZERO;
    for (pair, v) in [
        ([KeyCode::KeyW, KeyCode::ArrowUp], Vec2::Y),
        ([KeyCode::KeyS, KeyCode::ArrowDown], Vec2::NEG_Y),
        ([KeyCode::KeyA, KeyCode::ArrowLeft], Vec2::NEG_X),
        ([KeyCode::KeyD, KeyCode::ArrowRight], Vec2::X),
    ] {
        if keys.any_pressed(pair) {
            dir += v;
        }
    }
    intent.dir = dir.normalize_or_zero();
    intent.run = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    intent.door |= keys.just_pressed(KeyCode::KeyE);
}

/// The demo's intent, every kiai tick: the next step of [`DEMO`].
fn play_demo(
    thief: Query<&Transform, With<Thief>>,
    mut step: Local<usize>,
    mut intent: ResMut<Intent>,
) {
    let at = thief
        .single()
        .map_or(Vec2::ZERO, |t| t.translation.truncate());
    *intent = demo_step(&mut step, at);
}

/// The demo's intent for a thief at `at`, moving on to the next step once
/// a point is reached.
fn demo_step(step: &mut usize, at: Vec2) -> Intent {
    let Some(&current) = DEMO.get(*step) else {
        return Intent::default();
    };
    let (target, run) = match current {
        Step::Door => {
            *step += 1;
            return Intent {
                door: true,
                ..default()
            };
        }
        Step::Walk(x, y) => (Vec2::new(x, y), false),
        Step::Run(x, y) => (Vec2::new(x, y), true),
    };
    if at.distance(target) < 0.3 {
        *step += 1;
    }
    Intent {
        dir: (target - at).normalize_or_zero(),
        run,
        door: false,
    }
}

/// Moves the thief (its `Transform`: kiai reads it), inside the yard and
/// never through a standing wall.
fn move_thief(
    mut thief: Query<&mut Transform, With<Thief>>,
    intent: Res<Intent>,
    kiai: Res<Kiai>,
    time: Res<Time>,
) {
    let Ok(mut t) = thief.single_mut() else {
        return;
    };
    let speed = if intent.run { RUN } else { WALK };
    let from = t.translation.truncate();
    let to = (from + intent.dir * speed * time.delta_secs())
        .clamp(Vec2::new(-29.0, -19.0), Vec2::new(29.0, 19.0));
    if !blocked(&kiai, from, to) {
        t.translation = to.extend(t.translation.z);
    }
}

/// Whether a standing wall lies between `a` and `b` (or within the
/// thief's radius beyond `b`): a segment test against each wall.
fn blocked(kiai: &Kiai, a: Vec2, b: Vec2) -> bool {
    let Some(occ) = kiai.world().and_then(|w| w.occluders()) else {
        return false;
    };
    let cross = |o: Vec2, p: Vec2, q: Vec2| (p - o).perp_dot(q - o);
    let b = b + (b - a).normalize_or_zero() * 0.6;
    occ.walls.walls().iter().enumerate().any(|(i, w)| {
        let (c, d) = (Vec2::new(w.from.x, w.from.y), Vec2::new(w.to.x, w.to.y));
        occ.walls.is_enabled(i) == Some(true)
            && cross(a, b, c) * cross(a, b, d) < 0.0
            && cross(c, d, a) * cross(c, d, b) < 0.0
    })
}

/// E next to the door opens or closes it (the press is used up).
fn toggle_door(
    mut intent: ResMut<Intent>,
    thief: Query<&Transform, With<Thief>>,
    mut door: Query<&mut KiaiWall>,
    mut sprite: Query<&mut Visibility, With<DoorSprite>>,
) {
    let near = thief
        .single()
        .is_ok_and(|t| t.translation.truncate().distance(Vec2::ZERO) < 5.0);
    if !std::mem::take(&mut intent.door) || !near {
        return;
    }
    for mut wall in &mut door {
        wall.enabled = !wall.enabled;
        for mut v in &mut sprite {
            *v = if wall.enabled {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            };
        }
    }
}

/// The HUD line: the tick, the nearest guard and what it is doing.
fn hud(
    kiai: Res<Kiai>,
    thief: Query<&Transform, With<Thief>>,
    door: Query<&KiaiWall>,
    mut text: Query<&mut Text, With<Hud>>,
) {
    let (Some(world), Ok(thief), Ok(mut text)) = (kiai.world(), thief.single(), text.single_mut())
    else {
        return;
    };
    let me = kiai.plane().to_kiai(thief.translation);
    let a = world.agents();
    let nearest = a
        .ids()
        .filter(|id| a.body_modes()[id.index()] != BodyMode::Kinematic)
        .map(|id| (id, a.positions()[id.index()].distance(me)))
        .min_by(|x, y| x.1.total_cmp(&y.1));
    let guard = match nearest {
        Some((id, d)) => format!(
            "{} ({d:.0} m): {}",
            a.names()[id.index()],
            kiai.state_name(id).unwrap_or("?")
        ),
        None => "no guards".into(),
    };
    let door = match door.iter().next() {
        Some(w) if !w.enabled => "open",
        _ => "closed",
    };
    text.0 = format!(
        "tick {}  |  nearest guard {guard}  |  door {door}  |  WASD move, Shift run, E door, F1 overlays",
        world.tick()
    );
}

/// F1 switches kiai's overlays.
fn toggle_overlays(keys: Option<Res<ButtonInput<KeyCode>>>, mut debug: ResMut<KiaiDebug>) {
    if keys.is_some_and(|k| k.just_pressed(KeyCode::F1)) {
        debug.enabled = !debug.enabled;
    }
}

/// Ends the demo: a screenshot first when asked for, then exit 0.
fn finish_demo(
    mut commands: Commands,
    options: Res<Options>,
    mut asked: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    *asked += 1;
    match (&options.screenshot, *asked) {
        (Some(path), 1) => {
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path.clone()));
        }
        // A few frames for the screenshot to be written.
        (Some(_), n) if n < 10 => {}
        _ => {
            exit.write(AppExit::Success);
        }
    }
}
