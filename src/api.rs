//! The in-memory entry of the bindings: a panel given as columns, and every subcommand's
//! `--json` document returned instead of printed. Each function calls the same library code
//! as its command, so the documents are byte-identical to the CLI's.

#[cfg(feature = "cli")]
mod applicable;
#[cfg(feature = "cli")]
mod commands;
#[cfg(feature = "cli")]
mod entry;
pub mod input;
#[cfg(feature = "cli")]
pub mod options;
pub mod wording;

#[cfg(feature = "cli")]
pub use commands::{Outcome, call, files, json, write};
#[cfg(feature = "cli")]
pub use entry::run_cli;
pub use input::{Column, TempPanel, long_panel, wide_panel};
pub use wording::Keywords;
