//! A JSON value read whole as serde_json reads it, noting the first key any of its objects
//! names twice, so a repeated column is refused as a repeated CSV header is.

use std::collections::HashMap;
use std::path::Path;

use serde::de::Error as _;
use serde_json::Value;

use super::DataError;
use crate::location::Location;

/// Marks the key under which a parse error happened, so the error can name its column.
pub(super) const KEY_MARK: char = '\u{1}';

/// A repeated key is refused, as a repeated CSV header is: which value was meant is
/// unknowable (serde_json would keep the last). Only the keys that name columns count: a
/// record's own keys (`row` given), or a column layout's columns and index labels (`labels`
/// given: each label's row); a repeat deeper down is inside one column's nested value,
/// ignored with an unused column and refused as nested with a used one.
pub(super) fn repeated(
    path: &Path,
    row: Option<u64>,
    labels: Option<&HashMap<String, usize>>,
    rep: Option<&Repeat>,
) -> Result<(), DataError> {
    let names = if row.is_some() { 1 } else { 2 };
    let Some(rep) = rep.filter(|r| r.depth <= names) else {
        return Ok(());
    };
    let key = crate::location::sanitize(&rep.key);
    let (at, message) = match (row, &rep.parent) {
        (Some(_), _) => (
            Location {
                row,
                column: Some(rep.key.clone()),
                value: None,
            },
            "this key appears twice in the record; give each column one name".to_string(),
        ),
        // An index label twice in one column: that label's row, in that column.
        (None, Some(column)) => (
            Location {
                row: labels.and_then(|l| l.get(&rep.key)).map(|&r| r as u64 + 1),
                column: Some(column.clone()),
                value: None,
            },
            format!("index label '{key}' appears twice in this column; give each item one label"),
        ),
        (None, None) => (
            Location {
                column: Some(rep.key.clone()),
                ..Location::default()
            },
            "this column appears twice in the object of columns; give each column one name"
                .to_string(),
        ),
    };
    Err(DataError::data_at(path, at, message))
}

/// A JSON value with the first key any of its objects names twice.
pub(super) struct Strict {
    pub(super) value: Value,
    pub(super) repeated: Option<Repeat>,
}

/// A key named twice in one object: the object's depth (1: the value itself is the object;
/// 2: an object inside it; …) and the key under which that object sits one level up, which
/// in pandas' column layout is the column.
pub(super) struct Repeat {
    key: String,
    depth: usize,
    pub(super) parent: Option<String>,
}

impl Repeat {
    /// This repeat seen from one level up, inside `under`.
    fn nested(self, under: &str) -> Repeat {
        Repeat {
            parent: self.parent.or_else(|| Some(under.to_string())),
            depth: self.depth + 1,
            key: self.key,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

/// Builds a [`Strict`] as serde_json builds a `Value`, noting repeated keys.
struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Strict, E> {
        Ok(Strict::plain(Value::Bool(b)))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Strict, E> {
        Ok(Strict::plain(Value::from(i)))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Strict, E> {
        Ok(Strict::plain(Value::from(u)))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Strict, E> {
        Ok(Strict::plain(
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, s: &str) -> Result<Strict, E> {
        Ok(Strict::plain(Value::String(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Strict, E> {
        Ok(Strict::plain(Value::String(s)))
    }

    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict::plain(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Strict, E> {
        Ok(Strict::plain(Value::Null))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let (mut items, mut repeated) = (Vec::new(), None);
        while let Some(Strict { value, repeated: r }) = seq.next_element::<Strict>()? {
            repeated = repeated.or(r.map(|r| Repeat {
                depth: r.depth + 1,
                ..r
            }));
            items.push(value);
        }
        Ok(Strict {
            value: Value::Array(items),
            repeated,
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let (mut object, mut repeated) = (serde_json::Map::new(), None);
        while let Some(key) = map.next_key::<String>()? {
            let Strict { value, repeated: r } = map
                .next_value::<Strict>()
                .map_err(|e| A::Error::custom(format!("{KEY_MARK}{key}{KEY_MARK}{e}")))?;
            if object.contains_key(&key) {
                repeated = repeated.or(Some(Repeat {
                    key,
                    depth: 1,
                    parent: None,
                }));
            } else {
                repeated = repeated.or(r.map(|r| r.nested(&key)));
                object.insert(key, value);
            }
        }
        Ok(Strict {
            value: Value::Object(object),
            repeated,
        })
    }
}

impl Strict {
    fn plain(value: Value) -> Self {
        Strict {
            value,
            repeated: None,
        }
    }
}
