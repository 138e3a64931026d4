//! The model's edges (issue 35): censored codes read as numbers, judges and anchors on visibly
//! different continuous ranges, and heavy-tailed errors are flagged, with a sentence that never
//! sends the reader to another estimate; the clean designs stay quiet. Panels come from this
//! file's own generator, written from the model (J_j = t + c + e_j, A_k = t + (β_k/σ_c²) c + u_k),
//! not from `rhoscope::simulate`.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rand_distr::{Distribution, StandardNormal, StudentT};
use rhoscope::estimate::{Context, Estimate, Estimator, Fits, FlagCode};
use rhoscope::panel::{Panel, Scale};

/// How a panel's columns are observed.
#[derive(Clone, Copy)]
struct Look {
    /// Judges as `j0 + js·x`, anchors as `a0 + as·x`.
    judge: (f64, f64),
    anchor: (f64, f64),
    /// Round and clamp to these integer codes (judges, anchors), or leave continuous.
    codes: Option<((f64, f64), (f64, f64))>,
    /// Errors from t(ν) scaled to unit variance instead of the normal.
    t_df: Option<f64>,
}

const PLAIN: Look = Look {
    judge: (0.0, 1.0),
    anchor: (0.0, 1.0),
    codes: None,
    t_df: None,
};

/// N items of p judges and anchors with these ρ (σ_t² = 1, σ_c² = 0.8, σ_a = 0.7, ψ = 0.5),
/// every column read as numbers.
fn draw(n: usize, p: usize, rho: &[f64], look: Look, seed: u64) -> Panel {
    draw_at(0.8, n, p, rho, look, seed)
}

/// [`draw`] with σ_c² = `sc2` (near 0: the boundary of the parameter space).
fn draw_at(sc2: f64, n: usize, p: usize, rho: &[f64], look: Look, seed: u64) -> Panel {
    let (st2, sa) = (1.0f64, 0.7f64);
    let m = rho.len();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let t_dist = look.t_df.map(|df| StudentT::new(df).unwrap());
    let err = |rng: &mut ChaCha20Rng| -> f64 {
        match (&t_dist, look.t_df) {
            (Some(d), Some(df)) => d.sample(rng) / (df / (df - 2.0)).sqrt(),
            _ => StandardNormal.sample(rng),
        }
    };
    let mut data = vec![0.0; n * (p + m)];
    for i in 0..n {
        let (zt, zc): (f64, f64) = (
            StandardNormal.sample(&mut rng),
            StandardNormal.sample(&mut rng),
        );
        let (t, c) = (st2.sqrt() * zt, sc2.sqrt() * zc);
        for j in 0..p {
            data[j * n + i] = look.judge.0 + look.judge.1 * (t + c + 0.5f64.sqrt() * err(&mut rng));
        }
        for (k, r) in rho.iter().enumerate() {
            let beta = r * sa * sc2.sqrt();
            let u = (sa * sa - beta * beta / sc2).sqrt() * err(&mut rng);
            data[(p + k) * n + i] = look.anchor.0 + look.anchor.1 * (t + beta / sc2 * c + u);
        }
    }
    if let Some(((jl, jh), (al, ah))) = look.codes {
        for (c, x) in data.iter_mut().enumerate() {
            let (lo, hi) = if c / n < p { (jl, jh) } else { (al, ah) };
            *x = x.round().clamp(lo, hi);
        }
    }
    let judges = (1..=p).map(|j| format!("J{j}")).collect();
    let anchors = (1..=m).map(|k| format!("A{k}")).collect();
    let mut panel = Panel::new(n, data, judges, anchors);
    panel.scales = vec![Scale::Continuous; p + m];
    panel
}

fn fit_all(panel: &Panel) -> Fits {
    Fits::of(
        panel,
        &panel.covariance(),
        &Context::default(),
        &[Estimator::ClosedForm, Estimator::Ml, Estimator::FreeScale],
    )
}

fn codes(e: &Estimate) -> Vec<FlagCode> {
    e.flags.iter().map(|f| f.code).collect()
}

/// Every flag message of every fit, none of which may send the reader to another estimate.
fn messages(panel: &Panel, fits: &Fits) -> Vec<String> {
    let names = panel.anchors.clone();
    let mut out = Vec::new();
    for f in &fits.fits {
        for flag in &f.estimate.flags {
            let text = flag.message(&f.estimate, &names, &[]);
            assert!(!text.contains("read the free-scale"), "{text}");
            out.push(text);
        }
    }
    out
}

/// Anchors coded 1–5 with about a fifth of the items at each end code, judges coded 1–10.
const CENSORED: Look = Look {
    judge: (5.5, 1.7),
    anchor: (3.0, 1.3),
    codes: Some(((1.0, 10.0), (1.0, 5.0))),
    t_df: None,
};

#[test]
fn codes_piled_at_their_ends_are_flagged_on_every_estimator() {
    let panel = draw(2000, 6, &[0.1, 0.5, 0.3], CENSORED, 1);
    let fits = fit_all(&panel);
    for e in [Estimator::ClosedForm, Estimator::Ml, Estimator::FreeScale] {
        let est = fits.estimate(e).unwrap();
        assert!(
            codes(est).contains(&FlagCode::Censored),
            "{e:?}: {:?}",
            codes(est)
        );
        assert!(est.flagged());
    }
    let text = messages(&panel, &fits);
    let censored: Vec<&String> = text.iter().filter(|t| t.contains("piles")).collect();
    assert!(censored[0].starts_with("anchor A"), "{censored:?}");
    assert!(
        censored[0].contains("mark the column ordinal"),
        "{censored:?}"
    );
}

#[test]
fn a_censored_column_that_cannot_be_ordinal_is_not_told_to_be_marked_ordinal() {
    // Trial 43, finding 15: chatgpt's fractional scores pile at 1, and the flag said "mark the
    // column ordinal", which the panel refuses. Halved codes (1, 1.5, …) are such a column.
    let mut panel = draw(2000, 6, &[0.1, 0.5, 0.3], CENSORED, 1);
    for x in &mut panel.data {
        *x /= 2.0;
    }
    let fits = fit_all(&panel);
    let text = messages(&panel, &fits);
    let censored: Vec<&String> = text.iter().filter(|t| t.contains("piles")).collect();
    assert!(!censored.is_empty(), "{text:?}");
    for t in &censored {
        assert!(!t.contains("mark the column ordinal"), "{t}");
        assert!(t.contains("cannot be read as ordinal"), "{t}");
        assert!(t.contains("outside rhoscope"), "{t}");
    }
    let flag = fits
        .closed_form()
        .unwrap()
        .flags
        .iter()
        .find(|f| f.code == FlagCode::Censored);
    assert_eq!(
        flag.and_then(|f| f.remedy),
        Some(rhoscope::estimate::FlagRemedy::Outside)
    );
}

#[test]
fn continuous_judges_on_twice_the_anchors_range_are_flagged_and_two_anchors_said() {
    // Judges as averages around 1–10, anchors around 1–5: continuous, so no code range shows it.
    let look = Look {
        judge: (5.5, 1.6),
        anchor: (3.0, 0.8),
        ..PLAIN
    };
    let panel = draw(1000, 3, &[0.1, 0.5], look, 2);
    let fits = fit_all(&panel);
    let est = fits.closed_form().unwrap();
    assert!(
        codes(est).contains(&FlagCode::ScaleMismatch),
        "{:?}",
        codes(est)
    );
    let text = messages(&panel, &fits).join("\n");
    assert!(
        text.contains("with two anchors nothing in the data can test"),
        "{text}"
    );
    // The free-scale estimate frees the judges' scale: the range is no flag of its.
    if let Some(fs) = fits.estimate(Estimator::FreeScale) {
        assert!(!codes(fs).contains(&FlagCode::ScaleMismatch));
    }
    // Three anchors: the sentence does not claim nothing can test it.
    let panel = draw(1000, 3, &[0.1, 0.5, 0.3], look, 3);
    let fits = fit_all(&panel);
    assert!(codes(fits.closed_form().unwrap()).contains(&FlagCode::ScaleMismatch));
    assert!(!messages(&panel, &fits).join("\n").contains("two anchors"));
}

#[test]
fn heavy_tailed_errors_are_flagged_and_leave_the_points_readable() {
    let look = Look {
        t_df: Some(3.0),
        ..PLAIN
    };
    let panel = draw(5000, 6, &[0.1, 0.5, 0.3], look, 4);
    let fits = fit_all(&panel);
    let est = fits.closed_form().unwrap();
    assert_eq!(codes(est), vec![FlagCode::HeavyTails]);
    assert!(!est.flagged(), "heavy tails question the intervals only");
    let text = messages(&panel, &fits).join("\n");
    assert!(text.contains("intervals as optimistic"), "{text}");
    // The size of the optimism, as `boundary_interval_coverage` measured it (EDGE_T_DF=3).
    assert!(text.contains("covered 0.89"), "{text}");
}

#[test]
fn the_clean_designs_raise_none_of_the_edge_flags() {
    // Normal errors, one scale, continuous columns, at small and large N and several seeds.
    let edge = [
        FlagCode::Censored,
        FlagCode::HeavyTails,
        FlagCode::ScaleMismatch,
    ];
    for (n, seed) in [(200, 5), (500, 6), (2000, 7), (100_000, 8)] {
        for rho in [&[0.0, 0.0, 0.0][..], &[0.3, 0.7, 0.5], &[0.1, 0.5]] {
            let panel = draw(n, 6, rho, PLAIN, seed);
            for f in &fit_all(&panel).fits {
                let raised: Vec<FlagCode> = codes(&f.estimate)
                    .into_iter()
                    .filter(|c| edge.contains(c))
                    .collect();
                assert!(
                    raised.is_empty(),
                    "N={n} ρ={rho:?} {:?}: {raised:?}",
                    f.estimator
                );
            }
        }
    }
    // Gaussian columns rounded to integers far from any clamp: codes, but no pile at an end.
    let rounded = Look {
        judge: (0.0, 2.0),
        anchor: (0.0, 2.0),
        codes: Some(((-99.0, 99.0), (-99.0, 99.0))),
        t_df: None,
    };
    let panel = draw(2000, 6, &[0.3, 0.7, 0.5], rounded, 9);
    for f in &fit_all(&panel).fits {
        assert!(!codes(&f.estimate).contains(&FlagCode::Censored));
    }
}

#[test]
#[ignore = "measures what censoring does to ρ̂: cargo test --release --test edges -- --ignored"]
fn censoring_bias_measured() {
    let rho = [0.1, 0.5, 0.3];
    let reps = 40;
    let mut sum = [0.0; 3];
    let mut count = [0usize; 3];
    for r in 0..reps {
        let panel = draw(2000, 6, &rho, CENSORED, 100 + r);
        if let Some(fs) = fit_all(&panel).estimate(Estimator::FreeScale) {
            for (k, v) in fs.rho().iter().enumerate() {
                if let Some(v) = v {
                    sum[k] += v - rho[k];
                    count[k] += 1;
                }
            }
        }
    }
    for k in 0..3 {
        println!(
            "A{} ρ = {}: mean bias {:.3} over {}",
            k + 1,
            rho[k],
            sum[k] / count[k] as f64,
            count[k]
        );
    }
}

/// Coverage of anchor A2's ρ (`EDGE_RHO`, default 0.95; A1 and A3 at 0.3 and 0.5) by the
/// closed form's (`EDGE_FREE`: the free-scale's) percentile interval and by two intervals on
/// Fisher's z = atanh ρ (basic, 2ẑ − z*; normal, ẑ ± 1.96 SD(z*)), at N = `EDGE_N` (default
/// 2000) over `EDGE_PANELS` panels (default 300) with B = 300 resamples each; `EDGE_T_DF`
/// draws every error from t(ν) scaled to unit variance (heavy tails). Also prints the mean
/// bootstrap SD of ρ̂ against ρ̂'s SD over the panels. Panels run in parallel; each has its
/// own seed and streams, so the counts do not depend on the thread count.
#[test]
#[ignore = "measures intervals near ρ = 1: cargo test --test edges boundary -- --ignored --nocapture"]
fn boundary_interval_coverage() {
    use rayon::prelude::*;
    use rhoscope::bootstrap::bootstrap;
    use rhoscope::progress::silent;
    use rhoscope::rng::Streams;
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<f64>().ok());
    let count = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let panels = count("EDGE_PANELS", 300);
    let truth = env("EDGE_RHO").unwrap_or(0.95);
    let n = usize::try_from(count("EDGE_N", 2000)).expect("a panel size");
    let look = Look {
        t_df: env("EDGE_T_DF"),
        ..PLAIN
    };
    let k = 1;
    let which = if std::env::var("EDGE_FREE").is_ok() {
        Estimator::FreeScale
    } else {
        Estimator::ClosedForm
    };
    let covers = |lo: f64, hi: f64| usize::from(lo <= truth && truth <= hi);
    // Per panel: ρ̂, bootstrap SD, and whether the percentile, basic-z and normal-z intervals cover.
    let runs: Vec<(f64, f64, [usize; 3])> = (0..panels)
        .into_par_iter()
        .filter_map(|i| {
            let panel = draw(n, 6, &[0.3, truth, 0.5], look, 500 + i);
            let rho = fit_all(&panel).estimate(which).and_then(|e| e.rho()[k])?;
            let streams = Streams {
                seed: 1,
                base: i * 1000,
            };
            let boot = bootstrap(&panel, &[which], &Context::default(), 300, streams, &silent)
                .expect("never stopped");
            let iv = boot[0].rho[k]?;
            let draws = &boot[0].rho_draws[k];
            let mean = draws.iter().sum::<f64>() / draws.len() as f64;
            let sd_boot = (draws.iter().map(|v| (v - mean).powi(2)).sum::<f64>()
                / (draws.len() - 1) as f64)
                .sqrt();
            let mut zs: Vec<f64> = draws
                .iter()
                .filter(|r| r.abs() < 1.0)
                .map(|r| r.atanh())
                .collect();
            zs.sort_by(f64::total_cmp);
            let zh = rho.clamp(-0.999_999, 0.999_999).atanh();
            let q = |permille: usize| zs[(zs.len() - 1) * permille / 1000];
            let basic = covers((2.0 * zh - q(975)).tanh(), (2.0 * zh - q(25)).tanh());
            let zm = zs.iter().sum::<f64>() / zs.len() as f64;
            let zsd =
                (zs.iter().map(|v| (v - zm).powi(2)).sum::<f64>() / (zs.len() - 1) as f64).sqrt();
            let normal = covers((zh - 1.96 * zsd).tanh(), (zh + 1.96 * zsd).tanh());
            Some((rho, sd_boot, [covers(iv.lo, iv.hi), basic, normal]))
        })
        .collect();
    let ran = runs.len();
    let count = |j: usize| runs.iter().map(|r| r.2[j]).sum::<usize>();
    let rate = |c: usize| c as f64 / ran as f64;
    let se = |c: usize| (rate(c) * (1.0 - rate(c)) / ran as f64).sqrt();
    let mean_rho = runs.iter().map(|r| r.0).sum::<f64>() / ran as f64;
    let sd_rho =
        (runs.iter().map(|r| (r.0 - mean_rho).powi(2)).sum::<f64>() / (ran - 1) as f64).sqrt();
    let sd_boot = runs.iter().map(|r| r.1).sum::<f64>() / ran as f64;
    let (pct, basic, normal) = (count(0), count(1), count(2));
    println!(
        "{which:?}, ρ = {truth}, N = {n}, t_df = {:?}, {ran} panels: percentile {:.3} ± {:.3}, basic on z {:.3} ± {:.3}, normal on z {:.3} ± {:.3}; mean ρ̂ {mean_rho:.4}, SD of ρ̂ {sd_rho:.4}, mean bootstrap SD {sd_boot:.4} ({:.2}×)",
        look.t_df,
        rate(pct),
        se(pct),
        rate(basic),
        se(basic),
        rate(normal),
        se(normal),
        sd_boot / sd_rho
    );
}

/// Test O's size where the free-scale fit ends on the boundary but its identified set is not
/// empty, so Test O reads the linearised statistic (issue 35). Truth on the boundary: σ_c² =
/// 0.005 (c all but absent), three clean anchors, six continuous judges, N = 1000. Among the
/// panels whose fit carries `boundary` and not `anchors_misfit`, the share Test O fires on,
/// with its binomial SE, against the 200-draw threshold's nominal 0.0545.
/// `EDGE_PANELS` (default 400), `EDGE_DRAWS` (default 200), `EDGE_SC2` (default 0.005).
#[test]
#[ignore = "measures Test O at boundary fits: cargo test --release --test edges test_o_size_at -- --ignored --nocapture"]
fn test_o_size_at_boundary_fits() {
    use rayon::prelude::*;
    use rhoscope::battery::{self, NullSpec, Options, TestId, Verdict};
    use rhoscope::progress::silent;
    let env = |name: &str, default: f64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(default)
    };
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "small counts"
    )]
    let (panels, draws) = (
        env("EDGE_PANELS", 400.0) as u64,
        env("EDGE_DRAWS", 200.0) as usize,
    );
    let sc2 = env("EDGE_SC2", 0.005);
    // Per panel: (boundary fit with a non-empty set, Test O ran, Test O fired).
    let runs: Vec<(bool, bool, bool)> = (0..panels)
        .into_par_iter()
        .map(|i| {
            let panel = draw_at(sc2, 1000, 6, &[0.0, 0.0, 0.0], PLAIN, 7000 + i);
            let opts = Options {
                resamples: 0,
                null_draws: draws,
                seed: 7000 + i,
            };
            let r =
                battery::run(&panel, &NullSpec::Matched, &opts, &silent).expect("never stopped");
            let fit = rhoscope::estimate::free_scale::fit_panel_identified(&panel);
            let at_edge = fit.is_ok_and(|(f, _)| {
                let e = &f.estimate;
                e.has_flag(FlagCode::Boundary) && !e.has_flag(FlagCode::AnchorsMisfit)
            });
            let o = r.tests[TestId::O].verdict;
            (at_edge, o != Verdict::NotApplicable, o == Verdict::Fires)
        })
        .collect();
    let d = draws as f64;
    let nominal = (d - 0.95 * (d - 1.0)) / (d + 1.0);
    let rate = |sel: &dyn Fn(&(bool, bool, bool)) -> bool| {
        let ran: Vec<_> = runs.iter().filter(|r| r.1 && sel(r)).collect();
        let fired = ran.iter().filter(|r| r.2).count();
        let n = ran.len().max(1) as f64;
        let p = fired as f64 / n;
        (fired, ran.len(), p, (nominal * (1.0 - nominal) / n).sqrt())
    };
    let (fe, ne, pe, se_e) = rate(&|r| r.0);
    let (fa, na, pa, se_a) = rate(&|r| !r.0);
    println!("σ_c² = {sc2}, N = 1000, {panels} panels, {draws} null draws, nominal {nominal:.4}");
    println!(
        "  boundary fit, set not empty: {fe}/{ne} = {pe:.3} (nominal ± 2 SE: {:.3}–{:.3})",
        nominal - 2.0 * se_e,
        nominal + 2.0 * se_e
    );
    println!(
        "  every other fit:             {fa}/{na} = {pa:.3} (± 2 SE: {:.3}–{:.3})",
        nominal - 2.0 * se_a,
        nominal + 2.0 * se_a
    );
    assert!(ne > 0, "no boundary fit among {panels} panels");
}
