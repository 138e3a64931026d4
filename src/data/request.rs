//! What a user asks of a panel, typed: which columns are judges and anchors, their scales,
//! the judges' families, the layout. The command line, the explorer's edits and the Python
//! keyword arguments each build one; the loader takes it. No list is ever joined into text,
//! so a comma in a name is only a character.

use std::path::PathBuf;

/// A column chosen by name or by position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ColumnRef {
    /// This name exactly, else the one column whose name matches it ignoring case.
    Name(String),
    /// The column at this 1-based position of the file's header (wide layout only).
    Position(usize),
    /// As typed on a command line: a name, else (wide layout) a 1-based position.
    NameOrPosition(String),
}

impl From<&str> for ColumnRef {
    fn from(name: &str) -> Self {
        ColumnRef::Name(name.to_string())
    }
}

impl From<String> for ColumnRef {
    fn from(name: String) -> Self {
        ColumnRef::Name(name)
    }
}

/// A set of columns: some, or every judge and anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Columns {
    /// Every judge and anchor column.
    All,
    /// These columns (each a judge or an anchor).
    Listed(Vec<ColumnRef>),
}

/// The judges' families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Families {
    /// Judge → family pairs, in the order given (a judge left out forms its own family).
    Pairs(Vec<(String, String)>),
    /// A two-column `judge,family` file.
    File(PathBuf),
}

/// The three columns of the long layout (one row per item, rater and score).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongColumns {
    pub item: ColumnRef,
    pub rater: ColumnRef,
    pub score: ColumnRef,
}

/// How to read a panel. `Default` reads a wide file with roles from the header's name
/// patterns, scales from the values and families from a sidecar beside the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PanelRequest {
    /// The judges (rater ids in the long layout); `None`: the header's name patterns.
    pub judges: Option<Vec<ColumnRef>>,
    /// The anchors, as `judges`.
    pub anchors: Option<Vec<ColumnRef>>,
    /// Columns that take no role, whatever their names (judges set aside).
    pub set_aside: Vec<ColumnRef>,
    /// An id column (wide layout), which takes no role.
    pub id: Option<ColumnRef>,
    /// Read the long layout with these three columns.
    pub long: Option<LongColumns>,
    /// The judges' families; `None`: the sidecar beside the file, if any.
    pub families: Option<Families>,
    /// Columns (judges or anchors) whose codes are read as numbers on an interval scale,
    /// even if they look ordinal (integers with few levels).
    pub continuous: Option<Columns>,
    /// Fewest anchors accepted (2 for `estimate`; the battery accepts 0).
    pub min_anchors: usize,
}
