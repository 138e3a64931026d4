//! Polychoric / polyserial correlations against R `polycor` 0.8-1 and `mvtnorm` (literal values,
//! R not needed), the bivariate normal CDF against an independent quadrature, and the
//! correlation matrix of a panel.
//!
//! The reference values were produced by this R script (R 4.2, polycor 0.8-1, mvtnorm):
//!
//! ```r
//! library(polycor); library(mvtnorm); options(digits = 17)
//! # polycor's own likelihood at a tight tolerance (polychor(ML = FALSE) runs optimise() at
//! # its default tol ≈ 1.2e-4, so its printed ρ is within ~1e-5 of the maximiser):
//! tight <- function(tab) {
//!   tab <- tab[rowSums(tab) > 0, , drop = FALSE]; tab <- tab[, colSums(tab) > 0, drop = FALSE]
//!   n <- sum(tab); r <- nrow(tab); c <- ncol(tab)
//!   rc <- qnorm(cumsum(rowSums(tab)) / n)[-r]; cc <- qnorm(cumsum(colSums(tab)) / n)[-c]
//!   f <- function(rho) -sum(tab * log(polycor:::binBvn(rho, rc, cc)))
//!   optimise(f, c(-.9999, .9999), tol = 1e-12)$minimum
//! }
//! polychor(tab, ML = FALSE, thresholds = TRUE)   # ρ, row.cuts, col.cuts
//! tight(tab)
//! pmvnorm(upper = c(h, k), corr = matrix(c(1, r, r, 1), 2))
//! n <- 60; i <- 1:n
//! x <- sin(i * 0.37) * 2 + cos(i * i * 0.011)
//! lat <- x + sin(i * 1.3) * 1.5
//! y7 <- findInterval(lat, c(-2.5, -1.5, -0.7, 0, 0.8, 1.7)) + 1
//! y2 <- findInterval(lat, c(0.3)) + 1
//! ysk <- findInterval(lat, c(2.45)) + 1
//! y4 <- c(1, 2, 4, 7)[findInterval(lat, c(-1, 0.5, 1.5)) + 1]
//! polyserial(x, y, ML = FALSE, thresholds = TRUE)  # for y in y7, y2, ysk, y4
//! y5 <- findInterval(sin(i * 0.37) * 2 + cos(i * 2.1), c(-1.2, -0.3, 0.4, 1.3)) + 1
//! polychor(y7, y5, thresholds = TRUE); tight(table(y7, y5))
//! ```

#![expect(
    clippy::excessive_precision,
    reason = "reference values are R's 17-significant-digit output, copied verbatim"
)]

use rhoscope::ordinal::{
    PairKind, bvn_cdf, correlation_matrix, polychoric, polychoric_table, polyserial,
};
use rhoscope::panel::Panel;

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got:.15}, want {want:.15} (|diff| = {:.3e} > {tol:e})",
        (got - want).abs()
    );
}

fn close_all(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        close(*g, *w, tol, &format!("{what}[{i}]"));
    }
}

#[test]
fn bvn_matches_mvtnorm() {
    // pmvnorm(upper = c(h, k), corr = …) from R mvtnorm.
    let cases = [
        (0.0, 0.0, 0.5, 0.333_333_333_333_333_31),
        (-1.2, 0.7, -0.3, 0.066_737_980_200_623_34),
        (1.5, 1.5, 0.95, 0.916_939_802_257_928_48),
        (-0.4, 2.1, -0.97, 0.326_713_837_826_871_36),
        (0.3, -0.8, 0.8, 0.207_641_072_161_245_05),
        (2.5, -2.5, 0.1, 0.006_193_555_479_083_194),
        (-3.0, -3.0, 0.99, 0.001_101_519_998_620_622_4),
        (0.1, 0.2, -0.6, 0.213_991_022_514_676_33),
        (-1.7, -0.2, 0.93, 0.044_564_809_006_062_835),
    ];
    for (h, k, r, want) in cases {
        close(bvn_cdf(h, k, r), want, 1e-14, &format!("Φ₂({h}, {k}; {r})"));
    }
}

/// Φ₂(h, k; r) = Φ(h)Φ(k) + (1/2π) ∫₀^{asin r} exp(−(h² + k² − 2hk sin θ)/(2cos²θ)) dθ
/// (Sheppard's formula), by composite Simpson with 20 000 panels: an independent check of
/// the Genz quadrature in every one of its three regimes (|r| < 0.3, < 0.75, < 0.925, ≥ 0.925).
#[test]
fn bvn_matches_sheppard_quadrature() {
    let phi = rhoscope::ordinal::norm_cdf;
    for &r in &[
        -0.99, -0.95, -0.9, -0.6, -0.2, 0.0, 0.25, 0.5, 0.8, 0.93, 0.97, 0.99,
    ] {
        for &(h, k) in &[
            (-2.0, 1.0),
            (0.5, 0.5),
            (1.3, -0.4),
            (-0.7, -1.9),
            (2.2, 2.9),
        ] {
            let b: f64 = f64::asin(r);
            let f = |t: f64| {
                let c = t.cos();
                (-(h * h + k * k - 2.0 * h * k * t.sin()) / (2.0 * c * c)).exp()
            };
            let m = 20_000;
            let step = b / f64::from(m);
            let mut s = f(0.0) + f(b);
            for i in 1..m {
                s += f(step * f64::from(i)) * if i % 2 == 1 { 4.0 } else { 2.0 };
            }
            let want = phi(h) * phi(k) + s * step / 3.0 / std::f64::consts::TAU;
            close(bvn_cdf(h, k, r), want, 1e-12, &format!("Φ₂({h}, {k}; {r})"));
        }
    }
}

/// (table, rows, cols, R polychor ρ, tight ρ, row cuts, col cuts)
type Case = (
    &'static [usize],
    usize,
    usize,
    f64,
    f64,
    &'static [f64],
    &'static [f64],
);

const TABLES: [Case; 4] = [
    // t2: 2 × 7, interior zero cell.
    (
        &[3, 5, 8, 12, 9, 4, 1, 0, 2, 4, 9, 14, 11, 6],
        2,
        7,
        0.500_812_932_200_319_97,
        0.500_813_252_226_737,
        &[-0.056_999_674_358_374_31],
        &[
            -1.823_803_277_778_842_4,
            -1.207_414_050_222_201_9,
            -0.674_489_750_196_081_71,
            -0.028_488_265_166_308_958,
            0.674_489_750_196_081_71,
            1.408_135_641_148_088_8,
        ],
    ),
    // t3: 7 × 5 with many empty cells.
    (
        &[
            4, 2, 1, 0, 0, 3, 5, 2, 1, 0, 1, 4, 6, 3, 0, 0, 2, 7, 5, 1, 0, 1, 3, 8, 2, 0, 0, 1, 4,
            6, 0, 0, 0, 2, 5,
        ],
        7,
        5,
        0.819_392_962_386_541_58,
        0.819_394_939_444_028_41,
        &[
            -1.349_379_226_150_934_3,
            -0.745_952_345_711_346_05,
            -0.240_262_734_802_728_31,
            0.240_262_734_802_728_2,
            0.745_952_345_711_346_05,
            1.349_379_226_150_934_3,
        ],
        &[
            -1.274_371_901_418_389_9,
            -0.587_359_891_222_854_81,
            0.079_407_050_631_538_384,
            0.926_030_019_477_074_53,
        ],
    ),
    // t4: 3 × 4, skewed: the last row holds 95 % of the items.
    (
        &[1, 0, 2, 1, 0, 1, 1, 2, 3, 12, 40, 130],
        3,
        4,
        0.383_572_872_515_850_37,
        0.383_578_453_864_314_44,
        &[-2.038_992_488_801_292_7, -1.734_093_163_151_246],
        &[
            -2.038_992_488_801_292_7,
            -1.352_655_218_107_452_7,
            -0.493_355_162_234_980_83,
        ],
    ),
    // t5: 3 × 3 with an empty middle row and column (dropped, as polycor does).
    (
        &[10, 0, 3, 0, 0, 0, 2, 0, 9],
        3,
        3,
        0.797_719_712_959_606_09,
        0.797_721_969_161_789_17,
        &[0.104_633_455_614_075_26],
        &[0.0],
    ),
];

#[test]
fn polychoric_matches_polycor_on_fixed_tables() {
    for (t, r, c, r_default, r_tight, rc, cc) in TABLES {
        let pc = polychoric_table(t, r, c).unwrap();
        // The maximiser of polycor's own likelihood, to 1e-6.
        close(pc.rho, r_tight, 1e-6, "ρ vs tight optimise");
        // polychor()'s printed value stops at optimise's default tolerance (≈ 1.2e-4).
        close(pc.rho, r_default, 1.2e-4, "ρ vs polychor(ML = FALSE)");
        close_all(&pc.row_thresholds, rc, 1e-12, "row thresholds");
        close_all(&pc.col_thresholds, cc, 1e-12, "col thresholds");
        assert!(!pc.saturated);
    }
}

#[test]
fn saturated_tables_give_plus_or_minus_one() {
    // No discordant pair: R's optimise ends at 0.99983 after NaN warnings (0·log 0); the
    // likelihood is maximised by the comonotone coupling, ρ = 1.
    let pc = polychoric_table(&[20, 5, 0, 15], 2, 2).unwrap();
    assert_eq!(pc.rho, 1.0);
    assert!(pc.saturated);
    let x = [1.0, 2.0, 3.0, 3.0, 2.0, 1.0, 5.0, 4.0, 4.0, 5.0];
    assert_eq!(polychoric(&x, &x).unwrap().rho, 1.0);
    let neg: Vec<f64> = x.iter().map(|v| 6.0 - v).collect();
    assert_eq!(polychoric(&x, &neg).unwrap().rho, -1.0);
}

fn formula_data() -> (Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (1..=60)
        .map(|i| {
            let i = f64::from(i);
            (i * 0.37).sin() * 2.0 + (i * i * 0.011).cos()
        })
        .collect();
    let lat = x
        .iter()
        .enumerate()
        .map(|(i, v)| v + ((i + 1) as f64 * 1.3).sin() * 1.5)
        .collect();
    (x, lat)
}

fn cut(lat: &[f64], cuts: &[f64], codes: &[f64]) -> Vec<f64> {
    lat.iter()
        .map(|v| codes[cuts.iter().filter(|c| **c <= *v).count()])
        .collect()
}

/// (cut points on the latent, codes, R polyserial ρ, R thresholds)
type SerialCase = (&'static [f64], &'static [f64], f64, &'static [f64]);

#[test]
fn polyserial_matches_polycor() {
    let (x, lat) = formula_data();
    let cases: [SerialCase; 4] = [
        (
            &[-2.5, -1.5, -0.7, 0.0, 0.8, 1.7],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
            0.904_980_898_286_600_78,
            &[
                -1.382_994_127_100_638_7,
                -0.967_421_566_101_701_38,
                -0.340_694_827_087_795_47,
                -0.041_789_297_816_453_81,
                0.210_428_394_247_924_84,
                0.385_320_466_407_567_62,
            ],
        ),
        (
            &[0.3],
            &[1.0, 2.0],
            0.997_403_520_631_562_57,
            &[0.210_428_394_247_924_84],
        ),
        // Skewed: 48 of 60 items in the first level.
        (
            &[2.45],
            &[1.0, 2.0],
            0.676_462_861_133_418_36,
            &[0.841_621_233_572_914_41],
        ),
        // Codes 1, 2, 4, 7: polycor recodes to 1..4 before the Pearson step.
        (
            &[-1.0, 0.5, 1.5],
            &[1.0, 2.0, 4.0, 7.0],
            0.974_436_183_178_421_84,
            &[
                -0.477_040_428_489_443_39,
                0.210_428_394_247_924_84,
                0.340_694_827_087_795_36,
            ],
        ),
    ];
    for (cuts, codes, rho, th) in cases {
        let y = cut(&lat, cuts, codes);
        let ps = polyserial(&x, &y).unwrap();
        close(ps.rho, rho, 1e-12, "polyserial ρ");
        close_all(&ps.thresholds, th, 1e-12, "polyserial thresholds");
    }
}

#[test]
fn polychoric_of_formula_columns_matches_polycor() {
    let (_, lat) = formula_data();
    let y7 = cut(
        &lat,
        &[-2.5, -1.5, -0.7, 0.0, 0.8, 1.7],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
    );
    let other: Vec<f64> = (1..=60)
        .map(|i| {
            let i = f64::from(i);
            (i * 0.37).sin() * 2.0 + (i * 2.1).cos()
        })
        .collect();
    let y5 = cut(&other, &[-1.2, -0.3, 0.4, 1.3], &[1.0, 2.0, 3.0, 4.0, 5.0]);
    let pc = polychoric(&y7, &y5).unwrap();
    close(pc.rho, 0.686_242_706_025_292_69, 1e-6, "tight");
    close(pc.rho, 0.686_243_462_739_159_37, 1.2e-4, "polychor default");
    close_all(
        &pc.col_thresholds,
        &[
            -0.783_500_375_389_773_91,
            -0.296_737_838_259_897_91,
            0.041_789_297_816_453_949,
            0.622_925_723_210_087_77,
        ],
        1e-12,
        "y5 thresholds",
    );
    // y7 and a coarsening of the same latent (y2) have no discordant pair: saturated, ρ = 1
    // (polychor's optimise returns 0.98847 there after NaN warnings from 0·log 0).
    let y2 = cut(&lat, &[0.3], &[1.0, 2.0]);
    assert_eq!(polychoric(&y7, &y2).unwrap().rho, 1.0);
}

#[test]
fn one_level_and_bad_input_are_errors_not_panics() {
    let x = [1.0, 2.0, 3.0, 1.0];
    let one = [2.0; 4];
    assert!(
        polychoric(&x, &one)
            .unwrap_err()
            .to_string()
            .contains("1 level")
    );
    assert!(
        polyserial(&[0.1, 0.5, 0.2, 0.9], &one)
            .unwrap_err()
            .to_string()
            .contains("1 level")
    );
    assert!(
        polyserial(&[0.5; 4], &x)
            .unwrap_err()
            .to_string()
            .contains("constant")
    );
    assert!(
        polychoric(&x, &[1.0, 2.0])
            .unwrap_err()
            .to_string()
            .contains("lengths")
    );
    assert!(polychoric_table(&[1, 2, 3], 2, 2).is_err());
    assert!(
        polychoric_table(&[0, 0, 3, 4], 2, 2)
            .unwrap_err()
            .to_string()
            .contains("non-empty")
    );
    let many: Vec<f64> = (0..11).map(f64::from).collect();
    assert!(
        polychoric(&many, &many)
            .unwrap_err()
            .to_string()
            .contains("more than 10")
    );
}

#[test]
fn panel_matrix_uses_each_pairs_kind() {
    let (x, lat) = formula_data();
    let y7 = cut(
        &lat,
        &[-2.5, -1.5, -0.7, 0.0, 0.8, 1.7],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
    );
    let y2 = cut(&lat, &[0.3], &[1.0, 2.0]);
    let data: Vec<f64> = y7
        .iter()
        .chain(&y2)
        .chain(&x)
        .chain(&lat)
        .copied()
        .collect();
    let panel = Panel::new(
        60,
        data,
        vec!["J1".into(), "J2".into()],
        vec!["A1".into(), "A2".into()],
    );
    let c = correlation_matrix(&panel).unwrap();
    assert_eq!(c.kind[(0, 1)], PairKind::Polychoric);
    assert_eq!(c.kind[(0, 2)], PairKind::Polyserial);
    assert_eq!(c.kind[(3, 1)], PairKind::Polyserial);
    assert_eq!(c.kind[(2, 3)], PairKind::Pearson);
    assert_eq!(c.kind[(2, 2)], PairKind::Unit);
    close(
        c.r[(0, 1)],
        polychoric(&y7, &y2).unwrap().rho,
        0.0,
        "polychoric entry",
    );
    close(
        c.r[(0, 2)],
        0.904_980_898_286_600_78,
        1e-12,
        "polyserial entry",
    );
    close(c.r[(2, 0)], c.r[(0, 2)], 0.0, "symmetric");
    assert!(c.thresholds[0].as_ref().unwrap().len() == 6 && c.thresholds[2].is_none());
    let bad = Panel::new(
        3,
        vec![1.0, 1.0, 1.0, 1.0, 2.0, 3.0],
        vec!["flat".into()],
        vec!["A".into()],
    );
    assert!(
        correlation_matrix(&bad)
            .unwrap_err()
            .to_string()
            .contains("'flat'")
    );
}

/// Section 7's negative result: with every column ordinal only latent correlations are seen,
/// and two parameter vectors with ρ_1 = 0.30 and ρ_1 = 0.80 reproduce them exactly.
#[test]
fn all_ordinal_rho_is_not_identified() {
    use rhoscope::model::Params;
    use rhoscope::ordinal::{all_ordinal_identification, latent_correlations};
    let designs = [
        Params::default(),
        Params {
            rho: vec![0.3, 0.7, 0.5],
            sigma_a: vec![0.5, 0.6, 0.7],
            ..Params::default()
        },
        Params {
            p: 4,
            rho: vec![0.3, 0.7, 0.5, 0.2, 0.4, 0.6],
            sigma_a: vec![0.5, 0.6, 0.7, 0.5, 0.6, 0.7],
            ..Params::default()
        },
    ];
    for pm in designs {
        let id = all_ordinal_identification(&pm).unwrap();
        assert_eq!(id.n_params, 2 + 2 * pm.m() + pm.p);
        // Scale + rotation; at m = 2 the 3 anchor correlations leave one more of the 5
        // scale-free unknowns (judge angle, two loadings per anchor) free.
        let want = if pm.m() <= 2 { 3 } else { 2 };
        assert_eq!(
            id.null_dim,
            want,
            "m = {}: {:?}",
            pm.m(),
            id.singular_values
        );
        // The rank decision has a wide margin: the smallest kept singular value is > 1e-4
        // of the largest, the two dropped ones < 1e-10 of it.
        let sv = &id.singular_values;
        assert!(
            sv[id.rank - 1] > 1e-4 * sv[0] && sv[id.rank] < 1e-10 * sv[0],
            "{sv:?}"
        );
        close(id.low.rho[0], 0.30, 1e-12, "low ρ_1");
        close(id.high.rho[0], 0.80, 1e-12, "high ρ_1");
        assert!(id.max_abs_diff <= 1e-10, "{}", id.max_abs_diff);
        let (a, b) = (latent_correlations(&id.low), latent_correlations(&id.high));
        assert!((a - b).amax() <= 1e-10);
        // And the other anchors' ρ move too: the parameter vectors really differ.
        assert!((id.low.rho[1] - id.high.rho[1]).abs() > 0.05);
        id.low.validate().unwrap();
        id.high.validate().unwrap();
    }
}

/// A positively associated r × c table (2–7 levels each) with some empty cells.
fn random_table(rng: &mut impl rand::RngExt) -> (Vec<usize>, usize, usize) {
    let (r, c) = (rng.random_range(2..=7usize), rng.random_range(2..=7usize));
    let t = (0..r * c)
        .map(|idx| {
            let (i, j) = (idx / c, idx % c);
            let near = (i as f64 / r as f64 - j as f64 / c as f64).abs();
            if i == j || near < 0.3 {
                rng.random_range(1..12usize)
            } else {
                rng.random_range(0..3usize)
            }
        })
        .collect();
    (t, r, c)
}

/// Live cross-check against R, skipped (with a message) when `Rscript` or polycor is missing:
/// eight random tables (2–7 levels, seed 11, with empty cells) and eight polyserial pairs,
/// compared with polycor's own likelihood maximised at a tight tolerance (≤ 1e-6) and with
/// `polyserial(ML = FALSE)` (≤ 1e-10).
#[test]
fn live_cross_check_against_r_polycor() {
    use rand::RngExt;
    use rhoscope::simulate::{Purpose, stream_rng};
    use std::fmt::Write as _;
    let probe = std::process::Command::new("Rscript")
        .args(["-e", "library(polycor)"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipping live_cross_check_against_r_polycor: Rscript with polycor not found");
        return;
    }
    let mut rng = stream_rng(11, Purpose::Simulate, 0);
    let mut script = String::from(
        "suppressMessages(library(polycor)); options(digits = 17)\n\
         tight <- function(tab) { n <- sum(tab); r <- nrow(tab); c <- ncol(tab)\n\
           rc <- qnorm(cumsum(rowSums(tab)) / n)[-r]; cc <- qnorm(cumsum(colSums(tab)) / n)[-c]\n\
           f <- function(rho) -sum(tab * log(polycor:::binBvn(rho, rc, cc)))\n\
           optimise(f, c(-.9999, .9999), tol = 1e-12)$minimum }\n",
    );
    let mut ours = Vec::new();
    for _ in 0..8 {
        let (t, r, c) = random_table(&mut rng);
        let Ok(pc) = polychoric_table(&t, r, c) else {
            continue;
        };
        if pc.saturated {
            continue;
        }
        let cells: Vec<String> = t.iter().map(ToString::to_string).collect();
        writeln!(
            script,
            "cat(tight(matrix(c({}), {r}, {c}, byrow = TRUE)), '\\n')",
            cells.join(",")
        )
        .unwrap();
        ours.push(pc.rho);
    }
    let n_tables = ours.len();
    for _ in 0..8 {
        let n = 80;
        let levels = rng.random_range(2..=6usize);
        let x: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
        let y: Vec<f64> = x
            .iter()
            .map(|v| {
                let z = v + rng.random_range(-1.5..1.5);
                (((z + 3.5) / 7.0 * levels as f64)
                    .floor()
                    .clamp(0.0, levels as f64 - 1.0))
                    + 1.0
            })
            .collect();
        let Ok(ps) = polyserial(&x, &y) else { continue };
        let fmt = |v: &[f64]| {
            v.iter()
                .map(|u| format!("{u:?}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        writeln!(
            script,
            "cat(polyserial(c({}), c({})), '\\n')",
            fmt(&x),
            fmt(&y)
        )
        .unwrap();
        ours.push(ps.rho);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cross_check.R");
    std::fs::write(&path, &script).unwrap();
    let out = std::process::Command::new("Rscript")
        .arg(&path)
        .output()
        .expect("Rscript runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let theirs: Vec<f64> = stdout
        .split_whitespace()
        .map(|s| {
            s.parse()
                .unwrap_or_else(|_| panic!("R printed {s:?} in:\n{stdout}"))
        })
        .collect();
    assert_eq!(theirs.len(), ours.len());
    eprintln!(
        "compared {n_tables} polychoric and {} polyserial values with R",
        ours.len() - n_tables
    );
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        let tol = if i < n_tables { 1e-6 } else { 1e-10 };
        close(*a, *b, tol, &format!("case {i}"));
    }
}

/// Section 7's positive result, the contrast to the above: with ordinal judges and continuous
/// anchors the same θ is locally identified at m ≥ 3 (full-rank Jacobian), while at m = 2
/// one direction stays free (q_1, q_2 and the three anchor moments for four unknowns once the
/// judges' thresholds have taken their common scale).
#[test]
fn ordinal_judges_with_three_continuous_anchors_identify_rho() {
    use rhoscope::identify::paper_design;
    use rhoscope::ordinal::mixed_scale_identification;
    for (p, m, want) in [(6, 2, 1), (6, 3, 0), (3, 3, 0), (4, 6, 0)] {
        let r = mixed_scale_identification(&paper_design(p, m)).unwrap();
        assert_eq!(r.n_params, 2 + 2 * m + p);
        assert_eq!(
            r.null_dim, want,
            "p = {p}, m = {m}: {:?}",
            r.singular_values
        );
        let sv = &r.singular_values;
        // The decision has a wide margin either side of the 1e-8 relative cut.
        assert!(sv[r.rank - 1] > 1e-4 * sv[0], "{sv:?}");
        if want > 0 {
            assert!(sv[r.rank] < 1e-10 * sv[0], "{sv:?}");
        }
    }
}
