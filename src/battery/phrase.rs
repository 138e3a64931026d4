//! Core-level phrases of a reading: what each reason and remedy says, naming no front-end
//! control (no flag, key or keyword argument). Front ends add how to do it in their own terms.

use super::reading::{
    Answer, Column, Obstacle, Outcome, ReadBecause, Reading, Remedy, Unidentified,
};
use super::registry::TestId;
use super::verdict::Verdict;
use crate::estimate::{Estimator, FlagCode};
use crate::panel::Panel;

/// An estimator's name in running text ("the closed form").
#[must_use]
pub fn estimator(e: Estimator) -> &'static str {
    match e {
        Estimator::ClosedForm => "the closed form",
        Estimator::Ml => "the ML estimate",
        Estimator::Blocked => "the family-blocked estimate",
        Estimator::DesignatedClean => "the designated-clean estimate",
        Estimator::DesignatedCleanLatent => "the designated-clean estimate on latent scales",
        Estimator::FreeScale => "the free-scale estimate",
        #[cfg(test)]
        Estimator::Throwaway => "the throwaway estimate",
    }
}

/// A column's name: `judges` and `anchors` are the panel's names.
#[must_use]
pub fn column(c: Column, judges: &[String], anchors: &[String]) -> String {
    let (names, i, role) = match c {
        Column::Judge(j) => (judges, j, "judge"),
        Column::Anchor(k) => (anchors, k, "anchor"),
    };
    names
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("{role} {}", i + 1))
}

/// Names joined with commas.
#[must_use]
pub fn list(names: &[String]) -> String {
    names.join(", ")
}

/// Why ρ is not identified, as a clause.
#[must_use]
pub fn unidentified(u: Unidentified) -> String {
    match u {
        Unidentified::TooFewAnchors { anchors } => format!(
            "{anchors} anchor{}: Theorem 1 needs ≥ 2 anchors, so σ_t² and every ρ are not identified",
            if anchors == 1 { "" } else { "s" }
        ),
        Unidentified::AllOrdinal => {
            "every column is ordinal: ρ is not identified at any number of anchors (Section 7)"
                .into()
        }
        Unidentified::OrdinalJudgesFewContinuous { continuous_anchors } => format!(
            "the judges are ordinal and the panel has {continuous_anchors} continuous anchor{}: ρ needs ≥ 3 continuous anchors (Section 7)",
            if continuous_anchors == 1 { "" } else { "s" }
        ),
    }
}

/// What a firing test says against an estimator, as a clause.
fn guard(t: TestId) -> &'static str {
    match t {
        TestId::A => "the judges load unequally (for instance, each on its own scale)",
        TestId::B => "the anchors disagree on σ_t²",
        TestId::C => "judges of one family share a residual that inflates K",
        TestId::J => "the judges need more than one factor even on their own scales",
        TestId::O => "the anchors' covariances reject the free-scale model",
        #[cfg(test)]
        TestId::Z => "the test's own alarm",
    }
}

/// One obstacle as a clause, naming anchors by `anchors`.
#[must_use]
pub fn obstacle(o: &Obstacle, anchors: &[String]) -> String {
    match o {
        Obstacle::NotIdentified(u) => unidentified(*u),
        Obstacle::OrdinalAnchors(idx) => {
            let names: Vec<String> = idx
                .iter()
                .map(|&k| column(Column::Anchor(k), &[], anchors))
                .collect();
            format!(
                "the anchor{} {} {} ordinal: the closed form would read the codes as numbers on the judges' scale, and the free-scale estimate needs continuous anchors",
                if idx.len() == 1 { "" } else { "s" },
                list(&names),
                if idx.len() == 1 { "is" } else { "are" }
            )
        }
        Obstacle::Guarded { estimator: e, test } => format!(
            "Test {} fires against {}: {}",
            test.name(),
            estimator(*e),
            guard(*test)
        ),
        Obstacle::Flagged { estimator: e, flags } => {
            format!("{} {}", estimator(*e), flagged(flags))
        }
        Obstacle::DidNotRun { estimator: e, refusal } => {
            format!("{} does not run here ({refusal})", estimator(*e))
        }
        Obstacle::WeaklyIdentified { no_interval } if no_interval.is_empty() => "the weak-identification screen flags the closed form (T < 4): its points are not to be read, only its intervals".into(),
        Obstacle::WeaklyIdentified { no_interval } => {
            let names: Vec<String> = no_interval
                .iter()
                .map(|&k| anchors.get(k).cloned().unwrap_or_else(|| format!("A{}", k + 1)))
                .collect();
            format!(
                "the weak-identification screen flags the closed form (T < 4): its points are not to be read, only its intervals, and {} {} none (too few resamples gave a value), so nothing can be reported for {}",
                list(&names),
                if names.len() == 1 { "has" } else { "have" },
                if names.len() == 1 { "it" } else { "them" }
            )
        }
    }
}

/// Why the answer reads its estimator, as a sentence.
#[must_use]
pub fn because(b: ReadBecause) -> String {
    match b {
        ReadBecause::ClosedForm {
            test_a,
            free_scale_beside,
        } => format!(
            "Read the closed form (Theorem 1): {}{}.",
            if test_a == Verdict::Pass {
                "Test A does not fire"
            } else {
                "Test A cannot run here"
            },
            if free_scale_beside {
                "; the free-scale estimate is shown beside it as a check"
            } else {
                ""
            }
        ),
        ReadBecause::FreeScaleOrdinalJudges => "Read the free-scale estimate: the judges are ordinal, so their codes share no scale with the anchors; it frees every judge's scale and reads their correlations (Section 7).".into(),
        ReadBecause::FreeScaleTestA => "Read the free-scale estimate: Test A fires (the judges load unequally), and it frees every judge's scale and reads their correlations (Section 7); Test J passes, which it rests on.".into(),
        ReadBecause::Designated { estimator: e, anchor } => designated(e, &format!("anchor {}", anchor + 1)),
        ReadBecause::BlockedTestC => "Read the family-blocked estimate: Test C fires, so judges of one family share a residual that inflates the closed form's K; the blocked estimate takes K from cross-family pairs only (Section 5).".into(),
    }
}

/// What trusting the anchor `name` as clean is, before the battery has re-read the panel:
/// the assumption, and where the answer it gives is read (no promise that one is).
#[must_use]
pub fn trusting(name: &str) -> String {
    format!(
        "'{name}' trusted as clean, an assumption the data cannot test: the battery re-reads the panel, and its answer says whether the others' ρ can then be read"
    )
}

/// What trusting anchor `d` gave, once the battery has read the panel with it: the others'
/// ρ read relative to it, or why no ρ̂ can be read.
#[must_use]
pub fn trusted(r: &Reading, d: usize, anchors: &[String]) -> String {
    let name = column(Column::Anchor(d), &[], anchors);
    if matches!(r.answer.because, Some(ReadBecause::Designated { .. })) {
        format!("'{name}' trusted as clean: the others' ρ is read relative to it")
    } else {
        let why = r
            .answer
            .obstacles
            .first()
            .map_or_else(|| "no reason given".into(), |o| obstacle(o, anchors));
        format!("'{name}' trusted as clean, but no ρ̂ can be read: {why}")
    }
}

/// Why the answer reads the designated-clean estimate `e` with anchor `name` trusted.
fn designated(e: Estimator, name: &str) -> String {
    format!(
        "Read {}: you trust {name} as clean, and its fit is readable with no test guarding it; {}.",
        estimator(e),
        crate::estimate::latent::ASSUMPTION.replace("the designated anchor", name)
    )
}

/// The decision table's row list beside what reads on this panel, told apart in one line so
/// that the row's "closed-form ρ̂" is never read as this panel's (trial 43, findings 1 and 9).
#[must_use]
pub fn row_and_panel(available: &[String], r: &Reading, anchors: &[String]) -> String {
    let row = if available.is_empty() {
        "nothing".to_string()
    } else {
        available.join("; ")
    };
    let here = match r.answer.read {
        Some(e) => format!("the {} reads", r.label(e, anchors)),
        None => "no ρ̂ reads".to_string(),
    };
    format!("on this panel: {here}; the row offers {row}.")
}

/// The answer's headline, a sentence naming no front-end control.
#[must_use]
pub fn headline(a: &Answer, anchors: &[String]) -> String {
    if let Some(ReadBecause::Designated {
        estimator: e,
        anchor,
    }) = a.because
    {
        let name = anchors.get(anchor).cloned();
        return designated(e, &name.unwrap_or_else(|| format!("anchor {}", anchor + 1)));
    }
    if let Some(b) = a.because {
        return because(b);
    }
    let reasons: Vec<String> = a.obstacles.iter().map(|o| obstacle(o, anchors)).collect();
    format!("No ρ̂ to read: {}.", reasons.join("; and "))
}

/// A remedy as an imperative clause (what to do, not how in any front end).
#[must_use]
pub fn remedy(r: &Remedy, judges: &[String], anchors: &[String]) -> String {
    let cols = |cs: &[Column]| {
        list(
            &cs.iter()
                .map(|&c| column(c, judges, anchors))
                .collect::<Vec<_>>(),
        )
    };
    match r {
        Remedy::MarkContinuous(cs) => format!(
            "read {} as continuous, if their codes are interval-scaled",
            cols(cs)
        ),
        Remedy::MarkOrdinal(cs) => format!("read {} as ordinal (Likert codes)", cols(cs)),
        Remedy::LeaveOutAnchors(ks) => format!(
            "leave out the anchor{} {}",
            if ks.len() == 1 { "" } else { "s" },
            cols(&ks.iter().map(|&k| Column::Anchor(k)).collect::<Vec<_>>())
        ),
        Remedy::SetJudgeAside(j) => format!(
            "set the judge {} aside",
            column(Column::Judge(*j), judges, anchors)
        ),
        Remedy::UseAsAnchors(names) => format!("make {} anchors", list(names)),
        Remedy::GiveFamilies => {
            "give the judges' families (for Test C and the family-blocked estimate)".into()
        }
        Remedy::DesignateClean(k) => format!(
            "designate {} as clean (its ρ = 0 by assumption)",
            column(Column::Anchor(*k), judges, anchors)
        ),
        Remedy::TrustAnchor(k) => format!(
            "trust {} as clean, if you know it is: the others' ρ then follows on latent scales, if the judges share one factor (Test J passes) (the cost: an assumption the data cannot test)",
            column(Column::Anchor(*k), judges, anchors)
        ),
        Remedy::CollectAnchors(n) => {
            format!("collect {n} more anchor{}", if *n == 1 { "" } else { "s" })
        }
        Remedy::CollectContinuousAnchors(n) => format!(
            "collect {n} more continuous anchor{} (human or reference scores on an interval scale)",
            if *n == 1 { "" } else { "s" }
        ),
        Remedy::MoreItems(plan) => format!(
            "collect more items: about N = {} with {} judges and {} anchors lifts T past 4",
            plan.n, plan.judges, plan.anchors
        ),
    }
}

/// Why a reading that reads nothing offers no next step, as a sentence: judge-side alarms
/// that no change to the anchors answers, or simply none found; where Likert anchors would
/// have a trusted anchor offered, why trusting one would not help.
#[must_use]
pub fn no_next_step(r: &Reading, panel: &Panel) -> String {
    let fires = |t: TestId| r.evidence.tests[t] == Verdict::Fires;
    let likert_judges = (0..panel.p()).any(|j| panel.scales[j].is_ordinal());
    let likert_anchors = (0..panel.m()).any(|k| panel.scales[panel.p() + k].is_ordinal());
    let trust = match super::remedy::trust_cannot_read(&r.evidence.tests) {
        Some(t)
            if likert_anchors
                && r.designated.is_none()
                && panel.m() >= crate::estimate::latent::MIN_ANCHORS =>
        {
            format!(
                " Trusting an anchor as clean would not help: Test {} fires, so no trusted fit can be read.",
                t.name()
            )
        }
        _ => String::new(),
    };
    if fires(TestId::J) && (fires(TestId::A) || likert_judges) {
        let tests = if fires(TestId::A) {
            "Tests A and J fire and read only the judges"
        } else {
            "Test J fires and reads only the judges"
        };
        format!(
            "none found: {tests}, so no change to the anchors makes a ρ̂ readable, and no single judge set aside leaves a readable ρ̂ with Test J passing.{trust} Find what splits the judges (their loadings λ) or collect a panel of judges that share one factor."
        )
    } else if fires(TestId::A) && panel.p() < 4 {
        format!(
            "none found: Test A fires and reads only the judges, so no anchor added or changed makes the closed form readable; the free-scale estimate that answers Test A rests on Test J, which does not run on these {} judges (it needs ≥ 4). Collect a panel of judges that load equally, or more judges.",
            panel.p()
        )
    } else {
        format!("none found that this panel can take and that makes a ρ̂ readable.{trust}")
    }
}

/// What re-deciding with a remedy gave, as a clause.
#[must_use]
pub fn outcome(o: Outcome) -> String {
    match o {
        Outcome::Reads(e) => format!("then {} can be read", estimator(e)),
        Outcome::NothingReadable => "every ρ̂ stays undefined".into(),
        Outcome::DefinedButGuarded { estimator: e, test } => format!(
            "then {} gives ρ̂, but Test {} still fires against it",
            estimator(e),
            test.name()
        ),
        Outcome::StillFlagged(e) => format!("then {} gives some ρ̂, still flagged", estimator(e)),
        Outcome::Unchecked => "not checked here".into(),
    }
}

/// Flags in a few words each, every code once ("σ̂_c² ≤ 0, σ̂_a² ≤ 0 (4 anchors)"), for a
/// sentence a reader reads rather than the JSON's codes.
#[must_use]
pub fn flags_in_words(codes: &[FlagCode]) -> String {
    grouped(codes)
        .iter()
        .map(|&(c, n)| {
            let words = match c {
                FlagCode::SigmaC2Nonpositive => "σ̂_c² ≤ 0".to_string(),
                FlagCode::SigmaT2Outside0K => "σ̂_t² outside (0, K)".into(),
                FlagCode::SigmaA2Nonpositive => "σ̂_a² ≤ 0".into(),
                FlagCode::CleanContradicted => "the clean anchor contradicted (σ̂_a² ≤ 0)".into(),
                FlagCode::ZeroDenominator => "a zero denominator".into(),
                FlagCode::RhoOutsideUnit => "|ρ̂| > 1".into(),
                FlagCode::OrdinalAnchor => "Likert codes read as numbers on an anchor".into(),
                FlagCode::OrdinalCodes => "Likert codes read as numbers on the judges".into(),
                FlagCode::AnchorsMisfit => "the anchors misfit".into(),
                FlagCode::NotConverged => "no convergence".into(),
                FlagCode::Boundary => "a boundary fit".into(),
                other => other.as_str().replace('_', " "),
            };
            counted(words, n)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A fit's ρ̂ as a tuple's entries ("A1 assumed 0", "0.702", "undef"): an anchor trusted as
/// clean is worded as the assumption it is ([`super::reading::AnchorStatus::Assumed`]), never
/// as an estimate 0.000.
#[must_use]
pub fn rho_entries(e: &crate::estimate::Estimate, names: &[String]) -> Vec<String> {
    e.anchors
        .iter()
        .enumerate()
        .map(|(k, a)| match a.rho {
            _ if a.assumed => format!(
                "{} assumed 0",
                names
                    .get(k)
                    .map_or_else(|| format!("anchor {}", k + 1), Clone::clone)
            ),
            Some(r) if r.is_finite() => format!("{r:.3}"),
            _ => "undef".into(),
        })
        .collect()
}

/// What a fit's flags say about it, as a predicate of the fit ("is out of range (σ̂_c² ≤ 0)
/// and reads a column on a scale it cannot use (censored)"): each kind of trouble
/// ([`crate::estimate::FlagKind`]) in its own words, so no sentence calls a censored column
/// out of range (trial 45 finding 3), and each code said once (finding 10).
#[must_use]
pub fn flagged(codes: &[FlagCode]) -> String {
    let mut kinds: Vec<crate::estimate::FlagKind> = codes.iter().map(|c| c.kind()).collect();
    kinds.sort();
    kinds.dedup();
    let parts: Vec<String> = kinds
        .iter()
        .map(|&k| {
            let of_kind: Vec<FlagCode> = codes.iter().copied().filter(|c| c.kind() == k).collect();
            let words = flags_in_words(&of_kind);
            match k {
                crate::estimate::FlagKind::Range => format!("is out of range ({words})"),
                crate::estimate::FlagKind::Scale => {
                    format!("reads a column on a scale it cannot use ({words})")
                }
                crate::estimate::FlagKind::Identification => {
                    format!("is not point-identified ({words})")
                }
                crate::estimate::FlagKind::Fit => format!("does not fit ({words})"),
                crate::estimate::FlagKind::Precision => {
                    format!("has intervals too short to trust ({words})")
                }
            }
        })
        .collect();
    match parts.as_slice() {
        [] => "raises no flag".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The flags counted by kind, for a badge ("2 range, 2 scale").
#[must_use]
pub fn flag_counts(codes: &[FlagCode]) -> String {
    let g = grouped(codes);
    let mut kinds: Vec<crate::estimate::FlagKind> = g.iter().map(|(c, _)| c.kind()).collect();
    kinds.sort();
    kinds.dedup();
    kinds
        .iter()
        .map(|&k| {
            let n = g.iter().filter(|(c, _)| c.kind() == k).count();
            format!("{n} {}", k.short())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each flag code once, in the order first met, with how many anchors raised it: one flag
/// per anchor is one fact, said once in every front end (trial 44, findings 8 and 17).
#[must_use]
pub fn grouped(codes: &[FlagCode]) -> Vec<(FlagCode, usize)> {
    let mut seen: Vec<(FlagCode, usize)> = Vec::new();
    for &c in codes {
        match seen.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => seen.push((c, 1)),
        }
    }
    seen
}

/// A flag's words with its count of anchors, when more than one raised it.
fn counted(words: String, n: usize) -> String {
    if n > 1 {
        format!("{words} ({n} anchors)")
    } else {
        words
    }
}

/// A flag code's name, as in the JSON.
#[must_use]
pub fn flag(f: FlagCode) -> &'static str {
    f.as_str()
}

/// A p-value in one format everywhere: rounded to one significant digit below 0.01 (p-values
/// are multiples of 1/(draws + 1), so 0.000999 prints "0.001" and 0.00699 "0.007", never
/// "0.01"), else to two.
#[must_use]
pub fn p_value(p: f64) -> String {
    if !p.is_finite() {
        return "—".into();
    }
    if p <= 0.0 {
        return "0".into();
    }
    let sig = if p < 0.01 { 1 } else { 2 };
    // The decimals that keep `sig` significant digits of x (x > 0, so log10 is finite).
    let decimals = |x: f64| -> usize {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let d = (f64::from(sig) - 1.0 - x.log10().floor()).clamp(0.0, 15.0) as usize;
        d
    };
    let d = decimals(p);
    let once = format!("{p:.d$}");
    // Rounding may carry into a new digit (0.000999 → 0.0010): format the rounded value again.
    let r: f64 = once.parse().unwrap_or(p);
    let d = decimals(r);
    format!("{r:.d$}")
}
