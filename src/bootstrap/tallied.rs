//! The free-scale refit of a resample with ordinal columns: from the resample's tally (its
//! code patterns weighted by how often each item was drawn, [`crate::ordinal::Tally`]), not
//! from a panel of its items. The correlations are the ones the items give (the same tables),
//! so the resample is the same statistic; the pass over the items is one add per drawn item
//! and continuous column instead of a gather, a level search and a table per pair.

use crate::estimate::{Estimate, free_scale};
use crate::ordinal::Items;
use crate::panel::Panel;

/// How the bootstrap refits the free-scale estimator on an ordinal panel's resamples.
#[derive(Debug)]
pub(crate) enum Refit {
    /// From tallies of the panel's prepared items.
    Tallied(Box<Items>),
    /// On the resample's items (a panel whose tally could not be prepared).
    Items,
}

impl Refit {
    /// The tallied refit when it is `wanted` (a free-scale refit without a covariance), the
    /// panel's items can be tallied and its anchors are all continuous (the free-scale fit's
    /// own requirement; otherwise it refuses the items too).
    pub(crate) fn of(panel: &Panel, wanted: bool) -> Refit {
        let anchors_continuous = panel.scales[panel.p()..].iter().all(|s| !s.is_ordinal());
        match Items::of(panel) {
            Ok(items) if wanted && anchors_continuous => Refit::Tallied(Box::new(items)),
            _ => Refit::Items,
        }
    }

    /// The free-scale estimate of resample `r` of a batch from `start`: from its per-item
    /// counts (the batch's `counts`) or, for a resample whose counts overflowed a byte (listed in
    /// `overflowed`), from its item indices drawn again.
    pub(crate) fn fit(
        &self,
        panel: &Panel,
        (counts, overflowed): (&[u8], &[usize]),
        (streams, start): (crate::rng::Streams, usize),
        r: usize,
    ) -> Option<Estimate> {
        let (n, p, m) = (panel.n, panel.p(), panel.m());
        let drawn = overflowed
            .contains(&r)
            .then(|| super::counts::redraw(streams, start + r, n));
        let counts = &counts[r * n..(r + 1) * n];
        match self {
            Refit::Tallied(items) => {
                let (r, cov) = tallied(items, counts, drawn, n)?;
                let r_judges = r.view((0, 0), (p, p)).into_owned();
                let r_ja = r.view((0, p), (p, m)).into_owned();
                let anchor_cov = cov.view((p, p), (m, m)).into_owned();
                free_scale::fit(&r_judges, &r_ja, &anchor_cov)
                    .ok()
                    .map(|f| f.estimate)
            }
            Refit::Items => {
                let rows = drawn.unwrap_or_else(|| expand(counts));
                free_scale::fit_resample(panel, gather(panel, &rows))
            }
        }
    }
}

/// A resample's mixed correlation matrix and covariance from the tally of `items` weighted by
/// its `counts`, or by its item indices `drawn` again when the counts overflowed a byte.
fn tallied(
    items: &Items,
    counts: &[u8],
    drawn: Option<Vec<usize>>,
    n: usize,
) -> Option<(nalgebra::DMatrix<f64>, nalgebra::DMatrix<f64>)> {
    let tally = match drawn {
        Some(rows) => {
            let mut wide = vec![0u32; n];
            for i in rows {
                wide[i] += 1;
            }
            items.tally(&wide)
        }
        None => items.tally(counts),
    };
    tally.correlations(&items.layout).ok()
}

/// The designated-clean latent estimate of resample `r` of a batch from `start`
/// ([`crate::estimate::latent`]), from its tally as [`Refit::fit`] forms it.
pub(crate) fn latent(
    items: &Items,
    (n, p, d): (usize, usize, usize),
    (counts, overflowed): (&[u8], &[usize]),
    (streams, start): (crate::rng::Streams, usize),
    r: usize,
) -> Option<Estimate> {
    let drawn = overflowed
        .contains(&r)
        .then(|| super::counts::redraw(streams, start + r, n));
    let (corr, _) = tallied(items, &counts[r * n..(r + 1) * n], drawn, n)?;
    crate::estimate::latent::fit(&corr, p, d).ok()
}

/// The items of a resample from its counts: item i listed `counts[i]` times.
fn expand(counts: &[u8]) -> Vec<usize> {
    let mut rows = Vec::with_capacity(counts.len());
    for (i, &c) in counts.iter().enumerate() {
        rows.extend(std::iter::repeat_n(i, usize::from(c)));
    }
    rows
}

/// The panel's columns at `rows` (column-major, the panel's layout).
fn gather(panel: &Panel, rows: &[usize]) -> Vec<f64> {
    let mut data = Vec::with_capacity(rows.len() * panel.q());
    for c in 0..panel.q() {
        let col = panel.col(c);
        data.extend(rows.iter().map(|&i| col[i]));
    }
    data
}
