//! Article 001 neighbour selection: step towards or away from a destination.
//!
//! A transcription of `Select_WaypointInRange` (KI-Programmierung Teil 10)
//! and its overloads, folded into one function with [`SelectOptions`].

use glam::Vec3;
use rand::{Rng, RngExt};

use crate::{CostListId, NavGraph, WaypointGraph, WaypointId};

/// Which way to go relative to the destination (the article's `GetCloserToDestination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heading {
    /// Get closer to the destination (chase, go to).
    Toward,
    /// Get farther from it (flee).
    Away,
}

/// What the selection heads toward or away from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Destination {
    /// A waypoint: its position is the target, and in [`Heading::Toward`] a
    /// neighbour that *is* this waypoint is taken at once.
    Waypoint(WaypointId),
    /// A point in world units (e.g. an enemy between waypoints).
    Point(Vec3),
}

/// Which neighbours may be chosen at all (besides being active, which is
/// always required). Shared by [`SelectOptions`] and the random selection.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NeighbourFilter<'a> {
    /// Neighbours farther than this (world units, from the current waypoint,
    /// compared on squared distance, inclusive) are skipped; `None` = no limit.
    pub max_distance: Option<f32>,
    /// Waypoints never selected (the article's one or several excluded ids).
    pub exclude: &'a [WaypointId],
    /// Links whose clearance ([`NavGraph::set_clearances`]) is below this
    /// (world units, a unit's radius; 0 = any) are skipped.
    pub min_clearance: f32,
}

/// Options of [`WaypointGraph::select_neighbour`] / [`NavGraph::select_neighbour`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelectOptions<'a> {
    /// Toward or away from the destination.
    pub heading: Heading,
    /// The cost list whose multipliers weigh each link.
    pub cost_list: CostListId,
    /// Range limit and exclusions.
    pub filter: NeighbourFilter<'a>,
    /// Random cost variation (the article's `..._WithRandomMovementCostVariation`):
    /// each link's multiplier becomes `max(0, multiplier + jitter * u)` with
    /// `u` uniform in [-1, 1), so agents take detours. `0.0` (or negative, or
    /// NaN) = none, and then no random number is drawn at all. When > 0,
    /// exactly one `u64` is drawn per call, whatever the number of neighbours.
    pub jitter: f32,
}

impl<'a> SelectOptions<'a> {
    /// No range limit, no exclusions, no jitter.
    pub fn new(heading: Heading, cost_list: CostListId) -> Self {
        Self {
            heading,
            cost_list,
            filter: NeighbourFilter::default(),
            jitter: 0.0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Candidate {
    id: WaypointId,
    link: u32,
    pos: Vec3,
    active: bool,
    cost: f32,
    /// The link's clearance, world units.
    clearance: f32,
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Uniform in [-1, 1) from a per-call seed and the link id.
fn unit_noise(seed: u64, link: u32) -> f32 {
    let bits = splitmix64(seed ^ u64::from(link).wrapping_mul(0xD6E8_FEB8_6659_FD93)) >> 40;
    (bits as f32) * (2.0 / (1u64 << 24) as f32) - 1.0
}

fn eligible(c: &Candidate, at_pos: Vec3, filter: &NeighbourFilter<'_>) -> bool {
    c.active
        && c.clearance >= filter.min_clearance
        && !filter.exclude.contains(&c.id)
        && filter
            .max_distance
            .is_none_or(|d| c.pos.distance_squared(at_pos) <= d * d)
}

/// The article's two-step selection over candidates in link order.
fn select_core<I, R>(
    at_pos: Vec3,
    dest_pos: Vec3,
    dest_id: Option<WaypointId>,
    opts: &SelectOptions<'_>,
    candidates: I,
    rng: &mut R,
) -> Option<WaypointId>
where
    I: Iterator<Item = Candidate> + Clone,
    R: Rng + ?Sized,
{
    let jitter = opts.jitter;
    let seed = if jitter > 0.0 {
        Some(rng.next_u64())
    } else {
        None
    };
    let cost_of = |c: &Candidate| match seed {
        Some(seed) => (c.cost + jitter * unit_noise(seed, c.link)).max(0.0),
        None => c.cost,
    };
    let usable = candidates.filter(|c| eligible(c, at_pos, &opts.filter));

    let distance_vector = dest_pos - at_pos;
    let mut saved = distance_vector.length_squared();
    let mut selected = None;
    let dir_to_dest = distance_vector.normalize_or_zero();
    match opts.heading {
        Heading::Toward => {
            for c in usable.clone() {
                // The seed checks `DestinationWaypointID == IDOfSelectedWaypoint`
                // one neighbour late; the intent is to take the destination at once.
                if Some(c.id) == dest_id {
                    return Some(c.id);
                }
                let new = cost_of(&c) * dest_pos.distance_squared(c.pos);
                if new <= saved {
                    saved = new;
                    selected = Some(c.id);
                }
            }
            if selected.is_none() {
                // Step 2: the neighbour in the best direction.
                let mut saved_dot = -1.0f32;
                for c in usable {
                    let dir = (c.pos - at_pos).normalize_or_zero();
                    let dot = dir_to_dest.dot(dir) + 1.0 - cost_of(&c);
                    if dot >= saved_dot {
                        saved_dot = dot;
                        selected = Some(c.id);
                    }
                }
            }
        }
        Heading::Away => {
            for c in usable.clone() {
                let new = (2.0 - cost_of(&c)) * dest_pos.distance_squared(c.pos);
                if new >= saved {
                    saved = new;
                    selected = Some(c.id);
                }
            }
            if selected.is_none() {
                // Step 2: the neighbour in the worst direction.
                let mut saved_dot = 1.0f32;
                for c in usable {
                    let dir = (c.pos - at_pos).normalize_or_zero();
                    let dot = dir_to_dest.dot(dir) - 1.0 + cost_of(&c);
                    if dot <= saved_dot {
                        saved_dot = dot;
                        selected = Some(c.id);
                    }
                }
            }
        }
    }
    selected
}

fn random_core<I, R>(
    at_pos: Vec3,
    filter: &NeighbourFilter<'_>,
    candidates: I,
    rng: &mut R,
) -> Option<WaypointId>
where
    I: Iterator<Item = Candidate> + Clone,
    R: Rng + ?Sized,
{
    let usable = candidates.filter(|c| eligible(c, at_pos, filter));
    let n = usable.clone().count();
    if n == 0 {
        return None;
    }
    let k = rng.random_range(0..n);
    usable.map(|c| c.id).nth(k)
}

impl WaypointGraph {
    fn candidates(&self, at: WaypointId, list: CostListId) -> Option<Vec<Candidate>> {
        self.cost_list_name(list)?;
        let links = self.links_from(at);
        Some(
            links
                .into_iter()
                .filter_map(|(link, to)| {
                    let w = self.waypoint(to)?;
                    Some(Candidate {
                        id: to,
                        link: link.0,
                        pos: w.pos(),
                        active: w.active,
                        cost: self.link_cost(link, list).unwrap_or(1.0),
                        // An editable graph has no clearances: every link fits.
                        clearance: f32::INFINITY,
                    })
                })
                .collect(),
        )
    }

    /// Article 001 `Select_WaypointInRange`: the neighbour of `at` to walk to next.
    ///
    /// Neighbours are visited in ascending [`LinkId`](crate::LinkId) order;
    /// inactive, excluded and out-of-range ones are skipped.
    ///
    /// **Toward**: a neighbour that is the destination waypoint is returned at
    /// once; otherwise the one minimising `cost * |dest - neighbour|^2`, if it
    /// is `<=` the current waypoint's own `|dest - at|^2` (ties: the later
    /// link wins). If none qualifies, step 2 maximises
    /// `dot(dir_to_dest, dir_to_neighbour) + 1 - cost` (`>=` -1, later wins).
    ///
    /// **Away**: maximises `(2 - cost) * |dest - neighbour|^2` among those
    /// `>=` the current distance; step 2 minimises `dot - 1 + cost` (`<=` 1).
    ///
    /// `None` if `at`, the destination waypoint or the cost list does not
    /// exist, or no neighbour qualifies. `rng` is only used when
    /// `opts.jitter > 0`.
    pub fn select_neighbour<R: Rng + ?Sized>(
        &self,
        at: WaypointId,
        destination: Destination,
        opts: &SelectOptions<'_>,
        rng: &mut R,
    ) -> Option<WaypointId> {
        let at_pos = self.waypoint(at)?.pos();
        let (dest_pos, dest_id) = match destination {
            Destination::Waypoint(d) => (self.waypoint(d)?.pos(), Some(d)),
            Destination::Point(p) => (p, None),
        };
        let cands = self.candidates(at, opts.cost_list)?;
        select_core(at_pos, dest_pos, dest_id, opts, cands.into_iter(), rng)
    }

    /// Article 001 `Select_RandomWaypointInRange`: a uniformly random usable
    /// neighbour of `at` (the fallback for an agent stuck on a broken map).
    /// Draws one number from `rng` if there is at least one candidate, none
    /// otherwise.
    pub fn select_random_neighbour<R: Rng + ?Sized>(
        &self,
        at: WaypointId,
        filter: &NeighbourFilter<'_>,
        rng: &mut R,
    ) -> Option<WaypointId> {
        let at_pos = self.waypoint(at)?.pos();
        let cands: Vec<Candidate> = self
            .links_from(at)
            .into_iter()
            .filter_map(|(link, to)| {
                let w = self.waypoint(to)?;
                Some(Candidate {
                    id: to,
                    link: link.0,
                    pos: w.pos(),
                    active: w.active,
                    cost: 1.0,
                    clearance: f32::INFINITY,
                })
            })
            .collect();
        random_core(at_pos, filter, cands.into_iter(), rng)
    }
}

impl NavGraph {
    fn candidates_frozen(
        &self,
        d: u32,
        list: usize,
    ) -> impl Iterator<Item = Candidate> + Clone + '_ {
        let m = self.targets.len();
        let lo = self.first_out[d as usize] as usize;
        let hi = self.first_out[d as usize + 1] as usize;
        (lo..hi).map(move |e| {
            let t = self.targets[e] as usize;
            Candidate {
                id: self.ids[t],
                link: self.links[e].0,
                pos: self.pos[t],
                // A blocked link is skipped like an inactive neighbour.
                active: self.active[t] && self.link_blocks[e] == 0,
                cost: self.multipliers.get(list * m + e).copied().unwrap_or(1.0),
                clearance: self.clearance[e],
            }
        })
    }

    /// Same as [`WaypointGraph::select_neighbour`] on the frozen graph
    /// (identical results); allocation-free.
    pub fn select_neighbour<R: Rng + ?Sized>(
        &self,
        at: WaypointId,
        destination: Destination,
        opts: &SelectOptions<'_>,
        rng: &mut R,
    ) -> Option<WaypointId> {
        let d = self.dense(at)?;
        if !self.has_cost_list(opts.cost_list) {
            return None;
        }
        let (dest_pos, dest_id) = match destination {
            Destination::Waypoint(id) => (self.pos(id)?, Some(id)),
            Destination::Point(p) => (p, None),
        };
        let cands = self.candidates_frozen(d, opts.cost_list.index());
        select_core(self.pos[d as usize], dest_pos, dest_id, opts, cands, rng)
    }

    /// Same as [`WaypointGraph::select_random_neighbour`] on the frozen graph.
    pub fn select_random_neighbour<R: Rng + ?Sized>(
        &self,
        at: WaypointId,
        filter: &NeighbourFilter<'_>,
        rng: &mut R,
    ) -> Option<WaypointId> {
        let d = self.dense(at)?;
        random_core(
            self.pos[d as usize],
            filter,
            self.candidates_frozen(d, 0),
            rng,
        )
    }
}
