//! The asymptotic null of the latent correlations (docs/method.md §3): the route takes it on a
//! Likert panel with every level well filled and keeps simulated draws where a level is sparse
//! or N small, and the battery on it is bit-identical at one and four threads.

use rhoscope::battery::calibration::plan;
use rhoscope::battery::null::{MIN_LEVEL_COUNT, NullDraw, PILOT_DRAWS};
use rhoscope::battery::{self, BatteryReport, NullSpec, Options, TestId};
use rhoscope::model::{Discretise, Params};
use rhoscope::panel::Panel;
use rhoscope::progress::silent;

fn likert(cum_probs: &[f64], n: usize, seed: u64) -> Panel {
    let mut pm = Params::three_anchor();
    pm.violations.ordinal = (0..6)
        .map(|j| {
            let d = Discretise {
                cum_probs: cum_probs.to_vec(),
            };
            (j, d)
        })
        .collect();
    rhoscope::simulate::simulate(&pm, n, seed).unwrap()
}

fn routes(p: &Panel) -> Vec<NullDraw> {
    plan(p, &NullSpec::Matched, None)
        .nulls
        .iter()
        .map(|n| n.draw)
        .collect()
}

#[test]
fn well_filled_levels_at_n_2000_take_the_asymptotic_null_and_its_pilot() {
    let p = likert(&[0.2, 0.4, 0.6, 0.8], 2000, 3);
    let plan = plan(&p, &NullSpec::Matched, None);
    assert_eq!(plan.nulls.len(), 2, "{plan:?}");
    for null in &plan.nulls {
        assert_eq!(null.draw, NullDraw::Asymptotic, "{plan:?}");
        let pilot = null.pilot.expect("an asymptotic null has a pilot");
        assert_eq!((pilot.draws, pilot.n), (PILOT_DRAWS, 2000));
        assert_ne!(pilot.draw, NullDraw::Asymptotic);
    }
}

#[test]
fn a_sparse_level_or_a_small_panel_keeps_simulated_draws() {
    // 0.5 % in the bottom level: 10 expected items at N = 2000, under the rule's 20.
    const { assert!(MIN_LEVEL_COUNT > 10.0) };
    let sparse = likert(&[0.005, 0.1, 0.3, 0.6], 2000, 4);
    let small = likert(&[0.2, 0.4, 0.6, 0.8], 300, 4);
    for p in [sparse, small] {
        let r = routes(&p);
        assert!(!r.is_empty());
        assert!(r.iter().all(|d| *d != NullDraw::Asymptotic), "{r:?}");
    }
}

fn run(p: &Panel, threads: usize) -> BatteryReport {
    let opts = Options {
        resamples: 20,
        null_draws: 100,
        seed: 5,
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| battery::run(p, &NullSpec::Matched, &opts, &silent).unwrap())
}

#[test]
fn the_battery_on_the_asymptotic_null_is_identical_at_one_and_four_threads() {
    let p = likert(&[0.2, 0.4, 0.6, 0.8], 2000, 5);
    assert!(routes(&p).contains(&NullDraw::Asymptotic));
    let (one, four) = (run(&p, 1), run(&p, 4));
    // Compared as text: undefined denominators are NaN, and NaN ≠ NaN.
    assert_eq!(format!("{one:?}"), format!("{four:?}"));
    for t in [TestId::J, TestId::O] {
        assert!(one.tests[t].threshold.is_some(), "{t:?}");
    }
}
