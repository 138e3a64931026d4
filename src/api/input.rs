//! Panels held in memory (a data frame's columns) for the bindings: a table registered here
//! is loaded by every command given its path, straight from its columns (no file, no text),
//! through the data layer's own readers, so roles, missing values, ordinal detection and
//! every check are the CLI's.

use std::sync::Arc;

pub use crate::data::memory::{Column, Registered, Table, TableSource, register};

use crate::error::Error;

/// A registered in-memory panel (the name it had when it was a temporary file).
pub type TempPanel = Registered;

/// A column the library owns.
enum Owned {
    Numbers(Vec<f64>),
    Text(Vec<Option<String>>),
    Unordered(Vec<Option<String>>),
}

/// A table the library owns, for callers whose columns do not outlive the registration.
struct OwnedTable {
    names: Vec<String>,
    columns: Vec<Owned>,
}

impl TableSource for OwnedTable {
    fn table(&self) -> Table<'_> {
        Table {
            names: &self.names,
            columns: self
                .columns
                .iter()
                .map(|c| match c {
                    Owned::Numbers(x) => Column::Numbers(x),
                    Owned::Text(t) => Column::Text(t),
                    Owned::Unordered(t) => Column::Unordered(t),
                })
                .collect(),
        }
    }
}

/// A wide panel of named columns, copied and registered for [`crate::data::load`] (the
/// bindings register theirs in place through [`register`]).
///
/// # Errors
/// [`Error::Usage`] when the columns differ in length or in number from the names.
pub fn wide_panel(names: &[String], columns: &[Column<'_>]) -> Result<Registered, Error> {
    if names.len() != columns.len() {
        return Err(Error::Usage(
            format!("{} column names for {} columns", names.len(), columns.len()).into(),
        ));
    }
    let rows = columns.first().map_or(0, Column::len);
    if columns.iter().any(|c| c.len() != rows) {
        return Err(Error::Usage("the columns differ in length".into()));
    }
    let columns = columns
        .iter()
        .map(|c| match c {
            Column::Numbers(x) => Owned::Numbers(x.to_vec()),
            Column::Text(t) => Owned::Text(t.to_vec()),
            Column::Unordered(t) => Owned::Unordered(t.to_vec()),
        })
        .collect();
    Ok(register(Arc::new(OwnedTable {
        names: names.to_vec(),
        columns,
    })))
}

/// A long panel (one score per row): item and rater ids as text, scores as `f64`; read
/// with `--long` naming the three columns of `header`.
///
/// # Errors
/// As [`wide_panel`].
pub fn long_panel(
    header: [&str; 3],
    items: &[String],
    raters: &[String],
    scores: &[f64],
) -> Result<Registered, Error> {
    if items.len() != raters.len() || items.len() != scores.len() {
        return Err(Error::Usage(
            "the item, rater and score columns differ in length".into(),
        ));
    }
    let text = |v: &[String]| Owned::Text(v.iter().cloned().map(Some).collect());
    Ok(register(Arc::new(OwnedTable {
        names: header.map(String::from).to_vec(),
        columns: vec![text(items), text(raters), Owned::Numbers(scores.to_vec())],
    })))
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::data::{PanelRequest, load};

    struct Held {
        names: Vec<String>,
        cols: Vec<Vec<f64>>,
    }

    impl TableSource for Held {
        fn table(&self) -> Table<'_> {
            Table {
                names: &self.names,
                columns: self.cols.iter().map(|c| Column::Numbers(c)).collect(),
            }
        }
    }

    #[test]
    fn a_registered_table_loads_by_its_path_until_dropped() {
        let names: Vec<String> = ["J1", "J2", "A1", "A2"].map(String::from).to_vec();
        let cols: Vec<Vec<f64>> = (0..4)
            .map(|c| {
                (0..50)
                    .map(|i| f64::from(i * (c + 2)).sin() / 3.0)
                    .collect()
            })
            .collect();
        let want = cols.concat();
        let reg = register(Arc::new(Held { names, cols }));
        let loaded = load(reg.path(), &PanelRequest::default()).unwrap();
        assert_eq!(loaded.panel.data, want);
        let p = reg.path().to_path_buf();
        drop(reg);
        assert!(load(&p, &PanelRequest::default()).is_err());
    }

    #[test]
    fn an_undeclared_order_is_refused_in_a_role_and_read_as_it_is_elsewhere() {
        use crate::data::ColumnRef;
        let names: Vec<String> = ["J1", "J2", "J3", "A1", "A2", "J4"]
            .map(String::from)
            .to_vec();
        let numbers: Vec<Vec<f64>> = (0..5)
            .map(|c| (0..40).map(|i| f64::from(i * (c + 2)).sin()).collect())
            .collect();
        let labels: Vec<Option<String>> = (0..40).map(|i| Some(format!("{}", i % 4))).collect();
        let mut columns: Vec<Column<'_>> = numbers.iter().map(|c| Column::Numbers(c)).collect();
        columns.push(Column::Unordered(&labels));
        let reg = wide_panel(&names, &columns).unwrap();
        let pick = |v: &[&str]| Some(v.iter().map(|n| ColumnRef::Name((*n).into())).collect());
        let used = PanelRequest {
            judges: pick(&["J1", "J2", "J3"]),
            anchors: pick(&["A1", "J4"]),
            ..PanelRequest::default()
        };
        let e = load(reg.path(), &used).unwrap_err().to_string();
        assert!(
            e.contains("column 'J4' is a categorical whose order was never declared, and the anchor selection takes it:"),
            "{e}"
        );
        let by_default = load(reg.path(), &PanelRequest::default())
            .unwrap_err()
            .to_string();
        assert!(
            by_default.contains("the judge selection takes it by default")
                && by_default.contains("set it aside"),
            "{by_default}"
        );
        let aside = PanelRequest {
            set_aside: vec![ColumnRef::Name("J4".into())],
            ..PanelRequest::default()
        };
        assert_eq!(
            load(reg.path(), &aside).unwrap().panel.data,
            numbers.concat()
        );
    }
}
