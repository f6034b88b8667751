//! [`Driver`]: one run of content as `kiai run` makes it — the world, the
//! tick pipeline, the deciders (Lua for scripted archetypes, article 002's
//! default for the rest) and an events schedule applied between ticks —
//! for tools that step a run and look at it after every tick: scenario
//! tests (`scenario/`) and what-if forks (`fork/`), the layer above.

use kiai_content::ScriptRef;
use kiai_content::events::Schedule;
use kiai_core::behaviour::DecisionTrace;
use kiai_core::{AgentId, ArchetypeId, DefaultDecider, Pipeline, World};

use crate::lua::{Limits, LuaDecider};

/// A run being stepped.
pub struct Driver {
    world: World,
    pipeline: Pipeline,
    rust: DefaultDecider,
    lua: Option<LuaDecider>,
    schedule: Schedule,
    /// Script problems of the last tick (`tick T: file:line: message`);
    /// the scripts that did not load come with the first tick.
    script_errors: Vec<String>,
    /// Events of the last tick that could not be applied.
    skipped_events: Vec<String>,
    /// What scripts printed in the last tick.
    log: Vec<String>,
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("tick", &self.world.tick())
            .field("scripted", &self.lua.is_some())
            .finish_non_exhaustive()
    }
}

impl Driver {
    /// A run of `world` deciding scripted archetypes with `scripts` (see
    /// [`crate::lua::decider_for_scripts`]) and applying `schedule`.
    /// `traces` records why every agent decided what it did
    /// ([`Driver::trace`]).
    pub fn new(world: World, scripts: &[ScriptRef], schedule: Schedule, traces: bool) -> Self {
        let (lua, errors) = crate::lua::decider_for_scripts(scripts, Limits::default());
        let lua = lua.map(|l| if traces { l.with_traces() } else { l });
        Self {
            world,
            pipeline: Pipeline::new(),
            rust: if traces {
                DefaultDecider::with_traces()
            } else {
                DefaultDecider::default()
            },
            lua,
            schedule,
            script_errors: errors.iter().map(|e| format!("tick 0: {e}")).collect(),
            skipped_events: Vec::new(),
            log: Vec::new(),
        }
    }

    /// Runs one tick: applies the events that are due, then sense, decide,
    /// navigate, steer, integrate, fog.
    pub fn step(&mut self) {
        if self.world.tick() > 0 {
            self.script_errors.clear();
        }
        self.log.clear();
        self.skipped_events = self.schedule.apply_due(&mut self.world);
        match &mut self.lua {
            Some(lua) => {
                self.pipeline.tick(&mut self.world, lua);
                for r in lua.take_reports() {
                    self.script_errors
                        .push(format!("tick {}: {}", r.tick, r.error));
                }
                self.log = lua.take_log();
            }
            None => self.pipeline.tick(&mut self.world, &mut self.rust),
        }
    }

    /// Applies the events due after the last tick (as `kiai run` does at
    /// the end of a run).
    pub fn finish(&mut self) {
        let skipped = self.schedule.apply_due(&mut self.world);
        self.skipped_events.extend(skipped);
    }

    /// The world as of the last tick.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, to change it between ticks (a fork's changes).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Script problems of the last tick (the scripts that did not load,
    /// with the first), one line each.
    pub fn script_errors(&self) -> &[String] {
        &self.script_errors
    }

    /// Events of the last tick that could not be applied, one line each.
    pub fn skipped_events(&self) -> &[String] {
        &self.skipped_events
    }

    /// What scripts printed in the last tick.
    pub fn log(&self) -> &[String] {
        &self.log
    }

    /// Whether archetype `archetype` is decided by a script.
    pub fn is_scripted(&self, archetype: ArchetypeId) -> bool {
        self.lua
            .as_ref()
            .is_some_and(|l| l.script_of(archetype).is_some())
    }

    /// The name of `agent`'s state: a script's own label (`investigate`)
    /// or the built-in state (`random_walk`, `chase`, `evade`); `None`
    /// when it is not alive.
    pub fn state_name(&self, agent: AgentId) -> Option<&str> {
        let state = self.world.agents().state(agent)?;
        let label = self.lua.as_ref().and_then(|l| l.label(agent));
        Some(label.unwrap_or(state.name()))
    }

    /// Whether `agent`'s script decided it in the last tick.
    pub fn decided_by_script(&self, agent: AgentId) -> bool {
        self.lua
            .as_ref()
            .is_some_and(|l| l.decided_by_script(agent))
    }

    /// Why agent slot `index` decided what it did in the last tick, when
    /// made with traces (for a scripted agent, what the default decider
    /// would have done: see [`Driver::decided_by_script`]).
    pub fn trace(&self, index: usize) -> Option<&DecisionTrace> {
        match &self.lua {
            Some(l) => l.traces().get(index),
            None => self.rust.traces().get(index),
        }
    }
}
