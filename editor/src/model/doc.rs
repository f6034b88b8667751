//! The edited document and its undo history.
//!
//! Every change to the content is an [`Edit`]: insert, remove or replace one
//! item of one collection, or a batch of those. An edit stores only the
//! items it touches (old and new), so undoing a change to one waypoint of
//! 100k costs one waypoint, not a copy of the document.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kiai_content::def::{
    AgentDef, ArchetypeDef, BoundsDef, ContentDef, FactionDef, FogDef, LinkDef, NavGenDef,
    PerceptionBudgetDef, ProfileDef, RegionDef, WallDef, WaypointDef,
};

/// One item of one of the document's collections.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// An entry of `waypoints`.
    Waypoint(WaypointDef),
    /// An entry of `links`.
    Link(LinkDef),
    /// An entry of `walls`.
    Wall(WallDef),
    /// An entry of `regions`.
    Region(RegionDef),
    /// An entry of `agents`.
    Agent(AgentDef),
    /// An entry of `archetypes`: name and definition (boxed: it is the
    /// largest item, and edits of small items should stay small).
    Archetype(String, Box<ArchetypeDef>),
    /// An entry of `profiles`: name and definition.
    Profile(String, Box<ProfileDef>),
    /// An entry of `factions`.
    Faction(FactionDef),
    /// An entry of `cost_lists` (a list's name).
    CostList(String),
    /// The `bounds` (index 0 only; `None` removes them).
    Bounds(Option<BoundsDef>),
    /// The document's `name`, `seed` and `tick_seconds` (index 0 only).
    Meta(String, u64, f32),
    /// The document's `fog` and `perception_budget` (index 0 only).
    Settings(Option<FogDef>, Option<PerceptionBudgetDef>),
    /// The radius and spacing the generated waypoints were made with
    /// (`navgen`; index 0 only, `None`: the defaults).
    NavGen(Option<NavGenDef>),
}

/// Which collection an [`Item`] lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `waypoints`
    Waypoint,
    /// `links`
    Link,
    /// `walls`
    Wall,
    /// `regions`
    Region,
    /// `agents`
    Agent,
    /// `archetypes`
    Archetype,
    /// `profiles`
    Profile,
    /// `factions`
    Faction,
    /// `cost_lists`
    CostList,
    /// `bounds`
    Bounds,
    /// `name`, `seed`, `tick_seconds`
    Meta,
    /// `fog`, `perception_budget`
    Settings,
    /// `navgen`
    NavGen,
}

impl Item {
    /// An archetype item.
    pub fn archetype(name: String, def: ArchetypeDef) -> Self {
        Item::Archetype(name, Box::new(def))
    }

    /// A profile item.
    pub fn profile(name: String, def: ProfileDef) -> Self {
        Item::Profile(name, Box::new(def))
    }

    /// The collection the item belongs to.
    pub fn kind(&self) -> Kind {
        match self {
            Item::Waypoint(_) => Kind::Waypoint,
            Item::Link(_) => Kind::Link,
            Item::Wall(_) => Kind::Wall,
            Item::Region(_) => Kind::Region,
            Item::Agent(_) => Kind::Agent,
            Item::Archetype(..) => Kind::Archetype,
            Item::Profile(..) => Kind::Profile,
            Item::Faction(_) => Kind::Faction,
            Item::CostList(_) => Kind::CostList,
            Item::Bounds(_) => Kind::Bounds,
            Item::Meta(..) => Kind::Meta,
            Item::Settings(..) => Kind::Settings,
            Item::NavGen(_) => Kind::NavGen,
        }
    }
}

/// A reversible change to a [`ContentDef`].
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Insert `item` at `index` of its collection (`index <= len`).
    Insert {
        /// Position in the collection.
        index: usize,
        /// The new item.
        item: Item,
    },
    /// Remove the item at `index`; `item` is what was there.
    Remove {
        /// Position in the collection.
        index: usize,
        /// The removed item (restored by undo).
        item: Item,
    },
    /// Replace the item at `index`: `old` by `new` (same kind).
    Set {
        /// Position in the collection.
        index: usize,
        /// The item before the edit.
        old: Item,
        /// The item after the edit.
        new: Item,
    },
    /// Several edits applied in order (and undone in reverse order).
    Batch(Vec<Edit>),
}

/// An edit that does not fit the document (index out of range, wrong kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditError(pub String);

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EditError {}

fn insert<T>(v: &mut Vec<T>, index: usize, item: T) -> Result<(), EditError> {
    if index > v.len() {
        return Err(EditError(format!("insert at {index} past {}", v.len())));
    }
    v.insert(index, item);
    Ok(())
}

fn remove<T>(v: &mut Vec<T>, index: usize) -> Result<(), EditError> {
    if index >= v.len() {
        return Err(EditError(format!("remove at {index} past {}", v.len())));
    }
    v.remove(index);
    Ok(())
}

fn set<T>(v: &mut [T], index: usize, item: T) -> Result<(), EditError> {
    match v.get_mut(index) {
        Some(slot) => {
            *slot = item;
            Ok(())
        }
        None => Err(EditError(format!("set at {index} past {}", v.len()))),
    }
}

fn put(def: &mut ContentDef, index: usize, item: Item, op: Op) -> Result<(), EditError> {
    macro_rules! on {
        ($vec:expr, $value:expr) => {
            match op {
                Op::Insert => insert($vec, index, $value),
                Op::Set => set($vec, index, $value),
            }
        };
    }
    match item {
        Item::Waypoint(w) => on!(&mut def.waypoints, w),
        Item::Link(l) => on!(&mut def.links, l),
        Item::Wall(w) => on!(&mut def.walls, w),
        Item::Region(r) => on!(&mut def.regions, r),
        Item::Agent(a) => on!(&mut def.agents, a),
        Item::Archetype(n, a) => on!(&mut def.archetypes.0, (n, *a)),
        Item::Profile(n, p) => on!(&mut def.profiles.0, (n, *p)),
        Item::Faction(f) => on!(&mut def.factions, f),
        Item::CostList(c) => on!(&mut def.cost_lists, c),
        Item::Bounds(b) => {
            if index != 0 || op == Op::Insert {
                return Err(EditError("bounds can only be set".into()));
            }
            def.bounds = b;
            Ok(())
        }
        Item::Meta(name, seed, tick_seconds) => {
            if index != 0 || op == Op::Insert {
                return Err(EditError("the document settings can only be set".into()));
            }
            def.name = name;
            def.seed = seed;
            def.tick_seconds = tick_seconds;
            Ok(())
        }
        Item::Settings(fog, budget) => {
            if index != 0 || op == Op::Insert {
                return Err(EditError("the document settings can only be set".into()));
            }
            def.fog = fog;
            def.perception_budget = budget;
            Ok(())
        }
        Item::NavGen(navgen) => {
            if index != 0 || op == Op::Insert {
                return Err(EditError("navgen can only be set".into()));
            }
            def.navgen = navgen;
            Ok(())
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Insert,
    Set,
}

fn take(def: &mut ContentDef, kind: Kind, index: usize) -> Result<(), EditError> {
    match kind {
        Kind::Waypoint => remove(&mut def.waypoints, index),
        Kind::Link => remove(&mut def.links, index),
        Kind::Wall => remove(&mut def.walls, index),
        Kind::Region => remove(&mut def.regions, index),
        Kind::Agent => remove(&mut def.agents, index),
        Kind::Archetype => remove(&mut def.archetypes.0, index),
        Kind::Profile => remove(&mut def.profiles.0, index),
        Kind::Faction => remove(&mut def.factions, index),
        Kind::CostList => remove(&mut def.cost_lists, index),
        Kind::Bounds => Err(EditError(
            "bounds cannot be removed; set them to None".into(),
        )),
        Kind::Meta | Kind::Settings | Kind::NavGen => {
            Err(EditError("the document settings cannot be removed".into()))
        }
    }
}

impl Edit {
    /// Applies the edit to `def`. A batch stops at its first failing edit
    /// and undoes the ones before it, so `def` is unchanged on error.
    pub fn apply(&self, def: &mut ContentDef) -> Result<(), EditError> {
        match self {
            Edit::Insert { index, item } => put(def, *index, item.clone(), Op::Insert),
            Edit::Remove { index, item } => take(def, item.kind(), *index),
            Edit::Set { index, new, .. } => put(def, *index, new.clone(), Op::Set),
            Edit::Batch(edits) => {
                for (done, e) in edits.iter().enumerate() {
                    if let Err(err) = e.apply(def) {
                        for undo in edits[..done].iter().rev() {
                            // Reverting what was just applied cannot fail.
                            let _ = undo.inverse().apply(def);
                        }
                        return Err(err);
                    }
                }
                Ok(())
            }
        }
    }

    /// The edit that undoes this one.
    pub fn inverse(&self) -> Edit {
        match self {
            Edit::Insert { index, item } => Edit::Remove {
                index: *index,
                item: item.clone(),
            },
            Edit::Remove { index, item } => Edit::Insert {
                index: *index,
                item: item.clone(),
            },
            Edit::Set { index, old, new } => Edit::Set {
                index: *index,
                old: new.clone(),
                new: old.clone(),
            },
            Edit::Batch(edits) => Edit::Batch(edits.iter().rev().map(Edit::inverse).collect()),
        }
    }

    /// Whether the edit changes nothing (an empty batch, a set to the same
    /// value).
    pub fn is_noop(&self) -> bool {
        match self {
            Edit::Set { old, new, .. } => old == new,
            Edit::Batch(edits) => edits.iter().all(Edit::is_noop),
            _ => false,
        }
    }

    /// Whether the edit inserts or removes items (indices shift).
    pub fn is_structural(&self) -> bool {
        match self {
            Edit::Insert { .. } | Edit::Remove { .. } => true,
            Edit::Set { .. } => false,
            Edit::Batch(edits) => edits.iter().any(Edit::is_structural),
        }
    }

    /// The target of a single `Set` (for merging drags into one step).
    fn set_target(&self) -> Option<(Kind, usize)> {
        match self {
            Edit::Set { index, new, .. } => Some((new.kind(), *index)),
            _ => None,
        }
    }
}

/// A point in a document's history ([`Document::mark`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Steps that could be undone then.
    steps: usize,
    /// The last step's serial number then.
    serial: u64,
}

impl Mark {
    /// Steps that could be undone at the mark.
    pub fn steps(&self) -> usize {
        self.steps
    }
}

/// A document open in the editor: the content, where it lives, and its
/// history.
#[derive(Debug)]
pub struct Document {
    def: ContentDef,
    path: Option<PathBuf>,
    undo: Vec<(u64, Edit)>,
    redo: Vec<(u64, Edit)>,
    serial: u64,
    saved_state: u64,
    revision: u64,
    merge_open: bool,
    ids: HashMap<u32, usize>,
    ids_revision: u64,
}

impl Document {
    /// A document holding `def`, saved at `path` (`None`: untitled).
    pub fn new(def: ContentDef, path: Option<PathBuf>) -> Self {
        Self {
            def,
            path,
            undo: Vec::new(),
            redo: Vec::new(),
            serial: 0,
            saved_state: 0,
            revision: 1,
            merge_open: false,
            ids: HashMap::new(),
            ids_revision: 0,
        }
    }

    /// An empty, untitled document in the newest format.
    pub fn untitled() -> Self {
        Self::new(empty_def(), None)
    }

    /// The content as it is now.
    pub fn def(&self) -> &ContentDef {
        &self.def
    }

    /// Where the document is saved, if it has been.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Sets where the document is saved (after "save as").
    pub fn set_path(&mut self, path: PathBuf) {
        self.path = Some(path);
    }

    /// Increases with every change of the content (edits, undo, redo,
    /// previews): caches compare it.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether the content differs from what was last saved.
    pub fn is_dirty(&self) -> bool {
        self.state() != self.saved_state
    }

    /// Records that the content as it is now was saved.
    pub fn mark_saved(&mut self) {
        self.saved_state = self.state();
    }

    fn state(&self) -> u64 {
        self.undo.last().map_or(0, |(s, _)| *s)
    }

    /// Number of steps that can be undone.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// Number of steps that can be redone.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Applies `edit` and records it as one undo step. A `Set` on the same
    /// item as the previous step while a gesture is open (see
    /// [`Document::set_gesture`]) merges into that step, so dragging a
    /// slider is one step.
    pub fn apply(&mut self, edit: Edit) -> Result<(), EditError> {
        if edit.is_noop() {
            return Ok(());
        }
        edit.apply(&mut self.def)?;
        self.record(edit);
        Ok(())
    }

    /// Records an edit whose effect is already in the content (a drag that
    /// previewed its changes live through [`Document::preview`]).
    pub fn record(&mut self, edit: Edit) {
        self.revision += 1;
        if edit.is_noop() {
            return;
        }
        if self.merge_open
            && let (Some(target), Some((_, Edit::Set { new, index, .. }))) =
                (edit.set_target(), self.undo.last_mut())
            && (new.kind(), *index) == target
            && let Edit::Set { new: latest, .. } = edit
        {
            *new = latest;
            self.redo.clear();
            return;
        }
        self.serial += 1;
        self.undo.push((self.serial, edit));
        self.redo.clear();
        self.merge_open = true;
    }

    /// Opens (`true`, while a pointer button is held) or closes a gesture:
    /// consecutive sets of one item within a gesture merge into one step.
    pub fn set_gesture(&mut self, open: bool) {
        if !open {
            self.merge_open = false;
        }
    }

    /// Changes the content without recording a step (live drag preview);
    /// finish with [`Document::record`] of the whole change.
    pub fn preview(&mut self, f: impl FnOnce(&mut ContentDef)) {
        f(&mut self.def);
        self.revision += 1;
    }

    /// Applies `edit` without recording a step (a drag previewing its
    /// result); finish with [`Document::record`] of the whole change.
    pub fn preview_edit(&mut self, edit: &Edit) -> Result<(), EditError> {
        edit.apply(&mut self.def)?;
        self.revision += 1;
        Ok(())
    }

    /// Undoes the last step; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((serial, edit)) = self.undo.pop() else {
            return false;
        };
        // Steps in the history always fit: they were applied in this order.
        let _ = edit.inverse().apply(&mut self.def);
        self.redo.push((serial, edit));
        self.revision += 1;
        self.merge_open = false;
        true
    }

    /// Redoes the last undone step; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some((serial, edit)) = self.redo.pop() else {
            return false;
        };
        let _ = edit.apply(&mut self.def);
        self.undo.push((serial, edit));
        self.revision += 1;
        self.merge_open = false;
        true
    }

    /// Where the history stands now, to come back to with
    /// [`Document::rewind`].
    pub fn mark(&self) -> Mark {
        Mark {
            steps: self.undo.len(),
            serial: self.serial,
        }
    }

    /// Undoes every step recorded since `mark` and forgets them (they
    /// cannot be redone); the steps that could be redone at `mark` still
    /// can. Content and history are then as they were at `mark` (a
    /// preview not yet recorded is dropped with the rest).
    pub fn rewind(&mut self, mark: Mark, before: &ContentDef) {
        while self.undo.len() > mark.steps {
            self.undo();
        }
        self.redo.retain(|(serial, _)| *serial <= mark.serial);
        if self.def != *before {
            self.def = before.clone();
        }
        self.revision += 1;
        self.merge_open = false;
    }

    /// The index in `waypoints` of the waypoint with content id `id`.
    pub fn waypoint_index(&mut self, id: u32) -> Option<usize> {
        self.refresh_ids();
        self.ids.get(&id).copied()
    }

    /// The id → index map of the waypoints, current for this revision.
    pub fn waypoint_indices(&mut self) -> &HashMap<u32, usize> {
        self.refresh_ids();
        &self.ids
    }

    fn refresh_ids(&mut self) {
        if self.ids_revision != self.revision {
            self.ids.clear();
            self.ids.extend(
                self.def
                    .waypoints
                    .iter()
                    .enumerate()
                    .map(|(i, w)| (w.id, i)),
            );
            self.ids_revision = self.revision;
        }
    }

    /// An id no waypoint has yet.
    pub fn free_waypoint_id(&self) -> u32 {
        self.def
            .waypoints
            .iter()
            .map(|w| w.id.saturating_add(1))
            .max()
            .unwrap_or(0)
    }

    /// The edit removing waypoint `index` and every link touching it.
    pub fn remove_waypoints_edit(&self, indices: &[usize]) -> Edit {
        let mut indices: Vec<usize> = indices
            .iter()
            .copied()
            .filter(|&i| i < self.def.waypoints.len())
            .collect();
        indices.sort_unstable();
        indices.dedup();
        let ids: std::collections::HashSet<u32> =
            indices.iter().map(|&i| self.def.waypoints[i].id).collect();
        let mut edits = Vec::new();
        for (i, l) in self.def.links.iter().enumerate().rev() {
            if ids.contains(&l.from) || ids.contains(&l.to) {
                edits.push(Edit::Remove {
                    index: i,
                    item: Item::Link(l.clone()),
                });
            }
        }
        for &i in indices.iter().rev() {
            edits.push(Edit::Remove {
                index: i,
                item: Item::Waypoint(self.def.waypoints[i].clone()),
            });
        }
        Edit::Batch(edits)
    }

    /// The links between waypoints `a` and `b` (ids), either direction.
    pub fn links_between(&self, a: u32, b: u32) -> Vec<usize> {
        self.def
            .links
            .iter()
            .enumerate()
            .filter(|(_, l)| (l.from == a && l.to == b) || (l.from == b && l.to == a))
            .map(|(i, _)| i)
            .collect()
    }

    /// Names of the cost lists (the implicit `"default"` when none is
    /// declared).
    pub fn cost_list_names(&self) -> Vec<String> {
        if self.def.cost_lists.is_empty() {
            vec![kiai_content::DEFAULT_COST_LIST.to_owned()]
        } else {
            self.def.cost_lists.clone()
        }
    }
}

/// A content definition with nothing in it, in the newest format.
pub fn empty_def() -> ContentDef {
    ContentDef {
        format: kiai_content::FORMAT_VERSION,
        name: String::new(),
        seed: 0,
        tick_seconds: 0.1,
        bounds: None,
        factions: Vec::new(),
        cost_lists: Vec::new(),
        waypoints: Vec::new(),
        links: Vec::new(),
        walls: Vec::new(),
        regions: Vec::new(),
        sounds: Vec::new(),
        fog: None,
        perception_budget: None,
        nav: Default::default(),
        navgen: None,
        profiles: Default::default(),
        archetypes: Default::default(),
        agents: Vec::new(),
        interest: Vec::new(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    fn wp(id: u32, x: f32) -> Item {
        Item::Waypoint(WaypointDef {
            id,
            pos: (x, 0.0, 0.0),
            active: true,
            name: None,
            tags: Vec::new(),
        })
    }

    #[test]
    fn undo_redo_restore_exact_content() {
        let mut doc = Document::untitled();
        let start = doc.def().clone();
        doc.apply(Edit::Insert {
            index: 0,
            item: wp(0, 1.0),
        })
        .unwrap();
        doc.apply(Edit::Insert {
            index: 1,
            item: wp(1, 2.0),
        })
        .unwrap();
        let two = doc.def().clone();
        doc.set_gesture(false);
        doc.apply(Edit::Set {
            index: 0,
            old: wp(0, 1.0),
            new: wp(0, 5.0),
        })
        .unwrap();
        assert!(doc.is_dirty());
        assert!(doc.undo());
        assert_eq!(doc.def(), &two);
        assert!(doc.undo() && doc.undo());
        assert_eq!(doc.def(), &start);
        assert!(!doc.is_dirty(), "back at the saved state");
        assert!(!doc.undo());
        assert!(doc.redo() && doc.redo());
        assert_eq!(doc.def(), &two);
    }

    #[test]
    fn sets_within_a_gesture_merge_into_one_step() {
        let mut doc = Document::untitled();
        doc.apply(Edit::Insert {
            index: 0,
            item: wp(0, 0.0),
        })
        .unwrap();
        doc.set_gesture(false);
        for x in 1..10 {
            doc.set_gesture(true);
            doc.apply(Edit::Set {
                index: 0,
                old: wp(0, (x - 1) as f32),
                new: wp(0, x as f32),
            })
            .unwrap();
        }
        assert_eq!(doc.undo_len(), 2);
        doc.undo();
        assert_eq!(doc.def().waypoints[0].pos.0, 0.0);
    }

    #[test]
    fn rewinding_to_a_mark_forgets_the_steps_since_and_keeps_the_redo_before() {
        let mut doc = Document::untitled();
        let insert = |index: usize, x: f32| Edit::Insert {
            index,
            item: wp(index as u32, x),
        };
        doc.apply(insert(0, 1.0)).unwrap();
        doc.apply(insert(1, 2.0)).unwrap();
        doc.undo();
        doc.mark_saved();
        let (mark, before) = (doc.mark(), doc.def().clone());
        assert_eq!(mark.steps(), 1);
        // Nothing done since: the step undone before can still be redone.
        doc.rewind(mark, &before);
        assert_eq!((doc.def(), doc.redo_len()), (&before, 1));
        doc.apply(insert(1, 5.0)).unwrap();
        doc.apply(insert(2, 6.0)).unwrap();
        doc.preview(|d| d.waypoints[0].pos.0 = 9.0);
        doc.rewind(mark, &before);
        assert_eq!(doc.def(), &before);
        assert_eq!((doc.undo_len(), doc.redo_len()), (1, 0));
        assert!(!doc.is_dirty(), "as saved");
    }

    #[test]
    fn a_failing_batch_leaves_the_content_unchanged() {
        let mut doc = Document::untitled();
        let bad = Edit::Batch(vec![
            Edit::Insert {
                index: 0,
                item: wp(0, 0.0),
            },
            Edit::Remove {
                index: 7,
                item: wp(9, 0.0),
            },
        ]);
        assert!(doc.apply(bad).is_err());
        assert!(doc.def().waypoints.is_empty());
        assert_eq!(doc.undo_len(), 0);
    }

    #[test]
    fn removing_waypoints_removes_their_links_and_undo_restores_them() {
        let mut doc = Document::untitled();
        for i in 0..3 {
            doc.apply(Edit::Insert {
                index: i,
                item: wp(i as u32, i as f32),
            })
            .unwrap();
        }
        for (from, to) in [(0, 1), (1, 2), (2, 0)] {
            let index = doc.def().links.len();
            doc.apply(Edit::Insert {
                index,
                item: Item::Link(LinkDef {
                    from,
                    to,
                    costs: Default::default(),
                    two_way: false,
                }),
            })
            .unwrap();
        }
        let before = doc.def().clone();
        let edit = doc.remove_waypoints_edit(&[1]);
        doc.apply(edit).unwrap();
        assert_eq!(doc.def().waypoints.len(), 2);
        assert_eq!(doc.def().links.len(), 1);
        doc.undo();
        assert_eq!(doc.def(), &before);
    }
}
