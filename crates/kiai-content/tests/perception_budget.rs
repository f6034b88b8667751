//! The top-level `perception_budget` field reaches the world.

use kiai_content::Content;
use kiai_core::PerceptionBudget;

#[test]
fn the_budget_field_sets_the_world_budget() {
    let with = Content::from_str(
        "(format: 2, perception_budget: Some((max_rays_per_tick: 2000)))",
        "budget.ron",
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let world = with.world(None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        world.perception_budget(),
        Some(PerceptionBudget {
            max_rays_per_tick: 2000
        })
    );
    let without = Content::from_str("(format: 1)", "plain.ron").unwrap_or_else(|e| panic!("{e:?}"));
    let world = without.world(None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(world.perception_budget(), None);
}
