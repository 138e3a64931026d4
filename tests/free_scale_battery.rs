//! The free-scale estimate inside the battery (docs/method.md §7): its item bootstrap against the gather
//! oracle, Tests J and O (false-positive rate at the nominal 5 % and power against the
//! violations they target, on seeds not used while building them), bit-identical results at
//! any thread count, and the route that says which estimate to read.

use rhoscope::battery::{self, BatteryReport, NullSpec, Options, TestId, Verdict};
use rhoscope::bootstrap::{bootstrap, oracle};
use rhoscope::estimate::{Context, Estimator};
use rhoscope::model::{Discretise, Params};
use rhoscope::panel::Panel;
use rhoscope::power::{PowerDesign, PowerOptions, characteristics_on};
use rhoscope::progress::silent;
use rhoscope::rng::Streams;

/// Unequal judge scales a_j: the free-scale model holds, Theorem 1's unit loadings do not.
const SCALES: [f64; 6] = [0.6, 0.8, 1.0, 1.2, 1.5, 1.8];

fn with_ordinal(mut pm: Params, cols: std::ops::Range<usize>, levels: usize) -> Params {
    pm.violations.ordinal = cols
        .map(|c| (c, Discretise::equal_probability(levels)))
        .collect();
    pm
}

fn scaled() -> Params {
    let mut pm = Params::three_anchor();
    pm.violations.judge_scale = SCALES.to_vec();
    pm
}

fn panel(pm: &Params, n: usize, seed: u64) -> Panel {
    rhoscope::simulate::simulate(pm, n, seed).unwrap()
}

fn run(panel: &Panel, resamples: usize, null_draws: usize) -> BatteryReport {
    let opts = Options {
        resamples,
        null_draws,
        seed: 5,
    };
    battery::run(panel, &NullSpec::Matched, &opts, &silent).unwrap()
}

#[test]
fn the_free_scale_bootstrap_gives_the_gather_oracles_intervals() {
    // Ordinal judges (polychoric and polyserial recomputed per resample) and continuous
    // judges of unequal scale. Resampled items are summed in another order than the gather
    // path's, and the fit's optimiser stops at its gradient tolerance, so agreement is to
    // 1e-6 rather than to rounding.
    let three = Params::three_anchor();
    let cases = [
        // Away from the ridge, so no resample's convergence sits on a knife-edge that the
        // two summation orders could tip differently.
        (with_ordinal(three.clone(), 0..6, 5), 3000usize, 5u64),
        (scaled(), 2000, 9),
    ];
    let ests = [Estimator::ClosedForm, Estimator::FreeScale];
    for (pm, n, seed) in cases {
        let p = panel(&pm, n, seed);
        let ctx = Context::default();
        let a = bootstrap(&p, &ests, &ctx, 40, Streams::of(3), &silent).unwrap();
        let b = oracle::gather(&p, &ests, &ctx, 40, Streams::of(3));
        let (a, b) = (&a[1], &b[1]);
        assert_eq!(a.dropped, b.dropped);
        assert_eq!(a.dropped_per_anchor, b.dropped_per_anchor);
        assert!(a.rho.iter().all(Option::is_some), "{a:?}");
        for (x, y) in a.rho.iter().zip(&b.rho) {
            let (x, y) = (x.unwrap(), y.unwrap());
            assert!(
                (x.lo - y.lo).abs() < 1e-6 && (x.hi - y.hi).abs() < 1e-6,
                "{x:?} {y:?}"
            );
        }
    }
}

#[test]
fn the_battery_is_identical_at_one_and_two_threads_with_ordinal_judges() {
    let p = panel(&with_ordinal(Params::three_anchor(), 0..6, 5), 300, 21);
    let at = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(&p, 30, 60))
    };
    let (one, two) = (at(1), at(2));
    // Compared as text: undefined denominators are NaN, and NaN ≠ NaN.
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
    assert!(one.tests[TestId::J].statistic.is_some());
    assert!(one.tests[TestId::O].statistic.is_some());
}

#[test]
fn unequal_judge_scales_route_to_the_free_scale_estimate_which_recovers_rho() {
    let pm = scaled();
    let r = run(&panel(&pm, 4000, 31), 100, 400);
    assert_eq!(r.tests[TestId::A].verdict, Verdict::Fires);
    assert_eq!(r.route.read, Some(Estimator::FreeScale), "{}", r.route.why);
    assert!(r.route.why.contains("Test A fires"), "{}", r.route.why);
    for t in [TestId::J, TestId::O] {
        assert!(r.tests[t].applicable, "{t:?}: {}", r.tests[t].message);
        assert!(r.tests[t].threshold.is_some());
    }
    let fs = r.fit(Estimator::FreeScale).unwrap();
    // The truth lies in the free-scale intervals (B = 100; a miss on one anchor at this seed
    // would be a 5 % event, three anchors together are checked).
    for (k, ci) in fs.boot.rho.iter().enumerate() {
        let ci = ci.unwrap();
        assert!(
            ci.contains(pm.rho[k]),
            "anchor {k}: {ci:?} vs {}",
            pm.rho[k]
        );
    }
}

#[test]
fn routes_follow_the_scales_of_the_columns() {
    // Ordinal judges, continuous anchors: the free-scale estimate is the one to read.
    // N = 20 000, where the free-scale set is narrow enough to give every anchor a point.
    let r = run(
        &panel(&with_ordinal(Params::three_anchor(), 0..6, 5), 20_000, 3),
        20,
        40,
    );
    assert_eq!(r.route.read, Some(Estimator::FreeScale), "{}", r.route.why);
    assert!(r.route.why.contains("ordinal"), "{}", r.route.why);
    // At N = 800 only a set is identified: no ρ̂ to read, and the route says so.
    let r = run(
        &panel(&with_ordinal(Params::three_anchor(), 0..6, 5), 800, 3),
        20,
        40,
    );
    assert_eq!(r.route.read, None, "{}", r.route.why);
    assert!(r.route.why.contains("ridge"), "{}", r.route.why);
    // Every column ordinal: no estimate, and the reason points at `identify`.
    let r = run(
        &panel(&with_ordinal(Params::three_anchor(), 0..9, 5), 400, 3),
        20,
        40,
    );
    assert_eq!(r.route.read, None);
    assert_eq!(
        r.reading.answer.obstacles,
        [battery::reading::Obstacle::NotIdentified(
            battery::reading::Unidentified::AllOrdinal
        )],
        "{}",
        r.route.why
    );
    assert!(r.fits.is_empty());
    // The base design (continuous, 2 anchors): the closed form; Test J runs (6 judges), Test O
    // cannot (it needs 3 continuous anchors) and says so.
    let r = run(&panel(&Params::default(), 1000, 3), 20, 40);
    assert_eq!(r.route.read, Some(Estimator::ClosedForm), "{}", r.route.why);
    assert!(r.tests[TestId::J].applicable);
    assert!(!r.tests[TestId::O].applicable);
    assert!(r.tests[TestId::O].message.contains("3 continuous anchors"));
    assert!(r.fit(Estimator::FreeScale).is_none());
    assert!(r.refused.iter().any(|(e, _)| *e == Estimator::FreeScale));
}

/// Monte-Carlo tolerance of a rejection rate near 5 %: four SDs of the replicate count's
/// binomial error combined with the error of a 95th percentile from `draws` null draws.
fn fp_tolerance(reps: usize, draws: usize) -> f64 {
    let v = 0.05 * 0.95;
    4.0 * (v / reps as f64 + v / draws as f64).sqrt()
}

#[test]
fn tests_j_and_o_hold_their_size_on_unequal_scales_and_see_their_violations() {
    // Fresh seed; judges on unequal scales throughout (what the free-scale model allows), so
    // Test A would fire on every replicate while J and O must stay at 5 %.
    let (reps, draws) = (300, 600);
    for (t, strength) in [(TestId::J, 0.6), (TestId::O, 0.6)] {
        let design = PowerDesign::Test(t);
        let mut base = if t == TestId::J {
            Params::default()
        } else {
            Params::three_anchor()
        };
        base.violations.judge_scale = SCALES.to_vec();
        let opts = PowerOptions::rates(vec![1000], vec![strength], reps, draws, 2027);
        let cells = characteristics_on(design, &base, &opts, &silent)
            .unwrap()
            .unwrap();
        let fp = cells[0].rates[t].unwrap();
        let power = cells[1].rates[t].unwrap();
        let tol = fp_tolerance(reps, draws);
        eprintln!("{t:?}: FP {fp} (tolerance {tol}), power {power} at {strength}");
        assert!((fp - 0.05).abs() <= tol, "{t:?}: FP {fp} (tolerance {tol})");
        // Measured at about 1.0 on other seeds; 0.8 is far below any plausible MC miss.
        assert!(power > 0.8, "{t:?}: power {power} at strength {strength}");
        if t == TestId::J {
            let a = cells[0].rates[TestId::A].unwrap();
            assert!(a > 0.9, "Test A reacts to unequal scales: {a}");
        }
    }
}

#[test]
fn test_j_holds_its_size_on_ordinal_judges_and_sees_a_second_factor() {
    // Five-level judges: the null draws and every replicate read polychoric correlations.
    let (reps, draws) = (200, 300);
    let base = with_ordinal(Params::default(), 0..6, 5);
    let opts = PowerOptions::rates(vec![1000], vec![0.8], reps, draws, 2028);
    let cells = characteristics_on(PowerDesign::Test(TestId::J), &base, &opts, &silent)
        .unwrap()
        .unwrap();
    let fp = cells[0].rates[TestId::J].unwrap();
    let power = cells[1].rates[TestId::J].unwrap();
    let tol = fp_tolerance(reps, draws);
    eprintln!("ordinal J: FP {fp} (tolerance {tol}), power {power} at 0.8");
    assert!((fp - 0.05).abs() <= tol, "FP {fp} (tolerance {tol})");
    assert!(power > 0.5, "power {power} at strength 0.8");
}

/// The free-scale fit and Test O's statistic on a null panel of the numpy harness (m = 4,
/// N = 1000, its statistic above χ²₄'s 95 % point), against the harness's own twelve-start
/// fit in the crate's anchor units (`tests/python/o_size_harness.py fixture
/// tests/fixtures/o_null_panel_m4.csv`): on 3000 harness panels at m = 3, 4, 6 the two fits
/// reached one minimum, so a fit stopping short would show here.
#[test]
fn test_o_matches_an_independent_fit_on_a_harness_null_panel() {
    use nalgebra::DMatrix;
    use rhoscope::battery::types::{Layout, Sample};
    let text = std::fs::read_to_string("tests/fixtures/o_null_panel_m4.csv").expect("fixture");
    let values: Vec<f64> = text
        .split([',', '\n'])
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().expect("a number"))
        .collect();
    let (p, m) = (6, 4);
    let s = DMatrix::from_row_slice(p + m, p + m, &values);
    let sd: Vec<f64> = (0..p + m).map(|i| s[(i, i)].sqrt()).collect();
    let r = DMatrix::from_fn(p + m, p + m, |i, j| s[(i, j)] / (sd[i] * sd[j]));
    let fit = rhoscope::estimate::free_scale::fit(
        &r.view((0, 0), (p, p)).into_owned(),
        &r.view((0, p), (p, m)).into_owned(),
        &s.view((p, p), (m, m)).into_owned(),
    )
    .expect("fits");
    let e = &fit.estimate;
    let beta: Vec<f64> = e.anchors.iter().map(|a| a.beta).collect();
    let want_beta = [0.271_910_56, 0.495_200_75, 0.519_363_38, 0.188_561_78];
    for (got, want) in [(e.sigma_t2, 0.953_446_24), (e.sigma_c2, 1.168_972_49)]
        .into_iter()
        .chain(beta.iter().copied().zip(want_beta))
    {
        assert!((got - want).abs() < 1e-6, "{got} against {want}");
    }
    let layout = Layout {
        p,
        m,
        families: None,
        ordinal_anchors: 0,
        ordinal_judges: 0,
        judge_ordinal: vec![false; p],
    };
    let t = (TestId::O.spec().statistic)(&Sample::of_cov(&s), &layout);
    assert!((t - 0.010_151_42).abs() < 1e-7, "T_B / N: {t}");
}

/// The one rule (`free_scale::untestable`, docs/method.md §3, where Test O is not defined)
/// seen from the report: where the panel's free-scale fit is rejected by its identified set
/// (`anchors_misfit`), Test O is N/A and names that flag; where the set does not reject it,
/// Test O has a verdict (a matched null exists, as on every panel here). The report never says
/// both "the model is rejected" and "Test O passes".
fn assert_one_fact(r: &BatteryReport) {
    use rhoscope::estimate::FlagCode;
    let fit = &r
        .fit(Estimator::FreeScale)
        .expect("the free-scale fit ran")
        .estimate;
    let o = &r.tests[TestId::O];
    if fit.has_flag(FlagCode::AnchorsMisfit) {
        assert!(!o.applicable && o.verdict != Verdict::Pass, "{o:?}");
        assert!(o.message.contains("flag anchors_misfit"), "{}", o.message);
    } else {
        assert!(o.applicable, "{:?}: {}", fit.flags, o.message);
    }
}

/// hanna-llm coherence with the human codes read as numbers (`battery … --judges beluga_13b,
/// orca_platypus_13b,mistral_7b,llama2_13b_chat,chatgpt --anchors human1,human2,human3
/// --continuous all`): the free-scale fit ends on the boundary (σ̂_c² → 0) without converging
/// and its identified set is empty. Browne's statistic there read 6.9e-5 against 0.0043 and
/// passed beside `anchors_misfit`; Test O is now N/A with the rejection as its reason.
#[test]
fn test_o_does_not_pass_where_hanna_llm_rejects_the_free_scale_fit() {
    use rhoscope::data::{ColumnRef, Columns, PanelRequest, load};
    use rhoscope::estimate::FlagCode;
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/hanna-llm/hanna_llm_coherence.csv");
    if !file.is_file() {
        eprintln!("skipped: {} is absent", file.display());
        return;
    }
    let cols = |v: &[&str]| {
        Some(
            v.iter()
                .map(|s| ColumnRef::NameOrPosition((*s).into()))
                .collect(),
        )
    };
    let request = PanelRequest {
        judges: cols(&[
            "beluga_13b",
            "orca_platypus_13b",
            "mistral_7b",
            "llama2_13b_chat",
            "chatgpt",
        ]),
        anchors: cols(&["human1", "human2", "human3"]),
        continuous: Some(Columns::All),
        ..PanelRequest::default()
    };
    let panel = load(&file, &request).expect("loads").panel;
    let r = run(&panel, 20, 100);
    let fit = &r.fit(Estimator::FreeScale).expect("ran").estimate;
    for code in [FlagCode::AnchorsMisfit, FlagCode::Boundary] {
        assert!(fit.has_flag(code), "{:?}", fit.flags);
    }
    let o = &r.tests[TestId::O];
    assert!(o.message.contains("flag anchors_misfit"), "{}", o.message);
    assert_one_fact(&r);
}

/// Simulated panels whose free-scale fit ends on the boundary: no common-mode variance to speak
/// of (σ_c² = 0.005, clean anchors), so σ̂_c² runs to 0 on some seeds. The first such panels
/// found are on the equal-β ridge's valley, which the identified set does not reject: Test O
/// keeps its verdict there; on a panel with an anchor-side factor the set rejects, Test O is N/A
/// with that flag.
#[test]
fn test_o_at_a_boundary_fit_of_a_simulated_panel_follows_the_identified_set() {
    use rhoscope::estimate::FlagCode;
    use rhoscope::estimate::free_scale::fit_panel;
    let mut pm = Params::three_anchor();
    pm.sigma_c2 = 0.005;
    pm.rho = vec![0.0, 0.05, -0.05];
    let mut boundary = 0;
    for seed in 0..40 {
        let p = panel(&pm, 500, 900 + seed);
        let Ok((fit, _)) = fit_panel(&p) else {
            continue;
        };
        if fit.estimate.has_flag(FlagCode::Boundary) && boundary < 3 {
            assert_one_fact(&run(&p, 0, 40));
            boundary += 1;
        }
    }
    assert!(boundary >= 1, "no boundary fit among the seeds");
    // A strong anchor-side second factor (loadings 0.9, 0.45, 0) at N = 2000: the set is
    // empty, and Test O says so rather than passing or firing on a null of a rejected fit.
    let mut pm = Params::three_anchor();
    pm.violations.anchor_loading = vec![0.9, 0.45, 0.0];
    let rejected = (0..10)
        .map(|seed| panel(&pm, 2000, 950 + seed))
        .find(|p| {
            rhoscope::estimate::free_scale::fit_panel_identified(p)
                .is_ok_and(|(f, _)| f.estimate.has_flag(FlagCode::AnchorsMisfit))
        })
        .expect("a panel whose identified set is empty");
    let r = run(&rejected, 0, 40);
    assert_eq!(r.tests[TestId::O].verdict, Verdict::NotApplicable);
    assert_one_fact(&r);
}
