//! Layer 0, the format: the serde types of content files ([`def`]), text
//! positions ([`locate`]), diagnostics ([`diag`]), the size limits
//! ([`limits`]), waypoint-id lookup ([`ids`]) and where a script reference
//! points ([`script_path`]). Imports nothing else of the crate.

pub mod def;
pub(crate) mod diag;
pub(crate) mod ids;
pub mod limits;
pub(crate) mod locate;
pub(crate) mod script_path;
