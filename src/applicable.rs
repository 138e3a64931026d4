//! Options that cannot apply to a command as given (a scenario's option beside a panel, a
//! power-figure option on the ρ̂ figure, the bias correction's refits without the
//! correction): one rule, as data, that the command line words with its flags and Python
//! with its keywords, so that neither drops a setting silently.

/// An option whose use depends on the others given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    BiasCorrect,
    BiasReps,
    Seed,
    DesignatedClean,
    Preset,
    Set,
    N,
    Ns,
    Strength,
    Reps,
    Bootstrap,
    NullDraws,
}

/// How a front end names an option: the command line by its flags (the table is the
/// command line's own), Python by its keywords.
#[derive(Debug, Clone, Copy)]
pub enum Naming {
    Flags(fn(Opt) -> &'static str),
    Keywords,
}

impl Naming {
    fn is_flags(self) -> bool {
        matches!(self, Naming::Flags(_))
    }
}

impl Opt {
    /// The option as `naming` spells it: the command line's flag, or `bias_reps=`.
    #[must_use]
    pub fn named(self, naming: Naming) -> &'static str {
        let keyword = match self {
            Opt::BiasCorrect => "bias_correct=True",
            Opt::BiasReps => "bias_reps=",
            Opt::Seed => "seed=",
            Opt::DesignatedClean => "designated_clean=",
            Opt::Preset => "preset=",
            Opt::Set => "the scenario's keyword arguments",
            Opt::N => "n=",
            Opt::Ns => "ns=",
            Opt::Strength => "strength=",
            Opt::Reps => "reps=",
            Opt::Bootstrap => "bootstrap=",
            Opt::NullDraws => "null_draws=",
        };
        match naming {
            Naming::Flags(flag) => flag(self),
            Naming::Keywords => keyword,
        }
    }
}

/// Why an option cannot apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The bias correction's refits without the correction.
    RefitsWithoutCorrection,
    /// A seed with nothing random to seed.
    NothingToSeed,
    /// A scenario's option on a figure drawn from a panel.
    ScenarioOnPanel { opt: Opt, kind: String },
    /// An option another figure takes.
    OtherFigure { opt: Opt, kind: String },
}

impl Refusal {
    /// The option refused.
    #[must_use]
    pub fn opt(&self) -> Opt {
        match self {
            Refusal::RefitsWithoutCorrection => Opt::BiasReps,
            Refusal::NothingToSeed => Opt::Seed,
            Refusal::ScenarioOnPanel { opt, .. } | Refusal::OtherFigure { opt, .. } => *opt,
        }
    }

    /// The refusal as one line in `naming`'s words.
    #[must_use]
    pub fn worded(&self, naming: Naming) -> String {
        let name = |o: Opt| o.named(naming);
        let plot = |kind: &str| {
            if naming.is_flags() {
                format!("plot {kind}")
            } else {
                format!("plot({kind:?})")
            }
        };
        match self {
            Refusal::RefitsWithoutCorrection => format!(
                "{} sets the refits of {}, which is not given: add it or drop {}",
                name(Opt::BiasReps),
                name(Opt::BiasCorrect),
                name(Opt::BiasReps)
            ),
            Refusal::NothingToSeed => format!(
                "{} seeds the {} simulations and the latent {} bootstrap, and neither is given: drop {}",
                name(Opt::Seed),
                name(Opt::BiasCorrect),
                name(Opt::DesignatedClean),
                name(Opt::Seed)
            ),
            Refusal::ScenarioOnPanel { opt, kind } => format!(
                "{} does not apply to {} on a panel {}: it shapes the simulated scenario drawn without one",
                name(*opt),
                plot(kind),
                if naming.is_flags() { "file" } else { "(data=)" }
            ),
            Refusal::OtherFigure { opt, kind } => {
                let why = match opt {
                    Opt::Ns | Opt::Strength => {
                        format!("it is the power figure's ({})", plot("power"))
                    }
                    Opt::Reps => "it is the power and boundary figures'".to_string(),
                    Opt::N => format!("the power figure's sizes are {}", name(Opt::Ns)),
                    Opt::Bootstrap => "it is the rho, bootstrap and battery figures'".to_string(),
                    _ if kind != "boundary" => {
                        "it draws the tests' nulls, and this figure shows no test".to_string()
                    }
                    _ => "the boundary figure draws no nulls".to_string(),
                };
                format!("{} does not apply to {}: {why}", name(*opt), plot(kind))
            }
        }
    }
}

/// `estimate`'s first option that cannot apply, given which were set.
#[must_use]
pub fn estimate(given: impl Fn(Opt) -> bool) -> Option<Refusal> {
    let bias = given(Opt::BiasCorrect);
    if given(Opt::BiasReps) && !bias {
        return Some(Refusal::RefitsWithoutCorrection);
    }
    if given(Opt::Seed) && !bias && !given(Opt::DesignatedClean) {
        return Some(Refusal::NothingToSeed);
    }
    None
}

/// The figures each option applies to.
const FIGURES: [(Opt, &[&str]); 6] = [
    (Opt::Ns, &["power"]),
    (Opt::Strength, &["power"]),
    (Opt::Reps, &["power", "boundary"]),
    (Opt::N, &["rho", "bootstrap", "battery", "boundary"]),
    (Opt::Bootstrap, &["rho", "bootstrap", "battery"]),
    (Opt::NullDraws, &["battery", "power"]),
];

/// `plot kind`'s first option that cannot apply, given which were set and whether a panel
/// was given.
#[must_use]
pub fn plot(kind: &str, on_panel: bool, given: impl Fn(Opt) -> bool) -> Option<Refusal> {
    if on_panel
        && matches!(kind, "rho" | "bootstrap" | "battery")
        && let Some(opt) = [Opt::Preset, Opt::Set, Opt::N]
            .into_iter()
            .find(|&o| given(o))
    {
        let kind = kind.to_string();
        return Some(Refusal::ScenarioOnPanel { opt, kind });
    }
    FIGURES
        .into_iter()
        .find(|(opt, kinds)| given(*opt) && !kinds.contains(&kind))
        .map(|(opt, _)| Refusal::OtherFigure {
            opt,
            kind: kind.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_front_end_words_the_same_refusal() {
        let r = estimate(|o| o == Opt::BiasReps).unwrap();
        assert_eq!(
            r.worded(Naming::Keywords),
            "bias_reps= sets the refits of bias_correct=True, which is not given: add it or drop bias_reps="
        );
        assert_eq!(
            estimate(|o| matches!(o, Opt::BiasReps | Opt::BiasCorrect)),
            None
        );
        assert_eq!(
            estimate(|o| matches!(o, Opt::Seed | Opt::DesignatedClean)),
            None
        );
        let p = plot("rho", true, |o| o == Opt::Preset).unwrap();
        assert_eq!(
            p.worded(Naming::Keywords),
            "preset= does not apply to plot(\"rho\") on a panel (data=): it shapes the simulated scenario drawn without one"
        );
        let ns = plot("rho", false, |o| o == Opt::Ns).unwrap();
        assert_eq!(
            ns.worded(Naming::Flags(|o| if o == Opt::Ns { "NS" } else { "?" })),
            "NS does not apply to plot rho: it is the power figure's (plot power)"
        );
        assert_eq!(plot("power", false, |o| o == Opt::Ns), None);
        assert_eq!(
            plot("rho", true, |o| o == Opt::NullDraws)
                .unwrap()
                .worded(Naming::Keywords),
            "null_draws= does not apply to plot(\"rho\"): it draws the tests' nulls, and this figure shows no test"
        );
        assert_eq!(
            plot("boundary", false, |o| o == Opt::NullDraws)
                .unwrap()
                .opt(),
            Opt::NullDraws
        );
    }
}
