//! The synthetic design the validation injects into: the base design's latent variances,
//! the anchors' error SDs and where an ordinal judge's thresholds come from.

/// σ_t² of the base design (docs/method.md §4).
pub const SIGMA_T2: f64 = 1.0;
/// σ_c² of the base design (docs/method.md §4).
pub const SIGMA_C2: f64 = 0.8;
/// At most this many anchors may be injected (σ_ak = 0.5 + 0.1 k stays ≤ 1.2).
pub const MAX_ANCHORS: usize = 8;

/// Anchor k's total error SD σ_ak (0-based k): the base design's 0.5, 0.6, 0.7, continued.
#[must_use]
pub fn anchor_sd(k: usize) -> f64 {
    0.5 + 0.1 * k as f64
}

/// Where an ordinal synthetic judge's thresholds come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thresholds {
    /// The real judge's own cumulative code proportions (the protocol).
    Own,
    /// Equal proportions in every level (the paper's ablation: balanced marginals).
    Balanced,
}
