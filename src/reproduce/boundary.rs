//! Table 1: the estimates as an anchor's design approaches the boundary of the identified region.

use super::sim::{fit, mean_cell, per_seed, rho, sd_cell};
use super::table::{Budget, Table};
use crate::model::Params;
use crate::progress::{Flow, Progress};

pub(super) fn boundary(_: Budget, _: &(dyn Fn(Progress) -> Flow + Sync)) -> Table {
    let rows = [
        (0.90, 0.900, 0.004),
        (0.95, 0.949, 0.003),
        (0.98, 0.979, 0.004),
        (0.99, 0.955, 0.061),
    ];
    let mut cells = Vec::new();
    for (r1, paper, sd) in rows {
        let pm = Params {
            rho: vec![r1, 0.5],
            sigma_a: vec![0.9, 0.6],
            ..Params::default()
        };
        let fits = per_seed(&pm, 40_000, |d| fit(d, 40_000, 6));
        let v: Vec<Option<f64>> = fits.iter().map(|e| rho(e, 0)).collect();
        cells.push(mean_cell(
            format!("ρ_1 = {r1}: mean ρ̂_1"),
            paper,
            3,
            &v,
            Some((sd, 8)),
        ));
        cells.push(sd_cell(format!("ρ_1 = {r1}: sd ρ̂_1"), sd, 3, &v, 8));
    }
    Table {
        name: "boundary",
        title: "Approaching the boundary: σ_c² = 0.8, σ_a1 = 0.9 (Table 1)",
        design: "base design with σ_a = (0.9, 0.6), ρ_2 = 0.5; N = 40 000 (the paper does not state N; the spreads it reports match this size); seeds 11…88; undefined ρ̂ dropped".into(),
        cells,
        seconds: 0.0,
    }
}
