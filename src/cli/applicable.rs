//! Flags that cannot apply to the command as given (a scenario flag beside a panel file, a
//! power-figure flag on the ρ̂ figure, `--bias-reps` without `--bias-correct`) are refused in
//! one line naming the flag and why, rather than silently dropped.

use clap::ArgMatches;
use clap::error::ErrorKind;
use clap::parser::ValueSource;

/// Whether `id` was typed on the command line (not a default).
fn given(m: &ArgMatches, id: &str) -> bool {
    m.try_contains_id(id).unwrap_or(false) && m.value_source(id) == Some(ValueSource::CommandLine)
}

/// The first flag of `m` that cannot apply, and why, as one line.
fn inapplicable(m: &ArgMatches) -> Option<String> {
    match m.subcommand()? {
        ("estimate", e) => estimate(e),
        ("plot", p) => plot(p),
        _ => None,
    }
}

fn estimate(m: &ArgMatches) -> Option<String> {
    let bias = m.get_flag("bias_correct");
    if given(m, "bias_reps") && !bias {
        return Some(
            "--bias-reps sets the refits of --bias-correct, which is not given: add it or drop --bias-reps".into(),
        );
    }
    if given(m, "seed") && !bias && !given(m, "designated_clean") {
        return Some(
            "--seed seeds the --bias-correct simulations and the latent --designated-clean bootstrap, and neither is given: drop --seed".into(),
        );
    }
    None
}

fn plot(m: &ArgMatches) -> Option<String> {
    let kind = m.get_one::<String>("kind")?.as_str();
    let figure =
        |flag: &str, why: &str| Some(format!("{flag} does not apply to plot {kind}: {why}"));
    if given(m, "panel") && matches!(kind, "rho" | "bootstrap" | "battery") {
        for (id, flag) in [("preset", "--preset"), ("set", "--set"), ("n", "--n")] {
            if given(m, id) {
                return Some(format!(
                    "{flag} does not apply to plot {kind} on a panel file: it shapes the simulated scenario drawn without one"
                ));
            }
        }
    }
    let power = "it is the power figure's (plot power)";
    let rules: [(&str, &str, &[&str], &str); 6] = [
        ("ns", "--ns", &["power"], power),
        ("strength", "--strength", &["power"], power),
        (
            "reps",
            "--reps",
            &["power", "boundary"],
            "it is the power and boundary figures'",
        ),
        (
            "n",
            "--n",
            &["rho", "bootstrap", "battery", "boundary"],
            "the power figure's sizes are --ns",
        ),
        (
            "bootstrap",
            "--bootstrap",
            &["rho", "bootstrap", "battery"],
            "it is the rho, bootstrap and battery figures'",
        ),
        (
            "null_draws",
            "--null-draws",
            &["rho", "bootstrap", "battery", "power"],
            "the boundary figure draws no nulls",
        ),
    ];
    rules
        .into_iter()
        .find(|(id, _, kinds, _)| given(m, id) && !kinds.contains(&kind))
        .and_then(|(_, flag, _, why)| figure(flag, why))
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
