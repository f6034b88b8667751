//! What can be selected: one object of the document, by collection and
//! index, and the selection as a set of them.

use std::collections::BTreeSet;

use kiai_content::def::ContentDef;

/// One selectable object of the document, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sel {
    /// `waypoints[i]`
    Waypoint(usize),
    /// `links[i]`
    Link(usize),
    /// `walls[i]`
    Wall(usize),
    /// `regions[i]`
    Region(usize),
    /// `agents[i]`
    Agent(usize),
    /// `archetypes{i}`
    Archetype(usize),
    /// `profiles{i}`
    Profile(usize),
    /// `factions[i]`
    Faction(usize),
}

impl Sel {
    /// The object a content path names (`waypoints[12].pos` → waypoint 12,
    /// `archetypes{1}.senses[0]` → archetype 1), as printed by
    /// [`kiai_content::SpanIndex::path_at`].
    pub fn from_path(path: &str) -> Option<Sel> {
        let head = path.split('.').next()?;
        let (name, rest) = head.split_at(head.find(['[', '{'])?);
        let index: usize = rest.get(1..rest.len().checked_sub(1)?)?.parse().ok()?;
        Some(match name {
            "waypoints" => Sel::Waypoint(index),
            "links" => Sel::Link(index),
            "walls" => Sel::Wall(index),
            "regions" => Sel::Region(index),
            "agents" => Sel::Agent(index),
            "archetypes" => Sel::Archetype(index),
            "profiles" => Sel::Profile(index),
            "factions" => Sel::Faction(index),
            _ => return None,
        })
    }

    /// Whether the object still exists in `def`.
    pub fn exists(self, def: &ContentDef) -> bool {
        match self {
            Sel::Waypoint(i) => i < def.waypoints.len(),
            Sel::Link(i) => i < def.links.len(),
            Sel::Wall(i) => i < def.walls.len(),
            Sel::Region(i) => i < def.regions.len(),
            Sel::Agent(i) => i < def.agents.len(),
            Sel::Archetype(i) => i < def.archetypes.len(),
            Sel::Profile(i) => i < def.profiles.len(),
            Sel::Faction(i) => i < def.factions.len(),
        }
    }
}

/// The selected objects, in a stable order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection(BTreeSet<Sel>);

impl Selection {
    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many objects are selected.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether `sel` is selected.
    pub fn contains(&self, sel: &Sel) -> bool {
        self.0.contains(sel)
    }

    /// The selected objects in order.
    pub fn iter(&self) -> impl Iterator<Item = Sel> + '_ {
        self.0.iter().copied()
    }

    /// Selects exactly `items`.
    pub fn set(&mut self, items: impl IntoIterator<Item = Sel>) {
        self.0 = items.into_iter().collect();
    }

    /// Adds `items` to the selection.
    pub fn add(&mut self, items: impl IntoIterator<Item = Sel>) {
        self.0.extend(items);
    }

    /// Selects `sel` if it was not selected, else deselects it.
    pub fn toggle(&mut self, sel: Sel) {
        if !self.0.remove(&sel) {
            self.0.insert(sel);
        }
    }

    /// Selects nothing.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Drops objects that no longer exist in `def`.
    pub fn prune(&mut self, def: &ContentDef) {
        self.0.retain(|s| s.exists(def));
    }

    /// The single selected agent, if exactly one agent is selected.
    pub fn agent(&self) -> Option<usize> {
        let mut agents = self.0.iter().filter_map(|s| match s {
            Sel::Agent(i) => Some(*i),
            _ => None,
        });
        let first = agents.next();
        if agents.next().is_some() { None } else { first }
    }

    /// Selected waypoint indices, ascending.
    pub fn waypoints(&self) -> Vec<usize> {
        self.0
            .iter()
            .filter_map(|s| match s {
                Sel::Waypoint(i) => Some(*i),
                _ => None,
            })
            .collect()
    }

    /// Whether any object of the kind of `probe` is selected (the index of
    /// `probe` is ignored).
    pub fn any_like(&self, probe: Sel) -> bool {
        self.0
            .iter()
            .any(|s| std::mem::discriminant(s) == std::mem::discriminant(&probe))
    }
}

impl FromIterator<Sel> for Selection {
    fn from_iter<I: IntoIterator<Item = Sel>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::Sel;

    #[test]
    fn paths_name_objects() {
        assert_eq!(Sel::from_path("waypoints[12].pos"), Some(Sel::Waypoint(12)));
        assert_eq!(
            Sel::from_path("archetypes{1}.senses[0].shape"),
            Some(Sel::Archetype(1))
        );
        assert_eq!(Sel::from_path("links[3]"), Some(Sel::Link(3)));
        assert_eq!(Sel::from_path("format"), None);
        assert_eq!(Sel::from_path("sounds[2]"), None);
    }
}
