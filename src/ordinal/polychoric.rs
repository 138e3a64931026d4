//! The two-step polychoric correlation of two ordinal columns, as R `polycor::polychor(ML = FALSE)`.

use super::OrdinalError;
use super::bounds::MAXCOR;
use super::thresholds::{OrdinalColumn, thresholds_from_counts};
use crate::stats::brent::{brent_min, brent_root};
use crate::stats::normal::{BvnAt, norm_cdf};

/// A polychoric correlation and its thresholds.
#[derive(Debug, Clone, PartialEq)]
pub struct Polychoric {
    /// ρ̂, the maximiser of the table's log-likelihood given the thresholds.
    pub rho: f64,
    /// Thresholds of the row variable (after dropping empty rows).
    pub row_thresholds: Vec<f64>,
    /// Thresholds of the column variable (after dropping empty columns).
    pub col_thresholds: Vec<f64>,
    /// Items in the table.
    pub n: usize,
    /// The table is saturated at ρ = ±1 (no discordant, or no concordant, pair of non-empty
    /// cells: e.g. identical columns); ρ̂ is then exactly ±1 (polycor would stop at ±0.9999).
    pub saturated: bool,
}

/// Polychoric correlation of two ordinal code vectors (two-step, as R
/// `polycor::polychor(x, y, ML = FALSE)`).
///
/// # Errors
/// Different lengths, a column with fewer than 2 or more than 10 levels, non-finite codes.
pub fn polychoric(x: &[f64], y: &[f64]) -> Result<Polychoric, OrdinalError> {
    if x.len() != y.len() {
        return Err(OrdinalError::Lengths(x.len(), y.len()));
    }
    let (cx, cy) = (OrdinalColumn::new(x)?, OrdinalColumn::new(y)?);
    let table = cross_table(&cx, &cy);
    polychoric_table(&table, cx.n_levels(), cy.n_levels())
}

/// The r × c contingency table (row-major) of two ordinal columns.
#[must_use]
pub fn cross_table(x: &OrdinalColumn, y: &OrdinalColumn) -> Vec<usize> {
    let c = y.n_levels();
    let mut t = vec![0usize; x.n_levels() * c];
    for (a, b) in x.index.iter().zip(&y.index) {
        t[usize::from(*a) * c + usize::from(*b)] += 1;
    }
    t
}

/// Polychoric correlation from an r × c table of counts (row-major), as R
/// `polycor::polychor(table, ML = FALSE)`: empty rows and columns are dropped; thresholds from
/// the margins; then ρ maximises Σ n_ij log P_ij(ρ) over [−0.9999, 0.9999] (Brent's
/// minimiser, as R's `optimise`, then a bracketed root polish of the analytic score to
/// 1e-12, where R stops at `optimise`'s tolerance of about 1e-4). A saturated table — no
/// discordant pair of non-empty cells — is fitted exactly by ρ = 1 (and symmetrically −1).
///
/// # Errors
/// Wrong table size, or fewer than 2 non-empty rows or columns.
pub fn polychoric_table(
    table: &[usize],
    rows: usize,
    cols: usize,
) -> Result<Polychoric, OrdinalError> {
    if table.len() != rows * cols {
        return Err(OrdinalError::TableSize {
            rows,
            cols,
            got: table.len(),
        });
    }
    let keep_r: Vec<usize> = (0..rows)
        .filter(|&i| (0..cols).any(|j| table[i * cols + j] > 0))
        .collect();
    let keep_c: Vec<usize> = (0..cols)
        .filter(|&j| (0..rows).any(|i| table[i * cols + j] > 0))
        .collect();
    let (r, c) = (keep_r.len(), keep_c.len());
    if r < 2 || c < 2 {
        return Err(OrdinalError::SparseTable { rows: r, cols: c });
    }
    let t: Vec<f64> = keep_r
        .iter()
        .flat_map(|&i| keep_c.iter().map(move |&j| table[i * cols + j] as f64))
        .collect();
    let row_counts: Vec<usize> = keep_r
        .iter()
        .map(|&i| (0..cols).map(|j| table[i * cols + j]).sum())
        .collect();
    let col_counts: Vec<usize> = keep_c
        .iter()
        .map(|&j| (0..rows).map(|i| table[i * cols + j]).sum())
        .collect();
    let n: usize = row_counts.iter().sum();
    let rt = thresholds_from_counts(&row_counts);
    let ct = thresholds_from_counts(&col_counts);
    let (conc, disc) = concordance(&t, r, c);
    let (rho, saturated) = if !disc {
        (1.0, true)
    } else if !conc {
        (-1.0, true)
    } else {
        (fit_polychoric(&t, &rt, &ct), false)
    };
    Ok(Polychoric {
        rho,
        row_thresholds: rt,
        col_thresholds: ct,
        n,
        saturated,
    })
}

/// Whether the table has a concordant pair (i < i', j < j') and a discordant pair (i < i',
/// j > j') of non-empty cells.
fn concordance(t: &[f64], r: usize, c: usize) -> (bool, bool) {
    let (mut conc, mut disc) = (false, false);
    for i in 0..r {
        for j in 0..c {
            if t[i * c + j] == 0.0 {
                continue;
            }
            for i2 in i + 1..r {
                for j2 in 0..c {
                    if t[i2 * c + j2] > 0.0 {
                        conc |= j2 > j;
                        disc |= j2 < j;
                    }
                }
            }
        }
    }
    (conc, disc)
}

/// Negative log-likelihood and score of the polychoric table at ρ.
struct Tabled<'a> {
    t: &'a [f64],
    /// Thresholds with ±∞ ends.
    a: Vec<f64>,
    b: Vec<f64>,
    /// Scratch: F and φ₂ on the (r + 1) × (c + 1) grid.
    f: Vec<f64>,
    d: Vec<f64>,
}

impl<'a> Tabled<'a> {
    fn new(t: &'a [f64], rt: &[f64], ct: &[f64]) -> Self {
        let ends = |v: &[f64]| {
            let mut e = Vec::with_capacity(v.len() + 2);
            e.push(f64::NEG_INFINITY);
            e.extend_from_slice(v);
            e.push(f64::INFINITY);
            e
        };
        let (a, b) = (ends(rt), ends(ct));
        let g = a.len() * b.len();
        Tabled {
            t,
            a,
            b,
            f: vec![0.0; g],
            d: vec![0.0; g],
        }
    }

    /// Fills F = Φ₂(a_i, b_j; ρ) (and φ₂ when `score`) on the grid.
    /// Φ₂'s sines, φ₂'s normaliser and each threshold's Φ are computed once per grid
    /// ([`BvnAt`]), every value bit for bit the pointwise one.
    fn grid(&mut self, rho: f64, score: bool) {
        let nb = self.b.len();
        let at = BvnAt::new(rho);
        let pb: Vec<f64> = self.b.iter().map(|&bj| norm_cdf(bj)).collect();
        for (i, &ai) in self.a.iter().enumerate() {
            let pa = norm_cdf(ai);
            for (j, &bj) in self.b.iter().enumerate() {
                let f = if ai == f64::NEG_INFINITY || bj == f64::NEG_INFINITY {
                    0.0
                } else if ai == f64::INFINITY {
                    pb[j]
                } else if bj == f64::INFINITY {
                    pa
                } else {
                    at.cdf(ai, bj, pa, pb[j])
                };
                self.f[i * nb + j] = f;
                if score {
                    self.d[i * nb + j] = if ai.is_finite() && bj.is_finite() {
                        at.pdf(ai, bj)
                    } else {
                        0.0
                    };
                }
            }
        }
    }

    /// −Σ n_ij log P_ij.
    fn nll(&mut self, rho: f64) -> f64 {
        self.grid(rho, false);
        let (r, c, nb) = (self.a.len() - 1, self.b.len() - 1, self.b.len());
        let mut s = 0.0;
        for i in 0..r {
            for j in 0..c {
                let n = self.t[i * c + j];
                if n > 0.0 {
                    let f = &self.f;
                    let p = f[(i + 1) * nb + j + 1] - f[i * nb + j + 1] - f[(i + 1) * nb + j]
                        + f[i * nb + j];
                    s -= n * p.max(f64::MIN_POSITIVE).ln();
                }
            }
        }
        s
    }

    /// d/dρ Σ n_ij log P_ij (the score).
    fn score(&mut self, rho: f64) -> f64 {
        self.grid(rho, true);
        let (r, c, nb) = (self.a.len() - 1, self.b.len() - 1, self.b.len());
        let (f, d) = (&self.f, &self.d);
        let mut s = 0.0;
        for i in 0..r {
            for j in 0..c {
                let n = self.t[i * c + j];
                if n > 0.0 {
                    let at = |g: &[f64]| {
                        g[(i + 1) * nb + j + 1] - g[i * nb + j + 1] - g[(i + 1) * nb + j]
                            + g[i * nb + j]
                    };
                    s += n * at(d) / at(f).max(f64::MIN_POSITIVE);
                }
            }
        }
        s
    }

    /// The score and its derivative at ρ (Newton's step), from Φ₂, φ₂ and ∂φ₂/∂ρ on the grid.
    fn score_slope(&mut self, rho: f64) -> (f64, f64) {
        self.grid(rho, true);
        let (r, c, nb) = (self.a.len() - 1, self.b.len() - 1, self.b.len());
        let one = (1.0 - rho) * (1.0 + rho);
        let dd: Vec<f64> = (0..self.a.len() * nb)
            .map(|g| {
                let (ai, bj) = (self.a[g / nb], self.b[g % nb]);
                if ai.is_finite() && bj.is_finite() {
                    let quad = ai * ai - 2.0 * rho * ai * bj + bj * bj;
                    self.d[g] * ((rho + ai * bj) / one - rho * quad / (one * one))
                } else {
                    0.0
                }
            })
            .collect();
        let (f, d) = (&self.f, &self.d);
        let (mut s, mut ds) = (0.0, 0.0);
        for i in 0..r {
            for j in 0..c {
                let n = self.t[i * c + j];
                if n > 0.0 {
                    let at = |g: &[f64]| {
                        g[(i + 1) * nb + j + 1] - g[i * nb + j + 1] - g[(i + 1) * nb + j]
                            + g[i * nb + j]
                    };
                    let p = at(f).max(f64::MIN_POSITIVE);
                    let dp = at(d);
                    s += n * dp / p;
                    ds += n * (at(&dd) / p - (dp / p) * (dp / p));
                }
            }
        }
        (s, ds)
    }

    /// Pearson's correlation of the row and column indices: Newton's starting point.
    fn code_correlation(&self) -> f64 {
        let (r, c) = (self.a.len() - 1, self.b.len() - 1);
        let (mut n, mut si, mut sj, mut sii, mut sjj, mut sij) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        for i in 0..r {
            for j in 0..c {
                let w = self.t[i * c + j];
                let (x, y) = (i as f64, j as f64);
                n += w;
                si += w * x;
                sj += w * y;
                sii += w * x * x;
                sjj += w * y * y;
                sij += w * x * y;
            }
        }
        let cov = sij - si * sj / n;
        let v = (sii - si * si / n) * (sjj - sj * sj / n);
        if v > 0.0 { cov / v.sqrt() } else { 0.0 }
    }
}

/// The table's maximum-likelihood ρ given its thresholds: safeguarded Newton on the analytic
/// score from the codes' own correlation (about five grid evaluations where a golden-section
/// search takes thirty), to the same score root the search-then-polish converged to; the
/// search is kept for a maximum on the boundary or a Newton run that does not converge.
fn fit_polychoric(t: &[f64], rt: &[f64], ct: &[f64]) -> f64 {
    let mut lik = Tabled::new(t, rt, ct);
    if let Some(rho) = newton(&mut lik) {
        return rho;
    }
    search(&mut lik)
}

/// Safeguarded Newton on the score: a bracket [lo, hi] narrowed by the score's sign at every
/// iterate, a bisection whenever a step would leave it. `None` when it ends within 1e-9 of
/// ±maxcor (a maximum on the boundary, or none inside) or 60 steps do not converge.
fn newton(lik: &mut Tabled<'_>) -> Option<f64> {
    let (mut lo, mut hi) = (-MAXCOR, MAXCOR);
    let inside = |x: f64| (x.abs() < MAXCOR - 1e-9).then_some(x);
    let mut x = lik.code_correlation().clamp(-0.95, 0.95);
    for _ in 0..60 {
        let (s, ds) = lik.score_slope(x);
        if s == 0.0 {
            return inside(x);
        }
        if s > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let step = -s / ds;
        let mut next = x + step;
        if !(ds < 0.0 && next > lo && next < hi) {
            next = f64::midpoint(lo, hi);
        }
        // Quadratic convergence: after a step under 1e-10 the next iterate is within the
        // score's rounding (about 1e-12 in ρ on a table of 10⁵ items) of the root, and a
        // tighter test would never pass.
        if (next - x).abs() <= 1e-10 || hi - lo <= 1e-13 {
            return inside(next);
        }
        x = next;
    }
    None
}

/// Brent's minimiser of the negative log-likelihood, then a bracketed root polish of the score.
fn search(lik: &mut Tabled<'_>) -> f64 {
    let x0 = brent_min(|x| lik.nll(x), -MAXCOR, MAXCOR, 1e-7);
    // Polish: the score changes sign at the maximum; bracket it near x0 and find the root.
    let mut step = 1e-5;
    for _ in 0..8 {
        let lo = (x0 - step).max(-MAXCOR);
        let hi = (x0 + step).min(MAXCOR);
        let (slo, shi) = (lik.score(lo), lik.score(hi));
        if slo >= 0.0 && shi <= 0.0 {
            if slo == 0.0 {
                return lo;
            }
            if shi == 0.0 {
                return hi;
            }
            return brent_root(|x| lik.score(x), lo, hi, slo, shi, 1e-13);
        }
        step *= 10.0;
    }
    x0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Purpose, Streams};
    use rand::RngExt;

    #[test]
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "small non-negative whole counts"
    )]
    fn newton_finds_the_maximum_the_search_finds() {
        // Random 2–5 × 2–5 tables, sparse cells and strong dependence included.
        let mut rng = Streams { seed: 5, base: 0 }.rng(Purpose::Null, 0);
        let mut fitted = 0;
        for _ in 0..300 {
            let (r, c) = (rng.random_range(2..6usize), rng.random_range(2..6usize));
            let tilt: f64 = rng.random_range(-3.0..3.0);
            let t: Vec<f64> = (0..r * c)
                .map(|k| {
                    let (i, j) = ((k / c) as f64, (k % c) as f64);
                    let w =
                        (tilt * (i - (r as f64 - 1.0) / 2.0) * (j - (c as f64 - 1.0) / 2.0)).exp();
                    (w * rng.random_range(0.0..40.0)).floor()
                })
                .collect();
            let counts: Vec<usize> = t.iter().map(|x| *x as usize).collect();
            let Ok(pc) = polychoric_table(&counts, r, c) else {
                continue;
            };
            if pc.saturated || pc.row_thresholds.len() + 1 != r || pc.col_thresholds.len() + 1 != c
            {
                continue;
            }
            let mut lik = Tabled::new(&t, &pc.row_thresholds, &pc.col_thresholds);
            let searched = search(&mut lik);
            assert!(
                (pc.rho - searched).abs() < 1e-9,
                "{t:?}: {} vs {searched}",
                pc.rho
            );
            fitted += 1;
        }
        assert!(fitted > 150, "{fitted}");
    }
}
