//! Arbitrary bytes as a panel file: the loader, every estimator and the battery's reports
//! must return a value or a located error, never panic, and never print an escape byte.
//! Run with `cargo +nightly fuzz run load_and_fit` from `fuzz/` (see the README).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rhoscope::battery::{self, NullSpec, Options};
use rhoscope::data::{PanelRequest, load};
use rhoscope::estimate::{Context, Estimator, Fits};
use rhoscope::progress::silent;
use rhoscope::report;

fuzz_target!(|bytes: &[u8]| {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("p.csv");
    std::fs::write(&path, bytes).expect("the fuzz input is written");
    let opts = PanelRequest {
        min_anchors: 0,
        ..PanelRequest::default()
    };
    let loaded = match load(&path, &opts) {
        Ok(l) => l,
        Err(e) => {
            assert!(!e.to_string().contains('\u{1b}'));
            return;
        }
    };
    let panel = &loaded.panel;
    let s = panel.covariance();
    let ctx = Context {
        families: panel.judge_families(),
        clean: None,
    };
    let fits = Fits::of(panel, &s, &ctx, &Estimator::ALL);
    let r = report::estimate::EstimateReport {
        source: "p.csv",
        panel,
        families_source: None,
        fits: &fits,
        ctx: &ctx,
        closed: true,
    };
    let text = report::estimate::text(&r);
    assert!(!text.contains('\u{1b}') && !text.contains("NaN"));
    let bopts = Options {
        resamples: 10,
        null_draws: 10,
        seed: 1,
    };
    if let Some(b) = battery::run(panel, &NullSpec::Matched, &bopts, &silent) {
        let text = report::battery::text("p.csv", panel, None, &b);
        assert!(!text.contains('\u{1b}') && !text.contains("NaN"));
    }
});
