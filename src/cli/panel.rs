//! How a command reads a panel: the file and the options shared by every reader.

use std::path::PathBuf;

use clap::Args;

/// How to read a panel: the file and its options.
#[derive(Debug, Args, Clone)]
pub struct PanelArgs {
    /// Panel file: CSV, TSV or semicolon-separated (sniffed), wide or long (--long).
    pub panel: PathBuf,
    #[command(flatten)]
    pub opts: PanelOptions,
}

/// The options shared by every command that reads a panel.
#[derive(Debug, Args, Clone, Default)]
pub struct PanelOptions {
    /// Judge columns (or rater ids with --long): comma-separated names or 1-based indices
    /// (a number that is a column's name is that name, with a note if positions differ).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub judges: Option<Vec<String>>,
    /// Anchor columns (or rater ids with --long): comma-separated names or 1-based indices
    /// (a number that is a column's name is that name, with a note if positions differ).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub anchors: Option<Vec<String>>,
    /// Judge families: NAME=FAMILY,... or a two-column judge,family file.
    /// Default: FILE.families.csv beside the panel, if present.
    #[arg(long, value_name = "SPEC")]
    pub families: Option<String>,
    /// An id column, which is never a judge or anchor.
    #[arg(long, value_name = "COL")]
    pub id: Option<String>,
    /// Long layout: one row per (item, rater, score); names the three columns.
    #[arg(long, value_delimiter = ',', value_name = "ITEM,RATER,SCORE")]
    pub long: Option<Vec<String>>,
    /// Treat these columns as continuous even if they look ordinal (integers with ≤ 10
    /// levels): comma-separated names, or `all`.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub continuous: Option<Vec<String>>,
}
