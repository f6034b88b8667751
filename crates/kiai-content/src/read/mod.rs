//! Layer 1, reading: content text into definitions. [`parse`] reads text
//! through the fast reader ([`fast`]) where it can and through `ron`
//! otherwise (every syntax or type error comes from `ron`, at its exact
//! position); [`migrate`] reads older format versions and migrates them to
//! the newest. Imports only the format layer.

pub(crate) mod fast;
pub(crate) mod migrate;
pub(crate) mod parse;
