//! Table 3: the battery's operating characteristics (size and power of each test).

use super::sim::rate_cell;
use super::table::{Budget, Table};
use crate::battery::TestId;
use crate::power::{PowerDesign, PowerOptions, operating_characteristics};
use crate::progress::{Flow, Progress};

pub(super) fn opchar(budget: Budget, progress: &(dyn Fn(Progress) -> Flow + Sync)) -> Table {
    let reps = budget.reps(1000, 200);
    let paper = [
        (500, [0.23, 0.91], [0.50, 0.99]),
        (2000, [0.93, 1.00], [0.99, 1.00]),
        (10_000, [1.00, 1.00], [1.00, 1.00]),
    ];
    let opts = PowerOptions::rates(
        paper.iter().map(|r| r.0).collect(),
        vec![0.4, 0.6],
        reps,
        1000,
        2026,
    );
    let mut cells = Vec::new();
    for (design, col) in [
        (PowerDesign::Test(TestId::A), 1usize),
        (PowerDesign::Test(TestId::B), 2),
    ] {
        let t = design.target();
        let res = operating_characteristics(design, &opts, progress)
            .ok()
            .flatten()
            .unwrap_or_default();
        for (i, row) in paper.iter().enumerate() {
            let p = if col == 1 { row.1 } else { row.2 };
            let cell = |j: usize| {
                res.get(i * 3 + j)
                    .and_then(|c| c.rates[t])
                    .unwrap_or(f64::NAN)
            };
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "rate × reps is a count"
            )]
            let hits = |r: f64| (r * reps as f64).round() as usize;
            cells.push(rate_cell(
                format!("N = {}: FP Test {}", row.0, t.name()),
                0.05,
                2,
                hits(cell(0)),
                reps,
                Some(1000),
            ));
            cells.push(rate_cell(
                format!("N = {}: Test {} power 0.4", row.0, t.name()),
                p[0],
                2,
                hits(cell(1)),
                reps,
                None,
            ));
            cells.push(rate_cell(
                format!("N = {}: Test {} power 0.6", row.0, t.name()),
                p[1],
                2,
                hits(cell(2)),
                reps,
                None,
            ));
        }
    }
    Table {
        name: "opchar",
        title: "Battery operating characteristics (Table 3)",
        design: format!(
            "Test A: base design, a second factor loading s on the first half of the judges (the paper leaves the layout of its loading spread unstated; this half-loaded layout is the one that reproduces it). Test B: three-anchor design, anchor loadings (s, s/2, 0). Thresholds from 1000 null draws per N (scenario null); {reps} replicates per cell"
        ),
        cells,
        seconds: 0.0,
    }
}
