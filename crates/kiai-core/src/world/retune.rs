//! Retuning a running world: an archetype's senses, movement, profile and
//! the rest replaced between ticks, as a designer's "what if" asks
//! (`kiai fork`). Agents keep their state; what the change makes stale is
//! brought along (compiled senses, missiles' parameters, profile weights,
//! body modes, fog of war units).

use crate::data::{AgentId, Archetype, ArchetypeId, CompiledSenses, Movement, SenseKind};

use super::{World, WorldError};

impl World {
    /// Replaces archetype `id` with `archetype` between ticks; its agents
    /// use it from the next tick on.
    ///
    /// The senses must keep their number, names and kinds (all-around,
    /// directed, hearing): percepts, memory and events are kept per sense.
    /// The movement must stay the same variant (a missile stays a missile):
    /// missiles take the new speed, turn rate, control, guidance, precision
    /// and arrival distance and keep their pose. When the profile's chase or
    /// evade weight changes, the agents' current weights (learned ones too)
    /// become the new ones. A new body mode applies to every agent of the
    /// archetype; a new fog-of-war sight re-stamps their fog units. Anything
    /// else is refused with [`WorldError::Refused`], leaving the world as it
    /// was.
    pub fn set_archetype(
        &mut self,
        id: ArchetypeId,
        archetype: Archetype,
    ) -> Result<(), WorldError> {
        let old = self
            .archetypes
            .get(id.index())
            .ok_or_else(|| WorldError::UnknownHandle(id.to_string()))?;
        check_compatible(old, &archetype)?;
        crate::data::LodTier::check_list(&archetype.lod)
            .map_err(|e| WorldError::Refused(format!("lod: {e}")))?;
        let old = old.clone();
        let agents: Vec<AgentId> = self
            .agents
            .ids()
            .filter(|a| self.agents.archetype[a.index()] == id)
            .collect();
        self.compiled[id.index()] = CompiledSenses::new(&archetype.senses);
        let weights = archetype.profile.map(|p| [p.chase, p.evade]);
        let old_weights = old.profile.map(|p| [p.chase, p.evade]);
        let sight_changed = old.sight != archetype.sight;
        let body_changed = old.body != archetype.body;
        let movement = archetype.movement;
        self.archetypes[id.index()] = archetype;
        self.lod.active = self
            .archetypes
            .iter()
            .any(|a| a.lod.iter().any(|t| t.every > 1));
        for agent in agents {
            let i = agent.index();
            if let Some(w) = weights.filter(|w| Some(*w) != old_weights) {
                self.agents.mind[i].weights = w;
            }
            if body_changed {
                self.agents.body[i] = self.archetypes[id.index()].body;
            }
            if let (
                Some(m),
                Movement::Missile {
                    speed,
                    turn_rate,
                    control,
                    guidance,
                    arrival_distance,
                    precision,
                },
            ) = (self.agents.missile[i].as_deref_mut(), movement)
            {
                m.speed = speed;
                m.turn_rate = turn_rate;
                m.control = control;
                m.guidance = guidance;
                m.precision = precision;
                m.arrival_distance_sq = arrival_distance * arrival_distance;
            }
            if sight_changed {
                if let Some(fog) = &mut self.fog {
                    fog.grid.remove_unit(kiai_fog::UnitId(agent.slot()));
                }
                self.add_fog_unit(i)?;
            }
        }
        Ok(())
    }
}

/// Refuses a replacement that a running world cannot take.
fn check_compatible(old: &Archetype, new: &Archetype) -> Result<(), WorldError> {
    let refuse = |why: String| {
        Err(WorldError::Refused(format!(
            "archetype `{}`: {why}",
            old.name
        )))
    };
    if old.name != new.name {
        return refuse(format!("its name cannot change (to `{}`)", new.name));
    }
    if old.senses.len() != new.senses.len() {
        return refuse(format!(
            "it has {} senses; a running world keeps their number (not {})",
            old.senses.len(),
            new.senses.len()
        ));
    }
    for (a, b) in old.senses.iter().zip(&new.senses) {
        if a.name != b.name {
            return refuse(format!(
                "sense `{}` cannot be renamed `{}` while it runs",
                a.name, b.name
            ));
        }
        let hearing = |k: SenseKind| k == SenseKind::Hearing;
        if hearing(a.shape.kind()) != hearing(b.shape.kind()) {
            return refuse(format!(
                "sense `{}` cannot change between hearing and seeing while it runs",
                a.name
            ));
        }
    }
    if std::mem::discriminant(&old.movement) != std::mem::discriminant(&new.movement) {
        return refuse("its movement cannot change kind while it runs (its fields can)".to_owned());
    }
    Ok(())
}
