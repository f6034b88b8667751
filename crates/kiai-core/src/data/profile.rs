//! Behaviour profiles (article 002): the weights of chase and evade, how often
//! the profile decides and keeps its decision, and how the weights learn
//! from outcomes.

/// A behaviour profile: the weights of chase and evade and two percentages.
///
/// Article 002 stores the profile as an array of entries (0 = chase, 1 = evade)
/// sampled uniformly; the weights here are the counts of each entry, so
/// `[0, 0, 1, 0, 1, 1, 1, 0, 1, 0]` is `chase: 5, evade: 5`
/// ([`Profile::from_entries`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Weight of chasing when both are possible, >= 0.
    pub chase: f32,
    /// Weight of evading when both are possible, >= 0; `chase + evade > 0`.
    pub evade: f32,
    /// Percent chance (0..=100) that the profile decides at all; otherwise
    /// the fixed rule applies (evade beats chase). Seed:
    /// `PossibilityOfBehaviourProfileUsage`.
    pub use_profile: f32,
    /// Percent chance (0..=100) of keeping the last contested decision instead
    /// of sampling the weights again (hysteresis). Seed:
    /// `PossibilityOfSavedBehaviorDecisionUsage`.
    pub keep_decision: f32,
    /// Learning from outcomes; `None`: the weights never change.
    pub learning: Option<Learning>,
}

impl Default for Profile {
    /// Equal weights, the profile always used, nothing kept, no learning.
    fn default() -> Self {
        Self {
            chase: 1.0,
            evade: 1.0,
            use_profile: 100.0,
            keep_decision: 0.0,
            learning: None,
        }
    }
}

impl Profile {
    /// The weights of article 002's array form: each `0` entry counts for chase,
    /// every other entry for evade.
    pub fn from_entries(entries: &[i64]) -> (f32, f32) {
        let chase = entries.iter().filter(|&&e| e == 0).count();
        (chase as f32, (entries.len() - chase) as f32)
    }
}

/// How an agent's weights shift with experience (the "learning profiles"
/// article 002 announces). All changes are additive and clamped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Learning {
    /// Weight added or removed per outcome, > 0.
    pub rate: f32,
    /// Smallest weight, >= 0.
    pub min_weight: f32,
    /// Largest weight, >= `min_weight`.
    pub max_weight: f32,
    /// A chaser this close to its target (world units) has caught it; an
    /// evader this close to a hostile that chases it has been caught.
    pub catch_distance: f32,
}

/// What happened to an agent since its last decision, for learning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A chase reached its target: chase weight up.
    Caught,
    /// A chased target was lost from sight: chase weight down.
    LostTarget,
    /// An evade got away (the threat is no longer noticed): evade weight up.
    Escaped,
    /// An evader was caught: evade weight down.
    GotCaught,
}

impl Learning {
    /// `weights` (chase, evade) after `outcome`.
    pub fn apply(&self, weights: [f32; 2], outcome: Outcome) -> [f32; 2] {
        let [mut chase, mut evade] = weights;
        match outcome {
            Outcome::Caught => chase += self.rate,
            Outcome::LostTarget => chase -= self.rate,
            Outcome::Escaped => evade += self.rate,
            Outcome::GotCaught => evade -= self.rate,
        }
        [
            chase.clamp(self.min_weight, self.max_weight),
            evade.clamp(self.min_weight, self.max_weight),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_array_form_counts_entries() {
        assert_eq!(
            Profile::from_entries(&[0, 0, 1, 0, 1, 1, 1, 0, 1, 0]),
            (5.0, 5.0)
        );
        assert_eq!(Profile::from_entries(&[1; 10]), (0.0, 10.0));
        assert_eq!(Profile::from_entries(&[0; 10]), (10.0, 0.0));
    }

    #[test]
    fn learning_moves_weights_within_bounds() {
        let l = Learning {
            rate: 1.0,
            min_weight: 0.5,
            max_weight: 3.0,
            catch_distance: 1.0,
        };
        assert_eq!(l.apply([2.0, 2.0], Outcome::Caught), [3.0, 2.0]);
        assert_eq!(l.apply([3.0, 2.0], Outcome::Caught), [3.0, 2.0]);
        assert_eq!(l.apply([1.0, 2.0], Outcome::LostTarget), [0.5, 2.0]);
        assert_eq!(l.apply([1.0, 2.0], Outcome::Escaped), [1.0, 3.0]);
        assert_eq!(l.apply([1.0, 1.0], Outcome::GotCaught), [1.0, 0.5]);
    }
}
