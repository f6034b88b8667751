//! Sense names as small integers. A script names senses by string
//! (`agent:nearest("eyes")`); the prelude gives each name it meets an id
//! (1, 2, ... per script state, `kiai.sense(name)` asks for one directly)
//! and passes that id to the host, so a query converts no string. The host
//! maps (archetype, id) to the archetype's sense index once per tick.

use std::cell::RefCell;

use kiai_core::World;
use mlua::Table;

use crate::handles::rt;

/// Marks an (archetype, id) pair whose archetype has no such sense.
const NONE: u16 = u16::MAX;

/// The host's side of the prelude's sense ids.
pub(crate) struct SenseIds {
    /// The prelude's table from id to name.
    names_table: Table,
    /// Names read from it so far, by id - 1 (an id's name never changes).
    names: RefCell<Vec<String>>,
    /// This tick's map, per archetype, from id - 1 to sense index
    /// ([`NONE`]: no such sense); filled on demand.
    by_archetype: RefCell<Vec<Vec<u16>>>,
}

impl SenseIds {
    /// Reads ids through `names_table` (the prelude's id → name table).
    pub(crate) fn new(names_table: Table) -> Self {
        Self {
            names_table,
            names: RefCell::new(Vec::new()),
            by_archetype: RefCell::new(Vec::new()),
        }
    }

    /// Forgets the archetype map (the world may differ from last tick's).
    pub(crate) fn begin_tick(&self) {
        self.by_archetype.borrow_mut().clear();
    }

    /// The index of the sense with id `id` of the agent in slot `agent`.
    pub(crate) fn index(&self, world: &World, agent: usize, id: i64) -> mlua::Result<usize> {
        let arch = world.agents().archetypes()[agent].index();
        let k = usize::try_from(id - 1).map_err(|_| no_id(id))?;
        let mut map = self.by_archetype.borrow_mut();
        if map.len() <= arch {
            map.resize_with(arch + 1, Vec::new);
        }
        if map[arch].len() <= k {
            self.read_names(k + 1)?;
            let names = self.names.borrow();
            let def = world.archetype(world.agents().archetypes()[agent]);
            let from = map[arch].len();
            map[arch].extend(names[from..=k].iter().map(|name| {
                def.and_then(|d| d.sense_index(name))
                    .and_then(|s| u16::try_from(s).ok())
                    .unwrap_or(NONE)
            }));
        }
        match map[arch][k] {
            NONE => {
                let names = self.names.borrow();
                let archetype = world
                    .archetype(world.agents().archetypes()[agent])
                    .map_or("?", |a| a.name.as_str());
                Err(rt(format!(
                    "`{archetype}` has no sense called `{}`",
                    names[k]
                )))
            }
            s => Ok(usize::from(s)),
        }
    }

    /// Makes sure the names of ids 1..=`n` are read.
    fn read_names(&self, n: usize) -> mlua::Result<()> {
        let mut names = self.names.borrow_mut();
        while names.len() < n {
            let id = names.len() + 1;
            let name: Option<String> = self.names_table.raw_get(id)?;
            names.push(name.ok_or_else(|| no_id(id as i64))?);
        }
        Ok(())
    }
}

fn no_id(id: i64) -> mlua::Error {
    rt(format!(
        "{id} is not a sense id (ids come from kiai.sense(name))"
    ))
}
