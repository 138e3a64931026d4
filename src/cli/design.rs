//! Arguments of the commands that work on a simulated design: `simulate`, `power`, `plan`
//! and `reproduce`.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::values::{positive_strength, resamples, seed, whole};
use crate::power::PowerDesign;

/// `plan --help`'s epilogue; the test names come from the registry.
pub(super) fn plan_help() -> String {
    let tests: Vec<&str> = PowerDesign::all()
        .into_iter()
        .filter(|d| matches!(d, PowerDesign::Test(_)))
        .map(PowerDesign::name)
        .collect();
    format!(
        "\
Targets:
  ci-width=W        every ρ_k's mean 95% bootstrap interval no wider than W
  power=TEST:P@S    power ≥ P for TEST ({}) against its own
                    violation design (as `rhoscope power --design TEST`) at strength S

The search doubles N from a first guess until the target is met, then bisects to within 5 %.
Every N uses the same replicate streams; each value is printed with its Monte-Carlo SE.

Worked example:
  rhoscope plan --preset three-anchor --target ci-width=0.2
  rhoscope plan --preset mid --target power=test-a:0.8@0.4 --json

Exit codes: 0 ok, 2 bad arguments.",
        tests.join(", ")
    )
}

/// `power --help`'s epilogue: one line per design, from the registry.
pub(super) fn power_help() -> String {
    let mut s = String::from("Designs (the paper's violations; strength s):\n");
    for d in PowerDesign::all() {
        let what = match d {
            PowerDesign::Test(t) => {
                format!("{} (Test {}'s target)", t.spec().violation.short, t.name())
            }
            PowerDesign::SharedResidual => {
                "a residual of strength s shared by every judge, three anchors (Test B, weakly)"
                    .into()
            }
        };
        let _ = writeln!(s, "  {:<16} {what}", d.name());
    }
    s.push_str(
        "
Strength 0 (the false-positive rate) is always included. Each rate has Monte-Carlo standard
error √(r(1 − r)/reps). --coverage B adds bootstrap CI coverage and mean width per anchor.

Worked example (the paper's operating-characteristics table, Test A):
  rhoscope power --design test-a --strength 0.4,0.6 --n 500,2000,10000 --reps 500",
    );
    s
}

/// `reproduce --help`'s text: the tables named from the one list the command runs.
pub(super) fn reproduce_help() -> String {
    let names: Vec<&str> = crate::reproduce::TABLES.iter().map(|(n, _)| *n).collect();
    format!("Tables: {}.\n{REPRODUCE_HELP}", names.join(", "))
}

const REPRODUCE_HELP: &str = "\
Each cell shows the paper's number, ours, our Monte-Carlo standard error
and a verdict: within when |ours − paper| ≤ 3 SE (ours combined with the paper's own where it
can be derived) plus half a unit of the paper's last printed digit; unpublished when the paper
makes its claim without a number (shown, not counted).

Worked example:
  rhoscope reproduce --quick --table asymmetry
  rhoscope reproduce --out results/      # writes results/report.md and results/results.json";

pub(super) const SIMULATE_SHORT: &str = "\
Worked example:
  rhoscope simulate --preset boundary --set rho=0.99,0.5 --n 2000 --seed 11 -o near.csv
  rhoscope estimate near.csv
Run with --help for the presets and every --set key.";

pub(super) fn simulate_help() -> String {
    let mut s = String::from("Presets:\n");
    for (name, what) in crate::scenario::PRESETS {
        let _ = writeln!(s, "  {name:<16} {what}");
    }
    s.push_str("\n--set keys (lists are comma-separated; one value broadcasts):\n");
    for (key, what) in crate::scenario::KEYS {
        let _ = writeln!(s, "  {key:<16} {what}");
    }
    s.push_str(
        "\nThe CSV has header J1..Jp,A1..Am. When the design has families, they are written to
FILE.families.csv beside it (judge,family), which `rhoscope estimate FILE` picks up by itself.\n\n",
    );
    s.push_str(SIMULATE_SHORT);
    s
}

#[derive(Debug, Args)]
pub struct ReproduceArgs {
    /// Fewer replicates (said in the report).
    #[arg(long)]
    pub quick: bool,
    /// Only this table (repeatable).
    #[arg(long = "table", value_name = "NAME")]
    pub tables: Vec<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write report.md and results.json into this folder (existing ones only with --force);
    /// a folder, so not `-`: the tables are on standard output already (--json for the document).
    /// A new folder is made (one level, in a folder that exists) only when both files are written.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace an existing report.md or results.json in --out DIR.
    #[arg(long)]
    pub force: bool,
}

/// A violation design of `rhoscope power`, by name: one per registered test
/// (`test-a`, …) and `shared-residual`.
fn design(name: &str) -> Result<PowerDesign, String> {
    PowerDesign::named(name).ok_or_else(|| {
        let names: Vec<&str> = PowerDesign::all()
            .into_iter()
            .map(PowerDesign::name)
            .collect();
        format!("choose one of: {}", names.join(", "))
    })
}

#[derive(Debug, Args)]
pub struct PowerArgs {
    /// Which violation to inject: one per registered test (test-a, …) or shared-residual.
    #[arg(long, value_parser = design)]
    pub design: PowerDesign,
    /// Violation strengths (comma-separated; each above 0, up to 1000000, each once); the
    /// false-positive rate, strength 0, is always reported.
    #[arg(long, value_delimiter = ',', value_name = "LIST", required = true,
          allow_hyphen_values = true, value_parser = positive_strength())]
    pub strength: Vec<f64>,
    /// Panel sizes N (comma-separated, each once).
    #[arg(long = "n", value_delimiter = ',', value_name = "LIST", required = true,
          value_parser = whole::<u64>(3, 10_000_000))]
    pub n: Vec<u64>,
    /// Replicates per (N, strength) cell.
    #[arg(long, value_name = "R", default_value_t = 200,
          value_parser = whole::<u32>(1, 1_000_000))]
    pub reps: u32,
    /// Null draws per N for the thresholds.
    #[arg(long, value_name = "D", default_value_t = 1000,
          value_parser = whole::<u32>(20, 10_000_000))]
    pub null_draws: u32,
    /// Bootstrap resamples per replicate for CI coverage and width (off by default).
    #[arg(long, value_name = "B", value_parser = resamples(100_000))]
    pub coverage: Option<u32>,
    /// Seed of every stream.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed())]
    pub seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Observe every judge on L ordinal levels (Likert), equal-probability cuts unless
    /// --skewed; the table then lists every test that runs.
    #[arg(long, value_name = "L", value_parser = whole::<u32>(2, 10))]
    pub ordinal: Option<u32>,
    /// With --ordinal: each judge its own skewed marginals, one category under 2 %.
    #[arg(long, requires = "ordinal")]
    pub skewed: bool,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Scenario to plan for.
    #[arg(long, default_value = "mid", value_parser = preset_names())]
    pub preset: String,
    /// Override one parameter: KEY=VALUE (repeatable; the keys of `simulate`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// ci-width=W or power=TEST:P@S.
    #[arg(long, value_name = "TARGET", required = true)]
    pub target: String,
    /// Replicates per evaluated N.
    #[arg(long, value_name = "R", default_value_t = 100,
          value_parser = whole::<u32>(2, 100_000))]
    pub reps: u32,
    /// Null draws per evaluated N (power targets).
    #[arg(long, value_name = "D", default_value_t = 500,
          value_parser = whole::<u32>(20, 1_000_000))]
    pub null_draws: u32,
    /// Bootstrap resamples per replicate (ci-width targets).
    #[arg(long, value_name = "B", default_value_t = 100,
          value_parser = resamples(10_000))]
    pub bootstrap: u32,
    /// The largest N to try.
    #[arg(long, value_name = "N", default_value_t = 200_000,
          value_parser = whole::<u64>(10, 10_000_000))]
    pub max_n: u64,
    /// Seed of every stream.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed())]
    pub seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Design to start from.
    #[arg(long, default_value = "mid", value_parser = preset_names())]
    pub preset: String,
    /// Override one parameter: KEY=VALUE (repeatable; see --help for keys).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Number of items.
    #[arg(long, value_name = "N", value_parser = whole::<u64>(3, 100_000_000))]
    pub n: u64,
    /// Seed of the random stream (ChaCha8, replicate 0).
    #[arg(long, value_name = "S", value_parser = seed())]
    pub seed: u64,
    /// Output file (default: standard output; also - or a FIFO). Written atomically (a
    /// temporary file in the same folder, then moved into place).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace an existing FILE, and replace (or, for a design without families, delete) an
    /// existing FILE.families.csv sidecar; without it neither is ever touched.
    #[arg(long)]
    pub force: bool,
}

pub(super) fn preset_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(crate::scenario::PRESETS.iter().map(|(n, _)| *n))
}
