//! The mixed correlation matrix of a panel: Pearson, polychoric or polyserial by pair.

use nalgebra::DMatrix;

use super::OrdinalError;
use super::polychoric::{cross_table, polychoric_table};
use super::polyserial::{Standardised, polyserial_prepared};
use super::thresholds::OrdinalColumn;
use crate::panel::{Panel, Scale};

/// A prepared column of a panel.
enum Col<'a> {
    Ord(OrdinalColumn),
    Cont(Standardised<'a>),
}

/// How a pair's correlation was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairKind {
    /// The diagonal.
    Unit,
    Pearson,
    Polychoric,
    Polyserial,
}

impl PairKind {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            PairKind::Unit => "unit",
            PairKind::Pearson => "pearson",
            PairKind::Polychoric => "polychoric",
            PairKind::Polyserial => "polyserial",
        }
    }
}

/// The mixed correlation matrix of a panel (judges first, then anchors), the kind of every
/// pair, and each ordinal column's thresholds (`None` for continuous columns).
#[derive(Debug, Clone, PartialEq)]
pub struct Correlations {
    pub r: DMatrix<f64>,
    pub kind: DMatrix<PairKind>,
    pub thresholds: Vec<Option<Vec<f64>>>,
}

/// Pearson, polychoric or polyserial per pair by each column's detected scale
/// ([`Scale`], docs/method.md §6), as R `polycor::hetcor(ML = FALSE)`. Tables are built once per pair
/// in one pass over the items.
///
/// # Errors
/// A column with one level, a constant continuous column, or a non-finite value, naming the
/// column.
pub fn correlation_matrix(panel: &Panel) -> Result<Correlations, OrdinalError> {
    let q = panel.q();
    let names = panel.names();
    if panel.n < 2 {
        return Err(OrdinalError::PanelTooSmall(panel.n));
    }
    let cols: Vec<Col> = (0..q)
        .map(|c| {
            let v = panel.col(c);
            let col = match panel.scales.get(c) {
                Some(Scale::Ordinal { .. }) => OrdinalColumn::new(v).map(Col::Ord),
                _ => Standardised::new(v).map(Col::Cont),
            };
            col.map_err(|e| OrdinalError::Column {
                column: names[c].clone(),
                source: Box::new(e),
            })
        })
        .collect::<Result<_, _>>()?;
    let mut r = DMatrix::identity(q, q);
    let mut kind = DMatrix::from_element(q, q, PairKind::Unit);
    for a in 0..q {
        for b in a + 1..q {
            let (v, k) = match (&cols[a], &cols[b]) {
                (Col::Ord(x), Col::Ord(y)) => {
                    let pc = polychoric_table(&cross_table(x, y), x.n_levels(), y.n_levels())
                        .map_err(|e| OrdinalError::Pair {
                            a: names[a].clone(),
                            b: names[b].clone(),
                            source: Box::new(e),
                        })?;
                    (pc.rho, PairKind::Polychoric)
                }
                (Col::Cont(x), Col::Ord(y)) | (Col::Ord(y), Col::Cont(x)) => {
                    (polyserial_prepared(x, y).rho, PairKind::Polyserial)
                }
                (Col::Cont(x), Col::Cont(y)) => {
                    let sxy: f64 =
                        x.x.iter()
                            .zip(y.x)
                            .map(|(u, v)| (u - x.mean) * (v - y.mean))
                            .sum();
                    (sxy / (x.ss.sqrt() * y.ss.sqrt()), PairKind::Pearson)
                }
            };
            r[(a, b)] = v;
            r[(b, a)] = v;
            kind[(a, b)] = k;
            kind[(b, a)] = k;
        }
    }
    let thresholds = cols
        .iter()
        .map(|c| match c {
            Col::Ord(o) => Some(o.thresholds.clone()),
            Col::Cont(_) => None,
        })
        .collect();
    Ok(Correlations {
        r,
        kind,
        thresholds,
    })
}
