//! Flags that cannot apply to the command as given (a scenario flag beside a panel file, a
//! power-figure flag on the ρ̂ figure, `--bias-reps` without `--bias-correct`) are refused in
//! one line naming the flag and why, rather than silently dropped. The rule is the core's
//! ([`crate::applicable`]); this module reads which flags were typed.

use clap::ArgMatches;

use crate::applicable::{self, Naming, Opt};
use clap::error::ErrorKind;
use clap::parser::ValueSource;

/// Whether `id` was typed on the command line (not a default).
fn given(m: &ArgMatches, id: &str) -> bool {
    m.try_contains_id(id).unwrap_or(false) && m.value_source(id) == Some(ValueSource::CommandLine)
}

/// The flag of each option the rule reads.
fn flag(o: Opt) -> &'static str {
    match o {
        Opt::BiasCorrect => "--bias-correct",
        Opt::BiasReps => "--bias-reps",
        Opt::Seed => "--seed",
        Opt::DesignatedClean => "--designated-clean",
        Opt::Preset => "--preset",
        Opt::Set => "--set",
        Opt::N => "--n",
        Opt::Ns => "--ns",
        Opt::Strength => "--strength",
        Opt::Reps => "--reps",
        Opt::Bootstrap => "--bootstrap",
        Opt::NullDraws => "--null-draws",
    }
}

/// The clap id of each option the rule reads.
fn id(o: Opt) -> &'static str {
    match o {
        Opt::BiasCorrect => "bias_correct",
        Opt::BiasReps => "bias_reps",
        Opt::Seed => "seed",
        Opt::DesignatedClean => "designated_clean",
        Opt::Preset => "preset",
        Opt::Set => "set",
        Opt::N => "n",
        Opt::Ns => "ns",
        Opt::Strength => "strength",
        Opt::Reps => "reps",
        Opt::Bootstrap => "bootstrap",
        Opt::NullDraws => "null_draws",
    }
}

/// The first flag of `m` that cannot apply, and why, as one line (the rule is the core's:
/// [`crate::applicable`]).
fn inapplicable(m: &ArgMatches) -> Option<String> {
    let refusal = match m.subcommand()? {
        ("estimate", e) => applicable::estimate(|o| {
            if o == Opt::BiasCorrect {
                e.get_flag("bias_correct")
            } else {
                given(e, id(o))
            }
        }),
        ("plot", p) => {
            let kind = p.get_one::<String>("kind")?;
            applicable::plot(kind, given(p, "panel"), |o| given(p, id(o)))
        }
        _ => None,
    };
    refusal.map(|r| r.worded(Naming::Flags(flag)))
}

/// Refuses the first flag of `m` that cannot apply, as a clap usage error (exit 2).
///
/// # Errors
/// A one-line [`clap::Error`] naming the flag and why.
pub(crate) fn check(m: &ArgMatches, cmd: &clap::Command) -> Result<(), clap::Error> {
    match inapplicable(m) {
        None => Ok(()),
        Some(why) => {
            let sub = m
                .subcommand_name()
                .and_then(|s| cmd.find_subcommand(s))
                .unwrap_or(cmd);
            Err(clap::Error::raw(ErrorKind::ArgumentConflict, format!("{why}\n")).with_cmd(sub))
        }
    }
}
