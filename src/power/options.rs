//! What a power study is asked (the grid of N × strength, replicates, null draws, seed) and
//! what each of its cells answers.

use crate::battery::PerTest;

/// What to simulate.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerOptions {
    pub ns: Vec<usize>,
    /// Violation strengths; strength 0 (the false-positive rate) is always added first.
    pub strengths: Vec<f64>,
    pub reps: usize,
    pub null_draws: usize,
    pub seed: u64,
    /// Bootstrap resamples per replicate for CI coverage and width (`None`: skip).
    pub coverage: Option<usize>,
}

impl PowerOptions {
    /// The tests' firing rates alone (no CI coverage), at `ns` × `strengths`.
    #[must_use]
    pub fn rates(
        ns: Vec<usize>,
        strengths: Vec<f64>,
        reps: usize,
        draws: usize,
        seed: u64,
    ) -> Self {
        let coverage = None;
        PowerOptions {
            ns,
            strengths,
            reps,
            null_draws: draws,
            seed,
            coverage,
        }
    }
}

/// One (N, strength) cell.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerCell {
    pub n: usize,
    pub strength: f64,
    /// Fraction of replicates in which each test fired (`None`: not applicable).
    pub rates: PerTest<Option<f64>>,
    /// Per anchor: fraction of 95 % intervals that contain the true ρ_k.
    pub coverage: Vec<Option<f64>>,
    /// Per anchor: mean interval width.
    pub width: Vec<Option<f64>>,
}

/// The total number of progress steps a run reports.
#[must_use]
pub fn total_steps(opts: &PowerOptions) -> u64 {
    let cells = (opts.strengths.len() + 1) * opts.reps;
    let per_n = opts.null_draws + cells * (1 + opts.coverage.unwrap_or(0));
    (opts.ns.len() * per_n) as u64
}
