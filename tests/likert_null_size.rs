//! Size of Tests J and O on the asymptotic null against the simulated one (docs/method.md §3),
//! on panels simulated from the model itself with Likert judges: `#[ignore]`d, run with
//! `SIZE_REPS=100 SIZE_NS=2000 cargo test --test likert_null_size -- --ignored --nocapture`.

use nalgebra::DMatrix;
use rayon::prelude::*;

use rhoscope::battery::null::{Asymptotic, NullDraw, NullModel, PILOT_DRAWS, PILOT_MAX_N};
use rhoscope::battery::{Layout, Sample, TestId};
use rhoscope::model::{Discretise, Params};
use rhoscope::rng::{Purpose, Streams};

/// Whether each path rejects at 5 %, and whether the route rule takes the asymptotic one.
#[derive(Debug, Clone, Copy, Default)]
struct Rejects {
    simulated: bool,
    asymptotic: bool,
    holds: bool,
}

/// The statistic of `t` on one drawn sample.
fn statistic(t: TestId, layout: &Layout, cov: &DMatrix<f64>, corr: &DMatrix<f64>) -> f64 {
    let sample = Sample {
        cov,
        corr: Some(corr),
        judges: None,
    };
    t.statistic_of(&sample, layout)
}

/// Whether `observed` exceeds the 95th percentile of `draws` (non-finite draws dropped).
fn rejects(observed: f64, mut draws: Vec<f64>) -> bool {
    draws.retain(|x| x.is_finite());
    draws.sort_by(f64::total_cmp);
    !draws.is_empty() && observed > rhoscope::stats::percentile(&draws, 0.95)
}

/// Both nulls of `t` at N = `n` for one panel: the simulated draws (the pilot's own when
/// N ≤ N₀) and as many asymptotic draws from the pilot.
fn both(
    null: &NullModel,
    n: usize,
    t: TestId,
    layout: &Layout,
    observed: f64,
    seed: u64,
) -> Rejects {
    let streams = Streams { seed, base: 0 };
    let n0 = n.min(PILOT_MAX_N);
    let simulate = |purpose: Purpose, at: usize| -> Vec<(DMatrix<f64>, DMatrix<f64>)> {
        (0..PILOT_DRAWS)
            .filter_map(|r| {
                let mut rng = streams.rng(purpose, r as u64);
                let (cov, corr) = null.draw_simulated(at, &mut rng, &mut Vec::new(), true);
                Some((cov, corr?))
            })
            .collect()
    };
    let pilot = simulate(Purpose::NullPilot, n0);
    let vectors: Vec<Vec<f64>> = pilot
        .iter()
        .filter_map(|(c, r)| Asymptotic::vector_of(&null.ordinal(), c, r))
        .collect();
    let sim = if n == n0 {
        pilot
    } else {
        simulate(Purpose::Null, n)
    };
    let simulated = rejects(
        observed,
        sim.iter()
            .map(|(c, r)| statistic(t, layout, c, r))
            .collect(),
    );
    let asymptotic = Asymptotic::from_pilot((&null.cov, &null.ordinal()), n, n0, &vectors)
        .is_some_and(|a| {
            let draws = (0..PILOT_DRAWS)
                .map(|d| {
                    let (c, r) = a.draw(&mut streams.rng(Purpose::Null, (1 << 20) + d as u64));
                    statistic(t, layout, &c, &r)
                })
                .collect();
            rejects(observed, draws)
        });
    Rejects {
        simulated,
        asymptotic,
        holds: null.route(n, true) == NullDraw::Asymptotic,
    }
}

/// Tests J and O on one simulated panel, each on its matched null, both paths.
fn replicate(params: &Params, n: usize, seed: u64) -> Option<[Rejects; 2]> {
    let panel = rhoscope::simulate::simulate(params, n, seed).ok()?;
    let layout = Layout::of(&panel);
    let p = panel.p();
    let s = panel.covariance();
    let (fit, corr) = rhoscope::estimate::free_scale::fit_panel(&panel).ok()?;
    let obs = |t: TestId| statistic(t, &layout, &s, &corr.r);
    let judges = corr.r.view((0, 0), (p, p)).into_owned();
    let (lambda, _, _) = rhoscope::estimate::free_scale::one_factor_uls(&judges).ok()?;
    let own = NullModel::free_scale_judges(&panel, &lambda).ok()?;
    let free = NullModel::free_scale(&panel, &fit).ok()?;
    let own_layout = Layout {
        m: 0,
        ..layout.clone()
    };
    Some([
        both(&own, n, TestId::J, &own_layout, obs(TestId::J), seed),
        both(&free, n, TestId::O, &layout, obs(TestId::O), seed),
    ])
}

/// The mid design with three anchors and six judges discretised at `cum_probs`.
fn design(cum_probs: &[f64]) -> Params {
    let mut params = Params::three_anchor();
    params.violations.ordinal = (0..params.p)
        .map(|j| {
            let d = Discretise {
                cum_probs: cum_probs.to_vec(),
            };
            (j, d)
        })
        .collect();
    params
}

#[test]
#[ignore = "Monte-Carlo size table: minutes in release"]
fn likert_null_sizes_asymptotic_against_simulated() {
    let reps: usize = std::env::var("SIZE_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let cells: [(&str, &[f64]); 5] = [
        ("5 levels, equal", &[0.2, 0.4, 0.6, 0.8]),
        ("5 levels, 62 % top", &[0.03, 0.08, 0.16, 0.38]),
        ("3 levels, equal", &[1.0 / 3.0, 2.0 / 3.0]),
        ("3 levels, 80 % top", &[0.05, 0.2]),
        ("5 levels, 1 % bottom", &[0.01, 0.03, 0.1, 0.38]),
    ];
    let ns: Vec<usize> = std::env::var("SIZE_NS").ok().map_or_else(
        || vec![2000],
        |v| v.split(',').filter_map(|x| x.parse().ok()).collect(),
    );
    println!(
        "design | N | panels | route | J simulated | J asymptotic | O simulated | O asymptotic"
    );
    for &n in &ns {
        for (name, cuts) in cells {
            let params = design(cuts);
            let rows: Vec<[Rejects; 2]> = (0..reps as u64)
                .into_par_iter()
                .filter_map(|r| replicate(&params, n, 7000 + r))
                .collect();
            let k = rows.len() as f64;
            let rate =
                |f: &dyn Fn(&[Rejects; 2]) -> bool| rows.iter().filter(|r| f(r)).count() as f64 / k;
            let holds = rows.iter().filter(|r| r[1].holds).count();
            println!(
                "{name} | {n} | {} | asymptotic in {holds} | {:.3} | {:.3} | {:.3} | {:.3}",
                rows.len(),
                rate(&|r| r[0].simulated),
                rate(&|r| r[0].asymptotic),
                rate(&|r| r[1].simulated),
                rate(&|r| r[1].asymptotic),
            );
        }
    }
}
