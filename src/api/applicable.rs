//! Keywords that cannot apply to a call as given (`bias_reps=` without `bias_correct=True`,
//! `ns=` on the ρ̂ figure), by the command line's own rule ([`crate::applicable`]).

use crate::applicable::{self, Opt, Refusal};

use super::options::Call;

impl Call {
    /// The first keyword that cannot apply to this call, by the command line's own rule.
    pub(super) fn inapplicable(&self) -> Option<Refusal> {
        match self {
            Call::Estimate(_, o) => applicable::estimate(|opt| match opt {
                Opt::BiasCorrect => o.bias_correct,
                Opt::BiasReps => o.bias_reps.is_some(),
                Opt::Seed => o.seed.is_some(),
                Opt::DesignatedClean => o.designated_clean.is_some(),
                _ => false,
            }),
            Call::Plot(p, o) => applicable::plot(&o.kind, p.is_some(), |opt| match opt {
                Opt::Preset => o.preset.is_some(),
                Opt::Set => !o.set.is_empty(),
                Opt::N => o.n.is_some(),
                Opt::Ns => o.ns.is_some(),
                Opt::Strength => o.strength.is_some(),
                Opt::Reps => o.reps.is_some(),
                Opt::Bootstrap => o.bootstrap.is_some(),
                Opt::NullDraws => o.null_draws.is_some(),
                _ => false,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::options::{EstimateOptions, Panel, PlotOptions};

    #[test]
    fn a_keyword_that_cannot_apply_is_refused_by_name() {
        let refits = Call::Estimate(
            Panel::default(),
            EstimateOptions {
                bias_reps: Some(50),
                ..EstimateOptions::default()
            },
        );
        let e = refits.command().unwrap_err().to_string();
        assert!(
            e.contains("bias_reps= sets the refits of bias_correct=True"),
            "{e}"
        );
        let figure = Call::Plot(
            None,
            PlotOptions {
                kind: "rho".into(),
                ns: Some(vec![100]),
                ..PlotOptions::default()
            },
        );
        let e = figure.command().unwrap_err().to_string();
        assert!(e.starts_with("ns= does not apply to plot(\"rho\")"), "{e}");
    }
}
