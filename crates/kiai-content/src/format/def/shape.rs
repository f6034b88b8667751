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
/// [`Shape`]'s, in the same order (a pack encodes them by position), and
/// mean what [`Shape`]'s documentation and `docs/format.md` say; written
/// one variant a line so that it reads as the recipe it is, not as a second
/// definition. Public for `#[serde(with)]` and the format doc test.
#[doc(hidden)]
#[rustfmt::skip]
#[derive(Serialize, Deserialize)]
#[serde(remote = "Shape", rename = "ShapeDef", deny_unknown_fields)]
pub enum ShapeFormat {
    Sphere { radius: f32 },
    Cone { range: f32, fov_deg: f32 },
    Sector { range: f32, fov_deg: f32, max_height_diff: f32 },
    Ellipse { a: f32, b: f32, center_ahead: f32 },
    Hearing {
        threshold: f32,
        // Default `InverseSquare`.
        #[serde(default = "inverse_square", with = "FalloffFormat")] falloff: Falloff,
    },
}

/// serde's view of [`FalloffDef`], for fields of that type:
/// `#[serde(with = "FalloffFormat")]`; the variants of [`Falloff`].
#[doc(hidden)]
#[derive(Serialize, Deserialize)]
#[serde(remote = "Falloff", rename = "FalloffDef", deny_unknown_fields)]
pub enum FalloffFormat {
    InverseSquare,
    Linear { range: f32 },
}

/// The falloff a hearing sense has when the file gives none.
fn inverse_square() -> Falloff {
    Falloff::InverseSquare
}
