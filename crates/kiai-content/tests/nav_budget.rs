//! The top-level `nav` field's route budget reaches the world, from text
//! and from an exported pack alike.

use kiai_content::Content;

/// The route budget of the world `text` builds, loaded as text and as the
/// pack exported from it.
fn budgets(text: &str) -> (Option<u32>, Option<u32>) {
    let content = Content::from_str(text, "nav.ron").unwrap_or_else(|e| panic!("{e:?}"));
    let world = content.world(None).unwrap_or_else(|e| panic!("{e}"));
    let pack = content.to_pack().unwrap_or_else(|e| panic!("{e}"));
    let bytes = pack.encode().unwrap_or_else(|e| panic!("{e}"));
    let from_pack =
        Content::from_pack_bytes(&bytes, "nav.kpack").unwrap_or_else(|e| panic!("{e:?}"));
    let packed = from_pack.world(None).unwrap_or_else(|e| panic!("{e}"));
    (world.route_budget(), packed.route_budget())
}

#[test]
fn the_nav_budget_sets_the_world_route_budget() {
    assert_eq!(
        budgets("(format: 2, nav: (budget: Some(500)))"),
        (Some(500), Some(500))
    );
    assert_eq!(budgets("(format: 2, nav: (budget: None))"), (None, None));
    let default = Some(kiai_core::DEFAULT_ROUTE_BUDGET);
    assert_eq!(budgets("(format: 2)"), (default, default));
    assert_eq!(budgets("(format: 2, nav: ())"), (default, default));
}
