//! rhoscope estimates how contaminated an evaluation's anchors are.
//!
//! LLM-judge panels score items; teams check them against anchors (human or reference scores).
//! Under the single-common-factor model of the paper (Assumption 1), each anchor's
//! contamination ρ_k — the correlation of its error with the judges' shared error — is
//! identified in closed form from ≥ 2 judges and ≥ 2 anchors (Theorem 1).
//!
//! ```
//! use rhoscope::{estimate::closed_form, model::Params, moments::{JudgePairs, Moments}};
//!
//! // The paper's base design, inverted from its population moments.
//! let params = Params::default();
//! let mom = Moments::from_cov(&params.population_cov(), params.p, JudgePairs::All).unwrap();
//! let est = closed_form(&mom);
//! assert!((est.anchors[1].rho.unwrap() - 0.7).abs() < 1e-12);
//! ```

pub mod api;
pub mod applicable;
pub mod battery;
pub mod bootstrap;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod commands;
pub mod cost;
pub mod data;
pub mod error;
pub mod estimate;
pub mod export;
pub mod families;
pub mod identify;
pub mod location;
pub mod model;
pub mod moments;
pub mod neff;
pub mod ordinal;
pub mod panel;
pub mod plan;
#[cfg(feature = "plot")]
pub mod plot;
pub mod power;
pub mod progress;
pub mod report;
pub mod reproduce;
pub mod rng;
pub mod scenario;
pub mod simulate;
pub mod stats;
#[cfg(feature = "tui")]
pub mod tui;
pub mod validate;
pub mod wording;

#[cfg(test)]
mod throwaway;
