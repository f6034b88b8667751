//! A fast reader for the plain subset of RON that content files use.
//!
//! [`from_str`] deserializes the same serde types as `ron` (0.12, with
//! `IMPLICIT_SOME`), but only accepts a deliberately narrow syntax: ASCII
//! white space and `//` comments, plain identifiers, strings without escapes,
//! decimal integers and floats without suffixes or underscores, unnamed
//! structs, lists, tuples, maps, enums, and `None`/`Some(..)` or bare
//! optional values. Whenever it meets anything else, or anything fails (a
//! syntax error, an unknown field, a missing one, an out-of-range number), it
//! gives up and returns `None`, and the caller parses the text with `ron`,
//! which then reports the problem with its exact position. It never reports
//! an error of its own.
//!
//! The rule that keeps the two in step: every input this reader accepts is
//! accepted by `ron` with the same value. Tokens are delimited as `ron`
//! delimits them (a float is the longest run of float characters, converted
//! with the same `str::parse`, or for short decimals by one exact division
//! that gives the same bits), values reach the same serde visitors through
//! the same `Deserializer` methods, and nesting is capped well below `ron`'s
//! recursion limit. The tests (`tests.rs`) check the rule on every RON file in the
//! repository, on random mutations of them and on number tokens of every
//! shape.
//!
//! On the 16 MB generated benchmark project the whole load (this parse,
//! limits, validation, lints) takes about a quarter of the time of `ron`'s
//! parse alone; the parse dominates loading.

use std::fmt;

use serde::de::{self, DeserializeOwned};

use reader::Reader;

mod deserializer;
mod number;
mod reader;
#[cfg(test)]
pub(crate) mod tests;

/// A value read by [`from_str`].
pub(crate) struct Read<T> {
    /// The value, equal to what `ron` gives for the same text.
    pub value: T,
    /// Whether some `//` comment holds a quote or an opening bracket. When
    /// none does, the text's brackets outside strings nest no deeper than
    /// the reader followed (at most [`MAX_DEPTH`]), so a nesting pre-check
    /// that does not skip comments would find nothing either.
    pub brackets_in_comments: bool,
}

/// Deserializes `text` as `T` if it is in the plain subset and valid;
/// `None` means "ask `ron`" (the text may still be valid RON).
pub(crate) fn from_str<T: DeserializeOwned>(text: &str) -> Option<Read<T>> {
    let mut de = Reader {
        b: text.as_bytes(),
        text,
        at: 0,
        depth: 0,
        brackets_in_comments: false,
    };
    de.ws().ok()?;
    let value = T::deserialize(&mut de).ok()?;
    de.ws().ok()?;
    (de.at == de.b.len()).then_some(Read {
        value,
        brackets_in_comments: de.brackets_in_comments,
    })
}

/// Deepest container nesting followed. `ron` stops at a recursion depth of
/// 128, and each level of containers costs it at most four; bailing out at
/// 24 guarantees that nothing accepted here hits `ron`'s limit.
const MAX_DEPTH: u32 = 24;

/// The reader gave up (the caller falls back to `ron`).
#[derive(Debug)]
struct Bail;

impl fmt::Display for Bail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("outside the plain subset")
    }
}

impl std::error::Error for Bail {}

impl de::Error for Bail {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Bail
    }
}

type Res<T> = Result<T, Bail>;
