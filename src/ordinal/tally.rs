//! A sample's mixed correlations from counts, not items: a polychoric correlation depends on
//! the data only through its contingency table, a polyserial one through the ordinal column's
//! level counts and the per-level sums of the continuous column, a Pearson one through sums
//! and cross-products. A [`Tally`] holds them, grouped by the ordinal columns' code pattern
//! (a pattern's weight and its continuous sums), so an item bootstrap or a simulated null
//! forms one weighted tally per sample and never a panel of items. The correlations are the
//! ones [`super::correlation_matrix`] computes on the items (the same tables, so the same
//! polychorics to the bit; polyserials and Pearsons to rounding).

use nalgebra::DMatrix;

use super::OrdinalError;
use super::polychoric::polychoric_table;
use super::thresholds::{OrdinalColumn, thresholds_from_counts};
use crate::panel::Panel;
use crate::stats::normal::norm_pdf;

/// Most code patterns a dense tally indexes (mixed radix over the ordinal columns); beyond it
/// every item is its own pattern.
const DENSE_PATTERNS: usize = 1 << 16;

/// Which columns are ordinal (with their level values) and which continuous.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Per column: `Some(values of its levels)` for an ordinal column, `None` for continuous.
    pub kinds: Vec<Option<Vec<f64>>>,
    pub(super) ord: Vec<usize>,
    pub(super) cont: Vec<usize>,
    /// Mixed-radix place value of each ordinal column, when the patterns fit a dense index.
    pub(super) radix: Option<Vec<usize>>,
}

impl Layout {
    /// The layout of columns of these kinds.
    #[must_use]
    pub fn new(kinds: Vec<Option<Vec<f64>>>) -> Layout {
        let ord: Vec<usize> = (0..kinds.len()).filter(|&c| kinds[c].is_some()).collect();
        let cont: Vec<usize> = (0..kinds.len()).filter(|&c| kinds[c].is_none()).collect();
        let mut place = 1usize;
        let mut radix = Vec::with_capacity(ord.len());
        for &c in &ord {
            radix.push(place);
            let l = kinds[c].as_ref().map_or(1, Vec::len).max(1);
            place = place.saturating_mul(l);
        }
        let radix = (place <= DENSE_PATTERNS).then_some(radix);
        Layout {
            kinds,
            ord,
            cont,
            radix,
        }
    }

    /// Dense patterns (`Some(count)`) or one pattern per item (`None`).
    #[must_use]
    pub fn dense_patterns(&self) -> Option<usize> {
        let r = self.radix.as_ref()?;
        let last = self.ord.last().map_or(1, |&c| {
            self.kinds[c].as_ref().map_or(1, Vec::len) * r[r.len() - 1]
        });
        Some(last.max(1))
    }

    /// Number of ordinal and continuous columns.
    #[must_use]
    pub fn widths(&self) -> (usize, usize) {
        (self.ord.len(), self.cont.len())
    }
}

/// A weighted sample's sufficient statistics: per code pattern its levels, weight and the
/// sums of every continuous column; the continuous cross-products. Continuous values enter
/// shifted (by a constant per column), which leaves every correlation and covariance as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally {
    /// Level index of each ordinal column, per pattern (patterns × ordinal columns).
    pub levels: Vec<u8>,
    pub weight: Vec<u64>,
    /// Σ w·x per pattern and continuous column (patterns × continuous columns).
    pub sums: Vec<f64>,
    /// Σ w·x_c·x_d over continuous columns (row-major, continuous × continuous).
    pub cross: Vec<f64>,
}

impl Tally {
    /// An empty tally of `patterns` patterns.
    #[must_use]
    pub fn zeros(layout: &Layout, patterns: usize) -> Tally {
        let (o, c) = layout.widths();
        Tally {
            levels: vec![0; patterns * o],
            weight: vec![0; patterns],
            sums: vec![0.0; patterns * c],
            cross: vec![0.0; c * c],
        }
    }

    /// Adds `w` items of pattern `k` with continuous values `x` (shifted).
    pub fn add(&mut self, k: usize, w: u64, x: &[f64]) {
        let c = x.len();
        self.weight[k] += w;
        let wf = w as f64;
        for (s, v) in self.sums[k * c..(k + 1) * c].iter_mut().zip(x) {
            *s += wf * v;
        }
        for (a, xa) in x.iter().enumerate() {
            let wa = wf * xa;
            for (b, xb) in x.iter().enumerate().skip(a) {
                self.cross[a * c + b] += wa * xb;
            }
        }
    }

    /// The mixed correlation matrix (as [`super::correlation_matrix`]) and the covariance
    /// (divisor N − 1, ordinal columns at their level values) of the tallied sample.
    ///
    /// # Errors
    /// Fewer than 2 items, an ordinal column with fewer than 2 levels present, or a continuous
    /// column without spread.
    pub fn correlations(
        &self,
        layout: &Layout,
    ) -> Result<(DMatrix<f64>, DMatrix<f64>), OrdinalError> {
        let stats = Stats::of(self, layout)?;
        let q = layout.kinds.len();
        let mut r = DMatrix::identity(q, q);
        let mut cov = DMatrix::zeros(q, q);
        for a in 0..q {
            for b in a..q {
                let (rv, cv) = stats.pair(layout, a, b)?;
                r[(a, b)] = rv;
                r[(b, a)] = rv;
                cov[(a, b)] = cv;
                cov[(b, a)] = cv;
            }
        }
        Ok((r, cov))
    }
}

/// The tally reduced to what the pairs read: level counts, pair tables, per-level sums.
struct Stats {
    n: f64,
    /// Per ordinal column: counts of each level.
    counts: Vec<Vec<u64>>,
    /// Per ordinal pair (a < b, row-major over ordinal indices): the La × Lb table.
    tables: Vec<Vec<usize>>,
    /// Per continuous column and ordinal column: Σ w·x at each level.
    level_sums: Vec<Vec<Vec<f64>>>,
    /// Per continuous column: Σ w·x.
    total: Vec<f64>,
    /// Continuous cross-products (from the tally).
    cross: Vec<f64>,
}

impl Stats {
    fn of(t: &Tally, layout: &Layout) -> Result<Stats, OrdinalError> {
        let (no, nc) = layout.widths();
        let lv = |o: usize| layout.kinds[layout.ord[o]].as_ref().map_or(0, Vec::len);
        let mut counts: Vec<Vec<u64>> = (0..no).map(|o| vec![0; lv(o)]).collect();
        let mut tables: Vec<Vec<usize>> = Vec::with_capacity(no * no.saturating_sub(1) / 2);
        for a in 0..no {
            for b in a + 1..no {
                tables.push(vec![0; lv(a) * lv(b)]);
            }
        }
        let mut level_sums: Vec<Vec<Vec<f64>>> = (0..nc)
            .map(|_| (0..no).map(|o| vec![0.0; lv(o)]).collect())
            .collect();
        let mut total = vec![0.0; nc];
        for (k, &w) in t.weight.iter().enumerate() {
            if w == 0 {
                continue;
            }
            let lev = &t.levels[k * no..(k + 1) * no];
            let mut pair = 0;
            for a in 0..no {
                counts[a][usize::from(lev[a])] += w;
                for b in a + 1..no {
                    tables[pair][usize::from(lev[a]) * lv(b) + usize::from(lev[b])] +=
                        usize::try_from(w).unwrap_or(usize::MAX);
                    pair += 1;
                }
            }
            for c in 0..nc {
                let s = t.sums[k * nc + c];
                total[c] += s;
                for o in 0..no {
                    level_sums[c][o][usize::from(lev[o])] += s;
                }
            }
        }
        let n: u64 = t.weight.iter().sum();
        if n < 2 {
            return Err(OrdinalError::PanelTooSmall(usize::try_from(n).unwrap_or(0)));
        }
        if let Some(c) = counts
            .iter()
            .find(|c| c.iter().filter(|x| **x > 0).count() < 2)
        {
            return Err(OrdinalError::TooFewLevels(
                c.iter().filter(|x| **x > 0).count(),
            ));
        }
        let stats = Stats {
            n: n as f64,
            counts,
            tables,
            level_sums,
            total,
            cross: t.cross.clone(),
        };
        if (0..nc).any(|c| stats.ss(c) <= 1e-12 * stats.cross[c * nc + c]) {
            return Err(OrdinalError::Constant);
        }
        Ok(stats)
    }

    /// Centred sum of squares of continuous column `c`.
    fn ss(&self, c: usize) -> f64 {
        let nc = self.total.len();
        self.cross[c * nc + c] - self.total[c] * self.total[c] / self.n
    }

    /// Centred cross-product of continuous columns `c` and `d`.
    fn sxy(&self, c: usize, d: usize) -> f64 {
        let nc = self.total.len();
        let (c, d) = (c.min(d), c.max(d));
        self.cross[c * nc + d] - self.total[c] * self.total[d] / self.n
    }

    /// Mean of ordinal column `o` at its level values.
    fn ord_mean(&self, values: &[f64], o: usize) -> f64 {
        let s: f64 = self.counts[o]
            .iter()
            .zip(values)
            .map(|(c, v)| *c as f64 * v)
            .sum();
        s / self.n
    }

    /// The correlation and covariance of columns `a` ≤ `b`.
    fn pair(&self, layout: &Layout, a: usize, b: usize) -> Result<(f64, f64), OrdinalError> {
        let pos = |c: usize, list: &[usize]| list.iter().position(|&x| x == c).unwrap_or(0);
        let d = self.n - 1.0;
        match (&layout.kinds[a], &layout.kinds[b]) {
            (Some(va), Some(vb)) => {
                let (oa, ob) = (pos(a, &layout.ord), pos(b, &layout.ord));
                let (ma, mb) = (self.ord_mean(va, oa), self.ord_mean(vb, ob));
                if a == b {
                    let ss: f64 = self.counts[oa]
                        .iter()
                        .zip(va)
                        .map(|(c, v)| *c as f64 * (v - ma) * (v - ma))
                        .sum();
                    return Ok((1.0, ss / d));
                }
                let table = &self.tables[pair_index(oa, ob, layout.ord.len())];
                let lb = vb.len();
                let mut s = 0.0;
                for (cell, &t) in table.iter().enumerate() {
                    s += t as f64 * (va[cell / lb] - ma) * (vb[cell % lb] - mb);
                }
                let pc = polychoric_table(table, va.len(), lb)?;
                Ok((pc.rho, s / d))
            }
            (None, None) => {
                let (ca, cb) = (pos(a, &layout.cont), pos(b, &layout.cont));
                let sxy = self.sxy(ca, cb);
                let r = if a == b {
                    1.0
                } else {
                    sxy / (self.ss(ca).sqrt() * self.ss(cb).sqrt())
                };
                Ok((r, sxy / d))
            }
            (Some(v), None) | (None, Some(v)) => {
                let (o, c) = if layout.kinds[a].is_some() {
                    (pos(a, &layout.ord), pos(b, &layout.cont))
                } else {
                    (pos(b, &layout.ord), pos(a, &layout.cont))
                };
                Ok(self.polyserial(v, o, c))
            }
        }
    }

    /// Polyserial ρ (as `polyserial_prepared`: y recoded to 1..L over the levels present,
    /// clipped to ±maxcor) and the covariance at the level values.
    fn polyserial(&self, values: &[f64], o: usize, c: usize) -> (f64, f64) {
        let counts = &self.counts[o];
        let sums = &self.level_sums[c][o];
        let present: Vec<usize> = (0..counts.len()).filter(|&l| counts[l] > 0).collect();
        let n = self.n;
        let ybar: f64 = present
            .iter()
            .enumerate()
            .map(|(rank, &l)| (rank + 1) as f64 * counts[l] as f64)
            .sum::<f64>()
            / n;
        let xbar = self.total[c] / n;
        let (mut ssy, mut sxy) = (0.0, 0.0);
        for (rank, &l) in present.iter().enumerate() {
            let dy = (rank + 1) as f64 - ybar;
            ssy += dy * dy * counts[l] as f64;
            sxy += dy * (sums[l] - counts[l] as f64 * xbar);
        }
        let cor = sxy / (self.ss(c).sqrt() * ssy.sqrt());
        let kept: Vec<usize> = present
            .iter()
            .map(|&l| usize::try_from(counts[l]).unwrap_or(usize::MAX))
            .collect();
        let phis: f64 = thresholds_from_counts(&kept)
            .iter()
            .map(|t| norm_pdf(*t))
            .sum();
        let raw = (ssy / n).sqrt() * cor / phis;
        let rho = if raw.abs() > super::bounds::MAXCOR {
            super::bounds::MAXCOR.copysign(raw)
        } else {
            raw
        };
        let m = self.ord_mean(values, o);
        let cv: f64 = (0..counts.len())
            .map(|l| (values[l] - m) * (sums[l] - counts[l] as f64 * xbar))
            .sum();
        (rho, cv / (n - 1.0))
    }
}

/// Index of ordinal pair (a < b) among `no` ordinal columns, row-major.
fn pair_index(a: usize, b: usize, no: usize) -> usize {
    a * no - a * (a + 1) / 2 + (b - a - 1)
}

/// A panel's items prepared for weighted tallies: each item's pattern and shifted continuous
/// values, and the patterns' levels. Built once; [`Items::tally`] then costs one pass over
/// the items with a non-zero weight.
#[derive(Debug, Clone)]
pub struct Items {
    pub layout: Layout,
    /// Pattern of each item.
    pattern: Vec<u32>,
    /// Level indices of each pattern (patterns × ordinal columns).
    levels: Vec<u8>,
    /// Continuous values, item-major (items × continuous columns), shifted by column means.
    values: Vec<f64>,
}

impl Items {
    /// The items of `panel`, its columns ordinal or continuous by `panel.scales`.
    ///
    /// # Errors
    /// An ordinal column with fewer than 2 or more than 10 levels.
    pub fn of(panel: &Panel) -> Result<Items, OrdinalError> {
        let (n, q) = (panel.n, panel.q());
        let mut kinds = Vec::with_capacity(q);
        let mut index: Vec<Vec<u8>> = Vec::new();
        for c in 0..q {
            if panel
                .scales
                .get(c)
                .is_some_and(crate::panel::Scale::is_ordinal)
            {
                let col = OrdinalColumn::new(panel.col(c))?;
                kinds.push(Some(col.levels.clone()));
                index.push(col.index);
            } else {
                kinds.push(None);
            }
        }
        let layout = Layout::new(kinds);
        let (no, nc) = layout.widths();
        let mut keys: Vec<(Vec<u8>, usize)> = (0..n)
            .map(|i| (index.iter().map(|col| col[i]).collect(), i))
            .collect();
        keys.sort_unstable();
        let mut pattern = vec![0u32; n];
        let mut levels = Vec::new();
        let mut k = 0u32;
        for (j, (key, i)) in keys.iter().enumerate() {
            if j > 0 && keys[j - 1].0 != *key {
                k += 1;
            }
            if j == 0 || keys[j - 1].0 != *key {
                levels.extend_from_slice(key);
            }
            pattern[*i] = k;
        }
        let mut values = vec![0.0; n * nc];
        for (ci, &c) in layout.cont.iter().enumerate() {
            let col = panel.col(c);
            let mean = crate::moments::sum(col) / n.max(1) as f64;
            for i in 0..n {
                values[i * nc + ci] = col[i] - mean;
            }
        }
        debug_assert_eq!(levels.len() % no.max(1), 0);
        Ok(Items {
            layout,
            pattern,
            levels,
            values,
        })
    }

    /// The tally of the items weighted by `w` (one weight per item, in item order).
    #[must_use]
    pub fn tally<W: Copy + Into<u64>>(&self, w: &[W]) -> Tally {
        let (no, nc) = self.layout.widths();
        let patterns = self.levels.len() / no.max(1);
        let mut t = Tally::zeros(&self.layout, patterns.max(1));
        t.levels
            .copy_from_slice(&self.levels[..patterns.max(1) * no]);
        for (i, wi) in w.iter().enumerate() {
            let wi: u64 = (*wi).into();
            if wi > 0 {
                t.add(
                    self.pattern[i] as usize,
                    wi,
                    &self.values[i * nc..(i + 1) * nc],
                );
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinal::Accumulator;
    use crate::panel::Scale;
    use crate::rng::{Purpose, Streams};
    use rand::RngExt;

    /// A panel of `n` items: three ordinal columns (one with a level under 1 % of items, one
    /// with 62 % on one code) and two continuous ones, correlated through a shared draw.
    fn panel(n: usize, seed: u64) -> Panel {
        let mut rng = Streams { seed, base: 0 }.rng(Purpose::Null, 0);
        let mut data = vec![0.0; n * 5];
        for i in 0..n {
            let f: f64 = rng.random::<f64>() - 0.5;
            let e: Vec<f64> = (0..5).map(|_| rng.random::<f64>() - 0.5).collect();
            let cut = |x: f64, cuts: &[f64]| cuts.iter().filter(|c| **c < x).count() as f64 + 1.0;
            data[i] = cut(f + e[0], &[-0.3, 0.0, 0.3, 0.69]);
            data[n + i] = cut(f + e[1], &[-0.1, 0.45]);
            data[2 * n + i] = 2.0 * cut(f + e[2], &[-0.5, -0.2, 0.2, 0.5]);
            data[3 * n + i] = 1000.0 + f + e[3];
            data[4 * n + i] = f - e[4];
        }
        let mut p = Panel::new(
            n,
            data,
            vec!["J1".into(), "J2".into(), "J3".into()],
            vec!["A1".into(), "A2".into()],
        );
        p.scales = (0..5)
            .map(|c| {
                if c < 3 {
                    Scale::detect(p.col(c))
                } else {
                    Scale::Continuous
                }
            })
            .collect();
        p
    }

    #[test]
    fn tallied_correlations_are_the_items_ones() {
        let p = panel(3000, 7);
        let items = Items::of(&p).unwrap();
        let (r, cov) = items
            .tally(&vec![1u8; p.n])
            .correlations(&items.layout)
            .unwrap();
        let want = crate::ordinal::correlation_matrix(&p).unwrap().r;
        let want_cov = crate::moments::covariance(&p.data, p.n, 5, &mut Vec::new());
        for a in 0..5 {
            for b in 0..5 {
                assert!((r[(a, b)] - want[(a, b)]).abs() < 1e-12, "r {a} {b}");
                assert!((cov[(a, b)] - want_cov[(a, b)]).abs() < 1e-9, "cov {a} {b}");
            }
        }
        // Polychorics come from the very same tables: equal to the bit.
        assert_eq!(r[(0, 1)].to_bits(), want[(0, 1)].to_bits());
    }

    #[test]
    fn weighted_tally_is_the_expanded_items() {
        let p = panel(400, 3);
        let items = Items::of(&p).unwrap();
        let w: Vec<u8> = (0..p.n).map(|i| u8::try_from(i % 3).unwrap()).collect();
        let rows: Vec<usize> = (0..p.n)
            .flat_map(|i| std::iter::repeat_n(i, i % 3))
            .collect();
        let pr = &p;
        let data: Vec<f64> = (0..5)
            .flat_map(|c| rows.iter().map(move |&i| pr.col(c)[i]))
            .collect();
        let mut sub = Panel::new(rows.len(), data, p.judges.clone(), p.anchors.clone());
        sub.scales = p.scales.clone();
        let (r, _) = items.tally(&w).correlations(&items.layout).unwrap();
        let want = crate::ordinal::correlation_matrix(&sub).unwrap().r;
        assert!((r - want).amax() < 1e-12);
    }

    #[test]
    fn accumulated_rows_match_the_items_tally_and_a_lost_level_is_an_error() {
        let p = panel(500, 11);
        let items = Items::of(&p).unwrap();
        let mut acc = Accumulator::new(&items.layout);
        let idx: Vec<OrdinalColumn> = (0..3)
            .map(|c| OrdinalColumn::new(p.col(c)).unwrap())
            .collect();
        for i in 0..p.n {
            let lev: Vec<u8> = idx.iter().map(|c| c.index[i]).collect();
            acc.push(&lev, &[p.col(3)[i] - 1000.0, p.col(4)[i]]);
        }
        let (r, _) = acc.finish().correlations(&items.layout).unwrap();
        let (want, _) = items
            .tally(&vec![1u8; p.n])
            .correlations(&items.layout)
            .unwrap();
        assert!((r - want).amax() < 1e-12);
        // Weight on one level of J2 only: J2 has one level, so no correlation.
        let keep: Vec<u8> = idx[1].index.iter().map(|l| u8::from(*l == 0)).collect();
        assert!(items.tally(&keep).correlations(&items.layout).is_err());
    }
}
