//! A throwaway estimator, registered only in the crate's own tests: it proves that one file
//! plus one registry line reach every output that lists estimators.

use super::registry::{Entry, Fitter, MethodValue, OnMoments, Shown, all_pairs};
use super::{EstimateError, closed_form};

/// Theorem 1's numbers under another name, listed everywhere an estimator can be.
pub const ENTRY: Entry = Entry {
    key: "throwaway",
    title: |_, _| "Throwaway".into(),
    label: |_, _| "throwaway".into(),
    short: "throw",
    basis: "a test's own estimator",
    applicable: |_, _| Ok(()),
    fit: Fitter::Moments(OnMoments {
        pairs: all_pairs,
        estimate: |mom, _| closed_form(mom),
        undefined: EstimateError::TooFewJudges,
    }),
    bootstrapped: true,
    shown: Shown {
        method: Some(MethodValue {
            name: "throwaway",
            help: "A test's own estimator",
        }),
        explorer: true,
        battery: true,
    },
};

/// One file plus one registry line reach every output that lists estimators: `--method`,
/// the estimate report's text and JSON, the explorer's fits, and the battery's fits, text,
/// JSON and bootstrap.
#[test]
fn a_throwaway_estimator_reaches_every_output() {
    use crate::battery::{self, NullSpec, Options};
    use crate::estimate::{EXPLORER, Estimator, Fits};
    use crate::model::Params;
    use crate::progress::silent;

    let e = Estimator::Throwaway;
    let title = "Throwaway (a test's own estimator";
    let pm = Params::three_anchor();
    let panel = crate::simulate::simulate(&pm, 300, 7).unwrap();

    assert!(EXPLORER.contains(&e), "explorer list");
    let explorer = Fits::explorer(&panel).unwrap();
    assert!(explorer.estimate(e).is_some(), "explorer fits");
    assert!(battery::ESTIMATORS.contains(&e), "battery list");

    #[cfg(feature = "cli")]
    {
        use clap::ValueEnum;
        let method = crate::cli::Method::from_str("throwaway", false).unwrap();
        assert_eq!(method, crate::cli::Method::Only(e));
        assert!(crate::cli::Method::All.estimators(&[]).contains(&e));
        let ctx = crate::estimate::Context::default();
        let fits = Fits::of(&panel, &panel.covariance(), &ctx, &method.estimators(&[]));
        let r = crate::report::estimate::EstimateReport {
            source: "sim",
            panel: &panel,
            families_source: None,
            fits: &fits,
            ctx: &ctx,
            closed: true,
            bias: None,
        };
        assert!(
            crate::report::estimate::text(&r).contains(title),
            "estimate text"
        );
        assert!(
            crate::report::estimate::json(&r)["throwaway"]["anchors"].is_array(),
            "estimate JSON"
        );
    }

    let opts = Options {
        resamples: 20,
        null_draws: 40,
        seed: 1,
    };
    let spec = NullSpec::Scenario(Box::new(pm));
    let r = battery::run(&panel, &spec, &opts, &silent).unwrap();
    let fit = r.fit(e).expect("the battery fits it");
    assert_eq!(fit.boot.resamples, 20, "bootstrapped");
    assert!(
        fit.boot.rho.iter().all(Option::is_some),
        "bootstrap intervals"
    );
    assert!(battery_text(&panel, &r).contains(title), "battery text");
    let json = crate::report::battery::json("sim", &panel, None, &r);
    assert!(json["throwaway"]["sigma_t2_ci"].is_array(), "battery JSON");
}

fn battery_text(panel: &crate::panel::Panel, r: &crate::battery::BatteryReport) -> String {
    crate::report::battery::text("sim", panel, None, r)
}
