//! Rough wall-clock costs of the slow computations, from the panel's shape alone, so a command
//! can say "this will take about …" before a long ML fit or battery instead of going quiet.
//! The constants were measured on a 2-core machine under load (release build); they are
//! estimates for a warning, never a limit.

/// Expected seconds above which a command warns before starting.
pub const WARN_SECONDS: f64 = 1.0;

/// Seconds per q⁴ of one ML start at its most (Section 6's comparison,
/// [`crate::estimate::ml`]): the expected information takes (p + 2m + 2)² traces of q × q
/// products per scoring step, and the steps a start takes depend on the data, so this is a
/// bound. Measured: synthetic q = 82 in 0.5 s and q = 122 in 2.6 s a start; the real 120-judge
/// HANNA-LLM panel (q = 123, two starts, one of 19 steps) 38 CPU s under a load of 10-14.
const ML_PER_Q4: f64 = 5.0e-8;
/// Seconds per resample and item (drawing the index and counting it), and per resample, item
/// and feature (the count-weighted moment sums of the item bootstrap).
const BOOT_PER_DRAW: f64 = 1.0e-8;
const BOOT_PER_FEATURE: f64 = 5.0e-10;
/// Seconds per q³ of one Gaussian null draw (a Wishart by Bartlett decomposition, docs/method.md §3).
/// Measured: q = 252 with 1000 draws in 2.4 s.
const WISHART_PER_Q3: f64 = 1.5e-10;
/// Seconds per simulated row and column of one ordinal null draw that simulates rows (the
/// free-scale null of a Likert panel: the row's latent normals, their Cholesky product and
/// the row's tally, docs/method.md §3). Fitted with the next two to six 5-level judges and
/// three anchors: 2.30 CPU s at N = 2000, 7.34 at N = 20 000 and 24.0 at N = 100 000
/// (release, 2 cores, load average about 20).
const ORDINAL_PER_ROW: f64 = 3.0e-8;
/// Seconds per item of one pattern draw (the judges' own null: an alias-table pick and a
/// count per item, no row).
const PATTERN_PER_ITEM: f64 = 4.0e-9;
/// Seconds per asymptotic null draw and column² (a Gaussian combination of the pilot's
/// vectors, then the statistics' fits on the drawn correlations).
const ASYMPTOTIC_PER_COORDINATE: f64 = 1.0e-7;
/// Seconds per item and column pair of a Likert panel's point fits (the identified set's
/// delete-a-group jackknife recomputes the mixed correlations from the items 50 times, and
/// the cost note's own plan makes the point fits once more): 1.7 CPU s at N = 10⁵, q = 9.
const POINT_PER_ITEM_PAIR: f64 = 4.7e-7;
/// Seconds of a battery besides its resamples and null draws (process start, point fits,
/// identified sets): 0.10 CPU s on a 10-item all-ordinal panel at B = D = 100 and at B = 1000,
/// D = 5000 alike.
const BATTERY_BASE: f64 = 0.1;
/// Seconds per Likert sample (a null draw or a resample) and judge pair: the pair's polychoric
/// fit, a few evaluations of the bivariate normal on its table's grid, whatever N.
const ORDINAL_PER_PAIR: f64 = 5.0e-5;
/// Seconds per q² and per q³ of one latent fit of q columns (the free-scale fit, or the
/// judges' one-factor fit of a null draw): its iterations over the q × q correlations.
/// Measured (one thread, CPU seconds): 300 continuous items, 6 judges and 3 anchors, closed
/// form out of range, 52 µs per resample and 55 per null draw (both nulls); with 12 judges,
/// 82 and 118 µs; 5 judges' one-factor null alone (hanna-llm), 9 µs per draw; 250 judges
/// and 2 anchors at N = 2000, B = 300, D = 1000: 77 s, Test J's fits nearly all of it.
const LATENT_FIT_PER_Q2: f64 = 4.0e-7;
const LATENT_FIT_PER_Q3: f64 = 3.0e-9;
/// How many times a converging latent fit's cost one that runs to its iteration cap costs.
/// Measured (one thread, CPU seconds, B = 200 and 2000, D = 20, load average 13): assets/
/// three-anchor.csv's converging refits 128 µs per resample, HANNA-LLM coherence (5 judges,
/// human1..3 continuous, N = 1040, free-scale fit not converged) 905 µs, the fit's share
/// about 9× a converging fit's of as many columns; the converging constants above were
/// measured at a lower load, so the factor is set where the loaded runs come within 2×.
const CAPPED_FIT: f64 = 18.0;

/// At most about how many seconds one ML fit of `p` judges and `m` anchors takes (whatever N:
/// the fit works on the covariance matrix), over all its starts
/// ([`crate::estimate::ml::starts`]); a bound, worded with [`warning_up_to`].
#[must_use]
pub fn ml_seconds(p: usize, m: usize) -> f64 {
    let starts = crate::estimate::ml::starts(p + m) as f64;
    let q = (p + m) as f64;
    ML_PER_Q4 * q.powi(4) * starts
}

pub use crate::estimate::null::{NullDraw, NullShape};

/// The shape of a battery run, for [`battery_seconds`]: what it resamples and which nulls it
/// draws (the battery's own plan, [`crate::battery::calibration::plan`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatteryShape {
    /// Complete items N.
    pub n: usize,
    pub judges: usize,
    pub anchors: usize,
    /// Bootstrap resamples B and null draws D.
    pub resamples: usize,
    pub null_draws: usize,
    /// Polychoric correlations refitted per resample (a free-scale or latent refit on ordinal
    /// columns reads each resample's tally; 0 otherwise).
    pub resample_polychorics: usize,
    /// The nulls that have a test to calibrate.
    pub nulls: Vec<NullShape>,
    /// Columns of each latent fit made per resample and per null draw
    /// ([`crate::battery::calibration::Plan`]).
    pub resample_fits: Vec<usize>,
    pub draw_fits: Vec<usize>,
    /// Each resample's latent refit runs to its iteration cap (the panel's own fit did).
    pub resample_fits_capped: bool,
}

/// Expected seconds of a battery: the item bootstrap (B resamples of N items, each refitting
/// on count-weighted feature sums, and where a refit reads correlations also tallied and its
/// polychorics fitted) plus each null's D draws (a Wishart, N pattern picks or N simulated
/// rows, then a polychoric fit per ordinal pair where the draw's correlations are read).
#[must_use]
pub fn battery_seconds(s: &BatteryShape) -> f64 {
    let (n, p, m) = (s.n as f64, s.judges as f64, s.anchors as f64);
    let features = p + 2.0 * m + m * (m + 1.0) / 2.0 + 3.0;
    let fits = |columns: &[usize]| -> f64 {
        columns
            .iter()
            .map(|&q| {
                let q = q as f64;
                LATENT_FIT_PER_Q2 * q * q + LATENT_FIT_PER_Q3 * q.powi(3)
            })
            .sum()
    };
    let capped = if s.resample_fits_capped {
        CAPPED_FIT
    } else {
        1.0
    };
    let per_resample = n * (BOOT_PER_DRAW + BOOT_PER_FEATURE * features)
        + ORDINAL_PER_PAIR * s.resample_polychorics as f64
        + capped * fits(&s.resample_fits);
    let nulls: f64 = s
        .nulls
        .iter()
        .map(|null| {
            let q = null.columns as f64;
            let polys = ORDINAL_PER_PAIR * null.polychorics as f64;
            let simulated = |draw: NullDraw, n: f64| match draw {
                NullDraw::Wishart => WISHART_PER_Q3 * q.powi(3),
                NullDraw::Patterns => PATTERN_PER_ITEM * n,
                NullDraw::Rows | NullDraw::Asymptotic => ORDINAL_PER_ROW * n * q,
            };
            match null.pilot {
                Some(pilot) => {
                    pilot.draws as f64 * (simulated(pilot.draw, pilot.n as f64) + polys)
                        + s.null_draws as f64 * ASYMPTOTIC_PER_COORDINATE * q * q
                }
                None => s.null_draws as f64 * (simulated(null.draw, n) + polys),
            }
        })
        .sum::<f64>()
        + s.null_draws as f64 * fits(&s.draw_fits);
    let q = p + m;
    let point = if s.resample_polychorics > 0 {
        POINT_PER_ITEM_PAIR * n * q * (q - 1.0) / 2.0
    } else {
        0.0
    };
    BATTERY_BASE + point + s.resamples as f64 * per_resample + nulls
}

/// Seconds per simulated item and column of a `power` or `plan` replicate (its normal draws,
/// covariance sums and test statistics). Measured (release, 2 cores shared, CPU seconds):
/// the base design's 9 columns, 200 replicates of N = 10 000 in 0.22 s and 40 of N = 100 000
/// in 0.41 s.
const STUDY_PER_CELL: f64 = 1.2e-8;
/// Seconds per `validate` replicate besides its items (the texture's estimators set up), and
/// per replicate item and column (drawing the synthetic panel from the textures, then every
/// estimator's point fit). Measured (optimised dev build, 2 cores under a load average of
/// about 8, CPU seconds): six judges and three anchors, 1000 replicates of N = 50 in 0.38 s,
/// 2 replicates of N = 500 and 10⁶ in 2.54 s.
const VALIDATE_PER_REP: f64 = 3.0e-4;
const VALIDATE_PER_CELL: f64 = 1.4e-7;
/// Seconds per bootstrap resample and item of a `power --coverage` or `plan` replicate, which
/// refits one estimator, at the battery's cost per resample and item.
const REPLICATE_BOOT_PER_ITEM: f64 = BOOT_PER_DRAW;

/// Seconds per bootstrap resample and per null draw of a `validate` replicate (every
/// estimator refitted; a draw of each null with its tests' latent fits), whatever N below a
/// few thousand items. Measured as above, 24 replicates of N = 50 and 500: B = 200 in 2.58
/// and 1.27 s, D = 200 in 3.30 and 2.15 s; the battery's own constants charge a tenth of that.
const VALIDATE_PER_RESAMPLE: f64 = 3.9e-4;
const VALIDATE_PER_DRAW: f64 = 5.5e-4;

/// Expected seconds of one `validate` replicate of `n` items and `columns` columns, with
/// `resamples` bootstrap resamples and `draws` null draws.
#[must_use]
pub fn validate_replicate_seconds(n: usize, columns: usize, resamples: usize, draws: usize) -> f64 {
    VALIDATE_PER_REP
        + VALIDATE_PER_CELL * (n * columns) as f64
        + resamples as f64 * (VALIDATE_PER_RESAMPLE + BOOT_PER_DRAW * n as f64)
        + draws as f64 * VALIDATE_PER_DRAW
}

/// The shape of a simulation study (`power`, `validate`, `plan`), for [`study_seconds`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StudyShape {
    /// Replicates, summed over every (N, strength) cell, and their items summed likewise
    /// (Σ replicates × N).
    pub replicates: f64,
    pub items: f64,
    /// Judge and anchor columns of each replicate.
    pub columns: usize,
    /// Bootstrap resamples inside each replicate (0: none).
    pub resamples: usize,
    /// Null draws in all (a Wishart each).
    pub null_draws: f64,
}

/// Expected seconds of a `power` or `plan` study: each replicate's items and columns, its
/// bootstrap and the null draws.
#[must_use]
pub fn study_seconds(s: &StudyShape) -> f64 {
    let q = s.columns as f64;
    let boot = REPLICATE_BOOT_PER_ITEM + BOOT_PER_FEATURE * q;
    s.items * q * STUDY_PER_CELL
        + s.items * s.resamples as f64 * boot
        + s.null_draws * WISHART_PER_Q3 * q.powi(3)
}

/// "2.6 s", "14 s", "3 min", "5 h", "40 days": a duration as a person would say it, for a
/// warning.
#[must_use]
pub fn about(seconds: f64) -> String {
    if seconds < 9.95 {
        format!("{seconds:.1} s")
    } else if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 2.0 * 86_400.0 {
        format!("{:.0} h", seconds / 3600.0)
    } else {
        format!("{:.0} days", seconds / 86_400.0)
    }
}

/// The one-line warning for a computation expected to take `seconds`, or `None` below
/// [`WARN_SECONDS`]. `what` names the computation and its shape.
#[must_use]
pub fn warning(seconds: f64, what: &str) -> Option<String> {
    (seconds > WARN_SECONDS).then(|| format!("note: {what} will take about {}", about(seconds)))
}

/// [`warning`] for a bound rather than an estimate (a search whose length is not known
/// before it runs): "may take up to about …".
#[must_use]
pub fn warning_up_to(seconds: f64, what: &str) -> Option<String> {
    (seconds > WARN_SECONDS)
        .then(|| format!("note: {what} may take up to about {}", about(seconds)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn study_cost_matches_the_measured_shapes_and_says_days() {
        let power = |reps: f64, n: f64| StudyShape {
            replicates: reps,
            items: reps * n,
            columns: 9,
            resamples: 0,
            null_draws: 100.0,
        };
        // The measurements above, within a factor of two.
        assert!((0.11..0.44).contains(&study_seconds(&power(200.0, 10_000.0))));
        assert!((0.2..0.82).contains(&study_seconds(&power(40.0, 100_000.0))));
        // A power run of 10^6 replicates at N = 10^7 takes years, and says days.
        let w = warning(study_seconds(&power(2e6, 1e7)), "power").unwrap();
        assert!(w.ends_with(" days"), "{w}");
        assert_eq!(about(3.0 * 3600.0), "3 h");
        // plan's bound: a default ci-width search (7 evaluations, Σ N ≈ 70 000, 100
        // replicates of B = 100) took 6.8 CPU seconds; the bound over 24 evaluations at the
        // largest N is above that, and says so.
        let searched = StudyShape {
            replicates: 700.0,
            items: 100.0 * 70_000.0,
            columns: 9,
            resamples: 100,
            null_draws: 0.0,
        };
        assert!((3.4..13.6).contains(&study_seconds(&searched)));
        assert!(
            warning_up_to(20.0, "plan")
                .unwrap()
                .contains("may take up to about 20 s")
        );
    }

    #[test]
    fn ml_cost_grows_as_the_fourth_power_and_warns_above_a_second() {
        // A bound: above the synthetic measurements (one start, times the two starts a fit of
        // over 40 columns makes; q = 82 with both: 1.5 s), and within 2× of the real
        // 120-judge panel's 38 CPU s (two starts, one of 19 steps).
        assert!(ml_seconds(80, 2) >= 1.5);
        assert!(ml_seconds(120, 2) >= 2.0 * 2.6);
        assert!((19.0..76.0).contains(&ml_seconds(120, 3)));
        assert!((ml_seconds(40, 0) / ml_seconds(20, 0) - 16.0).abs() < 1e-9);
        // The figure MAX_VARIABLES' doc quotes for the ceiling: 5e-8 × 128⁴ × 2 starts.
        let ceiling = ml_seconds(crate::estimate::ml::MAX_VARIABLES, 0);
        assert_eq!(ceiling.round(), 27.0, "{ceiling}");
        // The paper's designs never warn; the ML ceiling does.
        assert!(warning(ml_seconds(6, 3), "ML").is_none());
        let w = warning_up_to(ml_seconds(126, 2), "ML").unwrap();
        assert!(w.starts_with("note: ML may take up to about "), "{w}");
    }

    #[test]
    fn battery_cost_matches_the_measured_shapes() {
        let null = |draw, columns, polychorics| NullShape {
            pilot: None,
            draw,
            columns,
            polychorics,
        };
        // Continuous panels: Tests A and B on the single-factor null, Test J on the judges'.
        let continuous = |n, judges: usize, anchors: usize| BatteryShape {
            n,
            judges,
            anchors,
            resamples: 300,
            null_draws: 1000,
            resample_polychorics: 0,
            nulls: vec![
                null(NullDraw::Wishart, judges + anchors, 0),
                null(NullDraw::Wishart, judges, 0),
            ],
            resample_fits: Vec::new(),
            draw_fits: vec![judges],
            resample_fits_capped: false,
        };
        // Six Likert judges and three continuous anchors: the free-scale refit on every
        // resample, Test O's null simulating rows and Test J's drawing code patterns.
        let likert = |n| BatteryShape {
            resample_polychorics: 15,
            nulls: vec![null(NullDraw::Rows, 9, 15), null(NullDraw::Patterns, 6, 15)],
            ..continuous(n, 6, 3)
        };
        // Measured (release, 2 cores, other builds running): 0.03 s, 2.7 s, 1.0 s, 0.26 s,
        // 3.0 s; with the n_eff pass, 0.02 s, 1.4 s, 1.25 s, 0.12 s, 1.5 s. The model is
        // within a factor of two of the first set, and the fast shapes stay below the warning.
        assert!(battery_seconds(&continuous(2000, 20, 2)) < WARN_SECONDS);
        // 250 judges: Test J's one-factor fit of every null draw, 77 CPU s (one thread).
        assert!((38.0..154.0).contains(&battery_seconds(&continuous(2000, 250, 2))));
        assert!((0.5..2.1).contains(&battery_seconds(&continuous(200_000, 6, 2))));
        // Likert panels (six 5-level judges, three continuous anchors; release, the CPU
        // seconds of the whole process over the 2 cores, load average about 20, medians of 5
        // and 3 runs, one at N = 100 000): 2.30 s at N = 2000, 7.34 s at N = 20 000 and
        // 24.0 s at N = 100 000.
        let within_2x = |s: BatteryShape, measured: f64| {
            let e = battery_seconds(&s);
            assert!(
                e >= measured / 2.0 && e <= measured * 2.0,
                "{s:?}: {e} s for {measured} s"
            );
        };
        within_2x(likert(2000), 2.30);
        within_2x(likert(20_000), 7.34);
        within_2x(likert(100_000), 24.0);
        // The fits, not the rows, set the cost at small N: a tenth of the items is not a tenth
        // of the time.
        assert!(battery_seconds(&likert(200)) > 0.5 * battery_seconds(&likert(2000)));
        // The same panels on the asymptotic null: each null's 200 pilot draws at
        // N₀ = min(N, 5000), then 1000 cheap draws. Measured (release, 2 cores, load 15,
        // medians of 5 and 3 runs): 0.72 CPU s at N = 2000, 4.27 at N = 100 000.
        let fast = |n: usize| {
            let pilot = |draw| {
                Some(crate::estimate::null::Pilot {
                    draws: 200,
                    n: n.min(5000),
                    draw,
                })
            };
            BatteryShape {
                nulls: vec![
                    NullShape {
                        pilot: pilot(NullDraw::Rows),
                        ..null(NullDraw::Asymptotic, 9, 15)
                    },
                    NullShape {
                        pilot: pilot(NullDraw::Patterns),
                        ..null(NullDraw::Asymptotic, 6, 15)
                    },
                ],
                ..likert(n)
            }
        };
        within_2x(fast(2000), 0.72);
        within_2x(fast(100_000), 4.27);
    }

    #[test]
    fn durations_read_as_spoken() {
        assert_eq!(about(2.63), "2.6 s");
        assert_eq!(about(14.2), "14 s");
        assert_eq!(about(600.0), "10 min");
    }
}
