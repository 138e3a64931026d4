//! The command line (clap derive): global flags, the subcommands, and `estimate`'s
//! arguments; the other subcommands' argument structs live in `cli/` by concept.

mod applicable;
mod design;
mod diagnose;
mod explore;
mod export;
mod panel;
mod plot;
pub(crate) mod values;

use clap::{Args, Parser, Subcommand};

use crate::estimate::Estimator;
use values::{seed, whole};

pub use design::{PlanArgs, PowerArgs, ReproduceArgs, SimulateArgs};
use design::{SIMULATE_SHORT, plan_help, power_help, reproduce_help, simulate_help};
use diagnose::{BATTERY_HELP, IDENTIFY_HELP, VALIDATE_HELP};
pub use diagnose::{BATTERY_NULL_DRAWS, BatteryArgs, IdentifyArgs, ValidateArgs};
use explore::{DEMO_HELP, EXPLORE_HELP};
pub use explore::{DemoArgs, ExploreArgs};
use export::EXPORT_HELP;
pub use export::{ExportArgs, Syntax};
pub use panel::{Flags, PanelArgs, PanelOptions};
use plot::PLOT_HELP;
pub use plot::PlotArgs;

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
          after_help = EXAMPLES, allow_negative_numbers = true)]
pub struct Cli {
    /// Worker threads for parallel work (default: all cores, or RAYON_NUM_THREADS; either
    /// must be a whole number from 1 to 4 × the cores, never above 256, or rhoscope exits 2;
    /// an empty RAYON_NUM_THREADS is unset; give --threads once, before or after the
    /// subcommand). Results are identical at any thread count.
    #[arg(long, global = true, value_name = "N", value_parser = values::threads())]
    pub threads: Option<u16>,
    /// Do not capture the mouse (for presenters): the explorer's flag, taken by the bare
    /// `rhoscope` as by `rhoscope explore` and `rhoscope demo`.
    #[arg(long)]
    pub no_mouse: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Refuses a global flag given more than once (before and after the subcommand, say), which
/// clap would settle silently for one of the values.
///
/// # Errors
/// The one-line refusal, naming the flag and its values.
pub fn once_each_global(args: &[std::ffi::OsString]) -> Result<(), String> {
    let mut given: Vec<String> = Vec::new();
    let mut rest = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = rest.next() {
        if a == "--" {
            break;
        }
        if a == "--threads" {
            given.push(
                rest.next()
                    .map(std::borrow::Cow::into_owned)
                    .unwrap_or_default(),
            );
        } else if let Some(v) = a.strip_prefix("--threads=") {
            given.push(v.to_string());
        }
    }
    if given.len() < 2 {
        return Ok(());
    }
    Err(crate::error::sanitize(&format!(
        "--threads is given {} times ({}): give it once, before or after the subcommand",
        given.len(),
        given.join(", then ")
    )))
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
    #[command(after_help = power_help(), allow_negative_numbers = true)]
    Power(PowerArgs),
    /// Would this work on a panel like mine? Recovery of injected ρ on synthetic panels built on its judges' own textures
    #[command(after_help = VALIDATE_HELP, allow_negative_numbers = true)]
    Validate(ValidateArgs),
    /// Regenerate the paper's simulation tables, each cell beside the published number
    #[command(after_help = reproduce_help(), allow_negative_numbers = true)]
    Reproduce(ReproduceArgs),
    /// Write the model as an R lavaan or Python semopy script that refits the panel
    #[command(after_help = EXPORT_HELP, allow_negative_numbers = true)]
    Export(ExportArgs),
    /// How many items do I need? The smallest N reaching a CI width or a test's power
    #[command(after_help = plan_help(), allow_negative_numbers = true)]
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

#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub panel: PanelArgs,
    /// Also report the family-blocked estimate (K from cross-family judge pairs; needs ≥ 2 families).
    #[arg(long)]
    pub blocked: bool,
    /// Also report the comparison estimate that trusts this anchor as clean (CT-C(M−1)-style);
    /// on ordinal (Likert) columns, the latent fit of docs/method.md §7b with bootstrap
    /// intervals (≥ 3 anchors).
    #[arg(long, value_name = "ANCHOR")]
    pub designated_clean: Option<String>,
    /// Estimator: the closed form, full-information maximum likelihood, both, the free-scale
    /// estimator (judges on their own scales; needs ≥ 3 judges and ≥ 3 continuous anchors),
    /// or all that can run (one named on its own that cannot run exits 65; with `all` it is a
    /// note).
    #[arg(long, value_enum, default_value = "closed")]
    pub method: Method,
    /// Correct the free-scale ρ̂ for its finite-sample bias by a parametric bootstrap (refit on
    /// panels simulated from the fit; Section 7). Needs --method free-scale or all.
    #[arg(long)]
    pub bias_correct: bool,
    /// Refits for --bias-correct.
    #[arg(long, value_name = "R", default_value_t = 200,
          value_parser = whole::<u32>(10, 100_000))]
    pub bias_reps: u32,
    /// Seed of the --bias-correct simulations and the latent --designated-clean bootstrap.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed())]
    pub seed: u64,
    /// Print JSON (schema in docs/json.md) instead of text.
    #[arg(long)]
    pub json: bool,
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
                "Every estimator that can run on the panel (closed form, maximum likelihood, \
                 free-scale); one that cannot is a note, not an error",
            ),
        };
        Some(clap::builder::PossibleValue::new(name).help(help))
    }
}

/// Parses `args` as the command line does, refusing a flag that cannot apply to the command
/// as given (`--bias-reps` without `--bias-correct`, `--preset` beside a panel file).
///
/// # Errors
/// clap's error, or the one-line refusal of `applicable::check`.
pub fn try_parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory as _, FromArgMatches as _};
    let mut cmd = Cli::command();
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let m = cmd
        .try_get_matches_from_mut(args.clone())
        .map_err(|e| match e.kind() {
            clap::error::ErrorKind::InvalidUtf8 => values::not_utf8(&args, &mut cmd).unwrap_or(e),
            _ => e,
        })?;
    applicable::check(&m, &cmd)?;
    Cli::from_arg_matches(&m).map_err(|e| e.with_cmd(&cmd))
}
