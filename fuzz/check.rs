//! The property the fuzz target and the fuzz smoke test both check: arbitrary bytes as a panel
//! file go through the loader, every estimator and the battery's reports and come back as a
//! value or a located error, never a panic, a NaN in the text or an escape byte.

use rhoscope::battery::{self, NullSpec, Options};
use rhoscope::data::{PanelRequest, load};
use rhoscope::estimate::{Context, Estimator, Fits};
use rhoscope::progress::silent;
use rhoscope::report;

/// Runs one input through the loader, the fits and the reports, panicking on a violation.
pub fn check(bytes: &[u8]) {
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
            assert!(!e.to_string().contains('\u{1b}'), "an escape byte in {e}");
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
        bias: None,
        intervals: None,
    };
    let text = report::estimate::text(&r);
    assert!(!text.contains('\u{1b}') && !text.contains("NaN"), "{text}");
    let bopts = Options {
        resamples: 10,
        null_draws: 10,
        seed: 1,
    };
    if let Some(b) = battery::run(panel, &NullSpec::Matched, &bopts, &silent) {
        let text = report::battery::text("p.csv", panel, None, &b);
        assert!(!text.contains('\u{1b}') && !text.contains("NaN"), "{text}");
    }
}
