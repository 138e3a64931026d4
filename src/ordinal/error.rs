//! Why a latent correlation or Section 7's identification check cannot be computed.

use super::bounds::MAX_LEVELS;

/// An ordinal-layer failure; its message is the one the command line shows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OrdinalError {
    #[error("columns have different lengths ({0} and {1})")]
    Lengths(usize, usize),
    #[error("a {rows} × {cols} table needs {} counts, got {got}", rows * cols)]
    TableSize {
        rows: usize,
        cols: usize,
        got: usize,
    },
    #[error(
        "the table has {rows} non-empty row{} and {cols} non-empty column{}: a polychoric correlation needs at least 2 of each (a column with one level has no correlation)",
        plural(*rows),
        plural(*cols)
    )]
    SparseTable { rows: usize, cols: usize },
    #[error("ordinal column holds a non-finite value ({0})")]
    NonFiniteCode(f64),
    #[error("ordinal column has more than {max} levels", max = MAX_LEVELS)]
    TooManyLevels,
    #[error("ordinal column has {0} level{s}: a correlation needs at least 2", s = plural(*.0))]
    TooFewLevels(usize),
    #[error("a correlation needs at least 2 items")]
    TooFewItems,
    #[error("continuous column holds a non-finite value ({0})")]
    NonFiniteValue(f64),
    #[error("continuous column is constant: it has no correlation")]
    Constant,
    #[error("the panel has {0} item{s}: correlations need at least 2", s = plural(*.0))]
    PanelTooSmall(usize),
    /// A column's failure, named.
    #[error("column '{column}': {source}")]
    Column {
        column: String,
        source: Box<OrdinalError>,
    },
    /// A pair's failure, named.
    #[error("columns '{a}' and '{b}': {source}")]
    Pair {
        a: String,
        b: String,
        source: Box<OrdinalError>,
    },
    #[error(
        "the identification check is for the paper's model: switch every violation and judge scale off"
    )]
    NotPaperModel,
    #[error("the identification check needs at least 2 judges and 1 anchor")]
    TooSmallModel,
    #[error("no anchor to rotate")]
    NoAnchor,
    #[error("ρ_1 = {rho1} is out of reach: anchor 1's standardised loading length is {length:.4}")]
    OutOfReach { rho1: f64, length: f64 },
    #[error(
        "rotating to ρ_1 = {rho1} takes σ_t² or σ_c² to zero or below (judge angle {degrees:.1}°)"
    )]
    Degenerate { rho1: f64, degrees: f64 },
    #[error("rotating to ρ_1 = {rho1} gives anchor {anchor} a non-positive quality loading")]
    NonPositiveLoading { rho1: f64, anchor: usize },
    /// The model point itself is invalid (the model's own message).
    #[error("{0}")]
    Model(String),
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl From<OrdinalError> for String {
    fn from(e: OrdinalError) -> String {
        e.to_string()
    }
}
