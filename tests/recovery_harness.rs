//! The recovery harness: on panels drawn by this file's own generator, written from the model
//! (t, c, judge and anchor errors drawn here, not by `rhoscope::simulate`), every estimator's
//! ρ̂_k either covers the truth at the nominal rate or is undefined, flagged, guarded by a
//! firing test, or an identified set that covers it — never an unguarded number off by more
//! than its interval.
//!
//! The default suite runs a small version; the full table (N = 500, 2000 and 10⁵, every
//! design) is `cargo test --release --test recovery_harness -- --ignored --nocapture`
//! (`RECOVERY_REPS`, default 100 replicates, a quarter of them at 10⁵; `RECOVERY_DESIGN`, a
//! part of a design's name, to run one), and its output is the table in docs/recovery.md. Tolerances are Monte-Carlo: a coverage rate
//! over n unguarded intervals must reach 0.95 − 3·√(0.95·0.05/n).

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rand_distr::{Distribution, StandardNormal};
use rhoscope::battery::decision;
use rhoscope::battery::{self, NullSpec, Options, TestId, Verdict};
use rhoscope::estimate::{Context, Estimator};
use rhoscope::panel::{Panel, Scale};
use rhoscope::progress::silent;

/// One design of the harness, in the model's own terms.
#[derive(Debug, Clone)]
struct Design {
    name: &'static str,
    sigma_t2: f64,
    sigma_c2: f64,
    rho: Vec<f64>,
    sigma_a: Vec<f64>,
    /// Judge scales a_j (the model's a_j = 1); judge error variances ψ_j.
    scale: Vec<f64>,
    psi: Vec<f64>,
    /// A second factor on the judges only: loadings (a Heywood judge when signs split).
    second: Vec<f64>,
    /// Judges cut into this many equal-probability levels (0: continuous).
    judge_levels: usize,
    /// Anchors 0..k observed continuous, the rest cut into 5 levels.
    continuous_anchors: usize,
    /// Judges' multiplier against the anchors (judges on another scale), and integer rounding.
    judge_unit: f64,
    round: bool,
}

impl Design {
    fn base(name: &'static str, rho: Vec<f64>) -> Design {
        let m = rho.len();
        Design {
            name,
            sigma_t2: 1.0,
            sigma_c2: 0.8,
            sigma_a: [0.5, 0.6, 0.7][..m].to_vec(),
            rho,
            scale: vec![1.0; 6],
            psi: vec![1.0; 6],
            second: vec![0.0; 6],
            judge_levels: 0,
            continuous_anchors: m,
            judge_unit: 1.0,
            round: false,
        }
    }

    fn p(&self) -> usize {
        self.scale.len()
    }

    /// Draws N items: column-major judges then anchors.
    fn draw(&self, n: usize, seed: u64) -> Panel {
        let (p, m) = (self.p(), self.rho.len());
        let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5e_ed0f_4a11);
        let mut z = || -> f64 { StandardNormal.sample(&mut rng) };
        let beta: Vec<f64> = (0..m)
            .map(|k| self.rho[k] * self.sigma_a[k] * self.sigma_c2.sqrt())
            .collect();
        let mut data = vec![0.0; n * (p + m)];
        for i in 0..n {
            let t = self.sigma_t2.sqrt() * z();
            let c = self.sigma_c2.sqrt() * z();
            let d = z();
            for j in 0..p {
                let x = self.scale[j] * (t + c) + self.second[j] * d + self.psi[j].sqrt() * z();
                data[j * n + i] = self.judge_unit * x;
            }
            for k in 0..m {
                let u2 = self.sigma_a[k].powi(2) - beta[k].powi(2) / self.sigma_c2;
                data[(p + k) * n + i] = t + beta[k] / self.sigma_c2 * c + u2.sqrt() * z();
            }
        }
        if self.judge_levels > 0 {
            for j in 0..p {
                cut(&mut data[j * n..(j + 1) * n], self.judge_levels);
            }
        }
        for k in self.continuous_anchors..m {
            cut(&mut data[(p + k) * n..(p + k + 1) * n], 5);
        }
        if self.round {
            for x in &mut data {
                *x = x.round();
            }
        }
        let judges = (1..=p).map(|j| format!("J{j}")).collect();
        let anchors = (1..=m).map(|k| format!("A{k}")).collect();
        let mut panel = Panel::new(n, data, judges, anchors);
        if self.round {
            // The user said `--continuous all`: rounded scores are read as numbers.
            panel.scales = vec![Scale::Continuous; p + m];
        }
        panel
    }
}

/// Cuts a column into `levels` equal-probability codes 1..=levels by its sample quantiles.
fn cut(col: &mut [f64], levels: usize) {
    let mut sorted = col.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let cuts: Vec<f64> = (1..levels).map(|l| sorted[l * n / levels]).collect();
    for x in col.iter_mut() {
        *x = 1.0 + cuts.iter().filter(|c| **c <= *x).count() as f64;
    }
}

/// ρ_k giving every anchor of the base design the same β = ρ_k σ_ak σ_c.
fn equal_beta(beta: f64) -> Vec<f64> {
    [0.5, 0.6, 0.7]
        .iter()
        .map(|a: &f64| beta / (a * 0.8f64.sqrt()))
        .collect()
}

/// The designs of the table.
fn designs() -> Vec<Design> {
    let distinct = Design::base("distinct ρ (0.3, 0.7, 0.5)", vec![0.3, 0.7, 0.5]);
    let mut unequal = Design::base("unequal judge scales, ρ = 0", vec![0.0; 3]);
    unequal.scale = vec![0.6, 0.8, 1.0, 1.2, 1.5, 1.8];
    let mut heywood = Design::base("Heywood judge (p = 3)", vec![0.3, 0.7, 0.5]);
    heywood.scale = vec![1.0; 3];
    heywood.psi = vec![0.1, 0.5, 0.5];
    heywood.second = vec![0.0, 0.6, -0.6];
    let mut small_c = Design::base("σ_c² = 0.02 (near 0)", vec![0.3, 0.7, 0.5]);
    small_c.sigma_c2 = 0.02;
    let mut other_scale = Design::base("judges on 2× the anchors' scale, codes", vec![0.1, 0.5]);
    other_scale.judge_unit = 2.0;
    other_scale.round = true;
    let mut ord3 = Design::base("5-level judges, 3 continuous anchors", vec![0.3, 0.7, 0.5]);
    ord3.judge_levels = 5;
    let mut ord2 = Design::base("5-level judges, 2 continuous anchors", vec![0.3, 0.7]);
    ord2.judge_levels = 5;
    let mut all_ord = Design::base("all ordinal (5-level)", vec![0.3, 0.7, 0.5]);
    all_ord.judge_levels = 5;
    all_ord.continuous_anchors = 0;
    vec![
        Design::base("all anchors clean", vec![0.0; 3]),
        // Equal β (not equal ρ: with unequal σ_a that would be unequal β) is the ridge.
        Design::base("all equally contaminated (β = 0.2)", equal_beta(0.2)),
        distinct,
        unequal,
        heywood,
        small_c,
        other_scale,
        ord3,
        ord2,
        all_ord,
    ]
}

/// What one estimator did for one anchor over the replicates.
#[derive(Debug, Default, Clone)]
struct Cell {
    /// Unguarded points with an interval, and how many covered the truth.
    points: usize,
    covered: usize,
    /// Identified sets (ρ̂ undefined) and how many covered the truth.
    sets: usize,
    set_covered: usize,
    /// Undefined, flagged or guarded, by reason.
    reasons: BTreeMap<String, usize>,
}

impl Cell {
    fn reason(&mut self, why: &str) {
        *self.reasons.entry(why.to_string()).or_default() += 1;
    }

    fn floor(n: usize) -> f64 {
        0.95 - 3.0 * (0.95 * 0.05 / n as f64).sqrt()
    }

    /// Coverage problems: a rate below its Monte-Carlo floor over at least 20 intervals.
    fn failure(&self) -> Option<String> {
        let bad = |k: usize, n: usize| n >= 20 && (k as f64 / n as f64) < Cell::floor(n);
        if bad(self.covered, self.points) {
            return Some(format!("points cover {}/{}", self.covered, self.points));
        }
        if bad(self.set_covered, self.sets) {
            return Some(format!("sets cover {}/{}", self.set_covered, self.sets));
        }
        None
    }

    fn summary(&self) -> String {
        let mut parts = Vec::new();
        if self.points > 0 {
            parts.push(format!(
                "covers {}/{} ({:.2})",
                self.covered,
                self.points,
                self.covered as f64 / self.points as f64
            ));
        }
        if self.sets > 0 {
            parts.push(format!("set covers {}/{}", self.set_covered, self.sets));
        }
        for (why, n) in &self.reasons {
            parts.push(format!("{why} {n}"));
        }
        parts.join("; ")
    }
}

/// The tests that guard each estimator's point estimates (decision::route's rule).
fn guards(e: Estimator) -> &'static [TestId] {
    match e {
        Estimator::ClosedForm | Estimator::Ml | Estimator::DesignatedClean => {
            &[TestId::A, TestId::B]
        }
        Estimator::Blocked => &[TestId::A, TestId::B],
        Estimator::FreeScale | Estimator::DesignatedCleanLatent => &[TestId::J, TestId::O],
    }
}

/// Runs `reps` replicates of a design at N and tallies every estimator and anchor.
fn run(design: &Design, n: usize, reps: usize, opts: &Options) -> BTreeMap<(String, usize), Cell> {
    let mut cells: BTreeMap<(String, usize), Cell> = BTreeMap::new();
    let m = design.rho.len();
    for r in 0..reps {
        let panel = design.draw(n, 1000 * n as u64 + r as u64);
        if let Some(why) = decision::refusal(&panel) {
            let reason = if why.contains("every column is ordinal") {
                "refused: all ordinal"
            } else {
                "refused: < 3 continuous anchors"
            };
            for k in 0..m {
                cells
                    .entry(("every estimator".into(), k))
                    .or_default()
                    .reason(reason);
            }
            continue;
        }
        let opts = Options {
            seed: r as u64 + 1,
            ..*opts
        };
        let report = battery::run(&panel, &NullSpec::Matched, &opts, &silent).expect("not stopped");
        let fires = |t: TestId| report.tests[t].verdict == Verdict::Fires;
        for f in &report.fits {
            let name = f.estimator.key().to_string();
            let set = match &f.detail {
                rhoscope::estimate::Detail::FreeScale(fs) => fs.identified.clone(),
                _ => None,
            };
            for k in 0..m {
                let cell = cells.entry((name.clone(), k)).or_default();
                let truth = design.rho[k];
                match (f.estimate.anchors[k].rho, f.boot.rho[k]) {
                    (None, _) => {
                        let code = f
                            .estimate
                            .flags
                            .first()
                            .map_or("undefined", |x| x.code.as_str());
                        cell.reason(&format!("undefined ({code})"));
                        if let Some((lo, hi)) = set.as_ref().and_then(|s| s.rho[k]) {
                            cell.sets += 1;
                            cell.set_covered += usize::from(lo <= truth && truth <= hi);
                        }
                    }
                    (Some(_), _) if !f.estimate.flags.is_empty() => {
                        cell.reason(&format!("flagged ({})", f.estimate.flags[0].code.as_str()));
                    }
                    (Some(_), _) if guards(f.estimator).iter().any(|&t| fires(t)) => {
                        cell.reason("guarded by a firing test");
                    }
                    (Some(_), None) => cell.reason("no interval"),
                    (Some(_), Some(ci)) => {
                        cell.points += 1;
                        cell.covered += usize::from(ci.lo <= truth && truth <= ci.hi);
                    }
                }
            }
        }
        // ML beside the battery: its Wald interval ρ̂ ± 1.96 SE, where the fit is clean.
        let ctx = Context::default();
        if let Ok(ml) = Estimator::Ml.fit(&panel, &panel.covariance(), &ctx) {
            let rhoscope::estimate::Detail::Ml(fit) = &ml.detail else {
                continue;
            };
            for k in 0..m {
                let cell = cells.entry(("ml".into(), k)).or_default();
                let truth = design.rho[k];
                match ml.estimate.anchors[k].rho {
                    None => cell.reason(&format!(
                        "undefined ({})",
                        ml.estimate
                            .flags
                            .first()
                            .map_or("undefined", |x| x.code.as_str())
                    )),
                    Some(_) if !ml.estimate.flags.is_empty() => {
                        cell.reason(&format!("flagged ({})", ml.estimate.flags[0].code.as_str()));
                    }
                    Some(_) if guards(Estimator::Ml).iter().any(|&t| fires(t)) => {
                        cell.reason("guarded by a firing test");
                    }
                    Some(rho) => {
                        let se = fit.se.rho[k];
                        if se.is_finite() {
                            cell.points += 1;
                            cell.covered += usize::from((rho - truth).abs() <= 1.96 * se);
                        } else {
                            cell.reason("no interval");
                        }
                    }
                }
            }
        }
    }
    cells
}

/// Prints a design's rows and returns its coverage failures.
fn report(design: &Design, n: usize, cells: &BTreeMap<(String, usize), Cell>) -> Vec<String> {
    let mut failures = Vec::new();
    for ((est, k), cell) in cells {
        println!(
            "| {} | {n} | {est} | A{} ({:.2}) | {} |",
            design.name,
            k + 1,
            design.rho[*k],
            cell.summary()
        );
        if let Some(f) = cell.failure() {
            failures.push(format!("{} N={n} {est} A{}: {f}", design.name, k + 1));
        }
    }
    failures
}

fn opts(resamples: usize, null_draws: usize) -> Options {
    Options {
        resamples,
        null_draws,
        seed: 1,
    }
}

#[test]
fn the_clean_and_equal_ridge_never_gives_a_point_and_its_set_covers() {
    // The first rows: every anchor clean, and all equally contaminated, at N = 2000.
    for design in &designs()[..2] {
        let cells = run(design, 2000, 8, &opts(100, 100));
        for k in 0..3 {
            let fs = &cells[&("free_scale".to_string(), k)];
            assert_eq!(fs.points, 0, "{}: {fs:?}", design.name);
            assert_eq!(fs.set_covered, fs.sets, "{}: {fs:?}", design.name);
            assert!(fs.sets >= 6, "{}: {fs:?}", design.name);
        }
    }
}

#[test]
fn refusals_and_flags_on_ordinal_and_heywood_panels() {
    let d = designs();
    let find = |name: &str| d.iter().find(|x| x.name.starts_with(name)).unwrap();
    for name in ["5-level judges, 2", "all ordinal"] {
        let cells = run(find(name), 1000, 2, &opts(50, 50));
        let cell = &cells[&("every estimator".to_string(), 0)];
        assert_eq!(cell.reasons.values().sum::<usize>(), 2, "{name}: {cell:?}");
    }
    let cells = run(find("Heywood"), 2000, 4, &opts(50, 50));
    let fs = &cells[&("free_scale".to_string(), 0)];
    assert_eq!(
        fs.reasons.get("undefined (heywood_judge)"),
        Some(&4),
        "{fs:?}"
    );
    let cells = run(find("judges on 2×"), 2000, 4, &opts(50, 50));
    let cf = &cells[&("estimate".to_string(), 0)];
    assert_eq!(cf.points, 0, "{cf:?}");
}

#[test]
fn the_edge_flags_stay_quiet_on_the_designs_where_the_model_holds() {
    // The designs on one scale with Gaussian errors: no column piles at an end, no heavy tail,
    // no range apart; the Heywood design too (its second factor is Gaussian).
    use rhoscope::estimate::{Fits, FlagCode};
    let edge = [
        FlagCode::Censored,
        FlagCode::HeavyTails,
        FlagCode::ScaleMismatch,
    ];
    let d = designs();
    let quiet: Vec<&Design> = d
        .iter()
        .filter(|x| {
            x.judge_unit == 1.0
                && x.judge_levels == 0
                && x.continuous_anchors == x.rho.len()
                && x.scale.iter().all(|a| *a == 1.0)
        })
        .collect();
    assert_eq!(
        quiet.len(),
        5,
        "the clean, ridge, distinct, Heywood and small-σ_c designs"
    );
    let all = [
        Estimator::ClosedForm,
        Estimator::Ml,
        Estimator::Blocked,
        Estimator::FreeScale,
    ];
    for design in quiet {
        for (n, seed) in [(500, 11), (2000, 12), (100_000, 13)] {
            let panel = design.draw(n, seed);
            let ctx = Context::default();
            let fits = Fits::of_points(&panel, &panel.covariance(), &ctx, &all);
            for f in &fits.fits {
                let raised: Vec<_> = f
                    .estimate
                    .flags
                    .iter()
                    .filter(|g| edge.contains(&g.code))
                    .collect();
                assert!(
                    raised.is_empty(),
                    "{} N={n} {:?}: {raised:?}",
                    design.name,
                    f.estimator
                );
            }
        }
    }
}

#[test]
fn distinct_rho_covers_at_the_nominal_rate_small() {
    let design = &designs()[2];
    let cells = run(design, 2000, 40, &opts(200, 100));
    let failures = report(design, 2000, &cells);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore = "the full recovery table: minutes in release mode"]
fn full_recovery_table() {
    let reps: usize = std::env::var("RECOVERY_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    println!("| design | N | estimator | anchor (ρ) | outcome |");
    println!("|---|---|---|---|---|");
    let only = std::env::var("RECOVERY_DESIGN").unwrap_or_default();
    let mut failures = Vec::new();
    for design in designs()
        .into_iter()
        .filter(|d| d.name.contains(only.as_str()))
    {
        for n in [500, 2000, 100_000] {
            let r = if n == 100_000 { reps / 4 } else { reps };
            let cells = run(&design, n, r.max(1), &opts(200, 200));
            failures.extend(report(&design, n, &cells));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
