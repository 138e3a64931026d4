//! What the estimates pane says of a trusted anchor (`t`): the designated-clean estimate's
//! name with the anchor it trusts, or, when the battery's reading cannot read it, the reason
//! (docs/method.md §7b). The reading decides; this only words it.

use std::sync::Arc;

use ratatui::text::Line;

use crate::estimate::latent::{Frame, family::Family};
use crate::estimate::{Context, Estimator};
use crate::panel::Panel;
use crate::tui::app::{App, Source};
use crate::tui::text::Keys;
use crate::tui::theme::Theme;
use crate::wording::reword;

/// The name of the estimate the marker rows show: a designated-clean one with the anchor the
/// user trusts, and its cost.
#[must_use]
pub fn lead_label(app: &App, e: Estimator, names: &[String]) -> String {
    match (e, app.designated()) {
        (Estimator::DesignatedClean | Estimator::DesignatedCleanLatent, Some(d)) => format!(
            "{} (assumed clean: untestable)",
            e.label(
                &Context {
                    clean: Some(d),
                    ..Context::default()
                },
                names
            )
        ),
        _ => crate::tui::reading::pane_label(e, names),
    }
}

/// Why the trusted anchor's estimate is not read, when it is not (the reading's first
/// obstacle, which the designation put there).
#[must_use]
pub fn unread_line(app: &App, names: &[String], theme: Theme) -> Option<Line<'static>> {
    let d = app.designated()?;
    let r = app.battery.as_deref().filter(|_| !app.battery_stale())?;
    let designated = |e: Estimator| {
        matches!(
            e,
            Estimator::DesignatedClean | Estimator::DesignatedCleanLatent
        )
    };
    if r.reading.answer.read.is_some_and(designated) {
        return None;
    }
    let why = r.reading.answer.obstacles.first().map_or_else(
        || "no reason given".to_string(),
        |o| crate::battery::phrase::obstacle(o, names),
    );
    let name = names.get(d).map_or("?", String::as_str);
    Some(Line::styled(
        format!(
            "trusting {} as clean, no ρ̂ to read: {}",
            crate::error::sanitize(name),
            reword(&why, &Keys)
        ),
        theme.warn(),
    ))
}

/// The family of ρ on a panel's latent correlations, or why there is none.
pub type Traced = Result<(Frame, Family), String>;

/// The family the sliders pane draws, on a panel whose anchors are ordinal (where ρ is not
/// point-identified); `None` elsewhere.
#[must_use]
pub fn traced(panel: &Panel) -> Option<Arc<Traced>> {
    let p = panel.p();
    let ordinal = panel.scales[p..]
        .iter()
        .any(crate::panel::Scale::is_ordinal);
    ordinal.then(|| Arc::new(Family::on_panel(panel)))
}

/// The sliders pane on a file with a family: the "assumed ρ of NAME" slider (NAME the trusted
/// anchor, else the first), every anchor's ρ in that world, and each anchor's range.
#[must_use]
pub fn family_lines(app: &App, width: usize) -> Option<Vec<Line<'static>>> {
    let Source::File(f) = &app.source else {
        return None;
    };
    let names = &app.panel.as_deref()?.anchors;
    let traced = f.family.as_deref()?;
    let (frame, family) = match traced {
        Ok(t) => t,
        Err(why) => {
            return Some(vec![
                Line::raw("the family of ρ the data allow (Likert anchors):"),
                Line::raw(why.clone()),
            ]);
        }
    };
    let k = app.designated().unwrap_or(0);
    let (arc, (lo, hi), at) = family.slider(k, f.assumed)?;
    let world = arc.at_assumed(frame, k, at);
    let shown: Vec<String> = names.iter().map(|n| crate::error::sanitize(n)).collect();
    let label = format!("assumed ρ of {}", shown.get(k).map_or("?", String::as_str));
    let room = width.saturating_sub(label.chars().count() + 10);
    let bar_w = room.min(24);
    let frac = if hi > lo { (at - lo) / (hi - lo) } else { 0.0 };
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "fraction in [0, 1]"
    )]
    let filled = ((frac * bar_w as f64).round() as usize).min(bar_w);
    let bar = format!("{}{}", "█".repeat(filled), "░".repeat(bar_w - filled));
    let mut lines = vec![Line::raw(format!("▸ {label} {bar} {at:>6.2}"))];
    let longest = shown.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for (i, name) in shown.iter().enumerate() {
        let (a, b) = arc.rho[i];
        lines.push(Line::raw(format!(
            "  {name:<longest$} ρ {:>6.2}  range [{a:.2}, {b:.2}]",
            world[i]
        )));
    }
    lines.push(Line::raw(
        "h/l: worlds the data cannot tell apart; every ρ moves together",
    ));
    Some(lines)
}
