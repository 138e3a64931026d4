//! Fitting the registered estimators, the same way for the CLI, the battery and the
//! explorer. A fit is an [`Estimate`] (one shape, one set of range flags) plus what only that
//! estimator reports; what each estimator is lives in [`super::registry`].

use nalgebra::DMatrix;

use super::ml::model::MlFit;
use super::registry::{Fitter, OnMoments};
use super::shape::Estimate;
use super::{EstimateError, free_scale};
use crate::families::JudgeFamilies;
use crate::moments::{JudgePairs, Moments};
use crate::panel::Panel;

pub use super::Estimator;
pub use super::registry::EXPLORER;

/// What a fit needs besides the data: the judges' families and the anchor trusted as clean.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Context {
    pub families: Option<JudgeFamilies>,
    /// The designated-clean anchor's index.
    pub clean: Option<usize>,
}

/// What only some estimators report beside the estimate.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    None,
    /// Convergence and standard errors of the ML fit.
    Ml(Box<MlFit>),
    /// The judge loadings λ, q_k, the minimised misfit and the judge one-factor RMS.
    FreeScale(Box<free_scale::FreeScaleFit>),
}

/// One estimator's fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub estimator: Estimator,
    pub estimate: Estimate,
    pub detail: Detail,
}

impl Estimator {
    /// The JSON key of its object in `estimate --json` and `battery --json`.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.entry().key
    }

    /// The heading of its block in text reports.
    #[must_use]
    pub fn title(self, ctx: &Context, anchors: &[String]) -> String {
        (self.entry().title)(ctx, anchors)
    }

    /// Where its numbers come from, in one clause (with its section of the paper).
    #[must_use]
    pub fn basis(self) -> &'static str {
        self.entry().basis
    }

    /// A short label naming the estimator (and the clean anchor), for panes and tables.
    #[must_use]
    pub fn label(self, ctx: &Context, anchors: &[String]) -> String {
        (self.entry().label)(ctx, anchors)
    }

    /// A name that fits a narrow table column.
    #[must_use]
    pub fn short(self) -> &'static str {
        self.entry().short
    }

    /// Whether the item bootstrap refits it.
    #[must_use]
    pub fn bootstrappable(self) -> bool {
        self.entry().bootstrapped
    }

    /// Whether its estimate is a function of the sample's covariance moments alone (so a
    /// resample needs only count-weighted feature sums).
    #[must_use]
    pub fn from_moments(self) -> bool {
        self.moments().is_some()
    }

    /// How it is fitted from moments, if it is.
    fn moments(self) -> Option<&'static OnMoments> {
        match &self.entry().fit {
            Fitter::Moments(on) => Some(on),
            Fitter::Panel(_) => None,
        }
    }

    /// Whether it can run with this context, and if not, why (concepts, not flags).
    ///
    /// # Errors
    /// The reason it cannot run.
    pub fn applicable(self, ctx: &Context, m: usize) -> Result<(), EstimateError> {
        (self.entry().applicable)(ctx, m)
    }

    /// The judge pairs its K is the mean of.
    #[must_use]
    pub fn pairs(self, ctx: &Context) -> JudgePairs<'_> {
        self.moments().map_or(JudgePairs::All, |on| (on.pairs)(ctx))
    }

    /// The fit on a panel whose sample covariance matrix is `s` (judges first).
    ///
    /// # Errors
    /// Why the estimator cannot run on this panel.
    pub fn fit(self, panel: &Panel, s: &DMatrix<f64>, ctx: &Context) -> Result<Fit, EstimateError> {
        self.fit_with(panel, s, ctx, true)
    }

    /// [`Estimator::fit`], with the free-scale identified set only when `identify` is set:
    /// a recovery study measures the point estimator itself.
    ///
    /// # Errors
    /// Why the estimator cannot run on this panel.
    pub fn fit_with(
        self,
        panel: &Panel,
        s: &DMatrix<f64>,
        ctx: &Context,
        identify: bool,
    ) -> Result<Fit, EstimateError> {
        let p = panel.p();
        self.applicable(ctx, s.nrows().saturating_sub(p))?;
        let (estimate, detail) = match &self.entry().fit {
            Fitter::Panel(fit) => fit(panel, s, ctx, identify)?,
            Fitter::Moments(on) => {
                let mom = Moments::from_cov(s, p, (on.pairs)(ctx)).ok_or(on.undefined.clone())?;
                let mut estimate = (on.estimate)(&mom, ctx);
                super::scale::common_scale(&mut estimate, panel);
                (estimate, Detail::None)
            }
        };
        let mut estimate = estimate;
        estimate.flags.extend(super::edges::flags(panel));
        Ok(Fit {
            estimator: self,
            estimate,
            detail,
        })
    }

    /// The estimate of one bootstrap resample, straight from column-major data; `None` when
    /// the moments are undefined or the estimator is not a function of them.
    #[must_use]
    pub fn fit_sample(
        self,
        data: &[f64],
        n: usize,
        p: usize,
        ctx: &Context,
        scratch: &mut Vec<f64>,
    ) -> Option<Estimate> {
        let on = self.moments()?;
        Moments::from_data(data, n, p, (on.pairs)(ctx), scratch).map(|mom| (on.estimate)(&mom, ctx))
    }

    /// The estimate from its moments.
    ///
    /// # Panics
    /// If the estimator is not a function of its moments ([`Estimator::from_moments`] says
    /// which are): a caller's mistake that would otherwise report another estimator's numbers.
    #[must_use]
    pub fn on_moments(self, mom: &Moments, ctx: &Context) -> Estimate {
        let on = self
            .moments()
            .unwrap_or_else(|| panic!("{} is not a function of its moments", self.key()));
        (on.estimate)(mom, ctx)
    }
}

/// The fits of several estimators on one panel, in the order asked, with the reason for
/// each one that could not run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fits {
    pub fits: Vec<Fit>,
    /// Estimators that could not run, and why.
    pub refused: Vec<(Estimator, String)>,
}

impl Fits {
    /// Fits `which` on a sample covariance matrix.
    #[must_use]
    pub fn of(panel: &Panel, s: &DMatrix<f64>, ctx: &Context, which: &[Estimator]) -> Fits {
        Self::of_with(panel, s, ctx, which, true)
    }

    /// [`Fits::of`] with point fits only (no free-scale identified set): what a recovery
    /// study of the estimators themselves measures.
    #[must_use]
    pub fn of_points(panel: &Panel, s: &DMatrix<f64>, ctx: &Context, which: &[Estimator]) -> Fits {
        Self::of_with(panel, s, ctx, which, false)
    }

    fn of_with(
        panel: &Panel,
        s: &DMatrix<f64>,
        ctx: &Context,
        which: &[Estimator],
        identify: bool,
    ) -> Fits {
        let mut out = Fits::default();
        for &e in which {
            match e.fit_with(panel, s, ctx, identify) {
                Ok(f) => out.fits.push(f),
                Err(why) => out.refused.push((e, why.to_string())),
            }
        }
        out
    }

    /// What the explorer fits on every change: the closed form, the blocked estimate (when
    /// families allow it) and the first anchor designated as clean, for comparison. `None`
    /// when ρ is not identified (fewer than 2 anchors).
    #[must_use]
    pub fn explorer(panel: &Panel) -> Option<Fits> {
        if panel.m() < 2 || super::scale::panel_not_identified(panel).is_some() {
            return None;
        }
        let ctx = Context {
            families: panel.judge_families(),
            clean: Some(0),
        };
        let fits = Fits::of(panel, &panel.covariance(), &ctx, &EXPLORER);
        fits.get(Estimator::ClosedForm).is_some().then_some(fits)
    }

    /// The closed-form estimate, if it ran.
    #[must_use]
    pub fn closed_form(&self) -> Option<&Estimate> {
        self.estimate(Estimator::ClosedForm)
    }

    /// The fit of one estimator, if it ran.
    #[must_use]
    pub fn get(&self, e: Estimator) -> Option<&Fit> {
        self.fits.iter().find(|f| f.estimator == e)
    }

    /// The free-scale fit's detail (λ, q, misfit), if it ran.
    #[must_use]
    pub fn free_scale(&self) -> Option<&free_scale::FreeScaleFit> {
        self.get(Estimator::FreeScale)
            .and_then(|f| match &f.detail {
                Detail::FreeScale(fs) => Some(fs.as_ref()),
                _ => None,
            })
    }

    /// Why an estimator could not run, if it was asked for and refused.
    #[must_use]
    pub fn refusal(&self, e: Estimator) -> Option<&str> {
        self.refused
            .iter()
            .find(|(r, _)| *r == e)
            .map(|(_, why)| why.as_str())
    }

    /// The estimate of one estimator, if it ran.
    #[must_use]
    pub fn estimate(&self, e: Estimator) -> Option<&Estimate> {
        self.get(e).map(|f| &f.estimate)
    }
}
