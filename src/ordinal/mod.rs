//! Latent correlations for ordinal scores (Section 7, docs/method.md §7): two-step polychoric and
//! polyserial correlations computed as R `polycor::polychor(ML = FALSE)` and
//! `polycor::polyserial(ML = FALSE)` compute them, and the mixed correlation matrix of a panel.
//!
//! Two-step means: thresholds first, from the cumulative marginal proportions through the
//! normal quantile (τ_i = Φ⁻¹(Σ_{l≤i} n_l / N), i = 1..L−1); then ρ given those thresholds.
//! * Polychoric: ρ maximises the multinomial log-likelihood Σ n_ij log P_ij(ρ) of the
//!   contingency table, P_ij the bivariate-normal rectangle probabilities. Empty cells get no
//!   continuity correction; empty rows/columns are dropped (as polycor does).
//! * Polyserial: polycor's `ML = FALSE` returns the Olsson–Drasgow–Dorans (1982) two-step
//!   ("ad hoc") estimate ρ = r_xy · s_y / Σ_i φ(τ_i), with y recoded to 1..L and s_y its SD
//!   with divisor N, clipped to ±0.9999 (polycor's `maxcor`). We follow R exactly.
//!
//! The normal and bivariate-normal routines live in [`crate::stats::normal`], Brent's
//! methods in [`crate::stats::brent`].

mod accumulate;
mod bounds;
mod error;
mod identification;
mod matrix;
mod patterns;
mod polychoric;
mod polyserial;
mod tally;
mod thresholds;

pub use crate::stats::normal::{bvn_cdf, bvn_pdf, bvn_upper, norm_cdf, norm_quantile};
pub use accumulate::Accumulator;
pub use bounds::{MAX_LEVELS, MAXCOR};
pub use error::OrdinalError;
pub use identification::{
    AllOrdinalIdentification, LocalRank, RANK_TOLERANCE, all_ordinal_identification,
    latent_correlations, mixed_scale_identification, mixed_scale_moments, rotate_to_rho1,
};
pub use matrix::{Correlations, PairKind, correlation_matrix};
pub use patterns::PatternNull;
pub use polychoric::{Polychoric, cross_table, polychoric, polychoric_table};
pub use polyserial::{Polyserial, polyserial};
pub use tally::{Items, Layout as TallyLayout, Tally};
pub use thresholds::{OrdinalColumn, thresholds_from_counts};
