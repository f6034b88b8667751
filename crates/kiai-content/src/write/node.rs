//! Content as a tree of values, through serde: what the writer compares
//! and renders.
//!
//! [`Node::of_all`] serialises any `Serialize` value (a [`ContentDef`], a
//! format-1 file's definitions) into a [`Node`]. Scalars keep the exact RON
//! text `ron` would write (floats round-trip), so two nodes are equal
//! exactly when the values they were made from are, NaN included. Fields
//! that serde skips (`skip_serializing_if`: they hold their default) stay in
//! the tree as [`Field::value`] `None`, so their names are known.
//!
//! [`ContentDef`]: crate::def::ContentDef

use std::fmt;

use serde::Serialize;
use serde::ser;

/// One value of the content, as RON sees it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// A number, string, character, `true`/`false`, unit variant, `None` or
    /// `()`: the RON text of it.
    Atom(String),
    /// `Some(value)`.
    Some(Box<Node>),
    /// A struct `(a: 1)` or a struct variant `Cone(range: 1.0)`.
    Struct {
        /// The Rust type's name (the enum's, for a variant): where the
        /// writer looks its defaults up.
        ty: &'static str,
        /// The variant's name; `None` for a plain struct.
        name: Option<&'static str>,
        /// Every field, in declaration order (skipped ones too).
        fields: Vec<Field>,
    },
    /// A tuple `(1.0, 2.0)` or a tuple variant `Name(1.0)`.
    Tuple {
        /// The variant's name; `None` for a plain tuple.
        name: Option<&'static str>,
        /// The elements.
        items: Vec<Node>,
    },
    /// A list `[a, b]`.
    Seq(Vec<Node>),
    /// A map `{"k": v}`, in order.
    Map(Vec<(Node, Node)>),
    /// RON text not made by serde (a value given on the command line):
    /// written as it is.
    Raw(String),
}

/// One field of a [`Node::Struct`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Field {
    /// The field's name.
    pub name: &'static str,
    /// Its value; `None` when serde skipped it (it holds its default).
    pub value: Option<Node>,
}

impl Node {
    /// The tree of `value` with every field serde writes (`Node::of`, in
    /// `defaults.rs`, also leaves out the fields that hold their default).
    pub(crate) fn of_all<T: Serialize + ?Sized>(value: &T) -> Result<Node, NodeError> {
        value.serialize(NodeSerializer)
    }

    /// The field `name` of a struct node, if it is one and has it (skipped
    /// or not).
    pub(crate) fn field(&self, name: &str) -> Option<&Field> {
        match self {
            Node::Struct { fields, .. } => fields.iter().find(|f| f.name == name),
            _ => None,
        }
    }

    /// Whether the node has entries that can go one per line.
    pub(crate) fn has_entries(&self) -> bool {
        match self {
            Node::Struct { fields, .. } => fields.iter().any(|f| f.value.is_some()),
            Node::Tuple { items, .. } | Node::Seq(items) => !items.is_empty(),
            Node::Map(entries) => !entries.is_empty(),
            Node::Some(inner) => inner.has_entries(),
            Node::Atom(_) | Node::Raw(_) => false,
        }
    }
}

/// A value serde cannot turn into a [`Node`] (content types never give one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeError(pub String);

impl fmt::Display for NodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NodeError {}

impl ser::Error for NodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        NodeError(msg.to_string())
    }
}

/// The RON text of a float, as `ron` writes it (the shortest text that
/// reads back to the same bits; `NaN`, `inf`, `-inf`).
fn float(v: f64, text: String) -> String {
    if v.is_nan() && v.is_sign_negative() {
        format!("-{text}")
    } else {
        text
    }
}

struct NodeSerializer;

macro_rules! atom {
    ($($f:ident: $t:ty),*) => {
        $(fn $f(self, v: $t) -> Result<Node, NodeError> {
            Ok(Node::Atom(v.to_string()))
        })*
    };
}

impl ser::Serializer for NodeSerializer {
    type Ok = Node;
    type Error = NodeError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = SeqBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = StructBuilder;
    type SerializeStructVariant = StructBuilder;

    atom!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128);

    fn serialize_f32(self, v: f32) -> Result<Node, NodeError> {
        Ok(Node::Atom(float(f64::from(v), format!("{v:?}"))))
    }

    fn serialize_f64(self, v: f64) -> Result<Node, NodeError> {
        Ok(Node::Atom(float(v, format!("{v:?}"))))
    }

    fn serialize_char(self, v: char) -> Result<Node, NodeError> {
        ron::to_string(&v)
            .map(Node::Atom)
            .map_err(|e| NodeError(e.to_string()))
    }

    fn serialize_str(self, v: &str) -> Result<Node, NodeError> {
        // Most names need no escape: quote them directly (as `ron` would).
        if v.chars().all(|c| c != '"' && c != '\\' && !c.is_control()) {
            let mut text = String::with_capacity(v.len() + 2);
            text.push('"');
            text.push_str(v);
            text.push('"');
            return Ok(Node::Atom(text));
        }
        ron::to_string(v)
            .map(Node::Atom)
            .map_err(|e| NodeError(e.to_string()))
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<Node, NodeError> {
        Err(NodeError("content holds no byte strings".to_owned()))
    }

    fn serialize_none(self) -> Result<Node, NodeError> {
        Ok(Node::Atom("None".to_owned()))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Node, NodeError> {
        Ok(Node::Some(Box::new(value.serialize(NodeSerializer)?)))
    }

    fn serialize_unit(self) -> Result<Node, NodeError> {
        Ok(Node::Atom("()".to_owned()))
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<Node, NodeError> {
        Ok(Node::Atom("()".to_owned()))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Node, NodeError> {
        Ok(Node::Atom(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Node, NodeError> {
        value.serialize(NodeSerializer)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Node, NodeError> {
        Ok(Node::Tuple {
            name: Some(variant),
            items: vec![value.serialize(NodeSerializer)?],
        })
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, NodeError> {
        Ok(SeqBuilder::new(Shape::Seq, len.unwrap_or(0)))
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, NodeError> {
        Ok(SeqBuilder::new(Shape::Tuple(None), len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, NodeError> {
        Ok(SeqBuilder::new(Shape::Tuple(None), len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, NodeError> {
        Ok(SeqBuilder::new(Shape::Tuple(Some(variant)), len))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder, NodeError> {
        Ok(MapBuilder {
            entries: Vec::with_capacity(len.unwrap_or(0)),
            key: None,
        })
    }

    fn serialize_struct(self, ty: &'static str, len: usize) -> Result<StructBuilder, NodeError> {
        Ok(StructBuilder {
            ty,
            name: None,
            fields: Vec::with_capacity(len),
        })
    }

    fn serialize_struct_variant(
        self,
        ty: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructBuilder, NodeError> {
        Ok(StructBuilder {
            ty,
            name: Some(variant),
            fields: Vec::with_capacity(len),
        })
    }
}

enum Shape {
    Seq,
    Tuple(Option<&'static str>),
}

struct SeqBuilder {
    shape: Shape,
    items: Vec<Node>,
}

impl SeqBuilder {
    fn new(shape: Shape, len: usize) -> Self {
        Self {
            shape,
            items: Vec::with_capacity(len),
        }
    }

    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NodeError> {
        self.items.push(value.serialize(NodeSerializer)?);
        Ok(())
    }

    fn done(self) -> Node {
        match self.shape {
            Shape::Seq => Node::Seq(self.items),
            Shape::Tuple(name) => Node::Tuple {
                name,
                items: self.items,
            },
        }
    }
}

/// serde's four sequence-like traits, all building a [`SeqBuilder`]: the
/// sequence and tuple ones name the method `serialize_element`, the tuple
/// struct and tuple variant ones `serialize_field`.
macro_rules! seq_builder {
    ($($tr:ident::$method:ident),*) => {$(
        impl ser::$tr for SeqBuilder {
            type Ok = Node;
            type Error = NodeError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NodeError> {
                self.push(value)
            }
            fn end(self) -> Result<Node, NodeError> {
                Ok(self.done())
            }
        }
    )*};
}

seq_builder!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

struct MapBuilder {
    entries: Vec<(Node, Node)>,
    key: Option<Node>,
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Node;
    type Error = NodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NodeError> {
        self.key = Some(key.serialize(NodeSerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NodeError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| NodeError("a map value without its key".to_owned()))?;
        self.entries.push((key, value.serialize(NodeSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Node, NodeError> {
        Ok(Node::Map(self.entries))
    }
}

struct StructBuilder {
    ty: &'static str,
    name: Option<&'static str>,
    fields: Vec<Field>,
}

impl StructBuilder {
    fn field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), NodeError> {
        self.fields.push(Field {
            name,
            value: Some(value.serialize(NodeSerializer)?),
        });
        Ok(())
    }

    fn skip(&mut self, name: &'static str) {
        self.fields.push(Field { name, value: None });
    }

    fn done(self) -> Node {
        Node::Struct {
            ty: self.ty,
            name: self.name,
            fields: self.fields,
        }
    }
}

/// serde's struct and struct variant traits, both building a
/// [`StructBuilder`].
macro_rules! struct_builder {
    ($($tr:ident),*) => {$(
        impl ser::$tr for StructBuilder {
            type Ok = Node;
            type Error = NodeError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), NodeError> {
                self.field(key, value)
            }
            fn skip_field(&mut self, key: &'static str) -> Result<(), NodeError> {
                self.skip(key);
                Ok(())
            }
            fn end(self) -> Result<Node, NodeError> {
                Ok(self.done())
            }
        }
    )*};
}

struct_builder!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct S {
        a: f32,
        #[serde(skip_serializing_if = "Option::is_none")]
        b: Option<u32>,
        c: Vec<(f32, f32)>,
        d: &'static str,
    }

    #[test]
    fn scalars_are_ron_text_and_skipped_fields_keep_their_names() -> Result<(), NodeError> {
        let n = Node::of(&S {
            a: 0.1,
            b: None,
            c: vec![(1.0, f32::NAN)],
            d: "say \"hi\"",
        })?;
        let Node::Struct { name, fields, .. } = &n else {
            return Err(NodeError(format!("{n:?}")));
        };
        assert_eq!(*name, None);
        assert_eq!(fields[0].value, Some(Node::Atom("0.1".into())));
        assert_eq!(fields[1].name, "b");
        assert_eq!(fields[1].value, None);
        assert_eq!(
            fields[2].value,
            Some(Node::Seq(vec![Node::Tuple {
                name: None,
                items: vec![Node::Atom("1.0".into()), Node::Atom("NaN".into())]
            }]))
        );
        assert_eq!(
            fields[3].value,
            Some(Node::Atom("\"say \\\"hi\\\"\"".into()))
        );
        Ok(())
    }
}
