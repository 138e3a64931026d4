//! The shapes a diagnostic reads and declares: the panel's layout, a sample's moments, and
//! what each test file states about itself. Test files import only these, so the registry
//! can list the tests without the tests reaching back into it.

use nalgebra::DMatrix;

use crate::estimate::Estimate;
use crate::estimate::free_scale::{JudgeFit, one_factor_uls};
use crate::families::JudgeFamilies;
use crate::model::Params;
use crate::panel::{Panel, Scale};

/// The shape a test looks at: p judges, m anchors (judges first), the judges' families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub p: usize,
    pub m: usize,
    pub families: Option<JudgeFamilies>,
    /// Anchors observed on an ordinal scale (the free-scale fit needs none).
    pub ordinal_anchors: usize,
    /// Judges observed on an ordinal scale (Likert): their scales are not observed, so each
    /// test answers for them only as its registry entry says ([`Scales`]).
    pub ordinal_judges: usize,
    /// Which judges are ordinal, by index (empty: none); tests that answer on the continuous
    /// judges of a mixed panel read it.
    pub judge_ordinal: Vec<bool>,
}

impl Layout {
    #[must_use]
    pub fn of(panel: &Panel) -> Layout {
        let p = panel.p();
        Layout {
            p,
            m: panel.m(),
            families: panel.judge_families(),
            ordinal_anchors: panel.scales[p..].iter().filter(|s| s.is_ordinal()).count(),
            ordinal_judges: panel.scales[..p].iter().filter(|s| s.is_ordinal()).count(),
            judge_ordinal: panel.scales[..p].iter().map(Scale::is_ordinal).collect(),
        }
    }

    /// The judges observed on a continuous scale, in panel order.
    #[must_use]
    pub fn continuous_judges(&self) -> Vec<usize> {
        (0..self.p)
            .filter(|&j| !self.judge_ordinal.get(j).copied().unwrap_or(false))
            .collect()
    }

    /// The layout of the panels a scenario simulates.
    #[must_use]
    pub fn of_params(pm: &Params) -> Layout {
        Layout {
            p: pm.p,
            m: pm.m(),
            families: pm.family_index().map(|(f, _)| JudgeFamilies::from_index(f)),
            ordinal_anchors: pm
                .violations
                .ordinal
                .iter()
                .filter(|(c, _)| *c >= pm.p)
                .count(),
            ordinal_judges: pm
                .violations
                .ordinal
                .iter()
                .filter(|(c, _)| *c < pm.p)
                .count(),
            judge_ordinal: (0..pm.p)
                .map(|j| pm.violations.ordinal.iter().any(|(c, _)| *c == j))
                .collect(),
        }
    }
}

/// A sample's second moments as the tests read them (judges first, then anchors).
#[derive(Debug, Clone)]
pub struct Sample<'a> {
    /// The covariance matrix (divisor N − 1).
    pub cov: &'a DMatrix<f64>,
    /// The mixed correlation matrix (Pearson, polychoric or polyserial by each column's
    /// scale, docs/method.md §7) when some column is ordinal; `None` when every column is continuous,
    /// so that Pearson's correlations of `cov` are the ones.
    pub corr: Option<&'a DMatrix<f64>>,
    /// The judges' one-factor fit of these correlations when it was made once for several
    /// tests (a null draw of Tests J and O); `None`: each test fits it itself.
    pub judges: Option<Result<JudgeFit, crate::estimate::EstimateError>>,
}

impl<'a> Sample<'a> {
    /// A sample of continuous columns, known by its covariance.
    #[must_use]
    pub fn of_cov(cov: &'a DMatrix<f64>) -> Sample<'a> {
        Sample {
            cov,
            corr: None,
            judges: None,
        }
    }

    /// The correlations the free-scale model reads: the mixed matrix, or Pearson's.
    #[must_use]
    pub fn correlations(&self) -> std::borrow::Cow<'a, DMatrix<f64>> {
        if let Some(r) = self.corr {
            return std::borrow::Cow::Borrowed(r);
        }
        let d: Vec<f64> = (0..self.cov.nrows())
            .map(|i| self.cov[(i, i)].sqrt())
            .collect();
        std::borrow::Cow::Owned(DMatrix::from_fn(
            self.cov.nrows(),
            self.cov.ncols(),
            |i, j| {
                if i == j {
                    1.0
                } else {
                    self.cov[(i, j)] / (d[i] * d[j])
                }
            },
        ))
    }

    /// The judges' one-factor ULS fit of [`Sample::correlations`] (docs/method.md §7): the shared one
    /// when given, else fitted here.
    #[must_use]
    pub fn judge_fit(
        &self,
        p: usize,
    ) -> std::borrow::Cow<'_, Result<JudgeFit, crate::estimate::EstimateError>> {
        if let Some(f) = &self.judges {
            return std::borrow::Cow::Borrowed(f);
        }
        let r = self.correlations();
        std::borrow::Cow::Owned(one_factor_uls(&r.view((0, 0), (p, p)).into_owned()))
    }

    /// The sample with the judges' one-factor fit made once, when `share` says several tests
    /// start from it (`calibration::shares_judge_fit`: Tests J and O), so they do not each fit it.
    #[must_use]
    pub fn sharing_judge_fit(mut self, share: bool, p: usize) -> Sample<'a> {
        if share && self.judges.is_none() {
            self.judges = Some(self.judge_fit(p).into_owned());
        }
        self
    }
}

/// Why a test cannot run on a layout, in one sentence shown beside its N/A.
#[derive(Debug, Clone, PartialEq, Eq, Default, thiserror::Error)]
#[error("{0}")]
pub struct NotApplicable(pub String);

impl From<&str> for NotApplicable {
    fn from(why: &str) -> Self {
        NotApplicable(why.into())
    }
}

impl From<String> for NotApplicable {
    fn from(why: String) -> Self {
        NotApplicable(why)
    }
}

impl From<NotApplicable> for String {
    fn from(why: NotApplicable) -> String {
        why.0
    }
}

/// What one diagnostic is. Each test file defines one as `pub const SPEC`.
#[derive(Debug, Clone, Copy)]
pub struct Diagnostic {
    /// The letter shown as "Test A".
    pub name: &'static str,
    /// What the statistic measures, in a few words.
    pub title: &'static str,
    /// The violation it is built to catch.
    pub target: &'static str,
    /// The failure mode left unguarded on panels where the test cannot run (decision table).
    pub unguarded: &'static str,
    /// Whether the statistic looks at the anchors: such a test is offered only when ρ is
    /// identified, and calibrated only by a null that models the anchors.
    pub uses_anchors: bool,
    /// Whether the test can run on a layout's shape (counts, families), and if not, why.
    pub applicable: fn(&Layout) -> Result<(), NotApplicable>,
    /// The scales of judges and anchors it can answer for (docs/method.md §3); elsewhere it is N/A.
    pub scales: Scales,
    /// The statistic of a sample's second moments (judges first).
    pub statistic: fn(&Sample<'_>, &Layout) -> f64,
    /// Which null calibrates it: the single-factor model of Assumption 1, or the fitted
    /// free-scale model of docs/method.md §7 (judges on their own scales).
    pub null: NullKind,
    /// What a verdict means for this panel (Sections 5 and 8).
    pub meaning: fn(&Observation<'_>) -> String,
    /// The violation its operating characteristics are studied on.
    pub violation: Violation,
}

/// What a test does with the columns of one role (judges or anchors) when they are ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnOrdinal {
    /// The test does not read these columns, so their scale does not matter to it.
    NotRead,
    /// It asks its question on the latent scale (polychoric/polyserial correlations), and is
    /// calibrated by the latent null (docs/method.md §3).
    Latent,
    /// Its question has no answer there: N/A, with one sentence of why and what to read.
    NotApplicable(&'static str),
    /// It asks its question of the continuous judges alone when at least 3 are left, and is
    /// N/A otherwise with this sentence.
    ContinuousOnly(&'static str),
}

/// The scales a test can answer for (docs/method.md §3, "What each test can ask of Likert judges").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scales {
    pub ordinal_judges: OnOrdinal,
    pub ordinal_anchors: OnOrdinal,
}

/// The model a test's null distribution is simulated from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NullKind {
    /// Assumption 1's single common factor with unit judge loadings (Tests A, B, C on
    /// continuous judges).
    SingleFactor,
    /// The standardised latent model fitted to the panel's correlations (docs/method.md §3, §7): free
    /// judge loadings, ordinal columns cut at their own empirical thresholds (Tests J and O,
    /// and Test C on ordinal judges).
    FreeScale,
}

/// What a test's meaning may depend on.
#[derive(Debug, Clone, Copy)]
pub struct Observation<'a> {
    pub fires: bool,
    pub observed: f64,
    /// The closed-form estimate, when ρ is identified.
    pub estimate: Option<&'a Estimate>,
    pub layout: &'a Layout,
}

/// A violation design of strength s (s = 0 is the correctly specified null).
#[derive(Debug, Clone, Copy)]
pub struct Violation {
    /// The command-line name (`power --design NAME`).
    pub name: &'static str,
    /// The design in a few words, for `power --help`.
    pub short: &'static str,
    /// One sentence naming the design exactly.
    pub describe: &'static str,
    /// Whether it is studied on the three-anchor design rather than the base design.
    pub three_anchors: bool,
    /// The violation at strength `s` injected into parameters (whose own violations stay).
    pub inject: fn(&mut Params, f64),
}

impl Violation {
    /// The paper's design this violation is studied on.
    #[must_use]
    pub fn base(&self) -> Params {
        if self.three_anchors {
            Params::three_anchor()
        } else {
            Params::default()
        }
    }

    /// `base` with this violation at strength `s`.
    #[must_use]
    pub fn apply(&self, base: &Params, s: f64) -> Params {
        let mut pm = base.clone();
        (self.inject)(&mut pm, s);
        pm
    }
}
