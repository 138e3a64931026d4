//! Never a panic, never a NaN printed, never an escape byte: generated panels (random values,
//! missing cells, tied and identical columns, hostile column names) go through the loader,
//! every estimator, the battery and both report formats.

use std::fmt::Write as _;

use proptest::prelude::*;
use rhoscope::battery::{self, NullSpec, Options};
use rhoscope::data::{ColumnRef, PanelRequest, load};
use rhoscope::estimate::{Context, Estimator, Fits};
use rhoscope::progress::silent;
use rhoscope::report;

/// A column name, sometimes with terminal escape sequences and controls in it.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[A-Za-z][A-Za-z0-9_]{2,8}",
        1 => Just("J\u{1b}]0;pwned\u{7}x".to_string()),
        1 => Just("A\u{1b}[2J\u{1b}[31mred".to_string()),
        1 => Just("\u{202e}rtl".to_string()),
    ]
}

/// A cell: an ordinary number, a Likert code, a missing marker, or something extreme.
fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (-3.0f64..3.0).prop_map(|x| format!("{x:.3}")),
        4 => (1u8..=5).prop_map(|x| x.to_string()),
        1 => Just("NA".to_string()),
    ]
}

fn panel() -> impl Strategy<Value = (Vec<String>, Vec<Vec<String>>, usize)> {
    (3usize..7, 4usize..40).prop_flat_map(|(q, n)| {
        (
            proptest::collection::vec(name(), q),
            proptest::collection::vec(proptest::collection::vec(cell(), q), n),
            1..q,
        )
    })
}

/// Generated panels that got through the loader to the battery (the rest were refused with
/// a clean error, which is checked too).
static REACHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn clean(text: &str) -> Result<(), TestCaseError> {
    prop_assert!(!text.contains('\u{1b}'), "escape byte in {text:?}");
    prop_assert!(!text.contains('\u{7}'), "bell in {text:?}");
    prop_assert!(!text.contains("NaN"), "NaN printed in {text}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

    #[test]
    fn generated_panels_never_panic_print_nan_or_leak_escapes((names, rows, judges) in panel()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.csv");
        let mut csv = names.join(",");
        csv.push('\n');
        for r in &rows {
            let _ = writeln!(csv, "{}", r.join(","));
        }
        std::fs::write(&path, csv).unwrap();
        let opts = PanelRequest {
            judges: Some((1..=judges).map(ColumnRef::Position).collect()),
            anchors: Some((judges + 1..=names.len()).map(ColumnRef::Position).collect()),
            min_anchors: 0,
            ..PanelRequest::default()
        };
        let loaded = match load(&path, &opts) {
            Ok(l) => l,
            Err(e) => return clean(&e.to_string()),
        };
        let panel = &loaded.panel;
        let s = panel.covariance();
        let ctx = Context { families: None, clean: Some(0).filter(|_| panel.m() > 0) };
        let which: Vec<Estimator> = Estimator::ALL.into_iter().collect();
        let fits = Fits::of(panel, &s, &ctx, &which);
        for (_, why) in &fits.refused {
            clean(why)?;
        }
        // The bias correction's report too, where the free-scale fit ran (10 refits).
        let bias = fits.free_scale().map(|fs| {
            let streams = rhoscope::rng::Streams::of(1);
            rhoscope::estimate::bias::correct(panel, fs, 10, streams, &rhoscope::progress::silent)
                .map(|b| b.expect("silent never stops"))
                .map_err(String::from)
        });
        let r = report::estimate::EstimateReport {
            source: "p.csv",
            panel,
            families_source: None,
            fits: &fits,
            ctx: &ctx,
            closed: true,
            bias: bias.as_ref(),
            intervals: None,
        };
        clean(&report::estimate::text(&r))?;
        clean(&report::estimate::json(&r).to_string())?;
        let bopts = Options { resamples: 20, null_draws: 20, seed: 3 };
        let b = battery::run(panel, &NullSpec::Matched, &bopts, &silent).unwrap();
        clean(&report::battery::text("p.csv", panel, None, &b))?;
        clean(&report::battery::json("p.csv", panel, None, &b).to_string())?;
        REACHED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn most_generated_panels_reach_the_battery() {
    generated_panels_never_panic_print_nan_or_leak_escapes();
    let reached = REACHED.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        reached >= 20,
        "only {reached} of 48 panels reached the battery"
    );
}
