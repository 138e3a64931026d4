//! The item bootstrap as it first was: every resample gathers a copy of the panel at its N
//! drawn rows and recomputes the moments from the copy. Kept as the test oracle of
//! [`super::bootstrap`], which must give the same intervals at the same seed up to rounding.

use rand::RngExt;
use rayon::prelude::*;

use super::summary::{BootstrapResult, Draw, summarise};
use crate::estimate::{Context, Estimator, free_scale};
use crate::panel::Panel;
use crate::rng::{Purpose, Streams};

/// The gather bootstrap of several estimators (same streams, same indices as
/// [`super::bootstrap`]); O(B·N·q) random reads. For tests only.
#[must_use]
pub fn gather(
    panel: &Panel,
    estimators: &[Estimator],
    ctx: &Context,
    resamples: usize,
    streams: Streams,
) -> Vec<BootstrapResult> {
    let (n, q, p, m) = (panel.n, panel.q(), panel.p(), panel.m());
    let draws: Vec<Vec<Draw>> = (0..resamples)
        .into_par_iter()
        .map_init(
            || (vec![0.0; n * q], Vec::new(), vec![0usize; n]),
            |(buf, scratch, idx), b| {
                let mut rng = streams.rng(Purpose::Bootstrap, b as u64);
                for i in idx.iter_mut() {
                    *i = rng.random_range(0..n);
                }
                for c in 0..q {
                    let col = panel.col(c);
                    for (dst, &i) in buf[c * n..(c + 1) * n].iter_mut().zip(idx.iter()) {
                        *dst = col[i];
                    }
                }
                estimators
                    .iter()
                    .map(|&e| {
                        let est = if e == Estimator::FreeScale {
                            free_scale::fit_resample(panel, buf.clone())
                        } else {
                            e.fit_sample(buf, n, p, ctx, scratch)
                        };
                        Draw::of(est, m)
                    })
                    .collect()
            },
        )
        .collect();
    (0..estimators.len())
        .map(|e| summarise(&draws.iter().map(|d| &d[e]), resamples, streams.seed, m))
        .collect()
}
