//! The bounds every ordinal routine keeps: polycor's `maxcor` and the most levels a column
//! may have.

/// polycor's `maxcor`: the polyserial estimate is clipped to ±this, and the polychoric search
/// runs on [−maxcor, maxcor] (saturated tables excepted, see [`super::polychoric_table`]).
pub const MAXCOR: f64 = 0.9999;

/// The most levels an ordinal column may have (docs/method.md §6).
pub const MAX_LEVELS: usize = crate::panel::MAX_ORDINAL_LEVELS;
