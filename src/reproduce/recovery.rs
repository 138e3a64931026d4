//! Section 4: recovery of ρ under contamination at N = 40 000.

use super::sim::{fit, mean_cell, per_seed, rho};
use super::table::{Budget, Table};
use crate::model::Params;
use crate::progress::{Flow, Progress};

pub(super) fn recovery(_: Budget, _: &(dyn Fn(Progress) -> Flow + Sync)) -> Table {
    let settings = [
        ((0.3, 0.7), (0.299, 0.017), (0.701, 0.007)),
        ((0.1, 0.9), (0.096, 0.020), (0.900, 0.003)),
        ((0.5, 0.5), (0.500, 0.012), (0.502, 0.009)),
        ((0.2, 0.8), (0.198, 0.019), (0.801, 0.005)),
    ];
    let mut cells = Vec::new();
    for ((r1, r2), (p1, s1), (p2, s2)) in settings {
        let pm = Params {
            rho: vec![r1, r2],
            ..Params::default()
        };
        let fits = per_seed(&pm, 40_000, |d| fit(d, 40_000, 6));
        let v1: Vec<Option<f64>> = fits.iter().map(|e| rho(e, 0)).collect();
        let v2: Vec<Option<f64>> = fits.iter().map(|e| rho(e, 1)).collect();
        cells.push(mean_cell(
            format!("({r1}, {r2}): ρ̂_1"),
            p1,
            3,
            &v1,
            Some((s1, 8)),
        ));
        cells.push(mean_cell(
            format!("({r1}, {r2}): ρ̂_2"),
            p2,
            3,
            &v2,
            Some((s2, 8)),
        ));
    }
    Table {
        name: "recovery",
        title: "Recovery under contamination, N = 40 000 (Section 4)",
        design:
            "base design (σ_t² = 1, σ_c² = 0.8, p = 6, σ_a = (0.5, 0.6)); seeds 11…88, one run each"
                .into(),
        cells,
        seconds: 0.0,
    }
}
