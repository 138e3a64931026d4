//! Section 7's identification hierarchy, shown at one interior point: with every column
//! ordinal ρ is not identified (a rank-deficient Jacobian and two equivalent parameter
//! vectors); with ordinal judges and m ≥ 3 continuous anchors it is (a full-rank Jacobian).
//!
//! The point is the paper's design, or a panel's own: Theorem 1's plug-in parameters (eq. 1),
//! the fit `rhoscope estimate` reports.

use nalgebra::DMatrix;

use crate::estimate::closed_form;
use crate::estimate::latent::{Frame, family::Family, ridge};
use crate::model::Params;
use crate::moments::{JudgePairs, Moments};
use crate::ordinal::{
    AllOrdinalIdentification, LocalRank, all_ordinal_identification, correlation_matrix,
    mixed_scale_identification,
};
use crate::panel::Panel;
use crate::stats::Interval;

/// Why the identification check cannot run on a design or a panel.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentifyError {
    /// Fewer than 2 judges or no anchor: the check has nothing to map.
    #[error(
        "the identification check needs at least 2 judges and 1 anchor (the panel has {judges} and {anchors})"
    )]
    TooFewColumns { judges: usize, anchors: usize },
    /// The latent correlations or the Jacobian's rank cannot be computed.
    #[error("{0}")]
    Latent(String),
    /// Theorem 1 gives no interior point on this panel.
    #[error("{0}")]
    NoPoint(String),
}

impl From<IdentifyError> for String {
    fn from(e: IdentifyError) -> String {
        e.to_string()
    }
}

/// A failure of the latent-scale computations, kept as its message.
fn latent(e: impl std::fmt::Display) -> IdentifyError {
    IdentifyError::Latent(e.to_string())
}

/// The anchor values the paper's designs cycle through when a panel has more anchors than the
/// three-anchor design (Section 4 and docs/method.md §4): ρ = (0.3, 0.7, 0.5), σ_a = (0.5, 0.6, 0.7).
const DESIGN_RHO: [f64; 3] = [0.3, 0.7, 0.5];
const DESIGN_SIGMA_A: [f64; 3] = [0.5, 0.6, 0.7];

/// The paper's base design (σ_t² = 1, σ_c² = 0.8, judge error variance 1) at `p` judges and
/// `m` anchors, the anchors taking ρ and σ_a from (0.3, 0.7, 0.5) and (0.5, 0.6, 0.7) in turn:
/// the base design at m = 2 and the three-anchor design at m = 3.
#[must_use]
pub fn paper_design(p: usize, m: usize) -> Params {
    Params {
        p,
        rho: (0..m).map(|k| DESIGN_RHO[k % 3]).collect(),
        sigma_a: (0..m).map(|k| DESIGN_SIGMA_A[k % 3]).collect(),
        ..Params::default()
    }
}

/// Where the interior point came from.
#[derive(Debug, Clone, PartialEq)]
pub enum PointSource {
    /// The paper's design; `reason` says why a panel's own point was not used.
    PaperDesign { reason: Option<String> },
    /// Theorem 1's fit to the panel's covariances, in range.
    PanelFit,
}

impl PointSource {
    /// The stable machine-readable name (JSON `point.source`).
    #[must_use]
    pub fn as_str(&self) -> &'static str {
        match self {
            PointSource::PaperDesign { .. } => "paper_design",
            PointSource::PanelFit => "panel_fit",
        }
    }
}

/// The rank of the mixed-scale map (ordinal judges, continuous anchors) at some point.
#[derive(Debug, Clone, PartialEq)]
pub struct MixedContrast {
    /// The point: the same as the all-ordinal check's when it has m ≥ 3 anchors, else the
    /// paper's three-anchor design (with at least 3 judges, as the free-scale estimator needs).
    pub point: Params,
    /// Whether `point` is the all-ordinal check's point.
    pub same_point: bool,
    pub rank: LocalRank,
}

/// Everything `rhoscope identify` shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Identification {
    /// The interior point of the all-ordinal check.
    pub point: Params,
    pub source: PointSource,
    /// Jacobian rank, null space and the two equivalent parameter vectors (Section 7).
    pub all_ordinal: AllOrdinalIdentification,
    /// The positive result, for contrast.
    pub mixed: MixedContrast,
    /// On a panel with ≥ 3 judges and ≥ 3 continuous anchors: its free-scale fit's identified
    /// set, by the rule the estimator uses (a Jacobian of full rank at a point does not make
    /// the data identify it: on the equal-β ridge they do not).
    pub data: Option<crate::estimate::identified::IdentifiedSet>,
    /// Where that set is not a point (flag `ridge`): the equal-β ridge traced as a family at
    /// the anchors' pooled moments (docs/method.md §9); `None` off the ridge.
    pub ridge: Option<Family>,
    /// The family of ρ the latent correlations allow (docs/method.md §7b).
    pub family: FamilyCheck,
}

/// The family of worlds the latent correlations allow, and the world each anchor's
/// designation picks.
#[derive(Debug, Clone, PartialEq)]
pub struct FamilyCheck {
    /// Whether the correlations are the panel's (else the population ones of `point`).
    pub on_panel: bool,
    /// The point whose population correlations were traced, when not the panel's.
    pub point: Option<Params>,
    /// The judges' frame and its family, or why there is none.
    pub traced: Result<(Frame, Family), String>,
    /// Per anchor, on a panel: item-bootstrap 95 % intervals of its range's two ends
    /// ([`FAMILY_RESAMPLES`] resamples, seed [`FAMILY_SEED`]).
    pub ends: Vec<(Option<Interval>, Option<Interval>)>,
}

/// Resamples and seed of the family's endpoint intervals.
pub const FAMILY_RESAMPLES: usize = crate::bootstrap::DEFAULT_RESAMPLES;
pub const FAMILY_SEED: u64 = 1;

/// The family traced on the latent correlations `r` of `p` judges.
fn trace(r: &DMatrix<f64>, p: usize) -> Result<(Frame, Family), String> {
    let frame = Frame::of(r, p).map_err(|e| e.to_string())?;
    let family = Family::of(&frame);
    Ok((frame, family))
}

/// The family at a point with ≥ 3 anchors (the three-anchor design when it has fewer).
fn family_at(point: &Params) -> FamilyCheck {
    let pm = if point.m() >= 3 && point.p >= 3 {
        point.clone()
    } else {
        paper_design(point.p.max(3), 3)
    };
    FamilyCheck {
        on_panel: false,
        traced: trace(&crate::ordinal::latent_correlations(&pm), pm.p),
        point: Some(pm),
        ends: Vec::new(),
    }
}

/// The family on a panel's own correlations, with bootstrap intervals of each range's ends.
fn family_on(panel: &Panel, r: &DMatrix<f64>) -> FamilyCheck {
    let (p, m) = (panel.p(), panel.m());
    let traced = trace(r, p);
    let ends = if traced.as_ref().is_ok_and(|(_, f)| !f.is_empty()) {
        let streams = crate::rng::Streams::of(FAMILY_SEED);
        let per = crate::bootstrap::correlation_resamples(panel, FAMILY_RESAMPLES, streams, &|r| {
            let (_, f) = trace(r, p).ok()?;
            (!f.is_empty()).then(|| (0..m).map(|k| f.range(k)).collect::<Vec<_>>())
        });
        per.map_or_else(Vec::new, |draws| {
            (0..m)
                .map(|k| {
                    let ends: Vec<(f64, f64)> =
                        draws.iter().filter_map(|d| d.as_ref()?[k]).collect();
                    let enough = ends.len() as f64
                        >= crate::bootstrap::MIN_ADMISSIBLE * FAMILY_RESAMPLES as f64;
                    let interval = |v: Vec<f64>| enough.then(|| percentile_interval(v));
                    (
                        interval(ends.iter().map(|e| e.0).collect()),
                        interval(ends.iter().map(|e| e.1).collect()),
                    )
                })
                .collect()
        })
    } else {
        Vec::new()
    };
    FamilyCheck {
        on_panel: true,
        point: None,
        traced,
        ends,
    }
}

/// The 2.5 % and 97.5 % percentiles of `v` (non-empty).
fn percentile_interval(mut v: Vec<f64>) -> Interval {
    v.sort_by(f64::total_cmp);
    Interval {
        lo: crate::stats::percentile(&v, 0.025),
        hi: crate::stats::percentile(&v, 0.975),
    }
}

/// The check at the paper's base design (p = 6, m = 2), where Section 7 exhibits its two
/// equivalent parameterisations.
///
/// # Errors
/// Never for the paper's design; the message of the core check otherwise.
pub fn at_paper_design() -> Result<Identification, IdentifyError> {
    let point = Params::default();
    let all_ordinal = all_ordinal_identification(&point).map_err(latent)?;
    finish(
        point,
        PointSource::PaperDesign { reason: None },
        all_ordinal,
    )
}

/// The check at a panel's own point when it is in range and reaches ρ_1 = 0.30 and 0.80;
/// otherwise at the paper's design with the panel's p and m, saying why.
///
/// # Errors
/// Fewer than 2 judges or no anchor, or a column whose latent correlations cannot be
/// computed (one level, constant): the map to latent correlations needs them all.
pub fn at_panel(panel: &Panel) -> Result<Identification, IdentifyError> {
    let (p, m) = (panel.p(), panel.m());
    if p < 2 || m < 1 {
        return Err(IdentifyError::TooFewColumns {
            judges: p,
            anchors: m,
        });
    }
    let corr = correlation_matrix(panel).map_err(latent)?;
    let family = family_on(panel, &corr.r);
    let own = panel_point(&panel.covariance(), p)
        .map_err(String::from)
        .and_then(|pm| {
            all_ordinal_identification(&pm)
                .map(|id| (pm, id))
                .map_err(|e| format!("the panel's point does not reach both targets: {e}"))
        });
    let (data, ridge) = on_data(panel).unzip();
    let ridge = ridge.flatten();
    let with_data = |id: Result<Identification, IdentifyError>| {
        id.map(|mut id| {
            id.data.clone_from(&data);
            id.ridge.clone_from(&ridge);
            id.family = family.clone();
            id
        })
    };
    with_data(match own {
        Ok((point, id)) => finish(point, PointSource::PanelFit, id),
        Err(reason) => {
            let point = paper_design(p, m);
            let id = all_ordinal_identification(&point).map_err(latent)?;
            finish(
                point,
                PointSource::PaperDesign {
                    reason: Some(reason),
                },
                id,
            )
        }
    })
}

/// The panel's free-scale identified set, where the estimator runs, and the ridge family
/// where that set is not a point.
fn on_data(panel: &Panel) -> Option<(crate::estimate::identified::IdentifiedSet, Option<Family>)> {
    let (fit, _) = crate::estimate::free_scale::fit_panel_identified(panel).ok()?;
    let set = fit.identified.clone()?;
    let ridge = on_ridge(&set).then(|| ridge::of_moments(&ridge_moments(panel, &fit)));
    Some((set, ridge))
}

/// The anchor moments the ridge family is traced at, from the panel's free-scale fit.
fn ridge_moments(
    panel: &Panel,
    fit: &crate::estimate::free_scale::FreeScaleFit,
) -> crate::estimate::identified::AnchorMoments {
    let p = panel.p();
    let cov = panel.covariance();
    let anchors = cov.view((p, p), (panel.m(), panel.m())).into_owned();
    crate::estimate::identified::moments_of(fit, &anchors)
}

/// The free-scale equal-β ridge of `panel` with the moments it is traced at, when the
/// panel's free-scale fit slides along one (the explorer's slider moves along it).
#[must_use]
pub fn ridge_of(panel: &Panel) -> Option<(crate::estimate::identified::AnchorMoments, Family)> {
    let (fit, _) = crate::estimate::free_scale::fit_panel_identified(panel).ok()?;
    if !on_ridge(fit.identified.as_ref()?) {
        return None;
    }
    let mom = ridge_moments(panel, &fit);
    let family = ridge::of_moments(&mom);
    (!family.is_empty()).then_some((mom, family))
}

/// Whether a free-scale identified set says the fit is on the ridge: non-empty, not a point.
#[must_use]
pub fn on_ridge(set: &crate::estimate::identified::IdentifiedSet) -> bool {
    !set.is_empty() && !set.is_point()
}

fn finish(
    point: Params,
    source: PointSource,
    all_ordinal: AllOrdinalIdentification,
) -> Result<Identification, IdentifyError> {
    let (contrast_point, same_point) = if point.m() >= 3 && point.p >= 3 {
        (point.clone(), true)
    } else {
        (paper_design(point.p.max(3), 3), false)
    };
    let rank = mixed_scale_identification(&contrast_point).map_err(latent)?;
    Ok(Identification {
        source,
        all_ordinal,
        mixed: MixedContrast {
            point: contrast_point,
            same_point,
            rank,
        },
        data: None,
        ridge: None,
        family: family_at(&point),
        point,
    })
}

/// Theorem 1's plug-in parameters (eq. 1) from a panel's covariance matrix `s` (judges
/// first), as `rhoscope estimate` reports them: σ̂_t², σ̂_c², ρ̂_k, σ̂_ak, and each judge's
/// error variance S_jj − K̂. Any interior point serves the rank test, which is local; this one
/// is the panel's own.
///
/// # Errors
/// A one-sentence reason when the fit is out of range (any flag of docs/method.md §1, or a judge error
/// variance S_jj − K̂ ≤ 0).
pub fn panel_point(s: &DMatrix<f64>, p: usize) -> Result<Params, IdentifyError> {
    let no_point = |why: &str| IdentifyError::NoPoint(why.into());
    let mom = Moments::from_cov(s, p, JudgePairs::All)
        .ok_or_else(|| no_point("the panel has fewer than 2 judges, so K is undefined"))?;
    if mom.n_anchors() < 2 {
        return Err(no_point(
            "Theorem 1 needs 2 anchors to give a point, and the panel has 1",
        ));
    }
    let est = closed_form(&mom);
    if !est.flags.is_empty() {
        let codes: Vec<_> = est.flags.iter().map(|f| f.code).collect();
        return Err(IdentifyError::NoPoint(format!(
            "Theorem 1's fit {}",
            crate::battery::phrase::flagged(&codes)
        )));
    }
    let judge_var: Vec<f64> = (0..p).map(|j| s[(j, j)] - est.k).collect();
    if let Some(j) =
        (0..p).find(|&j| judge_var[j].partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return Err(IdentifyError::NoPoint(format!(
            "Theorem 1 leaves judge {} no error variance (Var(J) − K = {:.4})",
            j + 1,
            judge_var[j]
        )));
    }
    let rho: Option<Vec<f64>> = est.anchors.iter().map(|a| a.rho).collect();
    let rho = rho.ok_or_else(|| no_point("Theorem 1 leaves a ρ undefined"))?;
    let pm = Params {
        sigma_t2: est.sigma_t2,
        sigma_c2: est.sigma_c2,
        p,
        judge_var,
        rho,
        sigma_a: est.anchors.iter().map(|a| a.sigma_a2.sqrt()).collect(),
        ..Params::default()
    };
    pm.validate()
        .map_err(|e| IdentifyError::NoPoint(format!("Theorem 1 is out of range: {e}")))?;
    Ok(pm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_design_is_the_base_and_three_anchor_designs() {
        assert_eq!(paper_design(6, 2), Params::default());
        assert_eq!(paper_design(6, 3), Params::three_anchor());
        assert_eq!(paper_design(4, 4).rho, vec![0.3, 0.7, 0.5, 0.3]);
    }

    #[test]
    fn a_panel_point_from_population_moments_is_the_design() {
        // Theorem 1 inverts population moments exactly, so the panel's point is the design,
        // unequal judge error variances included.
        let pm = Params {
            judge_var: vec![0.5, 1.0, 1.5, 0.8],
            p: 4,
            ..Params::three_anchor()
        };
        let point = panel_point(&pm.population_cov(), pm.p).unwrap();
        assert!((point.population_cov() - pm.population_cov()).amax() < 1e-12);
        assert!((point.rho[1] - 0.7).abs() < 1e-12);
    }

    #[test]
    fn out_of_range_points_give_a_reason() {
        // Anchors uncorrelated with every judge and each other: σ̂_t² = 0, σ̂_c² = K, every
        // β̂ = 0 − 0 … and the pair denominator K ≠ 0, so σ̂_t² = 0 is flagged outside (0, K).
        let mut r = DMatrix::identity(5, 5);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            r[(i, j)] = 0.5;
            r[(j, i)] = 0.5;
        }
        assert!(
            panel_point(&r, 3)
                .unwrap_err()
                .to_string()
                .contains("out of range")
        );
    }
}

#[cfg(test)]
mod ridge_tests {
    use super::*;

    fn panel(rho: Vec<f64>, seed: u64) -> Panel {
        let mut pm = crate::scenario::preset("three-anchor").unwrap();
        pm.p = 5;
        pm.rho = rho;
        crate::simulate::simulate(&pm, 3000, seed).unwrap()
    }

    #[test]
    fn clean_anchors_report_the_ridge_family_around_the_truth() {
        let id = at_panel(&panel(vec![0.0; 3], 3)).unwrap();
        let set = id.data.as_ref().expect("the free-scale set");
        assert!(on_ridge(set), "{set:?}");
        let fam = id.ridge.as_ref().expect("a ridge family");
        assert!(!fam.is_empty());
        for k in 0..3 {
            let (lo, hi) = fam.range(k).unwrap();
            assert!(lo < 0.0 && 0.0 < hi, "anchor {k}: {lo}..{hi}");
        }
    }

    #[test]
    fn a_panel_off_the_ridge_reports_no_ridge_family() {
        let id = at_panel(&panel(vec![0.3, 0.7, 0.5], 3)).unwrap();
        let set = id.data.as_ref().expect("the free-scale set");
        assert!(set.is_point(), "{set:?}");
        assert!(id.ridge.is_none());
    }
}
