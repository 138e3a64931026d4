//! The count-weighted bootstrap against the gather path it replaced (kept as the oracle):
//! same streams, same drawn indices, so the same intervals up to rounding; bit-identical at
//! any thread count; and the admissibility rule for intervals.

use rhoscope::bootstrap::{BootstrapResult, bootstrap, oracle};
use rhoscope::estimate::{Context, Estimator};
use rhoscope::model::{Families, Params};
use rhoscope::panel::Panel;
use rhoscope::progress::silent;
use rhoscope::rng::Streams;

fn panel(pm: &Params, n: usize, seed: u64) -> Panel {
    rhoscope::simulate::simulate(pm, n, seed).unwrap()
}

/// Equal up to rounding (undefined values must be undefined on both sides).
fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

fn same(a: &BootstrapResult, b: &BootstrapResult) {
    assert_eq!(a.resamples, b.resamples);
    assert_eq!(a.dropped, b.dropped);
    assert_eq!(a.dropped_per_anchor, b.dropped_per_anchor);
    for (x, y) in a.rho.iter().zip(&b.rho) {
        match (x, y) {
            (Some(x), Some(y)) => assert!(close(x.lo, y.lo) && close(x.hi, y.hi), "{x:?} {y:?}"),
            (None, None) => {}
            _ => panic!("one interval missing: {x:?} {y:?}"),
        }
    }
    let (s, t) = (a.sigma_t2.unwrap(), b.sigma_t2.unwrap());
    assert!(close(s.lo, t.lo) && close(s.hi, t.hi));
    assert!(
        close(a.sd_denominator, b.sd_denominator),
        "{} {}",
        a.sd_denominator,
        b.sd_denominator
    );
}

#[test]
fn counts_and_features_give_the_gather_oracles_intervals() {
    let mut fam = Params::three_anchor();
    fam.violations.families = Families::Blocks(3);
    fam.violations.sigma_f = 0.4;
    // Anchors far from zero and of unequal scale: the centring must keep sums well conditioned.
    let shifted = Params {
        sigma_t2: 4.0,
        ..Params::default()
    };
    let cases = [
        (fam, 300usize, 7u64),
        (Params::default(), 40, 3),
        (shifted, 500, 11),
    ];
    for (pm, n, seed) in cases {
        let mut p = panel(&pm, n, seed);
        if pm.sigma_t2 == 4.0 {
            for x in &mut p.data {
                *x += 1000.0;
            }
        }
        let ctx = Context {
            families: p.judge_families(),
            clean: Some(1),
        };
        let which = [
            Estimator::ClosedForm,
            Estimator::Blocked,
            Estimator::DesignatedClean,
        ];
        let which: Vec<Estimator> = which
            .into_iter()
            .filter(|e| e.applicable(&ctx, p.m()).is_ok())
            .collect();
        let streams = Streams { seed: 5, base: 0 };
        let fast = bootstrap(&p, &which, &ctx, 120, streams, &silent).unwrap();
        let slow = oracle::gather(&p, &which, &ctx, 120, streams);
        for (a, b) in fast.iter().zip(&slow) {
            same(a, b);
        }
    }
}

#[test]
fn the_bootstrap_is_bit_identical_at_any_thread_count() {
    let p = panel(&Params::three_anchor(), 2000, 9);
    let ctx = Context::default();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                bootstrap(
                    &p,
                    &[Estimator::ClosedForm],
                    &ctx,
                    100,
                    Streams::of(3),
                    &silent,
                )
                .unwrap()
            })
    };
    let one = run(1);
    assert_eq!(format!("{one:?}"), format!("{:?}", run(2)));
    assert_eq!(format!("{one:?}"), format!("{:?}", run(3)));
}

#[test]
fn n_eff_read_from_the_free_scale_moments_is_its_own_passes() {
    // With the free-scale refit in the run, each resample's n_eff comes from the judge block
    // of its count-weighted covariance instead of the closed form's feature sums and n_eff's
    // own pass: the same resamples, sums in another order, so the same interval up to
    // rounding.
    let p = panel(&Params::three_anchor(), 1500, 4);
    let ctx = Context::default();
    let streams = Streams::of(8);
    let (_, shared) = rhoscope::bootstrap::bootstrap_with_neff(
        &p,
        &[Estimator::ClosedForm, Estimator::FreeScale],
        &ctx,
        150,
        streams,
        true,
        &silent,
    )
    .unwrap();
    let own = rhoscope::bootstrap::neff_with_bootstrap(&p, 150, streams);
    let (a, b) = (shared.boot.unwrap(), own.boot.unwrap());
    assert_eq!((a.resamples, a.dropped), (b.resamples, b.dropped));
    let (a, b) = (a.ci.unwrap(), b.ci.unwrap());
    assert!(close(a.lo, b.lo) && close(a.hi, b.hi), "{a:?} {b:?}");
    assert_eq!(shared.n_eff, own.n_eff);
}

/// Issue 23: the weak-ID screen printed "T = 5.82 → ok" for a closed form with σ̂_c² ≤ 0
/// (σ_c² = 0.0001, N = 2000, seed 1). T screens an in-range fit only: on a flagged one it
/// gives no verdict and says why, in text and JSON.
#[cfg(feature = "cli")]
#[test]
fn the_weak_id_screen_gives_no_verdict_on_an_out_of_range_fit() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_rhoscope");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(bin)
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    run(&[
        "simulate",
        "--set",
        "sigma_c2=0.0001",
        "--n",
        "2000",
        "--seed",
        "1",
        "-o",
        "p.csv",
    ]);
    let text = run(&["battery", "p.csv", "--null-draws", "50"]);
    assert!(text.contains("FLAG sigma_c2_nonpositive"), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("Weak-identification screen"))
        .expect("weak-ID line");
    assert!(
        !line.contains("ok (T ≥ 4)") && line.contains("no verdict"),
        "{line}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&run(&["battery", "p.csv", "--null-draws", "50", "--json"])).unwrap();
    assert_eq!(json["weak_id"]["out_of_range"], true, "{}", json["weak_id"]);
}
