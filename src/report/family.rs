//! The family of ρ the latent correlations allow (docs/method.md §7b), as `identify` words it:
//! each anchor's range with bootstrap intervals of its ends, the anchors' order, and the
//! world each anchor's designation picks.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::format::{interval_json, num};
use crate::estimate::identified::IdentifiedSet;
use crate::estimate::latent::family::Family;
use crate::identify::{FAMILY_RESAMPLES, FAMILY_SEED, FamilyCheck};
use crate::stats::Interval;

fn ci(i: Option<Interval>) -> String {
    i.map_or_else(|| "—".into(), |i| format!("[{:.2}, {:.2}]", i.lo, i.hi))
}

/// The family block of `identify`'s text.
#[must_use]
pub fn text(f: &FamilyCheck, anchors: &[String]) -> String {
    let mut out = String::from(
        "\nThe family the data allow (ordinal anchors; docs/method.md §7b): every rotation of the (t, c) plane that keeps each variance positive and |ρ| < 1\n",
    );
    let on = if f.on_panel {
        "  traced on the panel's latent (polychoric/polyserial) correlations".to_string()
    } else {
        format!(
            "  traced on the population latent correlations of {}",
            f.point.as_ref().map_or_else(String::new, |pm| format!(
                "a design with p = {}, ρ = ({})",
                pm.p,
                pm.rho
                    .iter()
                    .map(|r| format!("{r:.2}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        )
    };
    let _ = writeln!(out, "{on}");
    let (frame, family) = match &f.traced {
        Err(why) => {
            let _ = writeln!(out, "  not traced: {why}");
            return out;
        }
        Ok(t) => t,
    };
    let name = |k: usize| {
        anchors
            .get(k)
            .map_or_else(|| format!("A{}", k + 1), Clone::clone)
    };
    if family.is_empty() {
        let why = frame.heywood().map_or_else(
            || "no rotation keeps every anchor loading positively on quality".to_string(),
            |k| format!("{}'s latent loadings have length ≥ 1 (a negative error variance: the anchors' correlations beyond the judges' direction share no single factor)", name(k)),
        );
        let _ = writeln!(
            out,
            "  no admissible world: {why}, so the model does not fit these anchors"
        );
        return out;
    }
    let _ = writeln!(
        out,
        "  {} arc(s) of worlds; along each, every anchor's ρ rises together",
        family.arcs.len()
    );
    let ends = |k: usize| {
        f.ends
            .get(k)
            .map(|(a, b)| {
                format!(
                    "   (95 % intervals of the ends, {FAMILY_RESAMPLES} resamples, seed {FAMILY_SEED}: {} and {})",
                    ci(*a),
                    ci(*b)
                )
            })
            .unwrap_or_default()
    };
    lines(&mut out, frame.m(), family, anchors, &ends);
    out
}

/// Each anchor's range, the world each designation picks and the order no world reverses.
fn lines(
    out: &mut String,
    m: usize,
    family: &Family,
    anchors: &[String],
    uncertainty: &dyn Fn(usize) -> String,
) {
    let name = |k: usize| {
        anchors
            .get(k)
            .map_or_else(|| format!("A{}", k + 1), Clone::clone)
    };
    for k in 0..m {
        let Some((lo, hi)) = family.range(k) else {
            continue;
        };
        let ends = uncertainty(k);
        let arcs: Vec<String> = family
            .arcs
            .iter()
            .map(|a| format!("{:.2} to {:.2}", a.rho[k].0, a.rho[k].1))
            .collect();
        let per_arc = if arcs.len() > 1 {
            format!(" (arcs: {})", arcs.join("; "))
        } else {
            String::new()
        };
        let _ = writeln!(
            *out,
            "  ρ {}: from {lo:.2} to {hi:.2}{per_arc}{ends}",
            name(k)
        );
    }
    for k in 0..m {
        match family.if_clean(k) {
            Some(rho) => {
                let others: Vec<String> = (0..rho.len())
                    .filter(|&l| l != k)
                    .map(|l| format!("{}'s ρ is {:.2}", name(l), rho[l]))
                    .collect();
                let _ = writeln!(*out, "  if {} is clean: {}", name(k), others.join(", "));
            }
            None => {
                let _ = writeln!(
                    *out,
                    "  no admissible world has {} clean (designating it leaves some anchor loading against quality)",
                    name(k)
                );
            }
        }
    }
    for &(k, l) in &family.above {
        let _ = writeln!(
            *out,
            "  no admissible world has {} cleaner than {} (ρ {} > ρ {} throughout)",
            name(k),
            name(l),
            name(k),
            name(l)
        );
    }
}

/// The family as JSON (`identify --json` key `family`).
#[must_use]
pub fn json(f: &FamilyCheck, anchors: &[String]) -> Value {
    let traced = match &f.traced {
        Err(why) => return json!({"on_panel": f.on_panel, "traced": false, "reason": why}),
        Ok(t) => t,
    };
    let (frame, family) = traced;
    let m = frame.m();
    json!({
        "on_panel": f.on_panel,
        "traced": true,
        "g": frame.g.iter().map(|x| num(*x)).collect::<Vec<_>>(),
        "h": frame.h.iter().map(|x| num(*x)).collect::<Vec<_>>(),
        "anchor_misfit": num(frame.anchor_rms / frame.residual_rms.max(f64::MIN_POSITIVE)),
        "arcs": family.arcs.iter().map(|a| json!({
            "branch": a.branch,
            "phi": [num(a.phi.0), num(a.phi.1)],
            "rho": a.rho.iter().map(|r| json!([num(r.0), num(r.1)])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "anchors": (0..m).map(|k| json!({
            "name": anchors.get(k),
            "range": family.range(k).map_or(Value::Null, |(lo, hi)| json!([num(lo), num(hi)])),
            "range_ends_ci": f.ends.get(k).map_or(Value::Null, |(a, b)| json!([interval_json(*a), interval_json(*b)])),
            "if_clean": family.if_clean(k).map_or(Value::Null, |r| json!(r.iter().map(|x| num(*x)).collect::<Vec<_>>())),
        })).collect::<Vec<_>>(),
        "above": family.above.iter().map(|(k, l)| json!([anchors.get(*k), anchors.get(*l)])).collect::<Vec<_>>(),
        "bootstrap": if f.on_panel { json!({"resamples": FAMILY_RESAMPLES, "seed": FAMILY_SEED}) } else { Value::Null },
    })
}

/// The free-scale ridge's family block of `identify`'s text (docs/method.md §9), worded as
/// the ordinal family; each range carries the anchor's 95 % identified set as its sampling
/// uncertainty.
#[must_use]
pub fn ridge_text(family: &Family, set: &IdentifiedSet, anchors: &[String]) -> String {
    let mut out = String::from(
        "\nThe family the data allow (the free-scale equal-β ridge; docs/method.md §9): every σ_t² whose equal-β world reproduces the anchors' moments with each variance positive and |ρ| < 1\n",
    );
    let _ = writeln!(
        out,
        "  traced at the anchors' pooled moments (mean q, mean covariance); along each arc (one sign of the common β) every anchor's ρ keeps its sign, the anchor with the smaller variance is farther from 0, and all cross 0 together (β = 0)"
    );
    if family.is_empty() {
        let _ = writeln!(
            out,
            "  no admissible world: the pooled moments leave no equal-β world (an anchor's variance at or below the anchors' mean covariance, or no σ_c² > 0 fits)"
        );
        return out;
    }
    let _ = writeln!(out, "  {} arc(s) of worlds", family.arcs.len());
    let ends = |k: usize| {
        set.rho
            .get(k)
            .copied()
            .flatten()
            .map(|(lo, hi)| format!("   (95 % identified set: [{lo:.2}, {hi:.2}])"))
            .unwrap_or_default()
    };
    lines(&mut out, set.rho.len(), family, anchors, &ends);
    out
}

/// The ridge's family as JSON (`identify --json` key `ridge_family`): each arc's σ_t² range.
#[must_use]
pub fn ridge_json(family: &Family, set: &IdentifiedSet, anchors: &[String]) -> Value {
    let m = set.rho.len();
    json!({
        "traced": !family.is_empty(),
        "arcs": family.arcs.iter().map(|a| json!({
            "branch": a.branch,
            "sigma_t2": [num(a.phi.0), num(a.phi.1)],
            "rho": a.rho.iter().map(|r| json!([num(r.0), num(r.1)])).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "anchors": (0..m).map(|k| json!({
            "name": anchors.get(k),
            "range": family.range(k).map_or(Value::Null, |(lo, hi)| json!([num(lo), num(hi)])),
            "identified_set": set.rho[k].map_or(Value::Null, |(lo, hi)| json!([num(lo), num(hi)])),
            "if_clean": family.if_clean(k).map_or(Value::Null, |r| json!(r.iter().map(|x| num(*x)).collect::<Vec<_>>())),
        })).collect::<Vec<_>>(),
        "above": family.above.iter().map(|(k, l)| json!([anchors.get(*k), anchors.get(*l)])).collect::<Vec<_>>(),
    })
}
