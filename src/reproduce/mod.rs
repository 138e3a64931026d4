//! Regenerates the paper's simulation tables (Sections 4–7) and sets each cell beside the
//! published number, with its Monte-Carlo standard error and a verdict.
//!
//! A cell is `within` when |ours − paper| ≤ 3·SE + half a unit of the paper's last printed
//! digit, where SE combines our Monte-Carlo error with the paper's own when the paper gives
//! the spread and replicate count behind its number: SE = √(SE_ours² + SE_paper²). Cells that
//! do not reproduce are shown as they are. A claim the paper makes without a number is shown
//! as `unpublished` and not counted. Where the paper leaves a design unstated, the table's
//! `design` says which choice was made.

use std::time::Instant;

use crate::progress::{Flow, Progress};

mod asymmetry;
mod bias_correction;
mod boundary;
mod coverage;
mod ctc;
mod family;
mod finite_sample;
mod hanna;
mod ml;
mod opchar;
mod ordinal;
mod recovery;
mod robustness;
mod sim;
mod table;

pub use table::{Budget, Cell, SEEDS, Table, Verdict};

type Builder = fn(Budget, &(dyn Fn(Progress) -> Flow + Sync)) -> Table;

/// Every table, in the paper's order, with its name for `--table`.
pub const TABLES: &[(&str, Builder)] = &[
    ("recovery", recovery::recovery),
    ("finite-sample", finite_sample::finite_sample),
    ("boundary", boundary::boundary),
    ("asymmetry", asymmetry::asymmetry),
    ("opchar", opchar::opchar),
    ("family", family::family),
    ("ctc", ctc::ctc),
    ("coverage", coverage::coverage),
    ("robustness", robustness::robustness),
    ("ml", ml::ml_comparison),
    ("ordinal", ordinal::ordinal),
    ("bias-correction", bias_correction::bias_correction),
    ("hanna", hanna::hanna),
];

/// Why the paper's tables cannot be reproduced as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReproduceError {
    /// A table name that is not one of [`TABLES`], with the list.
    #[error("unknown table '{name}' (tables: {known})")]
    UnknownTable { name: String, known: String },
}

/// Runs the named tables (all when `names` is empty).
///
/// # Errors
/// An unknown table name, with the list.
pub fn run(
    names: &[String],
    budget: Budget,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Vec<Table>, ReproduceError> {
    for n in names {
        if !TABLES.iter().any(|(t, _)| t == n) {
            let all: Vec<&str> = TABLES.iter().map(|(t, _)| *t).collect();
            return Err(ReproduceError::UnknownTable {
                name: n.clone(),
                known: all.join(", "),
            });
        }
    }
    Ok(TABLES
        .iter()
        .filter(|(t, _)| names.is_empty() || names.iter().any(|n| n == t))
        .map(|(_, build)| {
            let start = Instant::now();
            let mut table = build(budget, progress);
            table.seconds = start.elapsed().as_secs_f64();
            let _ = progress(Progress::Step);
            table
        })
        .collect())
}
