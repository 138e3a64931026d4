//! Fitted models to simulate panels from: the battery's null distributions (Section 5,
//! docs/method.md §3), a correctly specified single-common-factor model at the panel's N, and the
//! free-scale bias correction's parametric bootstrap. Both layers above import it from here.
//!
//! A Gaussian null's statistics depend on the data only through the sample covariance, which
//! is Wishart distributed, so a draw is made directly by the Bartlett decomposition in O(q³)
//! whatever N is. Ordinal nulls simulate N rows and discretise them, except an all-ordinal
//! one-factor null (the judges' own), whose draws are multinomial tallies of code patterns.

use nalgebra::DMatrix;
use rand::Rng;
use rand_distr::{ChiSquared, Distribution, StandardNormal};

mod asymptotic;
mod matched;
mod model;

pub use asymptotic::{Asymptotic, MIN_LEVEL_COUNT, MIN_N, PILOT_DRAWS, PILOT_MAX_N};
pub use model::{Discrete, NullModel};

use crate::moments::covariance;
use crate::panel::{Panel, Scale};
use crate::rng::Streams;

/// How one null draw is made ([`NullModel::route`]), which sets its cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NullDraw {
    /// A Wishart by Bartlett decomposition: O(q³) whatever N.
    Wishart,
    /// N code-pattern picks (an all-ordinal one-factor null): one alias-table pick per item.
    Patterns,
    /// N simulated rows: q normals, their Cholesky product and the row's tally.
    Rows,
    /// The latent correlations drawn from their asymptotic normal law ([`Asymptotic`]), whose
    /// covariance a pilot of [`PILOT_DRAWS`] simulated draws at N₀ = min(N, [`PILOT_MAX_N`])
    /// estimates once.
    Asymptotic,
}

/// The simulated draws an asymptotic null makes once: how many, at which N, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pilot {
    pub draws: usize,
    pub n: usize,
    pub draw: NullDraw,
}

/// One null's draws: how each is made, its columns and the polychorics it fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NullShape {
    pub draw: NullDraw,
    /// Columns of the null (q).
    pub columns: usize,
    /// Polychoric correlations fitted per draw (0 when the draw's correlations are not read;
    /// per pilot draw on the asymptotic route, whose own draws fit none).
    pub polychorics: usize,
    /// The pilot of an asymptotic null.
    pub pilot: Option<Pilot>,
}

/// A null ready for one calibration's draws at one N: the asymptotic law when its route
/// says so, else the simulated draws.
#[derive(Debug, Clone)]
pub struct Prepared<'a> {
    null: &'a NullModel,
    n: usize,
    correlations: bool,
    asymptotic: Option<Asymptotic>,
}

impl Prepared<'_> {
    /// One null sample (as [`NullModel::draw_simulated`] returns it).
    pub fn draw_sample<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        scratch: &mut Vec<f64>,
    ) -> (DMatrix<f64>, Option<DMatrix<f64>>) {
        match &self.asymptotic {
            Some(a) => {
                let (cov, corr) = a.draw(rng);
                (cov, Some(corr))
            }
            None => self
                .null
                .draw_simulated(self.n, rng, scratch, self.correlations),
        }
    }
}

impl NullModel {
    /// The null restricted to its first `p` columns (the judges).
    #[must_use]
    pub fn judges_only(&self, p: usize) -> NullModel {
        NullModel::of_parts(
            self.cov.view((0, 0), (p, p)).into_owned(),
            self.chol.view((0, 0), (p, p)).into_owned(),
            self.discrete[..p].to_vec(),
        )
    }

    /// Number of columns.
    #[must_use]
    pub fn q(&self) -> usize {
        self.cov.nrows()
    }

    /// Whether draws can use the Wishart shortcut (all columns continuous, N − 1 ≥ q).
    #[must_use]
    pub fn wishart_ok(&self, n: usize) -> bool {
        self.discrete.iter().all(Option::is_none) && n > self.q()
    }

    /// One null sample covariance at N = `n`: by Wishart when possible, else by rows.
    pub fn draw_cov<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        scratch: &mut Vec<f64>,
    ) -> DMatrix<f64> {
        if self.wishart_ok(n) {
            self.draw_wishart(n, rng)
        } else {
            self.draw_rows(n, rng, scratch)
        }
    }

    /// S = L A Aᵀ Lᵀ / (N − 1) with A lower triangular, A_ii² ~ χ²(N − 1 − i) (0-based i)
    /// and A_ij ~ N(0, 1) below the diagonal (Bartlett decomposition). Same distribution as
    /// the sample covariance of N Gaussian rows.
    ///
    /// # Panics
    /// If N − 1 < q (check [`NullModel::wishart_ok`] first).
    pub fn draw_wishart<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> DMatrix<f64> {
        let q = self.q();
        let dof = n - 1;
        let mut a = DMatrix::<f64>::zeros(q, q);
        for i in 0..q {
            let chi = ChiSquared::new((dof - i) as f64).expect("dof > q keeps χ² valid");
            a[(i, i)] = chi.sample(rng).sqrt();
            for j in 0..i {
                a[(i, j)] = StandardNormal.sample(rng);
            }
        }
        let b = &self.chol * a;
        (&b * b.transpose()) / dof as f64
    }

    /// The sample covariance of N simulated rows (latent Gaussian, then discretised).
    pub fn draw_rows<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        scratch: &mut Vec<f64>,
    ) -> DMatrix<f64> {
        let data = self.draw_data(n, rng);
        covariance(&data, n, self.q(), scratch)
    }

    /// One null sample at N = `n`: its covariance and, when `correlations` is asked for and
    /// some column is ordinal, its mixed correlation matrix (polychoric/polyserial, as the
    /// observed one is computed; docs/method.md §7), from the draw's tally of code patterns
    /// rather than its items (the same tables, so the same statistic); an all-ordinal
    /// one-factor null draws that tally from its pattern probabilities, with no rows
    /// ([`crate::ordinal::PatternNull`]). Continuous nulls use the
    /// Wishart shortcut, whose Pearson correlations are the ones. A draw whose correlations are
    /// undefined (a level that never occurs leaves a column with one level) gives matrices of
    /// NaN, which the statistics turn into a dropped draw.
    pub fn draw_simulated<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        scratch: &mut Vec<f64>,
        correlations: bool,
    ) -> (DMatrix<f64>, Option<DMatrix<f64>>) {
        let drawn = match (self.simulated_route(n, correlations), &self.patterns) {
            (NullDraw::Patterns, Some(pn)) => pn.draw(n, rng).correlations(&pn.layout),
            (NullDraw::Rows, _) if correlations && self.discrete.iter().any(Option::is_some) => {
                let l = self.tally_layout();
                self.draw_tally(n, rng, &l).correlations(&l)
            }
            (NullDraw::Rows, _) if correlations => {
                let data = self.draw_data(n, rng);
                return (covariance(&data, n, self.q(), scratch), None);
            }
            _ => return (self.draw_cov(n, rng, scratch), None),
        };
        drawn.map_or_else(
            |_| {
                let nan = DMatrix::from_element(self.q(), self.q(), f64::NAN);
                (nan.clone(), Some(nan))
            },
            |(corr, cov)| (cov, Some(corr)),
        )
    }

    /// How a calibration's draw at N = `n` is made (what it costs): a Wishart whenever every
    /// column is continuous and N − 1 ≥ q; the asymptotic law of the latent correlations when
    /// they are read and it holds (N ≥ [`MIN_N`], every level expected [`MIN_LEVEL_COUNT`]
    /// times at the pilot's N₀; docs/method.md §3); else as [`Self::simulated_route`].
    #[must_use]
    pub fn route(&self, n: usize, correlations: bool) -> NullDraw {
        let cuts: Vec<Option<&[f64]>> = self
            .discrete
            .iter()
            .map(|d| d.as_ref().map(|d| &d.cuts[..]))
            .collect();
        if !self.wishart_ok(n) && correlations && asymptotic::holds(&self.cov, &cuts, n) {
            NullDraw::Asymptotic
        } else {
            self.simulated_route(n, correlations)
        }
    }

    /// The null ready for one calibration at N = `n`: on the asymptotic route its pilot is
    /// drawn here, on `streams`' pilot purpose (simulated draws when the pilot fails).
    #[must_use]
    pub fn prepare(&self, n: usize, correlations: bool, streams: Streams) -> Prepared<'_> {
        let asymptotic = (self.route(n, correlations) == NullDraw::Asymptotic)
            .then(|| self.asymptotic(n, streams))
            .flatten();
        Prepared {
            null: self,
            n,
            correlations,
            asymptotic,
        }
    }

    /// Which columns are ordinal.
    #[must_use]
    pub fn ordinal(&self) -> Vec<bool> {
        self.discrete.iter().map(Option::is_some).collect()
    }

    /// The asymptotic draws at N = `n` from a pilot of [`PILOT_DRAWS`] simulated draws at
    /// N₀ = min(N, [`PILOT_MAX_N`]) on `streams`' pilot purpose, in order whatever the thread
    /// count; `None` when fewer than half the pilot draws are defined.
    fn asymptotic(&self, n: usize, streams: Streams) -> Option<Asymptotic> {
        use rayon::prelude::*;
        let n0 = n.min(PILOT_MAX_N);
        let ordinal = self.ordinal();
        let pilot: Vec<Option<Vec<f64>>> = (0..PILOT_DRAWS)
            .into_par_iter()
            .map_init(Vec::new, |scratch, r| {
                let mut rng = streams.rng(crate::rng::Purpose::NullPilot, r as u64);
                let (cov, corr) = self.draw_simulated(n0, &mut rng, scratch, true);
                Asymptotic::vector_of(&ordinal, &cov, corr.as_ref()?)
            })
            .collect();
        let pilot: Vec<Vec<f64>> = pilot.into_iter().flatten().collect();
        Asymptotic::from_pilot((&self.cov, &ordinal), n, n0, &pilot)
    }

    /// How [`Self::draw_simulated`] makes a draw at N = `n`: a Wishart whenever every column
    /// is continuous and N − 1 ≥ q, code patterns for an all-ordinal one-factor null whose
    /// correlations are read, rows otherwise.
    #[must_use]
    pub fn simulated_route(&self, n: usize, correlations: bool) -> NullDraw {
        if self.wishart_ok(n) {
            NullDraw::Wishart
        } else if correlations && self.patterns.is_some() {
            NullDraw::Patterns
        } else {
            NullDraw::Rows
        }
    }

    /// How a draw at N = `n` is made, and the polychoric correlations it fits when its
    /// correlations are read (one per pair of ordinal columns).
    #[must_use]
    pub fn shape(&self, n: usize, correlations: bool) -> NullShape {
        let o = self.discrete.iter().filter(|d| d.is_some()).count();
        let draw = self.route(n, correlations);
        let pilot = (draw == NullDraw::Asymptotic).then(|| {
            let n0 = n.min(PILOT_MAX_N);
            Pilot {
                draws: PILOT_DRAWS,
                n: n0,
                draw: self.simulated_route(n0, correlations),
            }
        });
        NullShape {
            draw,
            columns: self.q(),
            polychorics: if correlations {
                o * o.saturating_sub(1) / 2
            } else {
                0
            },
            pilot,
        }
    }

    /// Which columns are ordinal (at their level values) and which continuous.
    fn tally_layout(&self) -> crate::ordinal::TallyLayout {
        crate::ordinal::TallyLayout::new(
            self.discrete
                .iter()
                .map(|d| d.as_ref().map(|d| d.values.clone()))
                .collect(),
        )
    }

    /// N simulated rows tallied by code pattern ([`crate::ordinal::Tally`]): the same latent
    /// draws, in the same order, as [`Self::draw_data`], never stored as a panel.
    fn draw_tally<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        layout: &crate::ordinal::TallyLayout,
    ) -> crate::ordinal::Tally {
        let q = self.q();
        let (no, nc) = layout.widths();
        let mut acc = crate::ordinal::Accumulator::new(layout);
        let (mut z, mut lev, mut x) = (vec![0.0; q], vec![0u8; no], vec![0.0; nc]);
        for _ in 0..n {
            for zi in &mut z {
                *zi = StandardNormal.sample(rng);
            }
            let (mut o, mut c) = (0, 0);
            for col in 0..q {
                let v: f64 = (0..=col).map(|k| self.chol[(col, k)] * z[k]).sum();
                if let Some(d) = &self.discrete[col] {
                    #[expect(clippy::cast_possible_truncation, reason = "at most 10 levels")]
                    let l = d.cuts.iter().filter(|cut| **cut < v).count() as u8;
                    lev[o] = l;
                    o += 1;
                } else {
                    x[c] = v;
                    c += 1;
                }
            }
            acc.push(&lev, &x);
        }
        acc.finish()
    }

    /// A simulated panel of N rows with these judge and anchor names, each discretised
    /// column marked ordinal (whatever levels the draw happened to reach).
    pub(crate) fn draw_panel<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        judges: Vec<String>,
        anchors: Vec<String>,
    ) -> Panel {
        let data = self.draw_data(n, rng);
        self.panel_of(n, data, judges, anchors)
    }

    fn panel_of(
        &self,
        n: usize,
        data: Vec<f64>,
        judges: Vec<String>,
        anchors: Vec<String>,
    ) -> Panel {
        let mut panel = Panel::new(n, data, judges, anchors);
        panel.scales = self
            .discrete
            .iter()
            .map(|d| match d {
                #[expect(clippy::cast_possible_truncation, reason = "levels are small integers")]
                Some(d) => Scale::Ordinal {
                    levels: d.values.iter().map(|v| *v as i64).collect(),
                },
                None => Scale::Continuous,
            })
            .collect();
        panel
    }

    /// N simulated rows, column-major (latent Gaussian, then discretised).
    fn draw_data<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Vec<f64> {
        let q = self.q();
        let mut z = vec![0.0; q];
        let mut data = vec![0.0; n * q];
        for i in 0..n {
            for zi in &mut z {
                *zi = StandardNormal.sample(rng);
            }
            for c in 0..q {
                let x: f64 = (0..=c).map(|k| self.chol[(c, k)] * z[k]).sum();
                data[c * n + i] = match &self.discrete[c] {
                    Some(d) => d.observe(x),
                    None => x,
                };
            }
        }
        data
    }
}
