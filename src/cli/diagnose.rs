//! Arguments of the commands that judge a panel: `battery`, `validate`, `identify`.

use std::path::PathBuf;

use clap::Args;

use super::panel::{PanelArgs, PanelOptions};
use super::values::{resamples, rho, seed, whole};

pub(super) const BATTERY_HELP: &str = "\
Runs before trusting any ρ̂. Prints the panel's row of the paper's decision table, the estimate
with percentile bootstrap CIs and flags, the family-blocked estimate when families are given,
the effective number of judges (n_eff with its interval), the weak-identification screen, and
each test's verdict with statistic, null threshold, p-value and meaning. A firing test is a result, not an error: the exit code is 0 unless
--fail-on-diagnostic is given.

Worked example:
  rhoscope battery assets/families.csv
  rhoscope battery hanna_coherence_panel.csv --judges 2,3,4        # Test A on a real panel

Exit codes: 0 ran, 1 a test fired, weak-ID flagged or no estimate can be read (with
--fail-on-diagnostic), 2 bad arguments, 65 bad data, 66 missing or unreadable file.";

pub(super) const VALIDATE_HELP: &str = "\
Section 7's protocol on your panel: synthetic judges built on its real judges (each resamples
one real judge's item-centred residuals; an ordinal judge is cut at that judge's own empirical
thresholds), continuous anchors with the injected ρ, at the panel's N and any other N given.
Reports, per estimator (Theorem 1, free-scale, blocked with families), the mean, SD and RMSE of
each ρ̂, how often the injected ordering is recovered, the share of inadmissible fits, CI
coverage (with --bootstrap) and the battery's false-positive rate. The panel's anchors are not
used.

Worked example:
  rhoscope validate hanna_coherence_panel.csv --judges 2,3,4 --n 2000
  rhoscope validate llm.csv --judges j1,j2,j3,j4,j5 --families fam.csv --n 4000 --json

Exit codes: 0 ok, 2 bad arguments, 65 bad data, 66 missing or unreadable file.";

pub(super) const IDENTIFY_HELP: &str = "\
With every column ordinal, only the latent (polychoric) correlations are seen, and ρ is not
identified at any m (Section 7). This shows it at one interior point: the numerical rank of the
Jacobian of the map from the model's parameters to the latent correlations (with its
tolerance), the dimension of its null space, and two parameter vectors with ρ_1 = 0.30 and
ρ_1 = 0.80 whose latent correlations agree to 1e-10. For contrast, the same rank when the
judges are ordinal but m ≥ 3 anchors are continuous (identified: the free-scale estimator).

The point is the paper's base design without a PANEL; with one, Theorem 1's fit to the panel
when it is in range and reaches both ρ_1 targets, else the paper's design at the panel's p and
m (the report says which, and why).

Worked example:
  rhoscope identify
  rhoscope identify ../shared/data/hanna/hanna_coherence_panel.csv --id story_id \\
      --judges 2,3 --anchors 4 --json

Exit codes: 0 ok, 2 bad arguments, 65 bad data, 66 missing or unreadable file.";

/// `battery`'s null draws per test, which `plot` uses too, so a figure and the report agree.
pub const BATTERY_NULL_DRAWS: u32 = 1000;

#[derive(Debug, Args)]
pub struct IdentifyArgs {
    /// Panel file whose own point to use (default: the paper's base design).
    pub panel: Option<PathBuf>,
    #[command(flatten)]
    pub opts: PanelOptions,
    /// Print JSON (schema in docs/json.md) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BatteryArgs {
    #[command(flatten)]
    pub panel: PanelArgs,
    /// Bootstrap resamples B for the CIs and the weak-ID screen.
    #[arg(long, value_name = "B", default_value_t = 300,
          value_parser = resamples(1_000_000))]
    pub bootstrap: u32,
    /// Null draws per test for thresholds and p-values.
    #[arg(long, value_name = "D", default_value_t = BATTERY_NULL_DRAWS,
          value_parser = whole::<u32>(20, 10_000_000))]
    pub null_draws: u32,
    /// Seed of the bootstrap and null streams.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed())]
    pub seed: u64,
    /// Print JSON (schema in docs/json.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Exit 1 when any test fires, the weak-identification flag is raised, or no estimate can
    /// be read (ρ not identified, every estimate undefined, flagged or on a ridge).
    #[arg(long)]
    pub fail_on_diagnostic: bool,
    /// Run Test A on Likert judges with their codes read as numbers (the paper's HANNA
    /// convention, labelled as such); without it Test A is N/A on ordinal judges.
    #[arg(long)]
    pub codes_as_numbers: bool,
    /// Trust this anchor as clean (an untestable assumption): the reading reads the
    /// designated-clean estimate (on latent scales when a column is Likert, ≥ 3 anchors) when
    /// it is readable, or says why not.
    #[arg(long, value_name = "ANCHOR")]
    pub designated_clean: Option<String>,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub panel: PanelArgs,
    /// Injected ρ of the synthetic anchors (3 to 8 values, each |ρ| < 1, not all equal).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RHO_LIST",
        default_value = "0,0.4,0.7",
        allow_hyphen_values = true,
        value_parser = rho()
    )]
    pub inject: Vec<f64>,
    /// Panel sizes besides the panel's own N (comma-separated).
    #[arg(long = "n", value_delimiter = ',', value_name = "LIST",
          value_parser = whole::<u64>(10, 10_000_000))]
    pub n: Vec<u64>,
    /// Replicates per N.
    #[arg(long, value_name = "R", default_value_t = 24,
          value_parser = whole::<u32>(1, 1_000_000))]
    pub reps: u32,
    /// Seed of every stream.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed())]
    pub seed: u64,
    /// Item-bootstrap resamples per replicate for CI coverage, at least 100 (off unless
    /// given, for speed).
    #[arg(long, value_name = "B", value_parser = resamples(100_000))]
    pub bootstrap: Option<u32>,
    /// Null draws per test in each replicate's battery, 20 or more (0: battery off).
    #[arg(long, value_name = "D", default_value_t = 40,
          value_parser = whole::<u32>(20, 100_000).or_off())]
    pub null_draws: u32,
    /// Cut ordinal judges at balanced (equal-proportion) thresholds instead of their own
    /// (the paper's ablation).
    #[arg(long)]
    pub balanced: bool,
    /// Print JSON (schema in docs/json.md) instead of text.
    #[arg(long)]
    pub json: bool,
}
