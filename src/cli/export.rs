//! Arguments of `export`: the script language and where it goes.

use std::path::PathBuf;

use clap::Args;

use super::panel::PanelArgs;

pub(super) const EXPORT_HELP: &str = "\
The script reads the panel file itself (the path as given here), keeps the judge and anchor
columns by their place in the file (a name as pandas or R reads it may keep spaces or a BOM
that rhoscope trims), drops incomplete items, fits Assumption 1's model by maximum likelihood
(N − 1 likelihood) and prints β_k, σ_ak² and ρ_k (named rho_<anchor>). Judge families (from
--families or the FILE.families.csv sidecar) become free residual covariances within a family.
A panel the script cannot read (Parquet, JSON, gzip, standard input, a --long table) needs
-o FILE: its data (wide, complete items) is written beside the script as CSV
(refit.R -> refit.data.csv), which the script reads.

Worked example:
  rhoscope export assets/three-anchor.csv --syntax lavaan -o refit.R
  Rscript refit.R
  rhoscope estimate assets/three-anchor.csv --method ml     # the same ρ

Exit codes: 0 ok, 2 bad arguments (or an existing -o FILE without --force), 3 ρ not
identified on this panel, 65 bad data, 66 missing or unreadable file, 74 the script could not
be written.";

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub panel: PanelArgs,
    /// The software to write for: R lavaan or Python semopy.
    #[arg(long, value_enum, default_value = "lavaan")]
    pub syntax: Syntax,
    /// Output file (default: standard output). Written atomically; an existing file is
    /// replaced only with --force.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
}

/// The script language of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Syntax {
    /// R lavaan (`:=` definitions of β, σ_a² and ρ).
    Lavaan,
    /// Python semopy (β, σ_a² and ρ computed after the fit).
    Semopy,
}
