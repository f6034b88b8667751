//! [`KiaiPlugin`]: the assets, components, systems and messages, in three
//! public sets a game orders its own systems against.

use bevy_app::{App, FixedUpdate, Plugin, Startup};
use bevy_asset::{AssetApp, AssetServer};
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;

use crate::assets::{ContentLoader, KiaiContent, KiaiScript, ScriptLoader};
use crate::coords::Plane;
use crate::events::{KiaiEvent, KiaiEventKinds, KiaiPercept};
use crate::level::{SyncTimestep, build_when_ready, report_failures};
use crate::runtime::{Deciders, Kiai, KiaiLevel};
use crate::{interest, lifecycle, scripts, sync};

/// kiai in a Bevy app: content and scripts as assets, entities with
/// [`crate::KiaiAgent`] as agents, one kiai tick per run of `schedule`.
///
/// ```no_run
/// use bevy_app::App;
/// use kiai_bevy::{KiaiPlugin, Plane};
///
/// App::new()
///     // .add_plugins(DefaultPlugins) or MinimalPlugins + AssetPlugin
///     .add_plugins(KiaiPlugin::new("levels/stealth.ron").on_plane(Plane::Xy));
/// ```
#[derive(Clone, Debug)]
pub struct KiaiPlugin {
    /// The content to load at startup (an asset path, `.ron` or
    /// `.kiaipack`); `None`: the game sets [`KiaiLevel`] itself.
    pub content: Option<String>,
    /// The schedule kiai ticks in: `FixedUpdate` (the default) ticks at the
    /// content's `tick_seconds` (the plugin sets `Time<Fixed>`'s step);
    /// any other ticks once per run.
    pub schedule: Interned<dyn ScheduleLabel>,
    /// How kiai's X-Z ground plane maps onto the app's axes.
    pub plane: Plane,
}

impl Default for KiaiPlugin {
    fn default() -> Self {
        Self {
            content: None,
            schedule: FixedUpdate.intern(),
            plane: Plane::Xz,
        }
    }
}

impl KiaiPlugin {
    /// The plugin running the content at asset path `content`.
    pub fn new(content: impl Into<String>) -> Self {
        Self {
            content: Some(content.into()),
            ..Self::default()
        }
    }

    /// Ticks in `schedule` instead of `FixedUpdate`.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }

    /// Maps kiai's ground plane onto `plane`.
    pub fn on_plane(mut self, plane: Plane) -> Self {
        self.plane = plane;
        self
    }
}

/// The plugin's system sets, run in this order in the plugin's schedule.
/// Move the game's bodies before [`KiaiSet::SyncIn`]; read transforms,
/// [`crate::Senses`], [`KiaiEvent`]s and [`KiaiPercept`]s after
/// [`KiaiSet::SyncOut`].
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KiaiSet {
    /// The level is (re)built, new entities become agents, scripts reload,
    /// the game's bodies, walls and points of interest
    /// ([`crate::KiaiInterest`]) are read.
    SyncIn,
    /// One kiai tick.
    Tick,
    /// kiai's bodies, desired velocities, senses and events are written.
    SyncOut,
}

impl Plugin for KiaiPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<KiaiContent>()
            .init_asset::<KiaiScript>()
            .register_asset_loader(ContentLoader)
            .register_asset_loader(ScriptLoader)
            .add_message::<KiaiEvent>()
            .add_message::<KiaiPercept>()
            .init_resource::<KiaiEventKinds>()
            .insert_resource(Kiai {
                plane: self.plane,
                ..Kiai::default()
            })
            .insert_resource(SyncTimestep(self.schedule == FixedUpdate.intern()))
            .insert_non_send(Deciders::default())
            .add_observer(lifecycle::despawn_agent)
            .configure_sets(
                self.schedule,
                (KiaiSet::SyncIn, KiaiSet::Tick, KiaiSet::SyncOut).chain(),
            )
            .add_systems(
                self.schedule,
                (
                    (
                        report_failures,
                        build_when_ready,
                        lifecycle::spawn_agents,
                        scripts::reload_scripts,
                        sync::read_bodies,
                        sync::apply_walls,
                        interest::set_interest,
                    )
                        .chain()
                        .in_set(KiaiSet::SyncIn),
                    scripts::tick.in_set(KiaiSet::Tick),
                    (events_then_bodies(), sync::write_senses)
                        .chain()
                        .in_set(KiaiSet::SyncOut),
                ),
            );
        if let Some(path) = self.content.clone() {
            app.add_systems(
                Startup,
                move |server: Res<AssetServer>, mut commands: Commands| {
                    commands.insert_resource(KiaiLevel(server.load(path.clone())));
                },
            );
        }
    }
}

/// Events first (they make entities for agents kiai spawned), then bodies.
fn events_then_bodies() -> impl IntoScheduleConfigs<bevy_ecs::system::ScheduleSystem, ()> {
    (crate::events::send_events, sync::write_bodies).chain()
}
