//! Turns core results into text tables and JSON, one file per command. Every command prints
//! through here, so the numbers a user sees and the numbers a script reads are the same
//! numbers. What the commands share sits in three children, re-exported here: `format` (numbers,
//! tables, intervals), `panel` (the panel header) and `fit` (the text and JSON of one fit).

pub mod battery;
pub mod estimate;
pub mod family;
pub mod identify;
pub mod neff;
pub mod plan;
pub mod power;
pub mod reading;
pub mod reproduce;
pub mod validate;

mod fit;
mod format;
mod panel;

pub use fit::{estimate_json, estimate_text, estimate_with_ci_json};
pub use format::{SCHEMA_VERSION, fmt_interval, fmt_num, interval_json, num, table};
pub use panel::{panel_json, panel_notes, panel_text, scales_summary};
