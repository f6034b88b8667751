//! Small scenarios: a map, a few units, some moves, the expected outcome.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests: a panic is the failure report

use kiai_fog::{
    FactionId, FactionMask, FogConfig, FogError, FogEvent, FogGrid, GridSpec, Pose, SightShape,
    TilePos, TileState, UnitDesc, UnitId,
};

const RED: FactionId = FactionId(0);
const BLUE: FactionId = FactionId(1);
const GREEN: FactionId = FactionId(2);

fn circle(faction: FactionId, r: f32) -> UnitDesc {
    UnitDesc {
        faction,
        sight_radius: r,
        shape: SightShape::Circle,
    }
}

/// Pose at the centre of tile (x, z) on a grid of 1-unit tiles.
fn at(x: u32, z: u32) -> Pose {
    Pose::new([x as f32 + 0.5, z as f32 + 0.5], 0.0)
}

#[test]
fn allies_share_vision_through_the_spectator_mask() {
    let mut fog = FogGrid::new(GridSpec::new(30, 10, 1.0), FogConfig::default()).unwrap();
    fog.add_unit(UnitId(1), circle(RED, 3.0), at(3, 5)).unwrap();
    fog.add_unit(UnitId(2), circle(BLUE, 3.0), at(20, 5))
        .unwrap();
    fog.add_unit(UnitId(3), circle(GREEN, 0.0), at(22, 5))
        .unwrap(); // an enemy near blue

    let alliance = RED.mask() | BLUE.mask();
    let (near_red, near_blue) = (TilePos::new(4, 5), TilePos::new(21, 5));
    assert_eq!(fog.state(near_blue, RED.mask()), TileState::Unexplored);
    assert_eq!(fog.state(near_blue, alliance), TileState::Visible);
    assert_eq!(fog.state(near_red, alliance), TileState::Visible);
    assert_eq!(fog.state(near_red, GREEN.mask()), TileState::Unexplored);
    assert_eq!(fog.visible_mask(near_blue), BLUE.mask());
    // Spectating everyone shows the union; the raw dump agrees with per-tile queries.
    let dump = fog.states(alliance);
    let visible = dump
        .iter()
        .filter(|&&s| s == TileState::Visible as u8)
        .count() as u32;
    assert_eq!(
        visible,
        fog.visible_tile_count(RED) + fog.visible_tile_count(BLUE)
    );
    assert_eq!(
        fog.states(FactionMask::ALL),
        fog.states(alliance | GREEN.mask())
    );

    // Only blue sees the green unit; green's own unit never reports to green.
    assert_eq!(
        fog.drain_events(),
        vec![FogEvent::Spotted {
            unit: UnitId(3),
            by: BLUE
        }]
    );
    assert_eq!(fog.unit_seen_by(UnitId(3)), Some(BLUE.mask()));
}

#[test]
fn scout_walking_a_corridor_leaves_an_explored_trail() {
    // A corridor along X between walls on rows 2 and 6; the scout walks along row 4.
    let (w, h) = (40, 9);
    let config = FogConfig {
        factions: 1,
        occlusion: true,
        ..FogConfig::default()
    };
    let mut fog = FogGrid::new(GridSpec::new(w, h, 1.0), config).unwrap();
    for x in 0..w {
        fog.set_blocking(TilePos::new(x, 2), true);
        fog.set_blocking(TilePos::new(x, 6), true);
    }
    fog.add_unit(UnitId(7), circle(RED, 4.0), at(1, 4)).unwrap();
    for step in 1..=74 {
        // Half a tile per tick: a tile change every other tick.
        let x = 1.5 + step as f32 * 0.5;
        fog.set_pose(UnitId(7), Pose::new([x, 4.5], 0.0)).unwrap();
    }
    assert_eq!(fog.unit_tile(UnitId(7)), Some(TilePos::new(38, 4)));
    for x in 0..w {
        for z in 0..h {
            let t = TilePos::new(x, z);
            let inside = (2..=6).contains(&z); // walls are seen, the rooms behind are not
            assert_eq!(fog.is_explored(t, RED), inside, "{t:?}");
        }
    }
    // Behind the scout: explored but fogged; around it: visible.
    assert_eq!(
        fog.state(TilePos::new(5, 4), RED.mask()),
        TileState::Explored
    );
    assert_eq!(
        fog.state(TilePos::new(35, 4), RED.mask()),
        TileState::Visible
    );
    assert_eq!(fog.explored_tile_count(RED), 5 * w);
    assert_eq!(
        fog.visible_tile_count(RED),
        fog.unit_visible_tile_count(UnitId(7)).unwrap()
    );
}

#[test]
fn flashlight_sees_ahead_and_turns_by_bucket() {
    let config = FogConfig {
        factions: 2,
        direction_buckets: 8,
        occlusion: false,
    };
    let mut fog = FogGrid::new(GridSpec::new(21, 21, 1.0), config).unwrap();
    let torch = UnitDesc {
        faction: RED,
        sight_radius: 6.0,
        shape: SightShape::Flashlight { fov_deg: 60.0 },
    };
    fog.add_unit(UnitId(1), torch, at(10, 10)).unwrap(); // facing +X
    assert!(fog.is_visible(TilePos::new(15, 10), RED));
    assert!(!fog.is_visible(TilePos::new(5, 10), RED));
    assert!(fog.is_visible(TilePos::new(10, 10), RED)); // own tile
    // A small turn stays in bucket 0 (45° buckets): nothing changes.
    let before = fog.states(RED.mask());
    fog.set_pose(UnitId(1), Pose::new([10.5, 10.5], 0.3))
        .unwrap();
    assert_eq!(fog.states(RED.mask()), before);
    // Turn to face -X (bucket 4).
    fog.set_pose(UnitId(1), Pose::new([10.5, 10.5], std::f32::consts::PI))
        .unwrap();
    assert!(fog.is_visible(TilePos::new(5, 10), RED));
    assert!(!fog.is_visible(TilePos::new(15, 10), RED));
    assert_eq!(
        fog.state(TilePos::new(15, 10), RED.mask()),
        TileState::Explored
    );
    assert_eq!(fog.template_count(), 2);
}

#[test]
fn removing_a_seen_unit_reports_lost_and_clears_its_sight() {
    let mut fog = FogGrid::new(GridSpec::new(10, 10, 1.0), FogConfig::default()).unwrap();
    fog.add_unit(UnitId(1), circle(RED, 2.0), at(2, 2)).unwrap();
    fog.add_unit(UnitId(2), circle(BLUE, 2.0), at(3, 2))
        .unwrap();
    let mut first = fog.drain_events();
    first.sort_by_key(|e| e.unit());
    assert_eq!(
        first,
        vec![
            FogEvent::Spotted {
                unit: UnitId(1),
                by: BLUE
            },
            FogEvent::Spotted {
                unit: UnitId(2),
                by: RED
            }
        ]
    );
    assert_eq!(fog.remove_unit(UnitId(2)), Some(circle(BLUE, 2.0)));
    assert_eq!(fog.remove_unit(UnitId(2)), None);
    assert_eq!(
        fog.drain_events(),
        vec![
            FogEvent::Lost {
                unit: UnitId(1),
                by: BLUE
            },
            FogEvent::Lost {
                unit: UnitId(2),
                by: RED
            }
        ]
    );
    assert_eq!(fog.visible_tile_count(BLUE), 0);
    assert!(fog.is_explored(TilePos::new(5, 2), BLUE));
    assert_eq!(
        fog.set_pose(UnitId(2), at(1, 1)),
        Err(FogError::UnknownUnit(UnitId(2)))
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(matches!(
        FogGrid::new(GridSpec::new(0, 5, 1.0), FogConfig::default()),
        Err(FogError::InvalidGrid(_))
    ));
    assert!(FogGrid::new(GridSpec::new(5, 5, f32::NAN), FogConfig::default()).is_err());
    let config = FogConfig {
        factions: 33,
        ..FogConfig::default()
    };
    assert_eq!(
        FogGrid::new(GridSpec::new(5, 5, 1.0), config).err(),
        Some(FogError::InvalidFactionCount(33))
    );
    let mut fog = FogGrid::new(
        GridSpec::new(5, 5, 1.0),
        FogConfig {
            factions: 2,
            ..FogConfig::default()
        },
    )
    .unwrap();
    let p = at(1, 1);
    assert_eq!(
        fog.add_unit(UnitId(1), circle(GREEN, 1.0), p),
        Err(FogError::UnknownFaction(GREEN, 2))
    );
    assert_eq!(
        fog.add_unit(UnitId(1), circle(RED, -1.0), p),
        Err(FogError::InvalidRadius(-1.0))
    );
    let bad_fov = UnitDesc {
        faction: RED,
        sight_radius: 1.0,
        shape: SightShape::Flashlight { fov_deg: 0.0 },
    };
    assert_eq!(
        fog.add_unit(UnitId(1), bad_fov, p),
        Err(FogError::InvalidFov(0.0))
    );
    fog.add_unit(UnitId(1), circle(RED, 1.0), p).unwrap();
    assert_eq!(
        fog.add_unit(UnitId(1), circle(RED, 1.0), p),
        Err(FogError::DuplicateUnit(UnitId(1)))
    );
    assert_eq!(fog.unit_count(), 1);
    // Off-grid positions clamp to the edge; off-grid queries answer "nothing".
    fog.set_pose(UnitId(1), Pose::new([-50.0, 99.0], 0.0))
        .unwrap();
    assert_eq!(fog.unit_tile(UnitId(1)), Some(TilePos::new(0, 4)));
    assert!(!fog.is_visible(TilePos::new(9, 9), RED));
    assert!(!fog.set_blocking(TilePos::new(9, 9), true));
}

#[test]
fn world_to_tile_respects_origin_and_tile_size() {
    let spec = GridSpec::new(4, 3, 2.5).with_origin([-10.0, 5.0]);
    assert_eq!(spec.tile_at([-10.0, 5.0]), Some(TilePos::new(0, 0)));
    assert_eq!(spec.tile_at([-7.4, 12.4]), Some(TilePos::new(1, 2)));
    assert_eq!(spec.tile_at([0.0, 5.0]), None); // x = origin + 4 * 2.5 is past the last tile
    assert_eq!(spec.tile_at([-10.1, 6.0]), None);
    assert_eq!(spec.tile_at_clamped([100.0, -100.0]), TilePos::new(3, 0));
    assert_eq!(spec.tile_centre(TilePos::new(1, 2)), [-6.25, 11.25]);
}

/// Crowds: far more watchers of one faction per tile than a small counter holds; counters,
/// masks and visible-tile totals stay exact while the crowd moves and leaves.
#[test]
fn crowds_keep_exact_counters() {
    let config = FogConfig {
        factions: 9,
        ..FogConfig::default()
    };
    let spec = GridSpec::new(12, 12, 1.0);
    let mut fog = FogGrid::new(spec, config).unwrap();
    let (odd, last) = (FactionId(1), FactionId(8));
    // (id, faction, x, z)
    let mut units: Vec<(u32, FactionId, u32, u32)> = Vec::new();
    for i in 0..300u32 {
        let f = if i % 10 == 0 { last } else { odd };
        let (x, z) = (4 + i % 3, 5 + (i / 3) % 2);
        fog.add_unit(UnitId(i), circle(f, 2.0), at(x, z)).unwrap();
        units.push((i, f, x, z));
    }
    let check = |fog: &FogGrid, units: &[(u32, FactionId, u32, u32)]| {
        for f in [FactionId(0), odd, last] {
            let mut visible = 0;
            for z in 0..12 {
                for x in 0..12 {
                    let n = units
                        .iter()
                        .filter(|u| u.1 == f)
                        .filter(|u| {
                            let (dx, dz) = (u.2 as i32 - x as i32, u.3 as i32 - z as i32);
                            dx * dx + dz * dz <= 4
                        })
                        .count();
                    let tile = TilePos::new(x, z);
                    assert_eq!(usize::from(fog.counter(tile, f)), n, "{f} at ({x}, {z})");
                    assert_eq!(fog.is_visible(tile, f), n > 0);
                    visible += u32::from(n > 0);
                }
            }
            assert_eq!(fog.visible_tile_count(f), visible);
        }
    };
    check(&fog, &units);
    assert!(fog.counter(TilePos::new(5, 5), odd) > 255);
    // Walk the crowd east one tile at a time, then remove it half by half.
    for step in 1..=3 {
        for u in units.iter_mut() {
            u.2 = 4 + (u.0 % 3) + step;
            fog.set_pose(UnitId(u.0), at(u.2, u.3)).unwrap();
        }
        check(&fog, &units);
    }
    while !units.is_empty() {
        let keep = units.len() / 2;
        for u in units.drain(keep..) {
            fog.remove_unit(UnitId(u.0)).unwrap();
        }
        check(&fog, &units);
    }
    assert!(fog.is_explored(TilePos::new(9, 5), last));
    assert_eq!(
        fog.state(TilePos::new(9, 5), odd.mask()),
        TileState::Explored
    );
}

#[test]
fn a_units_visible_tile_count_in_the_open_and_in_a_corner() {
    let mut fog = FogGrid::new(GridSpec::new(32, 32, 1.0), FogConfig::default()).unwrap();
    fog.add_unit(UnitId(1), circle(RED, 4.0), at(16, 16))
        .unwrap();
    assert_eq!(fog.unit_visible_tile_count(UnitId(1)), Some(49));
    fog.set_pose(UnitId(1), at(17, 16)).unwrap();
    assert_eq!(fog.unit_visible_tile_count(UnitId(1)), Some(49));
    fog.set_pose(UnitId(1), at(0, 0)).unwrap();
    assert_eq!(fog.unit_visible_tile_count(UnitId(1)), Some(17));
    assert_eq!(fog.visible_tile_count(RED), 17);
}
