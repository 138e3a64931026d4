//! Why a power study cannot run, and the checks of its lists that say so.

/// Why a power study cannot run; its message is the one the command line shows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PowerError {
    #[error("{} must be between 1 and 16777215", crate::wording::RunSetting::Reps.marked())]
    Reps,
    #[error("coverage resamples must be below 65536")]
    Coverage,
    #[error("too many (N, strength) cells: at most 65535")]
    TooManyCells,
    #[error("N = {0}: at least 3 items are needed")]
    SmallN(usize),
    /// Strength 0 is the false-positive column of every table; listed again it would be
    /// drawn from other replicates and print a second, different rate for one strength.
    #[error(
        "strength 0 is the false-positive rate every power table reports: list only strengths other than 0"
    )]
    ZeroStrength,
    /// A strength listed twice would print two columns, with two rates, for one strength.
    #[error("strength {0} is listed twice: list each strength once")]
    RepeatedStrength(f64),
    /// The null model of the design could not be built (its own message).
    /// An N listed twice would print two rows, with two rates, for one N.
    #[error("N = {0} is listed twice: list each N once")]
    RepeatedN(usize),
    #[error("{0}")]
    Null(String),
    #[error(transparent)]
    Design(#[from] crate::simulate::SimError),
}

/// The null model's message, whatever its error type.
pub(super) fn null_error(e: impl std::fmt::Display) -> PowerError {
    PowerError::Null(e.to_string())
}

/// Each strength once and none 0, so one table never gives two rates for one strength.
pub(super) fn distinct_strengths(strengths: &[f64]) -> Result<(), PowerError> {
    for (i, s) in strengths.iter().enumerate() {
        if *s == 0.0 {
            return Err(PowerError::ZeroStrength);
        }
        if strengths[..i].contains(s) {
            return Err(PowerError::RepeatedStrength(*s));
        }
    }
    Ok(())
}

/// Each N once, so one table never gives two rows for one N.
pub(super) fn distinct_ns(ns: &[usize]) -> Result<(), PowerError> {
    for (i, n) in ns.iter().enumerate() {
        if ns[..i].contains(n) {
            return Err(PowerError::RepeatedN(*n));
        }
    }
    Ok(())
}
