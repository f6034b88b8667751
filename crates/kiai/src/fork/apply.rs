//! A fork's changes: `PATH=VALUE` assignments to the recorded content
//! (the syntax of `kiai set`), checked like content, then carried over to
//! the live world: archetypes (with the profiles they use), factions'
//! hostility, walls and doors, agents' positions and facings. Everything
//! else a running world cannot take, and it is refused with the reason.

use kiai_content::def::ContentDef;
use kiai_content::value_path::{parse_assignment, set};
use kiai_core::glam::Vec3;
use kiai_core::{ArchetypeId, FactionId, World};

/// What a fork may change, for messages.
pub const CHANGEABLE: &str = "a fork changes archetypes, profiles, factions' hostility, \
    walls and doors, and agents' pos and facing";

/// `def` with the assignments applied in order, then checked like content
/// once (as `kiai set` does, so `lose_range` can be raised before `range`
/// or after it); an error names the assignments and why.
pub fn edited(def: &ContentDef, assignments: &[String]) -> Result<ContentDef, String> {
    let mut out = def.clone();
    for a in assignments {
        let (path, value) = parse_assignment(a).map_err(|e| format!("--set {a}: {e}"))?;
        set(&mut out, &path, &value).map_err(|e| format!("--set {a}: {e}"))?;
    }
    let all: Vec<String> = assignments.iter().map(|a| format!("--set {a}")).collect();
    let all = all.join(" ");
    let text = kiai_content::to_ron(&out).map_err(|e| format!("{all}: {e}"))?;
    if let Err(d) = kiai_content::Content::from_str(&text, "content") {
        let why: Vec<String> =
            d.0.iter()
                .filter(|d| d.is_error())
                .map(|d| d.message.clone())
                .collect();
        return Err(format!(
            "{all} would make the content invalid: {}",
            why.join("; ")
        ));
    }
    Ok(out)
}

/// Refuses changes outside what a running world can take.
fn check_sections(old: &ContentDef, new: &ContentDef) -> Result<(), String> {
    let fixed: [(&str, bool); 14] = [
        ("name", old.name == new.name),
        ("seed", old.seed == new.seed),
        ("tick_seconds", old.tick_seconds == new.tick_seconds),
        ("bounds", old.bounds == new.bounds),
        ("cost_lists", old.cost_lists == new.cost_lists),
        ("waypoints", old.waypoints == new.waypoints),
        ("links", old.links == new.links),
        // How the waypoints were generated: nothing a run reads.
        ("navgen", old.navgen == new.navgen),
        ("regions", old.regions == new.regions),
        ("sounds", old.sounds == new.sounds),
        ("fog", old.fog == new.fog),
        (
            "perception_budget",
            old.perception_budget == new.perception_budget,
        ),
        (
            "archetypes (which there are)",
            old.archetypes
                .iter()
                .map(|(n, _)| n)
                .eq(new.archetypes.iter().map(|(n, _)| n)),
        ),
        (
            "profiles (which there are)",
            old.profiles
                .iter()
                .map(|(n, _)| n)
                .eq(new.profiles.iter().map(|(n, _)| n)),
        ),
    ];
    if let Some((what, _)) = fixed.iter().find(|(_, same)| !same) {
        return Err(format!(
            "`{what}` cannot change in a running world; {CHANGEABLE}"
        ));
    }
    let names = |d: &ContentDef| {
        d.factions
            .iter()
            .map(|f| f.name.clone())
            .collect::<Vec<_>>()
    };
    if names(old) != names(new) {
        return Err(format!(
            "factions cannot be added, removed or renamed in a running world; {CHANGEABLE}"
        ));
    }
    if old.walls.len() != new.walls.len() {
        return Err(format!(
            "walls cannot be added or removed here; {CHANGEABLE}"
        ));
    }
    for ((name, a), (_, b)) in old.archetypes.iter().zip(new.archetypes.iter()) {
        if a.script != b.script || a.decider != b.decider {
            return Err(format!(
                "archetype `{name}`: its script and decider cannot change in a running world"
            ));
        }
    }
    for (a, b) in old.agents.iter().zip(&new.agents) {
        let same = a.name == b.name && a.archetype == b.archetype && a.faction == b.faction;
        if !same {
            return Err(format!(
                "agent `{}`: only its pos and facing can change in a running world",
                a.name
            ));
        }
    }
    if old.agents.len() != new.agents.len() {
        return Err(
            "agents cannot be added or removed here; use an events file's Spawn and Despawn".into(),
        );
    }
    Ok(())
}

/// Carries the differences between `old` and `new` (content that differs
/// only where [`check_sections`] allows) over to `world`; returns one
/// line per change made (`archetype guard`, `agent g1: pos`).
pub fn apply(world: &mut World, old: &ContentDef, new: &ContentDef) -> Result<Vec<String>, String> {
    check_sections(old, new)?;
    let built = kiai_content::build_world(new, Some(world.config().seed))
        .map_err(|e| format!("cannot build the changed content: {e}"))?;
    let mut done = Vec::new();
    for (i, a) in built.archetypes().iter().enumerate() {
        if world.archetypes().get(i) != Some(a) {
            world
                .set_archetype(ArchetypeId::from_index(i), a.clone())
                .map_err(|e| e.to_string())?;
            done.push(format!("archetype {}", a.name));
        }
    }
    let n = built.factions().len();
    for from in 0..n {
        for to in 0..n {
            let (f, t) = (FactionId::from_index(from), FactionId::from_index(to));
            let hostile = built.factions().is_hostile(f, t);
            if world.factions().is_hostile(f, t) != hostile {
                world.factions_mut().set_hostility(f, t, hostile);
                let name = |x| built.factions().name(x).unwrap_or_default().to_owned();
                done.push(format!(
                    "faction {} {} {}",
                    name(f),
                    if hostile {
                        "hostile to"
                    } else {
                        "at peace with"
                    },
                    name(t)
                ));
            }
        }
    }
    walls(world, &built, old, new, &mut done)?;
    for (a, b) in old.agents.iter().zip(&new.agents) {
        if a.pos == b.pos && a.facing == b.facing {
            continue;
        }
        let tick = world.tick();
        let id = world
            .agents()
            .find(&b.name)
            .ok_or_else(|| format!("agent `{}` is not in the world at tick {tick}", b.name))?;
        if a.pos != b.pos {
            world.set_position(id, Vec3::new(b.pos.0, b.pos.1, b.pos.2));
            done.push(format!("agent {}: pos", b.name));
        }
        if a.facing != b.facing {
            let f = Vec3::new(b.facing.0, b.facing.1, b.facing.2).normalize_or(Vec3::X);
            world.facings_mut()[id.index()] = f;
            done.push(format!("agent {}: facing", b.name));
        }
    }
    Ok(done)
}

/// Doors opened or closed, walls made doors, and walls moved (the
/// occluders of the changed content, with every other wall's state kept).
fn walls(
    world: &mut World,
    built: &World,
    old: &ContentDef,
    new: &ContentDef,
    done: &mut Vec<String>,
) -> Result<(), String> {
    let err = |e: kiai_core::WorldError| e.to_string();
    let moved = old
        .walls
        .iter()
        .zip(&new.walls)
        .any(|(a, b)| (a.from, a.to, a.height) != (b.from, b.to, b.height));
    if moved {
        let enabled: Vec<bool> = (0..old.walls.len())
            .map(|i| {
                world
                    .occluders()
                    .and_then(|o| o.walls.is_enabled(i))
                    .unwrap_or(false)
            })
            .collect();
        let Some(occluders) = built.occluders().cloned() else {
            return Err("the changed content has no walls".into());
        };
        world.set_occluders(occluders);
        for (i, w) in new.walls.iter().enumerate() {
            world.set_wall_name(i, w.name.clone()).map_err(err)?;
            world.set_door(i, w.door).map_err(err)?;
            let keep = old.walls[i].open == w.open;
            world
                .set_wall_enabled(i, if keep { enabled[i] } else { !w.open })
                .map_err(err)?;
        }
        done.push("walls".to_owned());
        return Ok(());
    }
    for (i, (a, b)) in old.walls.iter().zip(&new.walls).enumerate() {
        let label = b.name.clone().unwrap_or_else(|| i.to_string());
        if a.door != b.door {
            world.set_door(i, b.door).map_err(err)?;
            done.push(format!("wall {label}: door"));
        }
        if a.open != b.open {
            world.set_wall_enabled(i, !b.open).map_err(err)?;
            done.push(format!(
                "wall {label}: {}",
                if b.open { "open" } else { "closed" }
            ));
        }
        if a.name != b.name {
            world.set_wall_name(i, b.name.clone()).map_err(err)?;
            done.push(format!("wall {i}: name"));
        }
    }
    Ok(())
}
