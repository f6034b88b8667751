//! Sense shapes: kiai-core's own [`Shape`] and [`Falloff`], under their
//! content names [`ShapeDef`] and [`FalloffDef`].
//!
//! The runtime types derive no serde traits (serialisation happens at this
//! crate's boundary), so serde reads and writes them through the mirrors
//! below (serde's remote derive): one type, not a copy converted field by
//! field. The mirrors keep the names the format always had (`ShapeDef`,
//! `FalloffDef`), so the RON text, its diagnostics and a pack's bytes are
//! what they were.

use kiai_core::Shape;
use kiai_core::perception::hearing::Falloff;
use serde::{Deserialize, Serialize};

/// A sense shape: kiai-core's [`Shape`] (see it for the exact tests), read
/// and written through [`ShapeFormat`].
pub use kiai_core::Shape as ShapeDef;

/// How loudness falls with distance: kiai-core's [`Falloff`], read and
/// written through [`FalloffFormat`] (default `InverseSquare`).
pub use kiai_core::perception::hearing::Falloff as FalloffDef;

/// serde's view of [`ShapeDef`], for fields of that type:
/// `#[serde(with = "ShapeFormat")]`. Its variants and fields are
/// [`Shape`]'s, documented in `docs/format.md`.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Shape", rename = "ShapeDef", deny_unknown_fields)]
pub enum ShapeFormat {
    /// All-around: `distance < radius`.
    Sphere {
        /// World units, > 0.
        radius: f32,
    },
    /// 3D view cone.
    Cone {
        /// World units, > 0.
        range: f32,
        /// Full angle in degrees, in (0, 360].
        fov_deg: f32,
    },
    /// 2.5D sector: horizontal range and angle plus a height limit.
    Sector {
        /// World units, > 0.
        range: f32,
        /// Full angle in degrees, in (0, 360].
        fov_deg: f32,
        /// World units, >= 0.
        max_height_diff: f32,
    },
    /// Ellipse on X-Z ahead of the agent.
    Ellipse {
        /// Semi-major axis, world units, > 0, >= b.
        a: f32,
        /// Semi-minor axis, world units, > 0.
        b: f32,
        /// Centre's distance ahead of the agent, world units.
        center_ahead: f32,
    },
    /// Hearing: sounds at least `threshold` loud at the listener.
    Hearing {
        /// Quietest loudness heard, > 0.
        threshold: f32,
        /// How loudness falls with distance (default `InverseSquare`).
        #[serde(default = "inverse_square", with = "FalloffFormat")]
        falloff: Falloff,
    },
}

/// serde's view of [`FalloffDef`], for fields of that type:
/// `#[serde(with = "FalloffFormat")]`.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Falloff", rename = "FalloffDef", deny_unknown_fields)]
pub enum FalloffFormat {
    /// `volume / distance²`, seed 003's code.
    InverseSquare,
    /// `volume * (1 - distance / range)`, seed 003's text.
    Linear {
        /// World units, > 0.
        range: f32,
    },
}

/// The falloff a hearing sense has when the file gives none.
fn inverse_square() -> Falloff {
    Falloff::InverseSquare
}
