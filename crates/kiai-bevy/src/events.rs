//! kiai's events as Bevy messages carrying entities: read them with
//! `MessageReader<KiaiEvent>` (and `MessageReader<KiaiPercept>` for what
//! senses gained and lost) in any system after [`crate::KiaiSet::SyncOut`].
//! Agents kiai makes itself (a script's spawn) get an entity here (their
//! `Spawned` comes after the tick's other events); agents
//! kiai removes (a script's despawn) lose their [`KiaiAgent`] and
//! [`KiaiId`] (the entity stays: the game decides what it becomes).

use bevy_ecs::prelude::*;
use bevy_math::Vec3;
use kiai::core::{BehaviourState, EventKind};

use crate::components::{KiaiAgent, KiaiId};
use crate::coords::Plane;
use crate::entity_map::EntityMap;
use crate::level::agent_entity;
use crate::runtime::Kiai;

/// A sense of `entity` started or stopped sensing `target`. These are
/// nearly all of a tick's events (a 10k-agent battle makes about 35,000 a
/// tick), so they travel as their own small message (32 bytes) instead of
/// a [`KiaiEvent`]: a system reading decisions or arrivals does not wade
/// through them, and sending them writes less memory (40 bytes a message
/// with Bevy's id, against 64).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct KiaiPercept {
    /// The tick it happened in (the number of ticks run then).
    pub tick: u64,
    /// The observer.
    pub entity: Entity,
    /// Who is sensed now (`seen`) or no longer (`!seen`).
    pub target: Entity,
    /// The sense: its index in the observer's archetype
    /// ([`crate::Kiai::sense_name`] names it).
    pub sense: u16,
    /// `true`: the sense started sensing `target` (seen); `false`: it
    /// stopped (lost).
    pub seen: bool,
}

// The size the docs give (docs/bevy.md).
const _: () = assert!(std::mem::size_of::<KiaiPercept>() == 32);

/// One thing that happened in a tick, other than what senses gained and
/// lost (those are [`KiaiPercept`]s).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct KiaiEvent {
    /// The tick it happened in (the number of ticks run then).
    pub tick: u64,
    /// What happened.
    pub kind: KiaiEventKind,
}

/// What happened, with entities for agents. Waypoints are the content's
/// waypoint ids; positions are in the app's axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KiaiEventKind {
    /// `entity`'s agent joined the world.
    Spawned {
        /// The agent's entity.
        entity: Entity,
    },
    /// `entity`'s agent left the world.
    Despawned {
        /// The agent's entity.
        entity: Entity,
    },
    /// Hearing sense `sense` of `entity` heard a sound.
    Heard {
        /// The listener.
        entity: Entity,
        /// The sense: its index in the agent's archetype
        /// ([`crate::Kiai::sense_name`] names it).
        sense: u16,
        /// Who made it, if an agent with an entity.
        source: Option<Entity>,
        /// Where it was made.
        position: Vec3,
        /// The game's tag of the sound.
        tag: u32,
        /// Perceived loudness (the sound's volume scale).
        loudness: f32,
    },
    /// `entity` received a message.
    Message {
        /// The receiver.
        entity: Entity,
        /// The sender, if an agent with an entity.
        from: Option<Entity>,
        /// The message's tag.
        tag: u32,
        /// The position it refers to.
        position: Vec3,
    },
    /// `entity`'s decision changed.
    DecisionChanged {
        /// Who decided.
        entity: Entity,
        /// The state before.
        from: BehaviourState,
        /// The state now.
        to: BehaviourState,
        /// Whom it is about now (the chased or evaded), if anyone.
        target: Option<Entity>,
    },
    /// A waypoint walker reached the end of its route.
    Arrived {
        /// The walker.
        entity: Entity,
        /// The waypoint's id.
        waypoint: u32,
    },
    /// A waypoint walker found no route to `goal`.
    RouteFailed {
        /// The walker.
        entity: Entity,
        /// The waypoint's id.
        goal: u32,
    },
    /// A waypoint walker that waited for its route (the search budget went
    /// to older requests) has it now.
    RouteFound {
        /// The walker.
        entity: Entity,
        /// The waypoint the route leads to.
        goal: u32,
        /// Ticks it waited (>= 1).
        waited: u32,
    },
    /// A waypoint walker made no progress and re-planned.
    Stuck {
        /// The walker.
        entity: Entity,
        /// The waypoint it could not reach.
        waypoint: u32,
    },
    /// A wall was enabled or disabled (a door closed or opened).
    DoorChanged {
        /// The wall's index in the content's `walls`
        /// (`Kiai::world()?.wall_name(wall)` names it).
        wall: u32,
        /// Whether it is open now.
        open: bool,
    },
}

/// Which kinds of events become messages (all by default). A battle of
/// 10k agents makes tens of thousands of [`KiaiPercept`]s a tick; a game
/// that reads none of them switches them off and saves sending them
/// (about 15 ns each).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct KiaiEventKinds {
    /// [`KiaiPercept`]s (what senses gained and lost).
    pub percepts: bool,
    /// `Heard` and `Message`.
    pub hearing: bool,
    /// `DecisionChanged`.
    pub decisions: bool,
    /// `Arrived`, `RouteFailed`, `Stuck`.
    pub navigation: bool,
    /// `Spawned`, `Despawned`, `DoorChanged`.
    pub world: bool,
}

impl Default for KiaiEventKinds {
    fn default() -> Self {
        Self {
            percepts: true,
            hearing: true,
            decisions: true,
            navigation: true,
            world: true,
        }
    }
}

impl KiaiEventKinds {
    /// Whether events of `kind` are sent.
    fn wants(&self, kind: &EventKind) -> bool {
        match kind {
            EventKind::Gained { .. } | EventKind::Lost { .. } => self.percepts,
            EventKind::Heard { .. } | EventKind::Message { .. } => self.hearing,
            EventKind::DecisionChanged { .. } => self.decisions,
            EventKind::Arrived { .. }
            | EventKind::RouteFailed { .. }
            | EventKind::RouteFound { .. }
            | EventKind::Stuck { .. } => self.navigation,
            EventKind::Spawned { .. }
            | EventKind::Despawned { .. }
            | EventKind::DoorChanged { .. } => self.world,
        }
    }
}

/// Sends the last tick's events, making entities for agents kiai spawned
/// and letting go of agents kiai despawned.
pub(crate) fn send_events(
    kinds: Res<KiaiEventKinds>,
    mut kiai: ResMut<Kiai>,
    mut out: MessageWriter<KiaiEvent>,
    mut percepts: MessageWriter<KiaiPercept>,
    mut others: Local<Vec<KiaiEvent>>,
    mut commands: Commands,
) {
    let (mut born, mut gone) = (Vec::new(), Vec::new());
    let kiai_ = &mut *kiai;
    let Some(world) = kiai_.world.as_ref() else {
        return;
    };
    let (map, plane, kinds) = (&kiai_.entities, kiai_.plane, *kinds);
    // One pass over the tick's events (a battle makes tens of thousands,
    // nearly all percepts, which go straight into their messages); the few
    // others are gathered and sent after it. Agents kiai spawned itself
    // get their entity after the pass, and their `Spawned` then.
    percepts.write_batch(world.events().iter().filter_map(|e| {
        match e.kind {
            EventKind::Gained {
                agent,
                sense,
                target,
            }
            | EventKind::Lost {
                agent,
                sense,
                target,
            } => {
                if !kinds.wants(&e.kind) {
                    return None;
                }
                return Some(KiaiPercept {
                    tick: e.tick,
                    entity: map.entity(agent)?,
                    target: map.entity(target)?,
                    sense,
                    seen: matches!(e.kind, EventKind::Gained { .. }),
                });
            }
            EventKind::Spawned { agent } if map.entity(agent).is_none() => {
                born.push((e.tick, agent));
                return None;
            }
            EventKind::Despawned { agent } => gone.push(agent),
            _ => {}
        }
        if kinds.wants(&e.kind)
            && let Some(kind) = translate(map, plane, &e.kind)
        {
            others.push(KiaiEvent { tick: e.tick, kind });
        }
        None
    }));
    out.write_batch(others.drain(..));
    // The departed first: an agent kiai spawned may have taken the slot
    // of one it despawned in the same tick.
    for agent in gone {
        if let Some(entity) = kiai.entities.entity(agent) {
            // Only if the entity still is that agent: the game may have
            // removed its `KiaiAgent` and given it a new one since.
            commands
                .entity(entity)
                .queue_silenced(move |mut e: EntityWorldMut| {
                    if e.get::<KiaiId>() == Some(&KiaiId(agent)) {
                        e.remove::<(KiaiAgent, KiaiId)>();
                    }
                });
        }
        kiai.entities.remove(agent);
    }
    kiai.entities.forget_departed();
    for (tick, agent) in born {
        if let Some(entity) = adopt(&mut kiai, agent, &mut commands)
            && kinds.world
        {
            out.write(KiaiEvent {
                tick,
                kind: KiaiEventKind::Spawned { entity },
            });
        }
    }
    if let Some(world) = kiai.world.as_mut() {
        drop(world.drain_events());
    }
}

/// Makes an entity for an agent kiai spawned itself (`None` when it is no
/// longer alive).
fn adopt(kiai: &mut Kiai, agent: kiai::core::AgentId, commands: &mut Commands) -> Option<Entity> {
    let world = kiai.world()?;
    if !world.is_alive(agent) {
        return None;
    }
    let entity = commands.spawn(agent_entity(world, agent, kiai.plane)).id();
    kiai.entities.insert(agent, entity);
    Some(entity)
}

/// One kiai event with entities, or `None` when an agent in it has none
/// (and for percepts, which are [`KiaiPercept`]s).
#[inline]
fn translate(map: &EntityMap, plane: Plane, kind: &EventKind) -> Option<KiaiEventKind> {
    let e = |a| map.entity(a);
    Some(match *kind {
        EventKind::Spawned { agent } => KiaiEventKind::Spawned { entity: e(agent)? },
        EventKind::Despawned { agent } => KiaiEventKind::Despawned { entity: e(agent)? },
        EventKind::Gained { .. } | EventKind::Lost { .. } => return None,
        EventKind::Heard {
            agent,
            sense,
            source,
            position,
            tag,
            loudness,
        } => KiaiEventKind::Heard {
            entity: e(agent)?,
            sense,
            source: source.and_then(e),
            position: plane.to_bevy(position, 0.0),
            tag,
            loudness,
        },
        EventKind::Message {
            agent,
            from,
            tag,
            position,
        } => KiaiEventKind::Message {
            entity: e(agent)?,
            from: from.and_then(e),
            tag,
            position: plane.to_bevy(position, 0.0),
        },
        EventKind::DecisionChanged { agent, from, to } => KiaiEventKind::DecisionChanged {
            entity: e(agent)?,
            from,
            to: to.state,
            target: to.target.and_then(e),
        },
        EventKind::Arrived { agent, waypoint } => KiaiEventKind::Arrived {
            entity: e(agent)?,
            waypoint: waypoint.0,
        },
        EventKind::RouteFailed { agent, goal } => KiaiEventKind::RouteFailed {
            entity: e(agent)?,
            goal: goal.0,
        },
        EventKind::RouteFound {
            agent,
            goal,
            waited,
        } => KiaiEventKind::RouteFound {
            entity: e(agent)?,
            goal: goal.0,
            waited,
        },
        EventKind::Stuck { agent, waypoint } => KiaiEventKind::Stuck {
            entity: e(agent)?,
            waypoint: waypoint.0,
        },
        EventKind::DoorChanged { wall, open } => KiaiEventKind::DoorChanged { wall, open },
    })
}
