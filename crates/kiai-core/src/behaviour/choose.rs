//! Article 002's choice between chasing and evading when both are possible,
//! with hysteresis: [`choose`], a pure function of the options, the
//! [`Profile`], the agent's saved decision and a source of rolls, so every
//! branch can be tested with scripted rolls.

use crate::data::{BehaviourState, Profile};

/// One random roll of a decision and what it was compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roll {
    /// What the roll decided.
    pub kind: RollKind,
    /// The value drawn.
    pub value: f32,
    /// The threshold it was compared with.
    pub threshold: f32,
}

/// The purpose of a [`Roll`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollKind {
    /// `value` in [0, 100) `> use_profile` means the fixed rule decides.
    UseProfile,
    /// `value` in [0, 100) `> keep_decision` means the weights are sampled again.
    KeepDecision,
    /// `value` in [0, chase + evade) `< chase` means chase.
    Weights,
}

impl RollKind {
    /// snake_case name for traces.
    pub fn name(self) -> &'static str {
        match self {
            RollKind::UseProfile => "use_profile",
            RollKind::KeepDecision => "keep_decision",
            RollKind::Weights => "weights",
        }
    }
}

/// Who made a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DecidedBy {
    /// Nothing was possible: random walk.
    #[default]
    NoOption,
    /// The profile was not used: evade beats chase.
    FixedRule,
    /// Only one option was possible.
    SingleOption,
    /// Both were possible; the weights were sampled.
    Weights,
    /// Both were possible; the last contested decision was kept.
    Kept,
    /// A game-registered decider decided ([`crate::plugins`]).
    Plugin,
}

impl DecidedBy {
    /// snake_case name for traces.
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::NoOption => "no_option",
            DecidedBy::FixedRule => "fixed_rule",
            DecidedBy::SingleOption => "single_option",
            DecidedBy::Weights => "weights",
            DecidedBy::Kept => "kept",
            DecidedBy::Plugin => "plugin",
        }
    }
}

/// The rolls of one decision (at most three), without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RollLog {
    rolls: [Option<Roll>; 3],
}

impl RollLog {
    /// Records a roll (a fourth one is dropped; [`choose`] makes at most three).
    pub fn push(&mut self, roll: Roll) {
        if let Some(slot) = self.rolls.iter_mut().find(|r| r.is_none()) {
            *slot = Some(roll);
        }
    }

    /// The rolls in the order they were drawn.
    pub fn iter(&self) -> impl Iterator<Item = &Roll> {
        self.rolls.iter().flatten()
    }

    /// Number of rolls.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether no roll was drawn.
    pub fn is_empty(&self) -> bool {
        self.rolls[0].is_none()
    }
}

/// The result of [`choose`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// RandomWalk, Chase or Evade.
    pub state: BehaviourState,
    /// Who decided.
    pub decided_by: DecidedBy,
    /// The new saved contested decision (`Chase` or `Evade`), if any.
    pub saved: Option<BehaviourState>,
}

/// Article 002's `Update_BehaviourStates`, for one agent.
///
/// `can_chase` / `can_evade` are the possible options; `weights` the agent's
/// current (chase, evade) weights; `saved` its last contested decision.
/// `roll(upper)` draws a value uniform in `[0, upper)`; `rolls` receives
/// every roll made. Rolls are drawn only when they can matter (no roll when
/// nothing or exactly one option is possible without the profile's
/// involvement), in the article's order: use-profile, then keep-decision, then
/// weights. Without a saved decision the weights are always sampled.
pub fn choose(
    can_chase: bool,
    can_evade: bool,
    profile: &Profile,
    weights: [f32; 2],
    saved: Option<BehaviourState>,
    roll: &mut dyn FnMut(f32) -> f32,
    rolls: &mut RollLog,
) -> Choice {
    let mut draw = |kind: RollKind, upper: f32, threshold: f32| {
        let value = roll(upper);
        rolls.push(Roll {
            kind,
            value,
            threshold,
        });
        value
    };
    let single = |state| Choice {
        state,
        decided_by: DecidedBy::SingleOption,
        saved,
    };
    if !can_chase && !can_evade {
        return Choice {
            state: BehaviourState::RandomWalk,
            decided_by: DecidedBy::NoOption,
            saved,
        };
    }
    if draw(RollKind::UseProfile, 100.0, profile.use_profile) > profile.use_profile {
        // The fixed rule: evade beats chase.
        let state = if can_evade {
            BehaviourState::Evade
        } else {
            BehaviourState::Chase
        };
        return Choice {
            state,
            decided_by: DecidedBy::FixedRule,
            saved,
        };
    }
    match (can_chase, can_evade) {
        (true, false) => single(BehaviourState::Chase),
        (false, true) => single(BehaviourState::Evade),
        _ => {
            let keep = saved.is_some()
                && draw(RollKind::KeepDecision, 100.0, profile.keep_decision)
                    <= profile.keep_decision;
            match (keep, saved) {
                (true, Some(state)) => Choice {
                    state,
                    decided_by: DecidedBy::Kept,
                    saved,
                },
                _ => {
                    let [chase, evade] = weights;
                    let total = chase + evade;
                    let state = if total > 0.0 && draw(RollKind::Weights, total, chase) < chase {
                        BehaviourState::Chase
                    } else {
                        BehaviourState::Evade
                    };
                    Choice {
                        state,
                        decided_by: DecidedBy::Weights,
                        saved: Some(state),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BehaviourState::{Chase, Evade, RandomWalk};

    /// Runs [`choose`] with scripted rolls; panics if it draws more or fewer
    /// rolls than scripted.
    fn run(
        can_chase: bool,
        can_evade: bool,
        profile: &Profile,
        saved: Option<BehaviourState>,
        script: &[f32],
    ) -> (Choice, RollLog) {
        let mut next = script.iter();
        let mut log = RollLog::default();
        let choice = choose(
            can_chase,
            can_evade,
            profile,
            [profile.chase, profile.evade],
            saved,
            &mut |_| *next.next().unwrap_or_else(|| panic!("an unscripted roll")),
            &mut log,
        );
        assert_eq!(log.len(), script.len(), "rolls drawn");
        (choice, log)
    }

    fn profile(chase: f32, evade: f32, use_profile: f32, keep_decision: f32) -> Profile {
        Profile {
            chase,
            evade,
            use_profile,
            keep_decision,
            learning: None,
        }
    }

    #[test]
    fn nothing_possible_walks_without_rolling() {
        let (c, _) = run(false, false, &profile(5.0, 5.0, 100.0, 0.0), None, &[]);
        assert_eq!((c.state, c.decided_by), (RandomWalk, DecidedBy::NoOption));
    }

    #[test]
    fn without_the_profile_evade_beats_chase() {
        let p = profile(10.0, 0.0, 30.0, 0.0);
        // 50 > 30: the profile is not used.
        let (c, log) = run(true, true, &p, None, &[50.0]);
        assert_eq!((c.state, c.decided_by), (Evade, DecidedBy::FixedRule));
        assert_eq!(
            log.iter().next().map(|r| (r.kind, r.threshold)),
            Some((RollKind::UseProfile, 30.0))
        );
        let (c, _) = run(true, false, &p, None, &[50.0]);
        assert_eq!((c.state, c.decided_by), (Chase, DecidedBy::FixedRule));
        let (c, _) = run(false, true, &p, None, &[50.0]);
        assert_eq!(c.state, Evade);
        // The fixed rule leaves the saved decision alone.
        let (c, _) = run(true, true, &p, Some(Chase), &[50.0]);
        assert_eq!(c.saved, Some(Chase));
    }

    #[test]
    fn the_roll_equal_to_use_profile_still_uses_the_profile() {
        // The seed tests `frnd > usage`: equal means use the profile.
        let (c, _) = run(true, false, &profile(0.0, 1.0, 30.0, 0.0), None, &[30.0]);
        assert_eq!(c.decided_by, DecidedBy::SingleOption);
    }

    #[test]
    fn a_single_option_is_taken_whatever_the_weights() {
        let p = profile(0.0, 10.0, 100.0, 0.0);
        let (c, _) = run(true, false, &p, None, &[10.0]);
        assert_eq!((c.state, c.decided_by), (Chase, DecidedBy::SingleOption));
        let p = profile(10.0, 0.0, 100.0, 0.0);
        let (c, _) = run(false, true, &p, None, &[10.0]);
        assert_eq!((c.state, c.decided_by), (Evade, DecidedBy::SingleOption));
    }

    #[test]
    fn contested_decisions_sample_the_weights() {
        let p = profile(2.0, 8.0, 100.0, 50.0);
        // No saved decision: no keep roll; weight roll 1.5 < 2 chases.
        let (c, _) = run(true, true, &p, None, &[10.0, 1.5]);
        assert_eq!(
            (c.state, c.decided_by, c.saved),
            (Chase, DecidedBy::Weights, Some(Chase))
        );
        // Weight roll 2.0 is not < 2: evade.
        let (c, _) = run(true, true, &p, None, &[10.0, 2.0]);
        assert_eq!((c.state, c.saved), (Evade, Some(Evade)));
    }

    #[test]
    fn hysteresis_keeps_or_reconsiders_the_saved_decision() {
        let p = profile(2.0, 8.0, 100.0, 50.0);
        // Keep roll 40 <= 50: keep the saved chase, no weight roll.
        let (c, log) = run(true, true, &p, Some(Chase), &[10.0, 40.0]);
        assert_eq!(
            (c.state, c.decided_by, c.saved),
            (Chase, DecidedBy::Kept, Some(Chase))
        );
        let kinds: Vec<RollKind> = log.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [RollKind::UseProfile, RollKind::KeepDecision]);
        // Keep roll 60 > 50: reconsider; weight roll 5 >= 2 evades and is saved.
        let (c, _) = run(true, true, &p, Some(Chase), &[10.0, 60.0, 5.0]);
        assert_eq!(
            (c.state, c.decided_by, c.saved),
            (Evade, DecidedBy::Weights, Some(Evade))
        );
    }
}
