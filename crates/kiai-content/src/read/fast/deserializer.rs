//! The serde side: the `Deserializer` over the reader, the comma-separated
//! items of a container, identifiers (field and variant names) and enum
//! values, each reaching the visitor through the same method `ron` calls.

use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

use super::reader::Reader;
use super::{Bail, Res};

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
