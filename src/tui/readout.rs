//! What more than one view reads off the library's results: the judges' loadings λ, the
//! panel's answer in one sentence with the next step that would change it, and the
//! explorer's own wording of advice the command line words for its flags.

use crate::battery::{BatteryReport, TestId, Verdict};
use crate::estimate::{Context, Estimator, Fits};
use crate::panel::Panel;

/// The judges' one-factor loadings λ: the free-scale fit's where it ran, else the square
/// roots of the shares the effective number of judges reads (the same loadings). `None` for
/// a Heywood judge (a share of 1 or more).
#[must_use]
pub fn loadings(fits: Option<&Fits>, battery: Option<&BatteryReport>) -> Option<Vec<Option<f64>>> {
    if let Some(fs) = fits.and_then(Fits::free_scale) {
        return Some(fs.lambda.iter().map(|&l| Some(l)).collect());
    }
    let shares = battery?.n_eff.shares.as_ref()?;
    Some(
        shares
            .iter()
            .map(|&s| (!crate::neff::is_heywood(s) && s >= 0.0).then(|| s.sqrt()))
            .collect(),
    )
}

/// λ as numbers in judge order (`Heywood` where a loading is 1 or more).
#[must_use]
pub fn loading_list(lambda: &[Option<f64>]) -> String {
    lambda
        .iter()
        .map(|l| l.map_or_else(|| "Heywood".into(), |l| format!("{l:.2}")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The estimates pane's λ line in `width` characters: every judge by name where that fits on
/// one line, else the lowest and the highest, names clipped alike until the line fits.
#[must_use]
pub fn loading_line(panel: &Panel, lambda: &[Option<f64>], width: usize) -> String {
    let named: Vec<(String, String)> = panel
        .judges
        .iter()
        .zip(lambda)
        .map(|(j, l)| {
            (
                crate::error::sanitize(j),
                l.map_or_else(|| "Heywood".into(), |l| format!("{l:.2}")),
            )
        })
        .collect();
    let all: Vec<String> = named.iter().map(|(j, l)| format!("{j} {l}")).collect();
    let full = format!("judge loadings λ: {}", all.join(", "));
    if full.chars().count() <= width {
        return full;
    }
    let order = |l: &Option<f64>| l.unwrap_or(f64::INFINITY);
    let by_value: Vec<usize> = {
        let mut v: Vec<usize> = (0..named.len()).collect();
        v.sort_by(|&a, &b| order(&lambda[a]).total_cmp(&order(&lambda[b])));
        v
    };
    let (Some(&lo), Some(&hi)) = (by_value.first(), by_value.last()) else {
        return full;
    };
    let longest = named
        .iter()
        .map(|(j, _)| j.chars().count())
        .max()
        .unwrap_or(0);
    let line = |w: usize| {
        format!(
            "λ lowest {} {}, highest {} {}",
            crate::error::clip(&named[lo].0, w),
            named[lo].1,
            crate::error::clip(&named[hi].0, w),
            named[hi].1
        )
    };
    (4..=longest)
        .rev()
        .map(line)
        .find(|l| l.chars().count() <= width)
        .unwrap_or_else(|| line(4))
}

/// λ with the judges' names, lowest first, for a sentence.
#[must_use]
pub fn named_loadings(panel: &Panel, lambda: &[Option<f64>]) -> String {
    let mut pairs: Vec<(String, Option<f64>)> = panel
        .judges
        .iter()
        .map(|j| crate::error::sanitize(j))
        .zip(lambda.iter().copied())
        .collect();
    pairs.sort_by(|a, b| {
        a.1.unwrap_or(f64::INFINITY)
            .total_cmp(&b.1.unwrap_or(f64::INFINITY))
    });
    pairs
        .iter()
        .map(|(j, l)| l.map_or_else(|| format!("{j} Heywood"), |l| format!("{j} {l:.2}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Advice worded for the command line, worded for the explorer: an ordinal anchor cannot be
/// left out when every anchor is ordinal; `c` scores it continuously instead.
#[must_use]
pub fn explorer_advice(text: &str, panel: Option<&Panel>) -> String {
    let all_ordinal =
        panel.is_some_and(|p| p.m() > 0 && (0..p.m()).all(|k| p.scales[p.p() + k].is_ordinal()));
    if all_ordinal {
        text.replace(
            "; leave it out of the anchors",
            "; every anchor is ordinal: c on an anchor in the data pane scores it as continuous",
        )
    } else {
        text.to_string()
    }
}

/// The panel's answer in one sentence: the estimate to read and the anchors whose interval
/// lies above zero, or that no ρ̂ can be read.
#[must_use]
pub fn answer(r: &BatteryReport, names: &[String]) -> String {
    const NONE: &str = "Answer: no anchor's ρ can be read from this panel as it stands: every estimate is undefined or guarded by a test that fires.";
    let Some(e) = r.route.read else {
        return NONE.into();
    };
    let Some(inf) = r.fit(e) else {
        return NONE.into();
    };
    let label = e.label(
        &Context {
            clean: Some(0),
            ..Context::default()
        },
        names,
    );
    let mut hit = Vec::new();
    let mut clean = Vec::new();
    for (k, rho) in inf.estimate.rho().iter().enumerate() {
        let name = names
            .get(k)
            .cloned()
            .unwrap_or_else(|| format!("ρ_{}", k + 1));
        match (rho, inf.boot.rho.get(k).copied().flatten()) {
            (Some(x), Some(c)) if c.lo > 0.0 => {
                hit.push(format!("{name} (ρ̂ {x:.2} [{:.2}, {:.2}])", c.lo, c.hi));
            }
            _ => clean.push(name),
        }
    }
    let hit_text = if hit.is_empty() {
        "no anchor is contaminated beyond chance".to_string()
    } else {
        format!("contaminated: {}", hit.join(", "))
    };
    let rest = if clean.is_empty() || hit.is_empty() {
        String::new()
    } else {
        format!("; {} not distinguishable from clean", clean.join(", "))
    };
    format!("Answer (read {label}): {hit_text}{rest}.")
}

/// The next step that would change the answer, most telling first. Each step is checked
/// against what the library returns for the panel it would make, where that is cheap (the
/// decision table, the explorer's fits); a step that cannot be checked here is worded as a
/// guess with the verdicts that confirm it.
#[must_use]
pub fn next_step(r: &BatteryReport, panel: &Panel, fits: Option<&Fits>) -> String {
    if r.decision.refusal.is_some() {
        return identify_step(panel);
    }
    let (p, m) = (panel.p(), panel.m());
    let ordinal_anchors = (0..m).filter(|&k| panel.scales[p + k].is_ordinal()).count();
    let fires = |t: TestId| r.tests[t].verdict == Verdict::Fires;
    let free_ran = fits
        .and_then(|f| f.estimate(Estimator::FreeScale))
        .is_some();
    if ordinal_anchors > 0 && !free_ran && p >= 3 && m >= 3 && !fires(TestId::J) {
        // Only where the free-scale fit of the anchors read as numbers gives every ρ̂.
        if free_scale_as_numbers(panel) == Some(Ok(())) {
            return "Next: score the anchors as numbers (c on each anchor in the data pane): the free-scale estimate then gives every ρ̂ here, with Test O to check it.".into();
        }
    }
    // Test J guards the free-scale estimate: its guess leads only where nothing else is read.
    if fires(TestId::J) && r.route.read.is_none_or(|e| e == Estimator::FreeScale) {
        return judge_step(r, panel, fits);
    }
    if m < 3 {
        return "Next: add a third anchor (Space on a column in the data pane): it brings Test B and, with ≥ 3 judges and continuous anchors, the free-scale estimate.".into();
    }
    if panel.families.is_none() {
        return "Next: give the judges their families (F in the data pane): Test C and the family-blocked estimate need them.".into();
    }
    if fires(TestId::O) {
        let names: Vec<String> = panel
            .anchors
            .iter()
            .map(|a| crate::error::sanitize(a))
            .collect();
        return format!(
            "Next: Test O says the anchors disagree about the judges' scale; check how each of {} was scored (with {m} anchors no one of them can be set aside and Test O still run{}).",
            names.join(", "),
            if m >= 4 {
                " unless it is the only odd one"
            } else {
                ""
            }
        );
    }
    plan_step(r, panel)
}

/// The step for a panel on which ρ is not identified: the fewest changes of roles and scales
/// after which the decision table identifies it.
fn identify_step(panel: &Panel) -> String {
    use crate::battery::decision::{Configuration, decide};
    let c = Configuration::of(panel);
    let (p, m) = (c.layout.p, c.layout.m);
    let min_judges = crate::estimate::free_scale::MIN_JUDGES;
    // (anchors wanted, anchors read as numbers, judges read as numbers)
    let candidates = [
        (m.max(2), false, false),
        (m.max(2), true, false),
        (m.max(3), true, false),
        (m.max(2), true, true),
    ];
    let found = candidates
        .into_iter()
        .find(|&(want, anchors_num, judges_num)| {
            let mut w = c.clone();
            w.layout.m = want;
            // New anchors read as the present ones are (as the judges are, with none yet).
            let continuous_now = (c.continuous_anchors * want)
                .checked_div(m)
                .unwrap_or(if c.ordinal_judges == 0 { want } else { 0 });
            w.continuous_anchors = if anchors_num { want } else { continuous_now };
            if judges_num {
                w.ordinal_judges = 0;
            }
            w.layout.ordinal_anchors = want - w.continuous_anchors;
            w.layout.ordinal_judges = w.ordinal_judges;
            // Ordinal judges are read by the free-scale estimate alone, which needs ≥ 3 judges.
            decide(&w).refusal.is_none() && (w.ordinal_judges == 0 || p >= min_judges)
        });
    let Some((want, anchors_num, judges_num)) = found else {
        return "Next: ρ cannot be identified by changing roles or scales here; the panel needs other columns.".into();
    };
    let mut parts = Vec::new();
    if want > m {
        let more = want - m;
        parts.push(format!(
            "add {} (Space on a column in the data pane makes it an anchor)",
            if more == 1 {
                format!("{} anchor", ordinal_word(want))
            } else {
                format!("{more} anchors")
            }
        ));
    }
    if judges_num {
        parts.push("read every column's codes as numbers (c on each judge and anchor): on ordinal codes alone ρ is not identified (Section 7)".to_string());
    } else if anchors_num {
        parts.push(format!(
            "score the anchors as numbers (c on each anchor): ordinal judges need ≥ {want} continuous anchors"
        ));
    }
    format!("Next: {}.", parts.join(", and "))
}

/// "second", "third", … for the k-th anchor.
fn ordinal_word(k: usize) -> String {
    match k {
        1 => "a first".into(),
        2 => "a second".into(),
        3 => "a third".into(),
        k => format!("a {k}th"),
    }
}

/// Test J fires: a guess named on screen, with the verdicts that would confirm it.
fn judge_step(r: &BatteryReport, panel: &Panel, fits: Option<&Fits>) -> String {
    let lowest = loadings(fits, Some(r)).and_then(|l| {
        panel
            .judges
            .iter()
            .zip(l)
            .filter_map(|(j, l)| l.map(|l| (crate::error::sanitize(j), l)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    });
    let p = panel.p();
    // Test J must still run on the judges left, or the guess cannot be checked.
    let mut fewer = crate::battery::Layout::of(panel);
    fewer.p = p.saturating_sub(1);
    fewer.ordinal_judges = fewer.ordinal_judges.min(fewer.p);
    fewer.families = None;
    match lowest {
        Some((name, l)) if TestId::J.applicable(&fewer).is_ok() => {
            let c = if r.tests[TestId::C].verdict == Verdict::Pass {
                " and Test C still passes"
            } else {
                ""
            };
            format!(
                "Next, as a guess to check: Test J says the judges need a second factor; try setting aside {name}, the judge that loads least (λ {l:.2}; Space twice on it in the data pane makes it —), and check that Test J then passes{c}. If not, these judges share no one factor and no ρ̂ can be read from them."
            )
        }
        _ => format!(
            "Next: Test J says these {p} judges share no one factor; setting one aside would leave too few for Test J to check, so no ρ̂ can be read from them: add judges of other families."
        ),
    }
}

/// The last step: more items, with the command that plans how many for a design like this
/// panel's (the configuration pane plans for simulated scenarios only). The command is
/// checked: its design must be one the planner accepts.
fn plan_step(r: &BatteryReport, panel: &Panel) -> String {
    const PLAIN: &str = "Next: more items (a larger N) narrow every interval; `rhoscope plan` says how many for a simulated design like this one.";
    let Some(e) = r.route.read.and_then(|e| r.fit(e)).map(|f| &f.estimate) else {
        return PLAIN.into();
    };
    let list = |v: Vec<f64>| {
        v.iter()
            .map(|x| format!("{x:.2}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let rho: Option<Vec<f64>> = e
        .anchors
        .iter()
        .map(|a| a.rho.map(|x| x.clamp(-0.95, 0.95)))
        .collect();
    let sd: Vec<f64> = e
        .anchors
        .iter()
        .map(|a| a.sigma_a2.max(0.0).sqrt())
        .collect();
    let (Some(rho), true) = (rho, e.sigma_t2 > 0.0 && e.sigma_c2 > 0.0) else {
        return PLAIN.into();
    };
    let sets = [
        format!("p={}", panel.p()),
        format!("sigma_t2={:.2}", e.sigma_t2),
        format!("sigma_c2={:.2}", e.sigma_c2),
        format!("rho={}", list(rho)),
        format!("sigma_a={}", list(sd)),
    ];
    let mut pm = crate::model::Params::default();
    let ok = sets
        .iter()
        .all(|s| crate::scenario::apply_set(&mut pm, s).is_ok())
        && pm.validate().is_ok();
    if !ok {
        return PLAIN.into();
    }
    let args: Vec<String> = sets.iter().map(|s| format!("--set {s}")).collect();
    format!(
        "Next: more items (a larger N) narrow every interval; for a simulated design like this panel's, `rhoscope plan {} --target ci-width=0.2` says how many (the configuration pane plans for presets only).",
        args.join(" ")
    )
}

/// Whether the free-scale fit, with the panel's ordinal anchors read as numbers, gives every
/// ρ̂ (`Ok`), or the flags that leave them undefined; `None` when no anchor is ordinal or the
/// fit cannot run. Kept for the last panel asked about: the caption is drawn every frame.
#[must_use]
pub fn free_scale_as_numbers(panel: &Panel) -> Option<Result<(), String>> {
    type Cache = Option<(usize, usize, Option<Result<(), String>>)>;
    thread_local! {
        static LAST: std::cell::RefCell<Cache> = const { std::cell::RefCell::new(None) };
    }
    let key = (std::ptr::from_ref(panel).addr(), panel.n);
    if let Some(hit) = LAST.with_borrow(|c| {
        c.as_ref()
            .filter(|(a, n, _)| (*a, *n) == key)
            .map(|(_, _, v)| v.clone())
    }) {
        return hit;
    }
    let value = free_scale_as_numbers_uncached(panel);
    LAST.set(Some((key.0, key.1, value.clone())));
    value
}

fn free_scale_as_numbers_uncached(panel: &Panel) -> Option<Result<(), String>> {
    let p = panel.p();
    if !panel.scales[p..]
        .iter()
        .any(crate::panel::Scale::is_ordinal)
    {
        return None;
    }
    let mut numbers = panel.clone();
    for s in &mut numbers.scales[p..] {
        *s = crate::panel::Scale::Continuous;
    }
    let fits = Fits::explorer(&numbers)?;
    let e = fits.estimate(Estimator::FreeScale)?;
    let flags = crate::estimate::free_scale::undefining_codes(e);
    if e.rho().iter().all(Option::is_some) && flags.is_empty() {
        Some(Ok(()))
    } else {
        Some(Err(flags.join(", ")))
    }
}
