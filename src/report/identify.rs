//! The `identify` report: Section 7's identification hierarchy at one point, in text or JSON.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::format::{SCHEMA_VERSION, num, table};
use super::panel::{panel_json, panel_text};
use crate::identify::{Identification, PointSource};
use crate::model::Params;
use crate::ordinal::{LocalRank, RANK_TOLERANCE};
use crate::panel::Panel;
use crate::wording::Setting;

/// What `rhoscope identify` reports: the check, and the panel it ran on (if any).
#[derive(Debug, Clone, Copy)]
pub struct IdentifyReport<'a> {
    pub id: &'a Identification,
    /// The panel file as given, and the panel, when one was read.
    pub panel: Option<(&'a str, &'a Panel, Option<&'a Path>)>,
}

impl IdentifyReport<'_> {
    /// Judge and anchor names: the panel's, else `J1..Jp` and `A1..Am`.
    fn names(&self) -> (Vec<String>, Vec<String>) {
        if let Some((_, panel, _)) = self.panel {
            return (panel.judges.clone(), panel.anchors.clone());
        }
        let pm = &self.id.point;
        let names = pm.column_names();
        let (j, a) = names.split_at(pm.p);
        (j.to_vec(), a.to_vec())
    }
}

fn sci(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.3e}")
    } else {
        "undefined".into()
    }
}

/// The parameters of the model as JSON (full lists, one value per judge or anchor).
#[must_use]
pub fn params_json(pm: &Params) -> Value {
    let list = |v: Vec<f64>| Value::Array(v.into_iter().map(num).collect());
    json!({
        "sigma_t2": num(pm.sigma_t2),
        "sigma_c2": num(pm.sigma_c2),
        "p": pm.p,
        "judge_var": list(pm.judge_var_full()),
        "rho": list(pm.rho.clone()),
        "sigma_a": list(pm.sigma_a_full()),
        "beta": list(pm.beta()),
    })
}

fn rank_json(r: &LocalRank) -> Value {
    json!({
        "n_params": r.n_params,
        "n_moments": r.n_moments,
        "singular_values": r.singular_values.iter().map(|x| num(*x)).collect::<Vec<_>>(),
        "tolerance": RANK_TOLERANCE,
        "rank": r.rank,
        "null_dim": r.null_dim,
        "identified": r.null_dim == 0,
    })
}

/// What the point is, in one sentence.
fn point_sentence(id: &Identification) -> String {
    let pm = &id.point;
    match &id.source {
        PointSource::PanelFit => {
            "the panel's own: Theorem 1's fit to its covariances with every column's values read as numbers (judge error variances Var(J_j) − K̂), which is in range and reaches both ρ_1 targets; a point to study identification at, not an estimate of ρ (the battery's answer says whether one reads)".into()
        }
        PointSource::PaperDesign { reason: None } => format!(
            "the paper's base design (Section 4: σ_t² = 1, σ_c² = 0.8, p = {} judges with error variance 1, ρ = ({}), σ_a = ({})), where Section 7 exhibits its two equivalent parameterisations",
            pm.p,
            join(&pm.rho),
            join(&pm.sigma_a_full())
        ),
        PointSource::PaperDesign {
            reason: Some(why),
        } => format!(
            "the paper's design at the panel's p = {} and m = {} (σ_t² = 1, σ_c² = 0.8, judge error variance 1, ρ = ({}), σ_a = ({})), because the panel's own point cannot serve: {why}",
            pm.p,
            pm.m(),
            join(&pm.rho),
            join(&pm.sigma_a_full())
        ),
    }
}

fn join(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mixed_sentence(id: &Identification) -> String {
    if id.mixed.same_point {
        "at the same point".into()
    } else {
        format!(
            "at the paper's three-anchor design with p = {} judges (the point above has {} judge{} and {} anchor{}; the estimator needs ≥ 3 of each)",
            id.mixed.point.p,
            id.point.p,
            if id.point.p == 1 { "" } else { "s" },
            id.point.m(),
            if id.point.m() == 1 { "" } else { "s" }
        )
    }
}

/// The `identify --json` document.
#[must_use]
pub fn json(r: &IdentifyReport<'_>) -> Value {
    let id = r.id;
    let mut doc = match r.panel {
        Some((source, panel, fam)) => panel_json(source, panel, fam),
        None => json!({"schema_version": SCHEMA_VERSION, "source": Value::Null}),
    };
    let ao = &id.all_ordinal;
    doc["point"] = json!({
        "source": id.source.as_str(),
        "reason": match &id.source {
            PointSource::PaperDesign { reason: Some(why) } => json!(why),
            _ => Value::Null,
        },
        "description": point_sentence(id),
        "params": params_json(&id.point),
    });
    doc["data_identification"] = id.data.as_ref().map_or(Value::Null, |set| {
        json!({
            "point": set.is_point(),
            "empty": set.is_empty(),
            "unbounded": set.unbounded,
            "rho": set.rho.iter().map(|r| r.map_or(Value::Null, |(lo, hi)| json!([lo, hi]))).collect::<Vec<_>>(),
        })
    });
    doc["all_ordinal"] = json!({
        "n_params": ao.n_params,
        "n_correlations": ao.n_correlations,
        "singular_values": ao.singular_values.iter().map(|x| num(*x)).collect::<Vec<_>>(),
        "tolerance": ao.tolerance,
        "rank": ao.rank,
        "null_dim": ao.null_dim,
        "identified": ao.null_dim == 0,
        "equivalent": {
            "low": params_json(&ao.low),
            "high": params_json(&ao.high),
            "max_abs_diff": num(ao.max_abs_diff),
        },
    });
    let mut mixed = rank_json(&id.mixed.rank);
    mixed["same_point"] = json!(id.mixed.same_point);
    mixed["params"] = params_json(&id.mixed.point);
    doc["mixed_scale"] = mixed;
    doc["family"] = super::family::json(&id.family, &r.names().1);
    doc["ridge_family"] = match (&id.ridge, &id.data) {
        (Some(fam), Some(set)) => super::family::ridge_json(fam, set, &r.names().1),
        _ => Value::Null,
    };
    doc
}

/// The rank line: rank of n, the cut, and the margin either side of it.
fn rank_text(out: &mut String, sv: &[f64], rank: usize, n_params: usize) {
    let top = sv.first().copied().unwrap_or(0.0);
    let _ = writeln!(
        out,
        "  Jacobian rank {rank} of {n_params}: a singular value counts as zero at ≤ {RANK_TOLERANCE:e} × the largest ({} × {:e} = {})",
        sci(top),
        RANK_TOLERANCE,
        sci(top * RANK_TOLERANCE)
    );
    let kept = rank.checked_sub(1).and_then(|i| sv.get(i));
    let dropped = sv.get(rank);
    let _ = writeln!(
        out,
        "  smallest kept {} · largest dropped {}",
        kept.map_or_else(|| "none".into(), |x| sci(*x)),
        dropped.map_or_else(|| "none".into(), |x| sci(*x))
    );
    let _ = writeln!(
        out,
        "  singular values: {}",
        sv.iter().map(|x| sci(*x)).collect::<Vec<_>>().join(" ")
    );
}

/// The point and the two equivalent parameter vectors side by side.
fn vectors_table(vs: [&Params; 3], judges: &[String], anchors: &[String]) -> String {
    let f = |x: f64| {
        if x.is_finite() {
            format!("{x:.6}")
        } else {
            "undefined".into()
        }
    };
    let row = |label: String, get: &dyn Fn(&Params) -> f64| {
        let mut r = vec![label];
        r.extend(vs.iter().map(|pm| f(get(pm))));
        r
    };
    let mut rows = vec![
        row("σ_t²".into(), &|pm| pm.sigma_t2),
        row("σ_c²".into(), &|pm| pm.sigma_c2),
    ];
    for (k, a) in anchors.iter().enumerate() {
        rows.push(row(format!("ρ {a}"), &|pm| pm.rho[k]));
    }
    for (k, a) in anchors.iter().enumerate() {
        rows.push(row(format!("σ_a {a}"), &|pm| pm.sigma_a_full()[k]));
    }
    for (j, name) in judges.iter().enumerate() {
        rows.push(row(format!("Var(e) {name}"), &|pm| pm.judge_var_full()[j]));
    }
    table(&["parameter", "point", "ρ_1 = 0.30", "ρ_1 = 0.80"], &rows)
}

/// The `identify` text report.
#[must_use]
pub fn text(r: &IdentifyReport<'_>) -> String {
    let id = r.id;
    let ao = &id.all_ordinal;
    let (judges, anchors) = r.names();
    let mut out = match r.panel {
        Some((source, panel, fam)) => panel_text("identify", source, panel, fam),
        None => "rhoscope identify — the paper's design (no panel given)\n".into(),
    };
    let _ = writeln!(out, "point: {}", point_sentence(id));
    let _ = writeln!(
        out,
        "\nEvery column ordinal (Section 7, negative result): only latent correlations are seen"
    );
    let _ = writeln!(
        out,
        "  θ = (σ_t², σ_c², ρ_1..ρ_m, σ_a1..σ_am, Var(e_1)..Var(e_p)): {} parameters, unit judge loadings kept; {} latent correlations",
        ao.n_params, ao.n_correlations
    );
    rank_text(&mut out, &ao.singular_values, ao.rank, ao.n_params);
    let _ = writeln!(
        out,
        "  null space dimension {}: ρ is {}identified{}",
        ao.null_dim,
        if ao.null_dim == 0 { "" } else { "NOT " },
        match ao.null_dim {
            0 => String::new(),
            2 => " (one direction is the common scale, along which ρ stays put; the other moves ρ)"
                .into(),
            d => format!(
                " (the common scale, a rotation that moves ρ, and {} more free direction{} with only m = {} anchor{})",
                d - 2,
                if d == 3 { "" } else { "s" },
                id.point.m(),
                if id.point.m() == 1 { "" } else { "s" }
            ),
        }
    );
    let _ = writeln!(
        out,
        "\n  The point, and two parameter vectors (both in range) with the same latent correlations:"
    );
    out.push_str(&vectors_table(
        [&id.point, &ao.low, &ao.high],
        &judges,
        &anchors,
    ));
    let _ = writeln!(
        out,
        "  max |difference| between their latent correlations: {} ({} 1e-10)",
        sci(ao.max_abs_diff),
        if ao.max_abs_diff <= 1e-10 { "≤" } else { ">" }
    );
    let mr = &id.mixed.rank;
    let _ = writeln!(
        out,
        "\nOrdinal judges, continuous anchors (Section 7, positive result), {}",
        mixed_sentence(id)
    );
    let _ = writeln!(
        out,
        "  the same θ ({} parameters); seen: judge latent correlations, judge–anchor covariances on each judge's latent scale, anchor covariances ({} moments)",
        mr.n_params, mr.n_moments
    );
    rank_text(&mut out, &mr.singular_values, mr.rank, mr.n_params);
    let _ = writeln!(
        out,
        "  null space dimension {}: ρ is {}",
        mr.null_dim,
        if mr.null_dim == 0 && id.data.as_ref().is_some_and(|d| !d.is_point()) {
            "locally identified at this point, but see the data below".to_string()
        } else if mr.null_dim == 0 {
            format!(
                "locally identified at this point; the free-scale estimator ({}) applies",
                Setting::FreeScale.marked()
            )
        } else {
            format!(
                "NOT identified (m = {} continuous anchors)",
                id.mixed.point.m()
            )
        }
    );
    if let Some(set) = &id.data {
        let _ = writeln!(out, "  on this panel's data: {}", data_sentence(set));
    }
    if let (Some(fam), Some(set)) = (&id.ridge, &id.data) {
        out.push_str(&super::family::ridge_text(fam, set, &anchors));
    }
    out.push_str(&super::family::text(&id.family, &r.names().1));
    out
}

/// What the panel's data identify, by the free-scale estimator's own rule.
fn data_sentence(set: &crate::estimate::identified::IdentifiedSet) -> String {
    if set.is_empty() {
        "no free-scale parameters fit the anchors' covariances within sampling error (the model is rejected)".into()
    } else if set.is_point() {
        format!(
            "the identified set is bounded and narrow, so ρ is point-identified ({} gives it with the set)",
            Setting::FreeScale.marked()
        )
    } else {
        let widest = set
            .rho
            .iter()
            .flatten()
            .map(|(lo, hi)| hi - lo)
            .fold(0.0, f64::max);
        format!(
            "NOT point-identified: the anchors' β look equal (or N is too small to tell them apart), so the fit slides along a ridge; the identified sets of ρ are up to {widest:.2} wide{} (the ridge's family below; {} lists the sets)",
            if set.unbounded {
                " and reach the edge of the parameter space"
            } else {
                ""
            },
            Setting::FreeScale.marked()
        )
    }
}
