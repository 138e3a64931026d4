//! The bindings' calls, typed: one options struct per command, each number checked against
//! the command line's own range and refused naming its keyword argument (`bootstrap=`). No
//! argument list is built or parsed for a user's value: a command's defaults come from the
//! command line's declaration (a fixed skeleton with no user value in it), its ranges from
//! [`RANGES`], which a test holds equal to the flags' own.

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::applicable::Naming;
use crate::cli::{Cli, Command, Method, PanelOptions, Syntax};
use crate::data::PanelRequest;
use crate::error::Error;
use crate::power::PowerDesign;

/// `estimate`'s options beyond the panel (`None`: the command line's default).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EstimateOptions {
    pub method: Option<String>,
    pub blocked: bool,
    pub designated_clean: Option<String>,
    pub bias_correct: bool,
    pub bias_reps: Option<u64>,
    pub seed: Option<u64>,
}

/// `battery`'s options beyond the panel.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatteryOptions {
    pub bootstrap: Option<u64>,
    pub null_draws: Option<u64>,
    pub seed: Option<u64>,
    pub codes_as_numbers: bool,
    pub fail_on_diagnostic: bool,
    pub designated_clean: Option<String>,
}

/// `validate`'s options beyond the panel.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidateOptions {
    pub inject: Option<Vec<f64>>,
    pub n: Vec<u64>,
    pub reps: Option<u64>,
    pub seed: Option<u64>,
    pub bootstrap: Option<u64>,
    pub null_draws: Option<u64>,
    pub balanced: bool,
}

/// `power`'s options (it simulates; no panel).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PowerOptions {
    pub design: String,
    pub strength: Vec<f64>,
    pub n: Vec<u64>,
    pub reps: Option<u64>,
    pub null_draws: Option<u64>,
    pub coverage: Option<u64>,
    pub seed: Option<u64>,
    pub ordinal: Option<u64>,
    pub skewed: bool,
}

/// `plan`'s options; `set` are the scenario's `KEY=VALUE` overrides, one pair each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanOptions {
    pub target: String,
    pub preset: Option<String>,
    pub set: Vec<(String, String)>,
    pub reps: Option<u64>,
    pub null_draws: Option<u64>,
    pub bootstrap: Option<u64>,
    pub max_n: Option<u64>,
    pub seed: Option<u64>,
}

/// `simulate`'s options; the panel is written to `output`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimulateOptions {
    pub preset: Option<String>,
    pub set: Vec<(String, String)>,
    pub n: u64,
    pub seed: u64,
    pub output: PathBuf,
}

/// `export`'s options; the script is written to `output`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportOptions {
    pub syntax: Option<String>,
    pub output: PathBuf,
    pub force: bool,
}

/// `plot`'s options; the figure is written to `output`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlotOptions {
    pub kind: String,
    pub preset: Option<String>,
    pub set: Vec<(String, String)>,
    pub n: Option<u64>,
    pub ns: Option<Vec<u64>>,
    pub strength: Option<f64>,
    pub reps: Option<u64>,
    pub bootstrap: Option<u64>,
    pub null_draws: Option<u64>,
    pub seed: Option<u64>,
    pub output: PathBuf,
}

/// A panel: its path (an in-memory panel's registered path too) and how to read it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Panel {
    pub path: PathBuf,
    pub request: PanelRequest,
}

/// One command of the bindings, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Estimate(Panel, EstimateOptions),
    Battery(Panel, BatteryOptions),
    /// On a panel, or at the paper's design.
    Identify(Option<Panel>),
    Validate(Panel, ValidateOptions),
    Power(PowerOptions),
    Plan(PlanOptions),
    Simulate(SimulateOptions),
    Export(Panel, ExportOptions),
    /// On a panel, or on a scenario.
    Plot(Option<Panel>, PlotOptions),
}

/// The range of a whole-number option: `(command, keyword, lowest, highest, 0 allowed)`.
type Range = (&'static str, &'static str, u64, u64, bool);

/// The command line's ranges of every whole-number option the bindings take, but `threads`
/// (its ceiling is this machine's, as on the command line). A test parses each edge with the
/// command line.
pub const RANGES: &[Range] = &[
    ("estimate", "bias_reps", 10, 100_000, false),
    ("battery", "bootstrap", MIN_B, 1_000_000, false),
    ("battery", "null_draws", 20, 10_000_000, false),
    ("validate", "n", 10, 10_000_000, false),
    ("validate", "reps", 1, 1_000_000, false),
    ("validate", "bootstrap", MIN_B, 100_000, false),
    ("validate", "null_draws", 20, 100_000, true),
    ("power", "n", 3, 10_000_000, false),
    ("power", "reps", 1, 1_000_000, false),
    ("power", "null_draws", 20, 10_000_000, false),
    ("power", "coverage", MIN_B, 100_000, false),
    ("power", "ordinal", 2, 10, false),
    ("plan", "reps", 2, 100_000, false),
    ("plan", "null_draws", 20, 1_000_000, false),
    ("plan", "bootstrap", MIN_B, 10_000, false),
    ("plan", "max_n", 10, 10_000_000, false),
    ("simulate", "n", 3, 100_000_000, false),
    ("plot", "n", 10, 10_000_000, false),
    ("plot", "ns", 10, 10_000_000, false),
    ("plot", "reps", 2, 1_000_000, false),
    ("plot", "bootstrap", MIN_B, 1_000_000, false),
    ("plot", "null_draws", 20, 10_000_000, false),
];

const MIN_B: u64 = crate::bootstrap::MIN_RESAMPLES as u64;

/// `value` of `command`'s `key`, checked against its range, as `T`.
fn ranged<T: TryFrom<u64>>(command: &str, key: &str, value: u64) -> Result<T, Error> {
    let Some(&(_, _, lo, hi, zero)) = RANGES.iter().find(|r| r.0 == command && r.1 == key) else {
        return Err(Error::Usage(
            format!("{key}= is no option of {command}").into(),
        ));
    };
    let off = if zero { " (or 0: off)" } else { "" };
    let refused = || {
        Error::Usage(
            format!("{key}= takes a whole number from {lo} to {hi}{off}, not {value}").into(),
        )
    };
    if !((lo..=hi).contains(&value) || (zero && value == 0)) {
        return Err(refused());
    }
    T::try_from(value).map_err(|_| refused())
}

/// `Some(value)` checked, or the skeleton's default.
fn or<T: TryFrom<u64>>(
    command: &str,
    key: &str,
    value: Option<u64>,
    default: T,
) -> Result<T, Error> {
    value.map_or(Ok(default), |v| ranged(command, key, v))
}

/// A decimal option held to its command-line flag's range, worded as the flag is.
fn decimal_option(key: &str, range: crate::cli::values::Decimal, v: f64) -> Result<f64, Error> {
    range
        .admit(v)
        .map_err(|m| Error::Usage(format!("{key}= {m}").into()))
}

/// Every value of a list option, each checked.
fn each(command: &str, key: &str, values: &[u64]) -> Result<Vec<u64>, Error> {
    values.iter().map(|&v| ranged(command, key, v)).collect()
}

/// The command line's defaults for `command`: a fixed argument list with placeholders for
/// its required values (each replaced by the caller's), never a user's value.
fn skeleton(words: &[&str]) -> Result<Command, Error> {
    let argv = std::iter::once("rhoscope").chain(words.iter().copied());
    Cli::try_parse_from(argv)
        .ok()
        .and_then(|c| c.command)
        .ok_or_else(|| Error::Usage(format!("no defaults for {}", words.join(" ")).into()))
}

/// One of `choices` (as the command line spells them), or the error naming `key`.
fn choice(key: &str, value: &str, choices: &[&str]) -> Result<String, Error> {
    if choices.contains(&value) {
        return Ok(value.to_string());
    }
    Err(Error::Usage(
        format!("{key}= takes one of {}, not {value:?}", choices.join(", ")).into(),
    ))
}

fn presets() -> Vec<&'static str> {
    crate::scenario::PRESETS.iter().map(|p| p.0).collect()
}

/// `KEY=VALUE` overrides in the scenario's own syntax (its lists are numbers, comma-joined);
/// a key that is no scenario parameter is a keyword argument the function does not take.
fn overrides(set: &[(String, String)]) -> Result<Vec<String>, Error> {
    let keys: Vec<&str> = crate::scenario::KEYS.iter().map(|k| k.0).collect();
    set.iter()
        .map(|(k, v)| {
            if keys.contains(&k.as_str()) {
                Ok(format!("{k}={v}"))
            } else {
                Err(Error::Usage(
                    format!(
                        "{k}= is neither an option nor a scenario parameter ({})",
                        keys.join(", ")
                    )
                    .into(),
                ))
            }
        })
        .collect()
}

/// The panel options a typed request stands for.
fn options(request: &PanelRequest) -> PanelOptions {
    PanelOptions {
        given: Some(request.clone()),
        ..PanelOptions::default()
    }
}

impl Call {
    /// The command this call runs, every value checked.
    ///
    /// # Errors
    /// [`Error::Usage`] naming the keyword argument of a value out of range or not a choice.
    pub fn command(&self) -> Result<Command, Error> {
        if let Some(refusal) = self.inapplicable() {
            return Err(Error::Usage(refusal.worded(Naming::Keywords).into()));
        }
        let mut command = self.defaults()?;
        match (self, &mut command) {
            (Call::Estimate(p, o), Command::Estimate(a)) => {
                a.panel.panel.clone_from(&p.path);
                a.panel.opts = options(&p.request);
                if let Some(m) = &o.method {
                    a.method = method(m)?;
                }
                a.blocked = o.blocked;
                a.designated_clean.clone_from(&o.designated_clean);
                a.bias_correct = o.bias_correct;
                a.bias_reps = or("estimate", "bias_reps", o.bias_reps, a.bias_reps)?;
                a.seed = o.seed.unwrap_or(a.seed);
            }
            (Call::Battery(p, o), Command::Battery(a)) => {
                a.panel.panel.clone_from(&p.path);
                a.panel.opts = options(&p.request);
                a.bootstrap = or("battery", "bootstrap", o.bootstrap, a.bootstrap)?;
                a.null_draws = or("battery", "null_draws", o.null_draws, a.null_draws)?;
                a.seed = o.seed.unwrap_or(a.seed);
                a.codes_as_numbers = o.codes_as_numbers;
                a.fail_on_diagnostic = o.fail_on_diagnostic;
                a.designated_clean.clone_from(&o.designated_clean);
            }
            (Call::Identify(p), Command::Identify(a)) => {
                if let Some(p) = p {
                    a.panel = Some(p.path.clone());
                    a.opts = options(&p.request);
                }
            }
            (Call::Validate(p, o), Command::Validate(a)) => {
                a.panel.panel.clone_from(&p.path);
                a.panel.opts = options(&p.request);
                validate(o, a)?;
            }
            (Call::Power(o), Command::Power(a)) => power(o, a)?,
            (Call::Plan(o), Command::Plan(a)) => plan(o, a)?,
            (Call::Simulate(o), Command::Simulate(a)) => {
                if let Some(p) = &o.preset {
                    a.preset = choice("preset", p, &presets())?;
                }
                a.set = overrides(&o.set)?;
                a.n = ranged("simulate", "n", o.n)?;
                a.seed = o.seed;
                a.output = Some(o.output.clone());
            }
            (Call::Export(p, o), Command::Export(a)) => {
                a.panel.panel.clone_from(&p.path);
                a.panel.opts = options(&p.request);
                if let Some(s) = &o.syntax {
                    a.syntax = Syntax::from_str(s, true).map_err(|_| {
                        Error::Usage(format!("syntax= takes lavaan or semopy, not {s:?}").into())
                    })?;
                }
                a.output = Some(o.output.clone());
                a.force = o.force;
            }
            (Call::Plot(p, o), Command::Plot(a)) => {
                if let Some(p) = p {
                    a.panel = Some(p.path.clone());
                    a.opts = options(&p.request);
                }
                plot(o, a)?;
            }
            _ => return Err(Error::Usage("a call and its defaults disagree".into())),
        }
        Ok(command)
    }

    /// The command line's defaults for this call's command.
    fn defaults(&self) -> Result<Command, Error> {
        match self {
            Call::Estimate(..) => skeleton(&["estimate", "-"]),
            Call::Battery(..) => skeleton(&["battery", "-"]),
            Call::Identify(_) => skeleton(&["identify"]),
            Call::Validate(..) => skeleton(&["validate", "-"]),
            Call::Power(_) => skeleton(&[
                "power",
                "--design",
                "test-a",
                "--strength",
                "0.5",
                "--n",
                "3",
            ]),
            Call::Plan(_) => skeleton(&["plan", "--target", "-"]),
            Call::Simulate(_) => skeleton(&["simulate", "--n", "3", "--seed", "0"]),
            Call::Export(..) => skeleton(&["export", "-"]),
            Call::Plot(_, o) => {
                let kind = choice(
                    "kind",
                    &o.kind,
                    &["rho", "bootstrap", "battery", "power", "boundary"],
                )?;
                skeleton(&["plot", &kind, "-o", "-"])
            }
        }
    }
}

/// `method=`: a registered estimator's name, `both` or `all`.
fn method(m: &str) -> Result<Method, Error> {
    Method::from_str(m, true).map_err(|_| {
        let names: Vec<String> = Method::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        choice("method", m, &names).unwrap_err()
    })
}

fn validate(o: &ValidateOptions, a: &mut crate::cli::ValidateArgs) -> Result<(), Error> {
    if let Some(inject) = &o.inject {
        a.inject.clone_from(inject);
    }
    a.n = each("validate", "n", &o.n)?;
    a.reps = or("validate", "reps", o.reps, a.reps)?;
    a.seed = o.seed.unwrap_or(a.seed);
    a.bootstrap = o
        .bootstrap
        .map(|b| ranged("validate", "bootstrap", b))
        .transpose()?;
    a.null_draws = or("validate", "null_draws", o.null_draws, a.null_draws)?;
    a.balanced = o.balanced;
    Ok(())
}

fn power(o: &PowerOptions, a: &mut crate::cli::PowerArgs) -> Result<(), Error> {
    a.design = PowerDesign::named(&o.design).ok_or_else(|| {
        let names: Vec<&str> = PowerDesign::all()
            .into_iter()
            .map(PowerDesign::name)
            .collect();
        choice("design", &o.design, &names).unwrap_err()
    })?;
    if o.strength.is_empty() || o.n.is_empty() {
        let key = if o.strength.is_empty() {
            "strength"
        } else {
            "n"
        };
        return Err(Error::Usage(
            format!("{key}= is empty: give at least one value").into(),
        ));
    }
    a.strength = o
        .strength
        .iter()
        .map(|&s| decimal_option("strength", crate::cli::values::strength(), s))
        .collect::<Result<_, _>>()?;
    a.n = each("power", "n", &o.n)?;
    a.reps = or("power", "reps", o.reps, a.reps)?;
    a.null_draws = or("power", "null_draws", o.null_draws, a.null_draws)?;
    a.coverage = o
        .coverage
        .map(|b| ranged("power", "coverage", b))
        .transpose()?;
    a.seed = o.seed.unwrap_or(a.seed);
    a.ordinal = o
        .ordinal
        .map(|l| ranged("power", "ordinal", l))
        .transpose()?;
    if o.skewed && a.ordinal.is_none() {
        return Err(Error::Usage(
            "skewed=True skews ordinal judges: give ordinal= too".into(),
        ));
    }
    a.skewed = o.skewed;
    Ok(())
}

fn plan(o: &PlanOptions, a: &mut crate::cli::PlanArgs) -> Result<(), Error> {
    if let Some(p) = &o.preset {
        a.preset = choice("preset", p, &presets())?;
    }
    a.set = overrides(&o.set)?;
    a.target.clone_from(&o.target);
    a.reps = or("plan", "reps", o.reps, a.reps)?;
    a.null_draws = or("plan", "null_draws", o.null_draws, a.null_draws)?;
    a.bootstrap = or("plan", "bootstrap", o.bootstrap, a.bootstrap)?;
    a.max_n = or("plan", "max_n", o.max_n, a.max_n)?;
    a.seed = o.seed.unwrap_or(a.seed);
    Ok(())
}

fn plot(o: &PlotOptions, a: &mut crate::cli::PlotArgs) -> Result<(), Error> {
    a.preset = o
        .preset
        .as_deref()
        .map(|p| choice("preset", p, &presets()))
        .transpose()?;
    a.set = overrides(&o.set)?;
    a.n = o.n.map(|n| ranged("plot", "n", n)).transpose()?;
    if let Some(ns) = &o.ns {
        if ns.is_empty() {
            return Err(Error::Usage("ns= is empty: give at least one N".into()));
        }
        a.ns = each("plot", "ns", ns)?;
    }
    a.strength = o.strength.map_or(Ok(a.strength), |s| {
        decimal_option("strength", crate::cli::values::positive_strength(), s)
    })?;
    a.reps = or("plot", "reps", o.reps, a.reps)?;
    a.bootstrap = or("plot", "bootstrap", o.bootstrap, a.bootstrap)?;
    a.null_draws = o
        .null_draws
        .map(|d| ranged("plot", "null_draws", d))
        .transpose()?;
    a.seed = o.seed.unwrap_or(a.seed);
    a.output.clone_from(&o.output);
    a.force = true;
    Ok(())
}

/// `threads=`, checked: signed, so a negative count is refused with the same range as 0.
///
/// # Errors
/// [`Error::Usage`] naming `threads=` out of its range.
pub fn threads(t: Option<i64>) -> Result<Option<u16>, Error> {
    let hi = i64::try_from(crate::data::limits::max_threads()).unwrap_or(i64::MAX);
    t.map(|t| match u16::try_from(t) {
        Ok(n) if (1..=hi).contains(&t) => Ok(n),
        _ => Err(Error::Usage(
            format!("threads= takes a whole number from 1 to {hi} on this machine, not {t}").into(),
        )),
    })
    .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command line's verdict on `value` for this option (its flag's own parser).
    fn cli_accepts(command: &str, key: &str, value: u64) -> bool {
        let flag = format!("--{}", key.replace('_', "-"));
        let v = value.to_string();
        let mut words: Vec<&str> = match command {
            "" => vec!["identify"],
            "power" => vec!["power", "--design", "test-a", "--strength", "0.5"],
            "plan" => vec!["plan", "--target", "x"],
            "simulate" => vec!["simulate", "--seed", "0"],
            "plot" => vec!["plot", "rho", "-o", "-"],
            "estimate" | "battery" | "validate" => vec![command, "-"],
            _ => vec![command],
        };
        words.extend([flag.as_str(), v.as_str()]);
        if command == "power" && key != "n" {
            words.extend(["--n", "3"]);
        }
        if command == "simulate" && key != "n" {
            words.extend(["--n", "3"]);
        }
        Cli::try_parse_from(std::iter::once("rhoscope").chain(words)).is_ok()
    }

    #[test]
    fn every_range_is_the_command_lines() {
        for &(command, key, lo, hi, zero) in RANGES {
            let at = format!("{command} {key}");
            assert!(cli_accepts(command, key, lo), "{at} {lo}");
            assert!(cli_accepts(command, key, hi), "{at} {hi}");
            assert!(!cli_accepts(command, key, hi + 1), "{at} {}", hi + 1);
            if lo > 1 {
                assert!(!cli_accepts(command, key, lo - 1), "{at} {}", lo - 1);
            }
            assert_eq!(cli_accepts(command, key, 0), zero, "{at} 0");
        }
    }

    #[test]
    fn a_strength_is_held_to_its_flags_range() {
        let power = |strength: Vec<f64>| {
            Call::Power(PowerOptions {
                design: "test-a".into(),
                strength,
                n: vec![100],
                ..PowerOptions::default()
            })
            .command()
        };
        assert!(power(vec![0.0, 0.4]).is_ok());
        let e = power(vec![0.4, -0.5]).unwrap_err().to_string();
        assert!(e.contains("strength= '-0.5' is out of range"), "{e}");
        let plot = |strength| {
            Call::Plot(
                None,
                PlotOptions {
                    kind: "power".into(),
                    strength: Some(strength),
                    ..PlotOptions::default()
                },
            )
            .command()
        };
        assert!(plot(0.4).is_ok());
        assert!(plot(0.0).is_err());
        assert!(plot(f64::INFINITY).is_err());
    }

    #[test]
    fn every_call_has_defaults() {
        let panel = || Panel::default();
        let calls = [
            Call::Estimate(panel(), EstimateOptions::default()),
            Call::Battery(panel(), BatteryOptions::default()),
            Call::Identify(None),
            Call::Validate(panel(), ValidateOptions::default()),
            Call::Plan(PlanOptions {
                target: "ci-width=0.2".into(),
                ..PlanOptions::default()
            }),
            Call::Export(panel(), ExportOptions::default()),
            Call::Plot(
                None,
                PlotOptions {
                    kind: "rho".into(),
                    ..PlotOptions::default()
                },
            ),
        ];
        for c in calls {
            assert!(c.command().is_ok(), "{c:?}");
        }
    }

    #[test]
    fn a_refusal_names_the_keyword_and_the_value() {
        let big = Call::Battery(
            Panel::default(),
            BatteryOptions {
                bootstrap: Some(1_000_000_000_000),
                ..BatteryOptions::default()
            },
        );
        assert_eq!(
            big.command().unwrap_err().to_string(),
            "bootstrap= takes a whole number from 100 to 1000000, not 1000000000000"
        );
        let m = Call::Estimate(
            Panel::default(),
            EstimateOptions {
                method: Some("mle".into()),
                ..EstimateOptions::default()
            },
        );
        let msg = m.command().unwrap_err().to_string();
        assert!(
            msg.starts_with("method= takes one of closed, ml, both"),
            "{msg}"
        );
        let p = Call::Power(PowerOptions {
            design: "test-a".into(),
            strength: vec![0.4],
            n: vec![],
            ..PowerOptions::default()
        });
        assert_eq!(
            p.command().unwrap_err().to_string(),
            "n= is empty: give at least one value"
        );
        let s = Call::Power(PowerOptions {
            design: "test-a".into(),
            strength: vec![0.4],
            n: vec![100],
            skewed: true,
            ..PowerOptions::default()
        });
        assert!(
            s.command()
                .unwrap_err()
                .to_string()
                .starts_with("skewed=True")
        );
        let zero = threads(Some(0)).unwrap_err().to_string();
        assert!(
            zero.starts_with("threads= takes a whole number from 1 to ")
                && zero.ends_with(", not 0"),
            "{zero}"
        );
        let below = threads(Some(-1)).unwrap_err().to_string();
        assert_eq!(below, zero.replace(", not 0", ", not -1"));
    }
}
