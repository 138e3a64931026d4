//! The Newton / Levenberg–Marquardt loops' limits, shared by the judge and anchor fits.

/// Iteration limits and tolerances of the Newton / Levenberg–Marquardt loops.
pub(super) const MAX_ITER: usize = 500;
/// Gauss–Newton iterations before Newton steps are tried.
pub(super) const GN_ITERS: usize = 25;
/// Two runs within this distance (in ln σ², β) are in one basin.
pub(super) const SAME_BASIN: f64 = 1e-2;
pub(super) const MAX_DAMP: usize = 12;
pub(super) const GRAD_TOL: f64 = 1e-14;
pub(super) const STEP_TOL: f64 = 1e-13;
/// A run that can no longer decrease the misfit is at a minimum when its gradient is below
/// this: a θ moved by 1e-7 changes ρ far below its sampling error at any N.
pub(super) const STALL_TOL: f64 = 1e-7;
