//! What each figure draws: plain data built from the other commands' results, which the
//! renderers read, and why a figure cannot be drawn.

use crate::bootstrap::Interval;

/// Why a figure or its study cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// The figure has nothing to draw (no anchors, no runnable test), or the SVG backend failed.
    #[error("{0}")]
    Draw(String),
    /// A study's design is invalid at some point of its grid, or too small to study.
    #[error("{0}")]
    Design(String),
}

impl From<PlotError> for String {
    fn from(e: PlotError) -> String {
        e.to_string()
    }
}

/// One estimator's ρ̂ and intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct RhoSeries {
    pub label: String,
    /// Per anchor: ρ̂_k (`None`: inadmissible).
    pub rho: Vec<Option<f64>>,
    /// Per anchor: the interval (`None`: undefined or not computed).
    pub interval: Vec<Option<Interval>>,
    /// Per anchor: the admissible resamples' ρ̂_k (empty without a bootstrap).
    pub draws: Vec<Vec<f64>>,
    /// Resamples drawn (B).
    pub resamples: usize,
}

/// The ρ̂ marker plot and the bootstrap figure read the same data.
#[derive(Debug, Clone, PartialEq)]
pub struct RhoFigure {
    pub title: String,
    pub anchors: Vec<String>,
    pub series: Vec<RhoSeries>,
    /// The true ρ_k of a simulated panel.
    pub truth: Option<Vec<f64>>,
}

/// The bootstrap distributions: the same data as [`RhoFigure`].
pub type BootstrapFigure = RhoFigure;

/// One test's panel of the battery figure.
#[derive(Debug, Clone, PartialEq)]
pub struct TestPanel {
    pub name: String,
    /// Sorted null statistics.
    pub null: Vec<f64>,
    pub threshold: Option<f64>,
    pub observed: Option<f64>,
    pub p_value: Option<f64>,
    pub verdict: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BatteryFigure {
    pub title: String,
    pub tests: Vec<TestPanel>,
    /// Which null calibrated them.
    pub null: String,
}

/// One test's power curve.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerCurve {
    pub label: String,
    /// (N, rejection rate) with the rate's Monte-Carlo SE.
    pub points: Vec<(usize, f64, f64)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PowerFigure {
    pub title: String,
    pub strength: f64,
    pub reps: usize,
    pub curves: Vec<PowerCurve>,
    /// Tests with no power estimate on this design, with why (e.g. "Tests B, O (≥ 3 anchors)").
    pub missing: Vec<String>,
}
