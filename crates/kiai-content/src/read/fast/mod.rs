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
//! recursion limit. The tests below check the rule on every RON file in the
//! repository, on random mutations of them and on number tokens of every
//! shape.
//!
//! On the 16 MB generated benchmark project the whole load (this parse,
//! limits, validation, lints) takes about a quarter of the time of `ron`'s
//! parse alone; the parse dominates loading.

use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};

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

struct Reader<'de> {
    b: &'de [u8],
    text: &'de str,
    at: usize,
    depth: u32,
    brackets_in_comments: bool,
}

/// Whether `c` may continue a `ron` identifier or number suffix, or makes
/// the token ambiguous (`ron` treats `.`, `+`, `-` after an identifier as a
/// raw-identifier suggestion; any non-ASCII byte may be an identifier
/// character).
fn glues(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, b'_' | b'.' | b'+' | b'-' | b'"' | b'\'' | b'#')
        || c >= 0x80
}

impl<'de> Reader<'de> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    /// Skips ASCII white space and `//` comments (the subset of `ron`'s
    /// trivia accepted here; a block comment bails).
    #[inline]
    fn ws(&mut self) -> Res<()> {
        match self.peek() {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'/') => self.ws_slow(),
            _ => Ok(()),
        }
    }

    fn ws_slow(&mut self) -> Res<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') => {
                    if self.b.get(self.at + 1) != Some(&b'/') {
                        return Err(Bail);
                    }
                    let end = match self.b[self.at..].iter().position(|&c| c == b'\n') {
                        Some(n) => self.at + n,
                        None => self.b.len(),
                    };
                    self.brackets_in_comments |= self.b[self.at..end]
                        .iter()
                        .any(|c| matches!(c, b'"' | b'(' | b'[' | b'{'));
                    self.at = end;
                }
                _ => return Ok(()),
            }
        }
    }

    fn eat(&mut self, c: u8) -> Res<()> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(Bail)
        }
    }

    /// `ron`'s `comma`: white space, an optional comma, white space.
    fn comma(&mut self) -> Res<bool> {
        self.ws()?;
        if self.peek() == Some(b',') {
            self.at += 1;
            self.ws()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// A plain identifier `[A-Za-z_][A-Za-z0-9_]*` not followed by anything
    /// that could extend it.
    fn ident(&mut self) -> Res<&'de str> {
        let start = self.at;
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => self.at += 1,
            _ => return Err(Bail),
        }
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
            self.at += 1;
        }
        if self.peek().is_some_and(glues) {
            return Err(Bail);
        }
        self.text.get(start..self.at).ok_or(Bail)
    }

    /// The identifier at the cursor without consuming it.
    fn peek_ident(&mut self) -> Option<&'de str> {
        let at = self.at;
        let id = self.ident().ok();
        self.at = at;
        id
    }

    /// A string without escapes: `ron` borrows exactly the bytes up to the
    /// next `"`.
    fn string(&mut self) -> Res<&'de str> {
        self.eat(b'"')?;
        let start = self.at;
        let len = self.b[start..]
            .iter()
            .position(|&c| c == b'"')
            .ok_or(Bail)?;
        let s = &self.b[start..start + len];
        if s.contains(&b'\\') {
            return Err(Bail);
        }
        self.at = start + len + 1;
        self.text.get(start..start + len).ok_or(Bail)
    }

    /// A decimal integer, optionally negative, as `ron` reads one without a
    /// base prefix, suffix or underscore.
    fn integer(&mut self) -> Res<i128> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let start = self.at;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits = &self.b[start..self.at];
        // Longer than any u64 (20 digits) or followed by something `ron`
        // would read on (hex digits, suffixes, a fraction): give up.
        if digits.is_empty() || digits.len() > 20 || self.peek().is_some_and(glues) {
            return Err(Bail);
        }
        let mut v: i128 = 0;
        for &d in digits {
            v = v * 10 + i128::from(d - b'0');
        }
        Ok(if negative { -v } else { v })
    }

    fn int<T: TryFrom<i128>>(&mut self) -> Res<T> {
        // `ron` accepts `-0` for unsigned types; so does `try_from`, with
        // the same value.
        T::try_from(self.integer()?).map_err(|_| Bail)
    }

    /// The longest run of `ron`'s float characters, which `ron` converts
    /// with `str::parse` after dropping underscores (here: none allowed).
    fn float_run(&mut self) -> Res<&'de str> {
        let start = self.at;
        let mut previous = 0u8;
        while let Some(c) = self.peek() {
            match c {
                b'0'..=b'9' | b'e' | b'E' | b'+' | b'-' => {}
                b'.' if previous != b'.' => {}
                // An underscore or `..` (a range): `ron` reads these
                // differently.
                b'.' | b'_' => return Err(Bail),
                _ => break,
            }
            previous = c;
            self.at += 1;
        }
        let run = self.text.get(start..self.at).ok_or(Bail)?;
        if run.is_empty() || self.peek().is_some_and(glues) {
            return Err(Bail);
        }
        Ok(run)
    }

    fn f32(&mut self) -> Res<f32> {
        let run = self.float_run()?;
        match short_decimal(run) {
            Some(v) => Ok(v),
            None => run.parse().map_err(|_| Bail),
        }
    }

    fn f64(&mut self) -> Res<f64> {
        self.float_run()?.parse().map_err(|_| Bail)
    }

    fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Bail)
        } else {
            Ok(())
        }
    }

    /// `open`, the elements or entries read by `f`, white space, `close`.
    fn container<V>(&mut self, open: u8, close: u8, f: impl FnOnce(&mut Self) -> Res<V>) -> Res<V> {
        self.eat(open)?;
        self.enter()?;
        let v = f(self)?;
        self.depth -= 1;
        self.ws()?;
        self.eat(close)?;
        Ok(v)
    }
}

/// Elements of a list or tuple, or entries of a map or struct, separated
/// by commas as `ron` separates them (trailing comma allowed).
struct Items<'a, 'de> {
    de: &'a mut Reader<'de>,
    close: u8,
    had_comma: bool,
    /// Struct fields: keys are identifiers, not values.
    fields: bool,
}

impl<'a, 'de> Items<'a, 'de> {
    fn new(de: &'a mut Reader<'de>, close: u8, fields: bool) -> Self {
        Self {
            de,
            close,
            had_comma: true,
            fields,
        }
    }

    fn has_item(&mut self) -> Res<bool> {
        self.de.ws()?;
        let at_end = self.de.peek() == Some(self.close);
        match (self.had_comma, at_end) {
            (true, _) => Ok(!at_end),
            (false, true) => Ok(false),
            (false, false) => Err(Bail),
        }
    }
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Bail;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<Option<T::Value>> {
        if !self.has_item()? {
            return Ok(None);
        }
        let v = seed.deserialize(&mut *self.de)?;
        self.had_comma = self.de.comma()?;
        Ok(Some(v))
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Bail;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Res<Option<K::Value>> {
        if !self.has_item()? {
            return Ok(None);
        }
        if self.fields {
            seed.deserialize(Name(&mut *self.de)).map(Some)
        } else {
            seed.deserialize(&mut *self.de).map(Some)
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Res<V::Value> {
        self.de.ws()?;
        self.de.eat(b':')?;
        self.de.ws()?;
        let v = seed.deserialize(&mut *self.de)?;
        self.had_comma = self.de.comma()?;
        Ok(v)
    }
}

/// Powers of ten exact in `f32` (5^10 < 2^24).
const POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// `-?digits[.digits]` whose digits form an integer `m <= 2^24` with at
/// most 10 after the point: `m / 10^k` of two exact `f32`s is one correctly
/// rounded division, the same value `str::parse` gives (Clinger's fast
/// path). Anything else is left to `str::parse`.
fn short_decimal(run: &str) -> Option<f32> {
    let (negative, digits) = match run.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, run),
    };
    let mut m: u32 = 0;
    let mut count = 0u32;
    let mut after_point: Option<u32> = None;
    for c in digits.bytes() {
        match c {
            b'0'..=b'9' => {
                m = m.checked_mul(10)?.checked_add(u32::from(c - b'0'))?;
                count += 1;
                if let Some(k) = after_point.as_mut() {
                    *k += 1;
                }
            }
            b'.' if after_point.is_none() => after_point = Some(0),
            _ => return None,
        }
    }
    let k = after_point.unwrap_or(0) as usize;
    if count == 0 || m > 1 << 24 || k >= POW10.len() {
        return None;
    }
    #[allow(clippy::cast_precision_loss)] // exact: m <= 2^24
    let v = m as f32 / POW10[k];
    Some(if negative { -v } else { v })
}

/// Reads an identifier: a struct field name or an enum variant.
struct Name<'a, 'de>(&'a mut Reader<'de>);

impl<'de> de::Deserializer<'de> for Name<'_, 'de> {
    type Error = Bail;

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_borrowed_str(self.0.ident()?)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
        Err(Bail)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum ignored_any
    }
}

/// Whether a visitor's `expecting` text starts with `struct ` (how `ron`
/// recognises a flattened struct behind `deserialize_map`), without
/// allocating.
fn expects_struct<'de, V: Visitor<'de>>(visitor: &V) -> bool {
    struct Prefix {
        seen: usize,
        matches: bool,
    }
    impl fmt::Write for Prefix {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            const P: &[u8] = b"struct ";
            for &c in s.as_bytes() {
                if self.seen >= P.len() {
                    return Err(fmt::Error);
                }
                if P[self.seen] != c {
                    self.matches = false;
                    return Err(fmt::Error);
                }
                self.seen += 1;
            }
            Ok(())
        }
    }
    struct Expecting<'a, V>(&'a V);
    impl<'de, V: Visitor<'de>> fmt::Display for Expecting<'_, V> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.expecting(f)
        }
    }
    let mut p = Prefix {
        seen: 0,
        matches: true,
    };
    let _ = fmt::write(&mut p, format_args!("{}", Expecting(visitor)));
    p.matches && p.seen >= 7
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Bail;

    /// Self-describing input is not needed by the content types; untagged
    /// or ignored values go to `ron`.
    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
        Err(Bail)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self.ident()? {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(Bail),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_i8(self.int()?)
    }

    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_i16(self.int()?)
    }

    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_i32(self.int()?)
    }

    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_i64(self.int()?)
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_u8(self.int()?)
    }

    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_u16(self.int()?)
    }

    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_u32(self.int()?)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_u64(self.int()?)
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_f32(self.f32()?)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_f64(self.f64()?)
    }

    fn deserialize_char<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
        Err(Bail)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_borrowed_str(self.string()?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
        Err(Bail)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
        Err(Bail)
    }

    /// `None`, `Some(value)`, or (`IMPLICIT_SOME`) a bare value.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self.peek_ident() {
            Some("None") => {
                self.ident()?;
                visitor.visit_none()
            }
            Some("Some") => {
                self.ident()?;
                self.ws()?;
                self.eat(b'(')?;
                self.enter()?;
                self.ws()?;
                let v = visitor.visit_some(&mut *self)?;
                self.depth -= 1;
                self.comma()?;
                self.eat(b')')?;
                Ok(v)
            }
            _ => {
                self.enter()?;
                let v = visitor.visit_some(&mut *self)?;
                self.depth -= 1;
                Ok(v)
            }
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
        Err(Bail)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Res<V::Value> {
        Err(Bail)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Res<V::Value> {
        Err(Bail)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.container(b'[', b']', |de| {
            visitor.visit_seq(Items::new(de, b']', false))
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Res<V::Value> {
        self.container(b'(', b')', |de| {
            visitor.visit_seq(Items::new(de, b')', false))
        })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        _visitor: V,
    ) -> Res<V::Value> {
        Err(Bail)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        if expects_struct(&visitor) {
            return Err(Bail);
        }
        self.container(b'{', b'}', |de| {
            visitor.visit_map(Items::new(de, b'}', false))
        })
    }

    /// An unnamed struct `(field: value, ...)`; `ron`'s range shorthands
    /// and struct names are left to `ron`.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        if name.starts_with("Range") {
            return Err(Bail);
        }
        self.container(b'(', b')', |de| {
            visitor.visit_map(Items::new(de, b')', true))
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        self.enter()?;
        let v = visitor.visit_enum(Variant(&mut *self))?;
        self.depth -= 1;
        Ok(v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_borrowed_str(self.ident()?)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
        Err(Bail)
    }
}

/// An enum value: the variant's name, then its contents.
struct Variant<'a, 'de>(&'a mut Reader<'de>);

impl<'a, 'de> de::EnumAccess<'de> for Variant<'a, 'de> {
    type Error = Bail;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<(S::Value, Self)> {
        self.0.ws()?;
        let v = seed.deserialize(Name(&mut *self.0))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Bail;

    fn unit_variant(self) -> Res<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Res<T::Value> {
        let de = self.0;
        de.ws()?;
        de.eat(b'(')?;
        de.enter()?;
        de.ws()?;
        let v = seed.deserialize(&mut *de)?;
        de.depth -= 1;
        de.comma()?;
        de.eat(b')')?;
        Ok(v)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Res<V::Value> {
        self.0.ws()?;
        de::Deserializer::deserialize_tuple(&mut *self.0, len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        let de = self.0;
        de.ws()?;
        de.container(b'(', b')', |de| {
            visitor.visit_map(Items::new(de, b')', true))
        })
    }
}

#[cfg(test)]
mod tests {
    //! The reader's contract: whatever it accepts, `ron` accepts with the
    //! same value. Checked on every RON file in the repository, on their
    //! saved (pretty) forms, on random mutations of them, and on number
    //! tokens of every shape.

    use std::path::{Path, PathBuf};

    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use serde::de::DeserializeOwned;

    use crate::format::def::{ContentDef, WaypointDef};
    use crate::read::migrate::v1::ContentDefV1;

    fn by_ron<T: DeserializeOwned>(text: &str) -> Option<T> {
        ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .ok()
    }

    /// Whether the fast reader accepted `text` as `T`; panics when it
    /// accepted something `ron` rejects or reads differently. Values are
    /// compared by their `Debug` text so that NaN and -0.0 count too.
    fn agrees<T: DeserializeOwned + std::fmt::Debug>(text: &str) -> bool {
        let Some(super::Read { value: fast, .. }) = super::from_str::<T>(text) else {
            return false;
        };
        match by_ron::<T>(text) {
            Some(slow) => assert_eq!(
                format!("{fast:?}"),
                format!("{slow:?}"),
                "different values for:\n{text}"
            ),
            None => panic!("the fast reader accepted text ron rejects:\n{text}"),
        }
        true
    }

    fn both(text: &str) -> bool {
        let a = agrees::<ContentDef>(text);
        let b = agrees::<ContentDefV1>(text);
        a || b
    }

    fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                ron_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "ron")
                && !p.to_string_lossy().ends_with(".events.ron")
            {
                // Events files (`*.events.ron`) are RON but not content.
                out.push(p);
            }
        }
    }

    fn corpus() -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        for dir in ["content", "tests"] {
            ron_files(&root.join(dir), &mut files);
        }
        files.sort();
        let texts: Vec<String> = files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .collect();
        assert!(texts.len() >= 50, "{} files", texts.len());
        texts
    }

    #[test]
    fn repository_files_agree_and_saved_content_takes_the_fast_path() -> Result<(), ron::Error> {
        let mut accepted = 0;
        let mut saved = 0;
        for text in corpus() {
            accepted += usize::from(both(&text));
            if let Some(def) = by_ron::<ContentDef>(&text) {
                let pretty = crate::write::to_ron(&def)?;
                // What `kiai` itself writes is in the plain subset unless a
                // string needs an escape or a float is not finite.
                let plain =
                    !pretty.contains('\\') && !pretty.contains("inf") && !pretty.contains("NaN");
                let fast = agrees::<ContentDef>(&pretty);
                assert!(fast || !plain, "saved text not read fast:\n{pretty}");
                saved += usize::from(fast);
            }
        }
        assert!(accepted >= 5, "only {accepted} files took the fast path");
        assert!(saved >= 5, "only {saved} saved files took the fast path");
        Ok(())
    }

    /// Fragments that stress the subset's edges: everything `ron` reads
    /// differently from a plain token, or that ends a token.
    const TOKENS: &[&str] = &[
        ",",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ":",
        "\"",
        "\\",
        "\\n",
        "//",
        "/*",
        "*/",
        "\n",
        " ",
        "\t",
        "\r",
        "\u{b}",
        "\u{85}",
        "\u{2028}",
        "#",
        "#![enable(implicit_some)]",
        "r#",
        "r\"",
        "b\"",
        "'a'",
        "_",
        ".",
        "..",
        "..=",
        "-",
        "+",
        "e",
        "E",
        "1e5",
        "1.",
        ".5",
        "0x1F",
        "0b1",
        "0o7",
        "1_000",
        "1u32",
        "1i64",
        "1f32",
        "1.0f64",
        "inf",
        "-inf",
        "NaN",
        "None",
        "Some(",
        "Some",
        "true",
        "false",
        "()",
        "0",
        "-0",
        "4294967296",
        "18446744073709551616",
        "-1",
        "é",
        "ContentDef",
        "WaypointDef",
        "Sphere",
        "Cone(range: 1.0, fov_deg: 2.0)",
        "id",
        "pos",
        "name",
        "format",
        "active",
        "tags",
        "costs",
        "two_way",
        "Range",
    ];

    fn mutate(rng: &mut ChaCha8Rng, text: &str) -> String {
        let mut s = text.to_owned();
        for _ in 0..rng.random_range(1..4) {
            let mut at = rng.random_range(0..=s.len());
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            match rng.random_range(0..4) {
                0 => s.insert_str(at, TOKENS[rng.random_range(0..TOKENS.len())]),
                1 => {
                    let mut end = (at + rng.random_range(1..8)).min(s.len());
                    while !s.is_char_boundary(end) {
                        end += 1;
                    }
                    s.replace_range(at..end, "");
                }
                2 => {
                    let mut end = (at + rng.random_range(1..40)).min(s.len());
                    while !s.is_char_boundary(end) {
                        end += 1;
                    }
                    let copy = s[at..end].to_owned();
                    s.insert_str(end, &copy);
                }
                _ => {
                    let t = TOKENS[rng.random_range(0..TOKENS.len())];
                    let mut end = (at + t.len()).min(s.len());
                    while !s.is_char_boundary(end) {
                        end += 1;
                    }
                    s.replace_range(at..end, t);
                }
            }
        }
        s
    }

    #[test]
    fn mutated_files_agree() {
        let texts: Vec<String> = corpus()
            .into_iter()
            .filter(|t| by_ron::<ContentDef>(t).is_some() || by_ron::<ContentDefV1>(t).is_some())
            .filter(|t| t.len() < 20_000)
            .collect();
        assert!(!texts.is_empty());
        let mut rng = ChaCha8Rng::seed_from_u64(0x6b69_6169);
        let mut accepted = 0;
        // `KIAI_MUTATIONS=1000000` runs a longer search.
        let iterations = std::env::var("KIAI_MUTATIONS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(6000);
        for i in 0..iterations {
            let text = mutate(&mut rng, &texts[i % texts.len()]);
            accepted += usize::from(both(&text));
        }
        // Many mutations stay valid (white space, duplicated list items):
        // the comparison must have had something to compare.
        assert!(accepted > iterations / 20, "only {accepted} accepted");
    }

    /// The shape of `kiai bench`'s generated project (one struct per line,
    /// named costs, inactive waypoints) takes the fast path.
    #[test]
    fn generated_project_shape_is_read_fast() {
        let text = r#"(
    format: 2,
    name: "generated",
    seed: 1,
    bounds: (min: (-10.0, 0.0, -10.0), max: (18.0, 10.0, 18.0)),
    factions: [(name: "red", hostile: ["blue"]), (name: "blue", hostile: ["red"])],
    cost_lists: ["infantry", "vehicle"],
    waypoints: [
        (id: 0, pos: (0.0, 0.0, 0.0), active: false),
        (id: 1, pos: (4.0, 0.0, 0.0)),
    ],
    links: [
        (from: 0, to: 1, costs: {"vehicle": 2.5}, two_way: true),
    ],
    archetypes: {
        "guard": (senses: [(name: "eyes", shape: Cone(range: 30.0, fov_deg: 120.0), filter: Hostile)], movement: Walker(min_speed: 0.5, max_speed: 1.5, direction_change_factor: 20, planar: true)),
    },
    agents: [
        (name: "a0", archetype: "guard", faction: "red", pos: (0.0, 0.0, 0.0)),
    ],
)
"#;
        assert!(agrees::<ContentDef>(text));
    }

    #[test]
    fn brackets_in_comments_still_meet_the_nesting_check() -> Result<(), &'static str> {
        let text = format!("(\n    format: 2, // {}\n)", "(".repeat(70));
        let read = super::from_str::<ContentDef>(&text).ok_or("not read")?;
        assert!(read.brackets_in_comments);
        let Err(err) = crate::load::Content::from_str(&text, "f.ron") else {
            return Err("nesting not reported");
        };
        let err = err.to_string();
        assert!(err.contains("nesting deeper than 64 levels"), "{err}");
        let plain = "(\n    format: 2, // no brackets\n)";
        let read = super::from_str::<ContentDef>(plain).ok_or("not read")?;
        assert!(!read.brackets_in_comments);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        /// The division fast path gives `str::parse`'s value, bit for bit.
        #[test]
        fn short_decimals_match_str_parse(t in "-?[0-9]{0,9}(\\.[0-9]{0,11})?") {
            if let Some(v) = super::short_decimal(&t) {
                let parsed: f32 = t.parse().map_err(|_| TestCaseError::fail(format!("{t} does not parse")))?;
                prop_assert_eq!(v.to_bits(), parsed.to_bits(), "{}", t);
            }
        }
    }

    #[test]
    fn short_decimals_near_the_limits() {
        for t in [
            "16777216",
            "16777217",
            "16777215.0",
            "1677721.6",
            "0.1",
            "-0.0",
            "0.0000000001",
            "1.",
            ".5",
            "-.5",
            "9999999.9",
        ] {
            if let Some(v) = super::short_decimal(t) {
                assert_eq!(Ok(v.to_bits()), t.parse::<f32>().map(f32::to_bits), "{t}");
            }
        }
    }

    fn waypoint(id: &str, x: &str) -> String {
        format!("(id: {id}, pos: ({x}, 0.0, 0.0))")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn float_tokens_agree(t in "[-+]?[0-9_]{0,4}(\\.[0-9_]{0,4})?([eE][-+]?[0-9]{0,3})?[a-z_.]{0,2}") {
            agrees::<WaypointDef>(&waypoint("1", &t));
        }

        #[test]
        fn integer_tokens_agree(t in "[-+]?(0[xbo])?[0-9a-f_]{0,22}[iu.]?[0-9]{0,2}") {
            agrees::<WaypointDef>(&waypoint(&t, "1.0"));
        }

        #[test]
        fn float_values_round_trip(x in any::<f32>().prop_filter("finite", |x| x.is_finite())) {
            for t in [format!("{x}"), format!("{x:?}"), format!("{x:e}"), format!("{:.3}", x)] {
                let text = waypoint("7", &t);
                prop_assert!(agrees::<WaypointDef>(&text), "{}", text);
            }
        }

        #[test]
        fn integer_values_agree(v in any::<u64>(), neg in any::<bool>()) {
            let t = if neg { format!("-{v}") } else { v.to_string() };
            let accepted = agrees::<WaypointDef>(&waypoint(&t, "1.0"));
            prop_assert_eq!(accepted, !neg && v <= u64::from(u32::MAX) || neg && v == 0);
        }
    }
}
