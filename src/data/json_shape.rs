//! Telling pandas' column layout (`{"col": {"index": value, …}, …}`) from JSON records
//! without building the document, so a column layout too large to parse whole is refused
//! before it is parsed.

use serde_json::Deserializer;

/// Most bytes of pandas' column layout, which is one document parsed whole at about 16 bytes
/// of memory per byte: more would break the memory rule (docs/file-formats.md "Limits").
pub(super) const MAX_COLUMN_LAYOUT_BYTES: usize = 64 << 20;

/// Whether the first JSON value of `bytes` is pandas' column layout (a non-empty object whose
/// every value is an object), found without building it.
pub(super) fn column_layout(bytes: &[u8]) -> bool {
    let mut stream = Deserializer::from_slice(bytes).into_iter::<Columns>();
    matches!(stream.next(), Some(Ok(Columns)))
}

/// pandas' column layout: any other value fails to read as one.
struct Columns;

/// An object, its entries skipped: any other value fails to read as one.
struct Object;

impl<'de> serde::Deserialize<'de> for Columns {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(Layout { outer: true }).map(|()| Columns)
    }
}

impl<'de> serde::Deserialize<'de> for Object {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(Layout { outer: false }).map(|()| Object)
    }
}

/// Reads an object: the layout itself (`outer`: at least one entry, each value an object), or
/// one of its columns (any entries).
struct Layout {
    outer: bool,
}

impl<'de> serde::de::Visitor<'de> for Layout {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut any = false;
        while map.next_key::<serde::de::IgnoredAny>()?.is_some() {
            any = true;
            if self.outer {
                map.next_value::<Object>()?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        if self.outer && !any {
            return Err(serde::de::Error::custom("an empty object"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::column_layout;

    #[test]
    fn tells_the_column_layout_from_records() {
        assert!(column_layout(br#"{"a": {"0": 1}, "b": {"0": 2}}"#));
        assert!(column_layout(br#"{"a": {"0": {"x": 1}}, "b": {}}"#));
        assert!(!column_layout(br#"{"a": {"0": 1}, "b": 2}"#));
        assert!(!column_layout(br#"{"a": 1, "b": 2}"#));
        assert!(!column_layout(b"{}"));
        assert!(!column_layout(br#"[{"a": 1}]"#));
        assert!(!column_layout(b"1"));
        assert!(!column_layout(br#"{"a": {"0": 1"#));
    }
}
