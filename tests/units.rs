//! ρ is dimensionless: every estimator gives the same ρ̂ and the same flags when the scores'
//! units change (every cell × c), variances scale by c², and the free-scale fit is unchanged by
//! the anchors' common unit and by each judge's own unit.

use rhoscope::estimate::{Context, Estimate, Estimator, Fits};
use rhoscope::families::JudgeFamilies;
use rhoscope::model::Params;
use rhoscope::neff;
use rhoscope::panel::Panel;
use rhoscope::simulate::simulate;

/// Unit changes the loader accepts (|x| ≤ 1e150 and ≥ 1e-150 on a panel of unit scale).
const UNITS: [f64; 8] = [1e-100, 1e-5, 1e-3, 0.01, 10.0, 1e4, 1e80, 1e100];

/// Relative agreement required: rounding, not a tolerance.
const REL: f64 = 1e-9;

/// A panel drawn from the one-factor model: 6 judges on their own scales, 3 anchors, two
/// families of judges so the blocked estimate runs.
fn base() -> Panel {
    let mut pm = Params {
        p: 6,
        rho: vec![0.3, 0.7, 0.5],
        sigma_a: vec![0.8, 0.9, 0.7],
        ..Params::default()
    };
    pm.judge_var = vec![0.5; 6];
    pm.violations.judge_scale = vec![0.6, 0.8, 1.0, 1.2, 1.5, 1.8];
    let mut panel = simulate(&pm, 400, 3).unwrap();
    panel.families = Some(["f", "f", "f", "g", "g", "g"].map(String::from).to_vec());
    panel
}

/// `panel` with column c multiplied by `factor(c)`.
fn scaled(panel: &Panel, factor: impl Fn(usize) -> f64) -> Panel {
    let n = panel.n;
    let data = panel
        .data
        .iter()
        .enumerate()
        .map(|(i, x)| x * factor(i / n))
        .collect();
    let mut out = Panel::new(n, data, panel.judges.clone(), panel.anchors.clone());
    out.families.clone_from(&panel.families);
    out
}

fn fits(panel: &Panel, which: &[Estimator]) -> Fits {
    let ctx = Context {
        families: Some(JudgeFamilies::from_labels(panel.families.as_ref().unwrap())),
        clean: Some(0),
    };
    Fits::of(panel, &panel.covariance(), &ctx, which)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= REL * a.abs().max(b.abs()) || (a.is_nan() && b.is_nan())
}

/// The flag codes of an estimate, sorted: its verdicts.
fn codes(e: &Estimate) -> Vec<String> {
    let mut v: Vec<String> = e.flags.iter().map(|f| format!("{:?}", f.code)).collect();
    v.sort();
    v
}

/// `got` (at unit change c, variances × c²) against `want`, with what differs.
fn same(want: &Estimate, got: &Estimate, c2: f64, what: &str) {
    assert_eq!(codes(want), codes(got), "{what}: flags");
    for (k, (w, g)) in want.rho().iter().zip(got.rho()).enumerate() {
        match (w, g) {
            (Some(w), Some(g)) => assert!(close(*w, g), "{what}: ρ̂_{k} {w} vs {g}"),
            (None, None) => {}
            _ => panic!("{what}: ρ̂_{k} {w:?} vs {g:?}"),
        }
    }
    assert!(
        close(want.sigma_t2, got.sigma_t2 / c2),
        "{what}: σ̂_t² {:e} vs {:e}",
        want.sigma_t2,
        got.sigma_t2 / c2
    );
    assert!(close(want.sigma_c2, got.sigma_c2 / c2), "{what}: σ̂_c²");
    for (w, g) in want.anchors.iter().zip(&got.anchors) {
        // β_k = 0 (the designated anchor) agrees to rounding relative to K, not to itself.
        let d = (w.beta - g.beta / c2).abs();
        assert!(
            close(w.beta, g.beta / c2) || d <= REL * want.k.abs(),
            "{what}: β̂ {:e} vs {:e}",
            w.beta,
            g.beta / c2
        );
    }
}

#[test]
fn every_estimator_gives_the_same_rho_in_any_units() {
    let panel = base();
    let all: Vec<Estimator> = Estimator::ALL.to_vec();
    let want = fits(&panel, &all);
    assert!(want.refused.is_empty(), "{:?}", want.refused);
    assert_eq!(want.fits.len(), all.len());
    for c in UNITS {
        let got = fits(&scaled(&panel, |_| c), &all);
        assert!(got.refused.is_empty(), "×{c:e}: {:?}", got.refused);
        for (w, g) in want.fits.iter().zip(&got.fits) {
            // The latent fit reports variances on the judges' latent scale (K = 1).
            let c2 = if w.estimator == Estimator::DesignatedCleanLatent {
                1.0
            } else {
                c * c
            };
            same(
                &w.estimate,
                &g.estimate,
                c2,
                &format!("{} ×{c:e}", w.estimator.key()),
            );
        }
    }
}

#[test]
fn the_free_scale_fit_ignores_the_anchors_unit_and_each_judges_unit() {
    let panel = base();
    let p = panel.p();
    let fs = [Estimator::FreeScale];
    let want = fits(&panel, &fs);
    let want = &want.fits[0].estimate;
    for c in UNITS {
        let anchors = fits(&scaled(&panel, |col| if col < p { 1.0 } else { c }), &fs);
        same(
            want,
            &anchors.fits[0].estimate,
            c * c,
            &format!("anchors ×{c:e}"),
        );
        // Each judge its own unit, the anchors untouched.
        let judges = fits(
            &scaled(
                &panel,
                |col| if col < p { c * (col + 1) as f64 } else { 1.0 },
            ),
            &fs,
        );
        same(
            want,
            &judges.fits[0].estimate,
            1.0,
            &format!("judges ×{c:e}·j"),
        );
    }
}

#[test]
fn judge_correlations_do_not_overflow_or_underflow() {
    let panel = base();
    let p = panel.p();
    let judges = |panel: &Panel| panel.covariance().view((0, 0), (p, p)).into_owned();
    let want = neff::mean_correlation(&judges(&panel)).unwrap();
    let shares = neff::shared_shares(&judges(&panel)).unwrap();
    for c in UNITS {
        let s = scaled(&panel, |_| c);
        let got = neff::mean_correlation(&judges(&s)).unwrap();
        assert!(close(want, got), "r̄ ×{c:e}: {want} vs {got}");
        for (w, g) in shares.iter().zip(neff::shared_shares(&judges(&s)).unwrap()) {
            assert!(close(*w, g), "shared share ×{c:e}: {w} vs {g}");
        }
    }
}
