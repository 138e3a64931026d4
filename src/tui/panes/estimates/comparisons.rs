//! The estimates pane's comparisons: every other estimator the explorer fits, one line each
//! (the free-scale fallback with its intervals, identified sets and flags).

use ratatui::text::Line;

use crate::estimate::{Context, Estimate, Estimator};
use crate::tui::app::App;
use crate::tui::text::Keys;
use crate::wording::reword;

pub(super) fn num(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map_or_else(|| "undef".into(), |v| format!("{v:.3}"))
}

/// Every comparison the explorer fits, in its order (the closed form among them when the
/// marker rows show `led`), and apart from them the line a talk scene is about (shown
/// under the anchors).
pub(super) fn comparison_lines(
    app: &App,
    fits: &crate::estimate::Fits,
    stale: bool,
    names: &[String],
    led: Option<Estimator>,
) -> (Vec<Line<'static>>, Option<Line<'static>>) {
    let mut lines = Vec::new();
    let mut pointed = None;
    // Every comparison the explorer fits, in its order; n/a where one cannot run, except the
    // free-scale fallback, shown only where it runs (≥ 3 judges, ≥ 3 continuous anchors).
    let ctx = Context {
        clean: Some(0),
        ..Context::default()
    };
    // A talk scene's point comes first under the anchors, where 80×24 shows it.
    let point = match app.mode {
        crate::tui::app::Mode::Demo(i) => app.scenes.get(i).and_then(|s| s.point),
        _ => None,
    };
    for e in crate::estimate::fits::EXPLORER {
        let at = lines.len();
        let hidden = (e == Estimator::FreeScale && fits.estimate(e).is_none()) || led == Some(e);
        if e == Estimator::FreeScale && !hidden {
            let boot = app
                .battery
                .as_ref()
                .and_then(|b| b.fit(Estimator::FreeScale))
                .map(|f| &f.boot)
                .filter(|_| !stale);
            lines.extend(free_scale_lines(&e.label(&ctx, names), fits, boot, names));
        } else if (e != Estimator::ClosedForm || led.is_some()) && !hidden {
            lines.push(compare_line(&e.label(&ctx, names), fits.estimate(e), names));
        }
        // When the scene's point leads the marker rows, what it is compared with is the
        // closed form: that line comes up instead, so 80×24 shows both.
        let lifted = point.is_some() && point == led && e == Estimator::ClosedForm;
        if (point == Some(e) || lifted) && lines.len() > at {
            pointed = Some(lines.remove(at));
        }
    }
    (lines, pointed)
}

/// The free-scale line: ρ̂ with its bootstrap interval (none beside an undefined ρ̂), and
/// each anchor's identified set where that is wider than a point (or empty); then each flag
/// that undefines it, worded, on its own line.
fn free_scale_lines(
    label: &str,
    fits: &crate::estimate::Fits,
    boot: Option<&crate::bootstrap::BootstrapResult>,
    names: &[String],
) -> Vec<Line<'static>> {
    let (Some(e), Some(fs)) = (fits.estimate(Estimator::FreeScale), fits.free_scale()) else {
        return vec![Line::raw(format!("{label}: n/a"))];
    };
    let sets: Vec<String> = fs
        .identified
        .iter()
        .flat_map(|s| s.rho.iter().zip(names))
        .filter_map(|(r, n)| {
            r.map(|(lo, hi)| format!("{} [{lo:.2}, {hi:.2}]", crate::error::sanitize(n)))
        })
        .collect();
    let empty = fs
        .identified
        .as_ref()
        .is_some_and(crate::estimate::identified::IdentifiedSet::is_empty);
    let set_text = if empty {
        "; identified set empty at 95 %".to_string()
    } else if sets.is_empty() {
        String::new()
    } else {
        format!("; identified sets {}", sets.join(", "))
    };
    let flags: Vec<Line<'static>> = e
        .flags
        .iter()
        .filter(|f| crate::estimate::free_scale::undefining_codes(e).contains(&f.code.as_str()))
        .map(|f| {
            Line::raw(format!(
                "free-scale FLAG {}: {}",
                f.code.as_str(),
                reword(&f.message(e, names, &[]), &Keys).into_owned()
            ))
        })
        .collect();
    let head = if e.rho().iter().all(Option::is_none) {
        format!("{label}: ρ̂ undefined{set_text}")
    } else {
        let rhos: Vec<String> = e
            .rho()
            .iter()
            .enumerate()
            .map(|(k, r)| {
                // An undefined ρ̂ has no interval to carry.
                let ci = boot
                    .and_then(|b| b.rho.get(k).copied().flatten())
                    .filter(|_| r.is_some())
                    .map_or_else(String::new, |c| format!(" [{:.2}, {:.2}]", c.lo, c.hi));
                format!("{}{ci}", num(*r))
            })
            .collect();
        format!("{label}: ρ̂ = ({}){set_text}", rhos.join(", "))
    };
    std::iter::once(Line::raw(head)).chain(flags).collect()
}

fn compare_line(label: &str, est: Option<&Estimate>, names: &[String]) -> Line<'static> {
    match est {
        None => Line::raw(format!("{label}: n/a")),
        Some(e) => {
            let rhos = crate::battery::phrase::rho_entries(e, names);
            Line::raw(format!("{label}: ρ̂ = ({})", rhos.join(", ")))
        }
    }
}
