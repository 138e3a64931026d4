//! The two-step polyserial correlation of a continuous and an ordinal column, as R
//! `polycor::polyserial(ML = FALSE)`.

use super::OrdinalError;
use super::bounds::MAXCOR;
use super::thresholds::OrdinalColumn;
use crate::stats::normal::norm_pdf;

/// A polyserial correlation and the ordinal variable's thresholds.
#[derive(Debug, Clone, PartialEq)]
pub struct Polyserial {
    /// ρ̂ (clipped to ±[`MAXCOR`] as polycor does; see `clipped`).
    pub rho: f64,
    /// The ordinal variable's thresholds.
    pub thresholds: Vec<f64>,
    /// The raw estimate exceeded ±0.9999 and was clipped (polycor warns "initial correlation
    /// inadmissible").
    pub clipped: bool,
}

/// Polyserial correlation of a continuous `x` and an ordinal `y`, as R
/// `polycor::polyserial(x, y, ML = FALSE)`: the Olsson–Drasgow–Dorans two-step estimate
/// ρ = √((N−1)/N) · sd(y) · cor(x, y) / Σ_i φ(τ_i), y recoded to 1..L.
///
/// # Errors
/// Different lengths, fewer than 2 items, a constant or non-finite `x`, or a `y` with fewer
/// than 2 or more than 10 levels.
pub fn polyserial(x: &[f64], y: &[f64]) -> Result<Polyserial, OrdinalError> {
    if x.len() != y.len() {
        return Err(OrdinalError::Lengths(x.len(), y.len()));
    }
    let oy = OrdinalColumn::new(y)?;
    let xs = Standardised::new(x)?;
    Ok(polyserial_prepared(&xs, &oy))
}

/// A continuous column's mean and SD (divisor N − 1).
#[derive(Debug, Clone, Copy)]
pub(super) struct Standardised<'a> {
    pub(super) x: &'a [f64],
    pub(super) mean: f64,
    pub(super) ss: f64,
}

impl<'a> Standardised<'a> {
    pub(super) fn new(x: &'a [f64]) -> Result<Self, OrdinalError> {
        if x.len() < 2 {
            return Err(OrdinalError::TooFewItems);
        }
        if let Some(v) = x.iter().find(|v| !v.is_finite()) {
            return Err(OrdinalError::NonFiniteValue(*v));
        }
        let mean = crate::moments::sum(x) / x.len() as f64;
        let ss: f64 = x.iter().map(|v| (v - mean) * (v - mean)).sum();
        if ss <= 0.0 {
            return Err(OrdinalError::Constant);
        }
        Ok(Standardised { x, mean, ss })
    }
}

pub(super) fn polyserial_prepared(xs: &Standardised, oy: &OrdinalColumn) -> Polyserial {
    let n = xs.x.len() as f64;
    // y recoded to 1..L; only its centred version enters.
    let ybar: f64 = oy
        .counts
        .iter()
        .enumerate()
        .map(|(i, c)| (i + 1) as f64 * *c as f64)
        .sum::<f64>()
        / n;
    let ssy: f64 = oy
        .counts
        .iter()
        .enumerate()
        .map(|(i, c)| ((i + 1) as f64 - ybar).powi(2) * *c as f64)
        .sum();
    let mut sxy = 0.0;
    for (v, l) in xs.x.iter().zip(&oy.index) {
        sxy += (v - xs.mean) * (f64::from(*l) + 1.0 - ybar);
    }
    let cor = sxy / (xs.ss.sqrt() * ssy.sqrt());
    let sd_y_pop = (ssy / n).sqrt();
    let phis: f64 = oy.thresholds.iter().map(|t| norm_pdf(*t)).sum();
    let raw = sd_y_pop * cor / phis;
    let clipped = raw.abs() > MAXCOR;
    Polyserial {
        rho: if clipped { MAXCOR.copysign(raw) } else { raw },
        thresholds: oy.thresholds.clone(),
        clipped,
    }
}
