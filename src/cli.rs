//! The command line (clap derive): global flags and one struct per subcommand.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::estimate::Estimator;
use crate::power::PowerDesign;

const ABOUT: &str = "Estimate how contaminated your evaluation anchors are (ρ_k), and whether to trust the estimate";

const LONG_ABOUT: &str = "\
rhoscope estimates each anchor's contamination ρ_k — the correlation between an anchor's errors
and the common-mode error an LLM-judge panel shares — in closed form under a single-common-factor
model (Theorem 1), and reports every out-of-range value as a flag rather than clipping it.";

const EXAMPLES: &str = "\
With no command, rhoscope opens the explorer on the paper's base design (N = 500).

Examples:
  rhoscope                                   # the explorer
  rhoscope demo                              # talk mode
  rhoscope simulate --preset mid --n 500 --seed 1 -o panel.csv
  rhoscope estimate panel.csv
  rhoscope estimate ratings.csv --judges 2,3,4 --anchors 5,6 --json";

/// rhoscope: anchor-contamination estimation for LLM-judge panels.
#[derive(Debug, Parser)]
#[command(name = "rhoscope", version, about = ABOUT, long_about = LONG_ABOUT,
          after_help = EXAMPLES)]
pub struct Cli {
    /// Worker threads for parallel work (default: all cores, or RAYON_NUM_THREADS; at most
    /// 4 × the cores and never above 256). Results are identical at any thread count.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the explorer (interactive terminal UI), on a panel file or the default scenario
    #[command(after_help = EXPLORE_HELP, allow_negative_numbers = true)]
    Explore(ExploreArgs),
    /// Talk mode: the explorer stepping through scenes that demo each failure mode
    #[command(after_help = DEMO_HELP, allow_negative_numbers = true)]
    Demo(DemoArgs),
    /// Estimate every anchor's ρ from a panel file (Theorem 1)
    #[command(after_help = ESTIMATE_HELP, allow_negative_numbers = true)]
    Estimate(EstimateArgs),
    /// Run the diagnostic battery: CIs, weak-ID screen, Tests A/B/C and J/O against calibrated nulls
    #[command(after_help = BATTERY_HELP, allow_negative_numbers = true)]
    Battery(BatteryArgs),
    /// Show Section 7's identification hierarchy: ρ is not identified when every column is ordinal
    #[command(after_help = IDENTIFY_HELP, allow_negative_numbers = true)]
    Identify(IdentifyArgs),
    /// Operating characteristics: each test's false-positive rate and power by simulation
    #[command(after_help = POWER_HELP, allow_negative_numbers = true)]
    Power(PowerArgs),
    /// Would this work on a panel like mine? Recovery of injected ρ on synthetic panels built on its judges' own textures
    #[command(after_help = VALIDATE_HELP, allow_negative_numbers = true)]
    Validate(ValidateArgs),
    /// Regenerate the paper's simulation tables, each cell beside the published number
    #[command(after_help = REPRODUCE_HELP, allow_negative_numbers = true)]
    Reproduce(ReproduceArgs),
    /// Write the model as an R lavaan or Python semopy script that refits the panel
    #[command(after_help = EXPORT_HELP, allow_negative_numbers = true)]
    Export(ExportArgs),
    /// How many items do I need? The smallest N reaching a CI width or a test's power
    #[command(after_help = PLAN_HELP, allow_negative_numbers = true)]
    Plan(PlanArgs),
    /// Write a figure for slides or a paper (SVG): ρ̂ with CIs, bootstrap, battery, power, boundary
    #[command(after_help = PLOT_HELP, allow_negative_numbers = true)]
    Plot(PlotArgs),
    /// Write a simulated panel CSV from one of the paper's designs, with any violation switched on
    #[command(after_long_help = simulate_help(), after_help = SIMULATE_SHORT,
              allow_negative_numbers = true)]
    Simulate(SimulateArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    #[command(
        after_help = "Example:\n  rhoscope completions bash > ~/.local/share/bash-completion/completions/rhoscope"
    )]
    Completions {
        /// The shell to generate for.
        shell: clap_complete::Shell,
    },
}

const ESTIMATE_HELP: &str = "\
Columns named J1, J2, … or judge… are judges and A1, A2, … or anchor… are anchors unless
--judges / --anchors say otherwise (names or 1-based indices). Items with a missing value in
any selected column are dropped (complete-case) and counted.

One common scale (Assumption 1): the closed form, ML, blocked and designated-clean estimators
read judges and anchors on ONE scale. Ordinal (Likert) judges and judges coded on another
range than the anchors (1–10 against 1–5) break it, and their ρ̂ are flagged or undefined;
the free-scale estimator frees every judge's scale (≥ 3 judges, ≥ 3 continuous anchors).
The free-scale fit also reports its identified set: where the anchors look equally
contaminated (every one clean, say) only a range of ρ is identified, and no ρ̂ is printed.

Worked example:
  rhoscope simulate --preset families --n 2000 --seed 7 -o fam.csv   # also writes fam.families.csv
  rhoscope estimate fam.csv --blocked --designated-clean A1
  rhoscope estimate ratings.csv --long 'Story ID,Worker ID,Coherence' \\
      --judges W1,W2,W3 --anchors W4,W5

Exit codes: 0 ok, 2 bad arguments, 3 ρ not identified on this panel (every column ordinal,
or ordinal judges with < 3 continuous anchors), 65 bad data, 66 missing or unreadable file.";

const EXPLORE_HELP: &str = "\
Keys: ? shows them all. q quits, Tab/1–5 move focus, h/l/H/L move the selected slider,
[ ] select a slider, n/p step through the walkthrough (with a file) or the talk scenes.

Worked example:
  rhoscope explore                          # the base design, N = 500
  rhoscope explore assets/families.csv      # a panel file, then n to walk through it";

const DEMO_HELP: &str = "\
Scenes: clean recovery; the boundary; a uniform second factor; an asymmetric one;
non-uniform judge loadings; a shared judge residual; family blocking; a designated clean
anchor that is not clean; the real HANNA panel (with --hanna PATH or ../shared/data/hanna).
n / p step, f freezes the screen, q quits. Every scene shows the same numbers every time.

Worked example:
  rhoscope demo --no-mouse --hanna ../shared/data/hanna";

const BATTERY_HELP: &str = "\
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

const VALIDATE_HELP: &str = "\
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

const IDENTIFY_HELP: &str = "\
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

const EXPORT_HELP: &str = "\
The script reads the panel file itself (the path as given here), keeps the judge and anchor
columns as loaded, drops incomplete items, fits Assumption 1's model by maximum likelihood
(N − 1 likelihood) and prints β_k, σ_ak² and ρ_k (named rho_<anchor>). Judge families (from
--families or the FILE.families.csv sidecar) become free residual covariances within a family.

Worked example:
  rhoscope export assets/three-anchor.csv --syntax lavaan -o refit.R
  Rscript refit.R
  rhoscope estimate assets/three-anchor.csv --method ml     # the same ρ

Exit codes: 0 ok, 2 bad arguments (or an existing -o FILE without --force), 3 ρ not
identified on this panel, 65 bad data, 66 missing or unreadable file, 74 the script could not
be written.";

const PLAN_HELP: &str = "\
Targets:
  ci-width=W        every ρ_k's mean 95% bootstrap interval no wider than W
  power=TEST:P@S    power ≥ P for TEST (test-a, test-b, test-c, test-j, test-o) against its own
                    violation design (as `rhoscope power --design TEST`) at strength S

The search doubles N from a first guess until the target is met, then bisects to within 5 %.
Every N uses the same replicate streams; each value is printed with its Monte-Carlo SE.

Worked example:
  rhoscope plan --preset three-anchor --target ci-width=0.2
  rhoscope plan --preset mid --target power=test-a:0.8@0.4 --json

Exit codes: 0 ok, 2 bad arguments.";

const POWER_HELP: &str = "\
Designs (the paper's violations; strength s):
  test-a           half the judges load s on a second factor (Test A's target)
  test-b           a second factor on three anchors with loadings (s, s/2, 0) (Test B's target)
  test-c           three families of two judges with family residual SD s (Test C's target)
  shared-residual  a residual of strength s shared by every judge, three anchors (Test B, weakly)

Strength 0 (the false-positive rate) is always included. Each rate has Monte-Carlo standard
error √(r(1 − r)/reps). --coverage B adds bootstrap CI coverage and mean width per anchor.

Worked example (the paper's operating-characteristics table, Test A):
  rhoscope power --design test-a --strength 0.4,0.6 --n 500,2000,10000 --reps 500";

const REPRODUCE_HELP: &str = "\
Tables: recovery, finite-sample, boundary, asymmetry, opchar, family, ctc, coverage,
robustness, ml, ordinal. Each cell shows the paper's number, ours, our Monte-Carlo standard error
and a verdict: within when |ours − paper| ≤ 3 SE (ours combined with the paper's own where it
can be derived) plus half a unit of the paper's last printed digit; unpublished when the paper
makes its claim without a number (shown, not counted).

Worked example:
  rhoscope reproduce --quick --table asymmetry
  rhoscope reproduce --out results/      # writes results/report.md and results/results.json";

const SIMULATE_SHORT: &str = "\
Worked example:
  rhoscope simulate --preset boundary --set rho=0.99,0.5 --n 2000 --seed 11 -o near.csv
  rhoscope estimate near.csv
Run with --help for the presets and every --set key.";

fn simulate_help() -> String {
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

/// `battery`'s null draws per test, which `plot` uses too, so a figure and the report agree.
pub const BATTERY_NULL_DRAWS: u32 = 1000;

/// How to read a panel: the file and its options.
#[derive(Debug, Args, Clone)]
pub struct PanelArgs {
    /// Panel file: CSV, TSV or semicolon-separated (sniffed), wide or long (--long).
    pub panel: PathBuf,
    #[command(flatten)]
    pub opts: PanelOptions,
}

#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// Panel file to open (default: the simulated base design).
    pub panel: Option<PathBuf>,
    #[command(flatten)]
    pub opts: PanelOptions,
    /// Do not capture the mouse (for presenters).
    #[arg(long)]
    pub no_mouse: bool,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The HANNA coherence panel (file, or the folder holding hanna_coherence_panel.csv).
    #[arg(long, value_name = "PATH")]
    pub hanna: Option<PathBuf>,
    /// Do not capture the mouse (for presenters).
    #[arg(long)]
    pub no_mouse: bool,
    /// Start at scene N (1-based), e.g. to restart a talk where it stopped.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub scene: u16,
}

/// The options shared by every command that reads a panel.
#[derive(Debug, Args, Clone, Default)]
pub struct PanelOptions {
    /// Judge columns (or rater ids with --long): comma-separated names or 1-based indices.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub judges: Option<Vec<String>>,
    /// Anchor columns (or rater ids with --long): comma-separated names or 1-based indices.
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

#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub panel: PanelArgs,
    /// Also report the family-blocked estimate (K from cross-family judge pairs; needs ≥ 2 families).
    #[arg(long)]
    pub blocked: bool,
    /// Also report the comparison estimate that trusts this anchor as clean (CT-C(M−1)-style).
    #[arg(long, value_name = "ANCHOR")]
    pub designated_clean: Option<String>,
    /// Estimator: the closed form, full-information maximum likelihood, both, the free-scale
    /// estimator (judges on their own scales; needs ≥ 3 judges and ≥ 3 continuous anchors),
    /// or all of them.
    #[arg(long, value_enum, default_value = "closed")]
    pub method: Method,
    /// Correct the free-scale ρ̂ for its finite-sample bias by a parametric bootstrap (refit on
    /// panels simulated from the fit; Section 7). Needs --method free-scale or all.
    #[arg(long)]
    pub bias_correct: bool,
    /// Refits for --bias-correct.
    #[arg(long, value_name = "R", default_value_t = 200,
          value_parser = clap::value_parser!(u32).range(10..=100_000))]
    pub bias_reps: u32,
    /// Seed of the --bias-correct simulations.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Print JSON (schema in the README) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct IdentifyArgs {
    /// Panel file whose own point to use (default: the paper's base design).
    pub panel: Option<PathBuf>,
    #[command(flatten)]
    pub opts: PanelOptions,
    /// Print JSON (schema in the README) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BatteryArgs {
    #[command(flatten)]
    pub panel: PanelArgs,
    /// Bootstrap resamples B for the CIs and the weak-ID screen.
    #[arg(long, value_name = "B", default_value_t = 300,
          value_parser = resamples::<1_000_000>)]
    pub bootstrap: u32,
    /// Null draws per test for thresholds and p-values.
    #[arg(long, value_name = "D", default_value_t = BATTERY_NULL_DRAWS,
          value_parser = clap::value_parser!(u32).range(20..=10_000_000))]
    pub null_draws: u32,
    /// Seed of the bootstrap and null streams.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Print JSON (schema in the README) instead of text.
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
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub panel: PanelArgs,
    /// Injected ρ of the synthetic anchors (3 to 8 values, each |ρ| < 1).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RHO_LIST",
        default_value = "0,0.4,0.7",
        allow_negative_numbers = true
    )]
    pub inject: Vec<f64>,
    /// Panel sizes besides the panel's own N (comma-separated).
    #[arg(long = "n", value_delimiter = ',', value_name = "LIST",
          value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    pub n: Vec<u64>,
    /// Replicates per N.
    #[arg(long, value_name = "R", default_value_t = 24,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub reps: u32,
    /// Seed of every stream.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Item-bootstrap resamples per replicate for CI coverage (default 0: off, for speed).
    #[arg(long, value_name = "B", default_value_t = 0,
          value_parser = resamples_or_off::<100_000>)]
    pub bootstrap: u32,
    /// Null draws per test in each replicate's battery (0: battery off).
    #[arg(long, value_name = "D", default_value_t = 40,
          value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub null_draws: u32,
    /// Cut ordinal judges at balanced (equal-proportion) thresholds instead of their own
    /// (the paper's ablation).
    #[arg(long)]
    pub balanced: bool,
    /// Print JSON (schema in the README) instead of text.
    #[arg(long)]
    pub json: bool,
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
    /// Also write report.md and results.json into this folder (existing ones only with --force).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace an existing report.md or results.json in --out DIR.
    #[arg(long)]
    pub force: bool,
}

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

/// Which estimators `estimate` runs: a registered estimator's `--method` value, `both` or
/// `all`. The values and their help come from the estimator registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// One registered estimator (with the closed form in JSON).
    Only(Estimator),
    /// The closed form and maximum likelihood.
    Both,
    /// Every estimator that has a `--method` value.
    All,
}

#[allow(non_upper_case_globals)]
impl Method {
    /// Theorem 1's closed form.
    pub const Closed: Method = Method::Only(Estimator::ClosedForm);
    /// Full-information maximum likelihood (with the closed form in JSON).
    pub const Ml: Method = Method::Only(Estimator::Ml);
    /// The free-scale estimator (judges on their own scales, Section 7).
    pub const FreeScale: Method = Method::Only(Estimator::FreeScale);

    /// Whether this value asks for `e`.
    #[must_use]
    pub fn runs(self, e: Estimator) -> bool {
        match self {
            Method::Only(one) => one == e,
            Method::Both => matches!(e, Estimator::ClosedForm | Estimator::Ml),
            Method::All => e.method().is_some(),
        }
    }

    /// The estimators `estimate` fits, in report order: the closed form always (its JSON
    /// carries it), those this value asks for, and `flagged` (asked for by their own options).
    #[must_use]
    pub fn estimators(self, flagged: &[Estimator]) -> Vec<Estimator> {
        Estimator::ALL
            .into_iter()
            .filter(|&e| e == Estimator::ClosedForm || self.runs(e) || flagged.contains(&e))
            .collect()
    }
}

impl clap::ValueEnum for Method {
    fn value_variants<'a>() -> &'a [Self] {
        static VALUES: std::sync::LazyLock<Vec<Method>> = std::sync::LazyLock::new(|| {
            let mut values = Vec::new();
            for e in Estimator::ALL.into_iter().filter(|e| e.method().is_some()) {
                values.push(Method::Only(e));
                // `both` has always been listed right after `ml`.
                if e == Estimator::Ml {
                    values.push(Method::Both);
                }
            }
            values.push(Method::All);
            values
        });
        &VALUES
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let (name, help) = match self {
            Method::Only(e) => {
                let m = e.method()?;
                (m.name, m.help)
            }
            Method::Both => ("both", "The closed form and maximum likelihood"),
            Method::All => (
                "all",
                "The closed form, maximum likelihood and the free-scale estimator",
            ),
        };
        Some(clap::builder::PossibleValue::new(name).help(help))
    }
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
    /// Which violation to inject: test-a, test-b, test-c (one per test) or shared-residual.
    #[arg(long, value_parser = design)]
    pub design: PowerDesign,
    /// Violation strengths (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LIST", required = true)]
    pub strength: Vec<f64>,
    /// Panel sizes N (comma-separated).
    #[arg(long = "n", value_delimiter = ',', value_name = "LIST", required = true,
          value_parser = clap::value_parser!(u64).range(3..=10_000_000))]
    pub n: Vec<u64>,
    /// Replicates per (N, strength) cell.
    #[arg(long, value_name = "R", default_value_t = 200,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub reps: u32,
    /// Null draws per N for the thresholds.
    #[arg(long, value_name = "D", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(20..=10_000_000))]
    pub null_draws: u32,
    /// Bootstrap resamples per replicate for CI coverage and width (off by default).
    #[arg(long, value_name = "B", value_parser = resamples::<100_000>)]
    pub coverage: Option<u32>,
    /// Seed of every stream.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Observe every judge on L ordinal levels (Likert), equal-probability cuts unless
    /// --skewed; the table then lists every test that runs.
    #[arg(long, value_name = "L", value_parser = clap::value_parser!(u32).range(2..=10))]
    pub ordinal: Option<u32>,
    /// With --ordinal: each judge its own skewed marginals, one category under 2 %.
    #[arg(long, requires = "ordinal")]
    pub skewed: bool,
}

const PLOT_HELP: &str = "\
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
    #[arg(long = "n", value_name = "N", value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    pub n: Option<u64>,
    /// Panel sizes of the power figure (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LIST", default_value = "200,500,1000,2000,5000",
          value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    pub ns: Vec<u64>,
    /// Violation strength of the power figure.
    #[arg(long, value_name = "S", default_value_t = 0.4)]
    pub strength: f64,
    /// Replicates per point (power: per N and test; boundary: per ρ_1).
    #[arg(long, value_name = "R", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub reps: u32,
    /// Bootstrap resamples B (rho, bootstrap, battery).
    #[arg(long, value_name = "B", default_value_t = 300,
          value_parser = resamples::<1_000_000>)]
    pub bootstrap: u32,
    /// Null draws per test (default: as `rhoscope battery` for rho, bootstrap and battery, so
    /// a figure shows the report's numbers; 500 for power).
    #[arg(long, value_name = "D",
          value_parser = clap::value_parser!(u32).range(20..=10_000_000))]
    pub null_draws: Option<u32>,
    /// Seed of the simulation, the bootstrap and the nulls.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Output file (.svg; - for standard output). Written atomically.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
}

/// A resample count B for percentile intervals and the weak-ID screen: from
/// [`MIN_RESAMPLES`](crate::bootstrap::MIN_RESAMPLES) to `MAX`, refused below with the reason.
fn resamples<const MAX: u32>(s: &str) -> Result<u32, String> {
    let b: u32 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of resamples"))?;
    let floor = crate::bootstrap::MIN_RESAMPLES;
    if (b as usize) < floor {
        return Err(format!(
            "B = {b} < {floor} resamples: a 95 % percentile interval needs at least {floor} (2.5 in each tail) and the weak-ID screen an SD from as many"
        ));
    }
    if b > MAX {
        return Err(format!("B = {b} is above the limit of {MAX} resamples"));
    }
    Ok(b)
}

/// As [`resamples`], with 0 switching the bootstrap off.
fn resamples_or_off<const MAX: u32>(s: &str) -> Result<u32, String> {
    if s.trim() == "0" {
        Ok(0)
    } else {
        resamples::<MAX>(s)
    }
}

fn plot_kinds() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(["rho", "bootstrap", "battery", "power", "boundary"])
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
          value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub reps: u32,
    /// Null draws per evaluated N (power targets).
    #[arg(long, value_name = "D", default_value_t = 500,
          value_parser = clap::value_parser!(u32).range(20..=1_000_000))]
    pub null_draws: u32,
    /// Bootstrap resamples per replicate (ci-width targets).
    #[arg(long, value_name = "B", default_value_t = 100,
          value_parser = resamples::<10_000>)]
    pub bootstrap: u32,
    /// The largest N to try.
    #[arg(long, value_name = "N", default_value_t = 200_000,
          value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    pub max_n: u64,
    /// Seed of every stream.
    #[arg(long, value_name = "S", default_value_t = 1)]
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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(3..=100_000_000))]
    pub n: u64,
    /// Seed of the random stream (ChaCha8, replicate 0).
    #[arg(long, value_name = "S")]
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

fn preset_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(crate::scenario::PRESETS.iter().map(|(n, _)| *n))
}
