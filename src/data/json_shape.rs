//! Telling pandas' column layout (`{"col": {"index": value, …}, …}`) from JSON records
//! without building the document, so a column layout too large to parse whole is refused
//! before it is parsed.

use serde_json::Deserializer;

/// Most bytes of pandas' column layout, which is one document parsed whole at about 16 bytes
/// of memory per byte: more would break the memory rule (docs/file-formats.md "Limits").
pub(super) const MAX_COLUMN_LAYOUT_BYTES: usize = 64 << 20;

/// Whether the first JSON value of `bytes` is pandas' column layout (an object of objects),
/// found without building it.
pub(super) fn column_layout(bytes: &[u8]) -> bool {
    let mut stream = Deserializer::from_slice(bytes).into_iter::<Shape>();
    matches!(stream.next(), Some(Ok(Shape::Columns)))
}

/// The shape of a JSON value as far as telling pandas' column layout goes.
#[derive(PartialEq)]
enum Shape {
    Object,
    Columns,
    Other,
}

impl<'de> serde::Deserialize<'de> for Shape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ShapeVisitor)
    }
}

/// Reads a value, keeping only its [`Shape`].
struct ShapeVisitor;

impl<'de> serde::de::Visitor<'de> for ShapeVisitor {
    type Value = Shape;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Shape, E> {
        Ok(Shape::Other)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }

    fn visit_str<E>(self, _: &str) -> Result<Shape, E> {
        Ok(Shape::Other)
    }

    fn visit_unit<E>(self) -> Result<Shape, E> {
        Ok(Shape::Other)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Shape::Other)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
        let (mut any, mut all) = (false, true);
        while map.next_key::<serde::de::IgnoredAny>()?.is_some() {
            any = true;
            if all {
                all = map.next_value::<Shape>()? != Shape::Other;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(if any && all {
            Shape::Columns
        } else {
            Shape::Object
        })
    }
}
