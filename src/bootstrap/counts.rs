//! Which items each bootstrap resample draws: resample r's N indices from its own stream,
//! kept as counts (one byte per item), drawn again for a resample whose counts overflowed.

use rand::RngExt;

use crate::progress::{Flow, Progress};
use crate::rng::{Index, Purpose, Streams};

/// The counts of resamples `start..start + size` (one byte per item and resample: a
/// resample's histogram stays in cache), and which resamples overflowed a byte. A count over
/// 255 needs N ≥ 256 and one item drawn 256 times (p < 1e−400); such a resample is summed
/// draw by draw instead. `None` when `progress` stops the run.
pub(super) fn draw_counts(
    streams: Streams,
    start: usize,
    size: usize,
    n: usize,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<(Vec<u8>, Vec<usize>)> {
    let mut counts = vec![0u8; size * n];
    let mut overflowed = Vec::new();
    for r in 0..size {
        if progress(Progress::Step) == Flow::Stop {
            return None;
        }
        let row = &mut counts[r * n..(r + 1) * n];
        let mut overflow = false;
        for i in draws(streams, start + r, n) {
            let (c, o) = row[i].overflowing_add(1);
            row[i] = c;
            overflow |= o;
        }
        if overflow {
            overflowed.push(r);
        }
    }
    Some((counts, overflowed))
}

/// The N indices resample `r` draws, drawn again (for a resample whose counts overflowed a
/// byte): the stream [`draw_counts`] counted.
pub(super) fn redraw(streams: Streams, r: usize, n: usize) -> Vec<usize> {
    draws(streams, r, n).collect()
}

/// Resample `r`'s N item indices in the order drawn: `random_range(0..n)` on stream `r`
/// ([`Index`] inlines it, number for number).
pub(super) fn draws(streams: Streams, r: usize, n: usize) -> impl Iterator<Item = usize> {
    let mut rng = streams.rng(Purpose::Bootstrap, r as u64);
    let index = Index::below(n);
    (0..n).map(move |_| match index {
        Some(index) => index.draw(&mut rng),
        None => rng.random_range(0..n),
    })
}
