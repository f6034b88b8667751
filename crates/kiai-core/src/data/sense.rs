//! Senses: what an archetype notices ([`Sense`]: a named [`Shape`], a
//! faction filter, occlusion, hysteresis and memory), and the same compiled
//! for the sense stage's inner loop.

use crate::data::{CompiledShape, FactionId, Factions, Falloff, Shape};

/// Which agents a sense reports, by faction relation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SenseFilter {
    /// Every other agent (article 000).
    #[default]
    All,
    /// Only agents of factions the observer's faction is hostile to.
    Hostile,
    /// Only agents of factions the observer's faction is not hostile to
    /// (including its own).
    Friendly,
}

impl SenseFilter {
    /// Whether an observer of faction `observer` reports an agent of faction
    /// `target` through this filter.
    #[inline]
    pub fn passes(self, factions: &Factions, observer: FactionId, target: FactionId) -> bool {
        match self {
            SenseFilter::All => true,
            SenseFilter::Hostile => factions.is_hostile(observer, target),
            SenseFilter::Friendly => !factions.is_hostile(observer, target),
        }
    }
}

/// One named sense of an archetype.
#[derive(Clone, Debug, PartialEq)]
pub struct Sense {
    /// Name used in percept reports (`"eyes"`, `"radar"`), unique within the
    /// archetype.
    pub name: String,
    /// The region the sense covers.
    pub shape: Shape,
    /// Which agents it reports.
    pub filter: SenseFilter,
    /// Walls hide targets (article 003's ray test), and the potentially visible
    /// set, if any, culls them first.
    pub occluded: bool,
    /// Hysteresis: a target sensed last tick stays sensed out to this range
    /// (world units, at least the shape's reach); `None`: no hysteresis.
    pub lose_range: Option<f32>,
    /// Ticks a sensed target stays in memory after it was last sensed
    /// (0: no memory).
    pub memory_ticks: u32,
}

impl Sense {
    /// A sense with no occlusion, hysteresis or memory.
    pub fn new(name: impl Into<String>, shape: Shape, filter: SenseFilter) -> Self {
        Self {
            name: name.into(),
            shape,
            filter,
            occluded: false,
            lose_range: None,
            memory_ticks: 0,
        }
    }
}

/// A sense ready for the inner loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CompiledSense {
    pub(crate) shape: CompiledShape,
    /// The shape at the lose-sight range, for targets sensed last tick.
    pub(crate) keep: Option<CompiledShape>,
    pub(crate) filter: SenseFilter,
    pub(crate) occluded: bool,
    pub(crate) hearing: Option<(f32, Falloff)>,
    pub(crate) memory_ticks: u32,
}

/// An archetype's senses ready for the inner loop, with their largest reach.
#[derive(Clone, Debug, Default)]
pub(crate) struct CompiledSenses {
    pub(crate) senses: Vec<CompiledSense>,
    pub(crate) reach: f32,
    /// Whether any of the senses is a hearing sense.
    pub(crate) hears: bool,
}

impl CompiledSenses {
    pub(crate) fn new(senses: &[Sense]) -> Self {
        Self {
            senses: senses
                .iter()
                .map(|s| CompiledSense {
                    shape: s.shape.compile(),
                    keep: s.lose_range.map(|r| s.shape.with_range(r).compile()),
                    filter: s.filter,
                    occluded: s.occluded,
                    hearing: match s.shape {
                        Shape::Hearing { threshold, falloff } => Some((threshold, falloff)),
                        _ => None,
                    },
                    memory_ticks: s.memory_ticks,
                })
                .collect(),
            reach: senses
                .iter()
                .map(|s| s.shape.reach().max(s.lose_range.unwrap_or(0.0)))
                .fold(0.0, f32::max),
            hears: senses
                .iter()
                .any(|s| matches!(s.shape, Shape::Hearing { .. })),
        }
    }
}
