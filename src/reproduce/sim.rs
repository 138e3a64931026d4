//! The simulation loops and the cell builders the tables share.

use rayon::prelude::*;

use super::table::{Cell, SEEDS};
use crate::estimate::{Estimate, closed_form};
use crate::model::Params;
use crate::moments::{JudgePairs, Moments, covariance};
use crate::simulate::{Design, replicates};
use crate::stats::mean_sd;

/// The closed form on one simulated data set.
pub(super) fn fit(data: &[f64], n: usize, p: usize) -> Estimate {
    let q = data.len() / n;
    let s = covariance(data, n, q, &mut Vec::new());
    closed_form(&Moments::from_cov(&s, p, JudgePairs::All).expect("the designs have p ≥ 2"))
}

/// `f` on one data set per seed (replicate 0 of each of the paper's seeds).
pub(super) fn per_seed<T: Send>(
    params: &Params,
    n: usize,
    f: impl Fn(&[f64]) -> T + Sync,
) -> Vec<T> {
    let design = Design::new(params).expect("the paper's designs are valid");
    SEEDS
        .par_iter()
        .map(|&seed| {
            replicates(&design, n, seed, 1, |_, d| f(d))
                .pop()
                .expect("one replicate")
        })
        .collect()
}

/// `f` on `reps` replicates of one seed.
pub(super) fn many<T: Send>(
    params: &Params,
    n: usize,
    seed: u64,
    reps: usize,
    f: impl Fn(u64, &[f64]) -> T + Sync,
) -> Vec<T> {
    let design = Design::new(params).expect("the paper's designs are valid");
    replicates(&design, n, seed, reps as u64, f)
}

/// A mean cell from per-replicate values (undefined values dropped), with the paper's SD
/// over `paper_reps` replicates when it reports one.
pub(super) fn mean_cell(
    label: String,
    paper: f64,
    decimals: i32,
    values: &[Option<f64>],
    paper_sd: Option<(f64, usize)>,
) -> Cell {
    let v: Vec<f64> = values.iter().flatten().copied().collect();
    let (m, sd) = mean_sd(&v);
    let paper_se = paper_sd.map(|(s, r)| s / (r as f64).sqrt());
    Cell::new(
        label,
        paper,
        decimals,
        m,
        sd / (v.len() as f64).sqrt(),
        paper_se,
    )
}

/// An SD cell: our spread across replicates against the paper's, with the SE of a sample SD
/// (≈ sd/√(2(n−1))) for both.
pub(super) fn sd_cell(
    label: String,
    paper: f64,
    decimals: i32,
    values: &[Option<f64>],
    paper_reps: usize,
) -> Cell {
    let v: Vec<f64> = values.iter().flatten().copied().collect();
    let (_, sd) = mean_sd(&v);
    let se = sd / (2.0 * (v.len() as f64 - 1.0)).sqrt();
    let paper_se = paper / (2.0 * (paper_reps as f64 - 1.0)).sqrt();
    Cell::new(label, paper, decimals, sd, se, Some(paper_se))
}

/// A rate cell: successes out of n, with binomial SEs (the paper's over `paper_reps`).
pub(super) fn rate_cell(
    label: String,
    paper: f64,
    decimals: i32,
    hits: usize,
    n: usize,
    paper_reps: Option<usize>,
) -> Cell {
    let r = hits as f64 / n as f64;
    let se = (r * (1.0 - r) / n as f64).sqrt().max(0.5 / n as f64);
    let paper_se = paper_reps.map(|k| (paper * (1.0 - paper) / k as f64).sqrt());
    Cell::new(label, paper, decimals, r, se, paper_se)
}

pub(super) fn rho(e: &Estimate, k: usize) -> Option<f64> {
    e.anchors.get(k).and_then(|a| a.rho)
}
