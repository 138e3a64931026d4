//! A tally built row by row, as a simulated null draws its rows.

use std::cell::RefCell;

use super::tally::{Layout, Tally};

/// Dense weights, continuous sums and touched list, zeroed.
type Dense = (Vec<u64>, Vec<f64>, Vec<u32>);

thread_local! {
    /// The last finished accumulator's dense buffers, zeroed, so a thread's next null draw of
    /// the same layout reuses them instead of allocating and zeroing L^p patterns again.
    static SPARE: RefCell<Option<Dense>> = const { RefCell::new(None) };
}

/// Builds a tally row by row (a simulated sample): dense over the code patterns when they
/// fit `tally::DENSE_PATTERNS`, one pattern per row otherwise.
#[derive(Debug)]
pub struct Accumulator<'a> {
    layout: &'a Layout,
    /// Dense weights and continuous sums, and the patterns touched in order of first touch.
    dense: Option<Dense>,
    rows: Tally,
}

impl<'a> Accumulator<'a> {
    /// An empty accumulator for samples of `layout`.
    #[must_use]
    pub fn new(layout: &'a Layout) -> Accumulator<'a> {
        let nc = layout.cont.len();
        let dense = layout.dense_patterns().map(|k| {
            let spare = SPARE.with(|s| s.borrow_mut().take());
            spare
                .filter(|(w, sums, _)| w.len() == k && sums.len() == k * nc)
                .unwrap_or_else(|| (vec![0; k], vec![0.0; k * nc], Vec::new()))
        });
        Accumulator {
            layout,
            dense,
            rows: Tally::zeros(layout, 0),
        }
    }

    /// Adds one row: its ordinal level indices and its continuous values.
    pub fn push(&mut self, levels: &[u8], x: &[f64]) {
        let nc = x.len();
        if let (Some((weight, sums, touched)), Some(radix)) = (&mut self.dense, &self.layout.radix)
        {
            let k: usize = levels
                .iter()
                .zip(radix)
                .map(|(l, r)| usize::from(*l) * r)
                .sum();
            if weight[k] == 0 {
                touched.push(u32::try_from(k).unwrap_or(u32::MAX));
            }
            weight[k] += 1;
            for (s, v) in sums[k * nc..(k + 1) * nc].iter_mut().zip(x) {
                *s += v;
            }
        } else {
            self.rows.levels.extend_from_slice(levels);
            self.rows.weight.push(1);
            self.rows.sums.extend_from_slice(x);
        }
        let cross = &mut self.rows.cross;
        for a in 0..nc {
            for b in a..nc {
                cross[a * nc + b] += x[a] * x[b];
            }
        }
    }

    /// The tally of the rows pushed.
    #[must_use]
    pub fn finish(self) -> Tally {
        let Some((mut weight, mut sums, mut touched)) = self.dense else {
            return self.rows;
        };
        let (no, nc) = self.layout.widths();
        let radix = self.layout.radix.as_deref().unwrap_or(&[]);
        let mut t = Tally::zeros(self.layout, touched.len());
        t.cross = self.rows.cross;
        for (j, &k) in touched.iter().enumerate() {
            let k = k as usize;
            t.weight[j] = weight[k];
            t.sums[j * nc..(j + 1) * nc].copy_from_slice(&sums[k * nc..(k + 1) * nc]);
            for (o, (&col, &place)) in self.layout.ord.iter().zip(radix).enumerate() {
                let l = self.layout.kinds[col].as_ref().map_or(1, Vec::len);
                #[expect(clippy::cast_possible_truncation, reason = "at most 10 levels")]
                let level = ((k / place) % l) as u8;
                t.levels[j * no + o] = level;
            }
        }
        for &k in &touched {
            let k = k as usize;
            weight[k] = 0;
            sums[k * nc..(k + 1) * nc].fill(0.0);
        }
        touched.clear();
        SPARE.with(|s| *s.borrow_mut() = Some((weight, sums, touched)));
        t
    }
}
