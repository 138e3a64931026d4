//! Arguments of `plot`: the figure's kind, its panel or scenario, and the output file.

use std::path::PathBuf;

use clap::Args;

use super::design::preset_names;
use super::panel::PanelOptions;
use super::values::{positive_strength, resamples, seed, whole};

pub(super) const PLOT_HELP: &str = "\
Kinds:
  rho        each ρ̂_k with its 95 % bootstrap CI (every estimator that runs), truth if simulated
  bootstrap  the bootstrap distribution of each ρ̂_k, percentile interval marked
  battery    each test's statistic against its calibrated null, threshold dashed
  power      each test's power against N (--ns) at one violation strength (--strength)
  boundary   ρ̂_1's spread against ρ_1 as Corollary 1's denominator shrinks (preset boundary)

rho, bootstrap and battery read PANEL, or simulate --preset/--set at --n items; power and
boundary are drawn for a scenario. SVG only: text needs no font files, and the same seed
gives the same bytes. For a PNG: rsvg-convert -o fig.png fig.svg.

Worked example:
  rhoscope plot rho --preset three-anchor --n 1000 -o rho.svg
  rhoscope plot battery ratings.csv --judges 2,3,4 --anchors 5,6 -o battery.svg
  rhoscope plot power --preset mid --ns 250,500,1000,2000 --strength 0.4 -o power.svg

Exit codes: 0 ok, 2 bad arguments (an existing -o FILE without --force, a .png name),
65 bad data, 66 missing or unreadable file, 74 the file could not be written.";

#[derive(Debug, Args)]
pub struct PlotArgs {
    /// What to draw: rho, bootstrap, battery, power or boundary.
    #[arg(value_parser = plot_kinds())]
    pub kind: String,
    /// Panel file (rho, bootstrap, battery); without it, a simulated scenario.
    pub panel: Option<PathBuf>,
    #[command(flatten)]
    pub opts: PanelOptions,
    /// Scenario to simulate (default: mid; boundary for the boundary figure).
    #[arg(long, value_parser = preset_names())]
    pub preset: Option<String>,
    /// Override one scenario parameter: KEY=VALUE (repeatable; the keys of `simulate`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Items in the simulated panel (default 500; 2000 for the boundary figure).
    #[arg(long = "n", value_name = "N", value_parser = whole::<u64>(10, 10_000_000))]
    pub n: Option<u64>,
    /// Panel sizes of the power figure (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LIST", default_value = "200,500,1000,2000,5000",
          value_parser = whole::<u64>(10, 10_000_000))]
    pub ns: Vec<u64>,
    /// Violation strength of the power figure (above 0, up to 1000000).
    #[arg(long, value_name = "S", default_value_t = 0.4, allow_hyphen_values = true,
          value_parser = positive_strength())]
    pub strength: f64,
    /// Replicates per point (power: per N and test; boundary: per ρ_1).
    #[arg(long, value_name = "R", default_value_t = 100,
          value_parser = whole::<u32>(2, 1_000_000))]
    pub reps: u32,
    /// Bootstrap resamples B (rho, bootstrap, battery).
    #[arg(long, value_name = "B", default_value_t = 300,
          value_parser = resamples(1_000_000))]
    pub bootstrap: u32,
    /// Null draws per test (default: as `rhoscope battery` for rho, bootstrap and battery, so
    /// a figure shows the report's numbers; 500 for power).
    #[arg(long, value_name = "D",
          value_parser = whole::<u32>(20, 10_000_000))]
    pub null_draws: Option<u32>,
    /// Seed of the simulation, the bootstrap and the nulls.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed())]
    pub seed: u64,
    /// Output file (.svg; - for standard output). Written atomically.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
}

fn plot_kinds() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(["rho", "bootstrap", "battery", "power", "boundary"])
}
