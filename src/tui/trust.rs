//! What the estimates pane says of a trusted anchor (`t`): the designated-clean estimate's
//! name with the anchor it trusts, or, when the battery's reading cannot read it, the reason
//! (docs/method.md §7b). The reading decides; this only words it.

use std::sync::Arc;

use ratatui::text::Line;

use crate::estimate::identified::AnchorMoments;
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
        _ => crate::tui::reading::pane_label(e, names, app.designated()),
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
    // Every reason the trusted fit is not read (a flag and Test J, say), as the core gives them.
    let obstacles = &r.reading.answer.obstacles;
    let own: Vec<_> = obstacles
        .iter()
        .filter(|o| obstacle_estimator(o).is_some_and(designated))
        .collect();
    let shown = if own.is_empty() {
        obstacles.iter().take(1).collect()
    } else {
        own
    };
    let why: Vec<String> = shown
        .iter()
        .map(|o| crate::battery::phrase::obstacle(o, names))
        .collect();
    let why = if why.is_empty() {
        "no reason given".to_string()
    } else {
        why.join("; and ")
    };
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

/// An obstacle in the few words a pane's head line or the status rows have room for (the
/// estimates pane and the battery's full view give it whole).
#[must_use]
pub fn short_obstacle(o: &crate::battery::reading::Obstacle, names: &[String]) -> String {
    use crate::battery::reading::Obstacle;
    let fit = |e| crate::battery::phrase::estimator(e).trim_start_matches("the ");
    match o {
        Obstacle::NotIdentified(_) => "ρ is not identified here".into(),
        Obstacle::OrdinalAnchors(_) => "the anchors are ordinal".into(),
        Obstacle::Guarded { test, .. } => format!("Test {} fires", test.name()),
        Obstacle::Flagged { estimator, .. } => format!("{} out of range", fit(*estimator)),
        Obstacle::DidNotRun { estimator, .. } => format!("{} does not run", fit(*estimator)),
        Obstacle::WeaklyIdentified { no_interval } if no_interval.is_empty() => {
            "weak-ID fires (intervals only)".into()
        }
        Obstacle::WeaklyIdentified { no_interval } => {
            let who: Vec<&str> = no_interval
                .iter()
                .map(|&k| names.get(k).map_or("?", String::as_str))
                .collect();
            format!("weak-ID fires; {} has no CI", who.join(", "))
        }
    }
}

/// The estimator an obstacle concerns, where it names one.
fn obstacle_estimator(o: &crate::battery::reading::Obstacle) -> Option<Estimator> {
    use crate::battery::reading::Obstacle;
    match o {
        Obstacle::Guarded { estimator, .. }
        | Obstacle::Flagged { estimator, .. }
        | Obstacle::DidNotRun { estimator, .. } => Some(*estimator),
        _ => None,
    }
}

/// What a family of worlds is traced on: a panel's latent frame (ordinal anchors), or the
/// anchor moments of the free-scale equal-β ridge.
#[derive(Debug, Clone, PartialEq)]
pub enum Basis {
    Latent(Frame),
    Ridge(AnchorMoments),
}

impl Basis {
    /// Every anchor's ρ in the world of `arc` where anchor `k`'s ρ is `assumed`, as the core
    /// computes it for this kind of family.
    #[must_use]
    pub fn world(&self, arc: &crate::estimate::latent::family::Arc, k: usize, at: f64) -> Vec<f64> {
        match self {
            Basis::Latent(frame) => arc.at_assumed(frame, k, at),
            Basis::Ridge(mom) => crate::estimate::latent::ridge::at_assumed(mom, arc, k, at),
        }
    }

    /// Which family it is, where the ranges are given (the latent one is the pane's usual).
    fn kind(&self) -> &'static str {
        match self {
            Basis::Latent(_) => "",
            Basis::Ridge(_) => " (the free-scale equal-β ridge)",
        }
    }
}

/// The family of ρ on a panel (latent correlations or the ridge), or why there is none.
pub type Traced = Result<(Basis, Family), String>;

/// The family the sliders pane draws, on a panel where ρ is not point-identified: ordinal
/// anchors (the latent family), or a free-scale fit on its equal-β ridge; `None` elsewhere.
#[must_use]
pub fn traced(panel: &Panel) -> Option<Arc<Traced>> {
    let p = panel.p();
    let ordinal = panel.scales[p..]
        .iter()
        .any(crate::panel::Scale::is_ordinal);
    if ordinal {
        let latent = Family::on_panel(panel).map(|(f, fam)| (Basis::Latent(f), fam));
        return Some(Arc::new(latent));
    }
    let (mom, family) = crate::identify::ridge_of(panel)?;
    Some(Arc::new(Ok((Basis::Ridge(mom), family))))
}

/// The sliders pane on a file with a family: the "assumed ρ of NAME" slider (NAME the trusted
/// anchor, else the first), every anchor's ρ in that world, each anchor's range over every
/// arc (as `rhoscope identify` gives it), then the keys; wrapped to `width` at spaces, so no
/// number is split, and scrolled by the pane.
#[must_use]
pub fn family_lines(app: &App, width: usize) -> Option<Vec<Line<'static>>> {
    let Source::File(f) = &app.source else {
        return None;
    };
    let names = &app.panel.as_deref()?.anchors;
    let traced = f.family.as_deref()?;
    let wrap = |text: &str, indent: usize| -> Vec<Line<'static>> {
        let pad = " ".repeat(indent);
        crate::tui::widgets::wrap_words(text, width.saturating_sub(indent).max(8))
            .into_iter()
            .enumerate()
            .map(|(i, l)| Line::raw(if i == 0 { l } else { format!("{pad}{l}") }))
            .collect()
    };
    let (basis, family) = match traced {
        Ok(t) => t,
        Err(why) => {
            let mut lines = wrap("the family of ρ the data allow (Likert anchors):", 2);
            lines.extend(wrap(why, 2));
            // No world to move along; the trusted anchor is still named here.
            if let Some(name) = app.designated().and_then(|k| names.get(k)) {
                let name = crate::error::sanitize(name);
                lines.extend(wrap(
                    &format!("{name} trusted: assumed clean, untestable"),
                    2,
                ));
            }
            return Some(lines);
        }
    };
    let k = app.designated().unwrap_or(0);
    let (arc, (lo, hi), at) = family.slider(k, f.assumed)?;
    let world = basis.world(arc, k, at);
    let shown: Vec<String> = names.iter().map(|n| crate::error::sanitize(n)).collect();
    let mut lines = vec![slider_line(
        &format!("assumed ρ of {}", shown.get(k).map_or("?", String::as_str)),
        (lo, hi, at),
        width,
    )];
    // Off 0 the slider's world is a what-if beside the trusted reading, where the anchor is
    // clean: the row says so, and a line under the rows says which world the estimates read.
    let what_if = app.designated().is_some() && world[k].abs() >= 0.005;
    // Every anchor's ρ first, so the contaminated one is in view at 80×24.
    lines.extend(anchor_rows(
        &shown,
        &world,
        app.designated(),
        what_if,
        width,
    ));
    if what_if {
        let name = shown.get(k).map_or("?", String::as_str);
        lines.extend(wrap(
            &format!(
                "what-if: {name} trusted as clean (ρ 0) is the world the estimates pane reads; 0 goes back to it"
            ),
            2,
        ));
    }
    let arcs = family.arcs.len();
    let kind = basis.kind();
    lines.extend(wrap(
        &if arcs > 1 {
            format!("each ρ's range over the {arcs} arcs of worlds{kind} (h/l moves along one):")
        } else {
            format!("each ρ's range over the worlds the data allow{kind}:")
        },
        2,
    ));
    for (i, name) in shown.iter().enumerate() {
        let Some((a, b)) = family.range(i) else {
            continue;
        };
        let per_arc: Vec<String> = family
            .arcs
            .iter()
            .map(|x| format!("{:.2} to {:.2}", x.rho[i].0, x.rho[i].1))
            .collect();
        let text = if arcs > 1 {
            format!("{name}: {a:.2} to {b:.2} (arcs: {})", per_arc.join("; "))
        } else {
            format!("{name}: {a:.2} to {b:.2}")
        };
        lines.extend(wrap(&format!("  {text}"), 4));
    }
    lines.extend(wrap(
        "h/l: worlds the data cannot tell apart; every ρ moves together · 0: back to 0 · j/k: scroll",
        2,
    ));
    Some(lines)
}

/// One row per anchor: its name (elided alike), its ρ in the slider's world, and the trusted
/// anchor's mark ("trusted" at 0, "what-if" off it).
fn anchor_rows(
    shown: &[String],
    world: &[f64],
    designated: Option<usize>,
    what_if: bool,
    width: usize,
) -> Vec<Line<'static>> {
    let name_w = width.saturating_sub(2 + 9).max(4);
    let elided = crate::tui::widgets::elide_distinct(shown, name_w);
    let longest = elided
        .iter()
        .map(|n| crate::tui::widgets::cells(n))
        .max()
        .unwrap_or(0);
    elided
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let trusted = match (designated == Some(i), what_if) {
                (false, _) => "",
                (true, false) => " trusted",
                (true, true) => " what-if",
            };
            let name = crate::tui::widgets::fit_cells(name, longest);
            // No "-0.00": the trusted anchor's ρ is 0 up to the bisection's last digit.
            let rho = if world[i].abs() < 0.005 {
                0.0
            } else {
                world[i]
            };
            Line::raw(format!("  {name} ρ {rho:>5.2}{trusted}"))
        })
        .collect()
}

/// The one slider's line: label, a bar when there is room, and the value at the right edge,
/// never cut (the label gives way first).
fn slider_line(label: &str, (lo, hi, at): (f64, f64, f64), width: usize) -> Line<'static> {
    let value = format!("{at:>6.2}");
    let room = width.saturating_sub(2 + 1 + value.chars().count());
    let label = crate::error::clip(label, room);
    let bar_w = room.saturating_sub(label.chars().count() + 1).min(24);
    let frac = if hi > lo { (at - lo) / (hi - lo) } else { 0.0 };
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "fraction in [0, 1]"
    )]
    let filled = ((frac * bar_w as f64).round() as usize).min(bar_w);
    let bar = if bar_w >= 3 {
        format!("{}{}", "█".repeat(filled), "░".repeat(bar_w - filled))
    } else {
        String::new()
    };
    let left = format!("{label} {bar}");
    let pad = room.saturating_sub(left.chars().count());
    Line::raw(format!("▸ {left}{} {value}", " ".repeat(pad)))
}

/// The two-worlds talk scene's estimates pane: two worlds of the family its panel allows (the
/// first two anchors that can be clean, each clean in one), every anchor's ρ in each, and
/// each anchor's range over the family; all from the family traced when the scene opened.
#[must_use]
pub fn worlds_lines(app: &App, width: usize) -> Option<Vec<Line<'static>>> {
    let crate::tui::app::Mode::Demo(i) = app.mode else {
        return None;
    };
    if !matches!(
        app.scenes.get(i)?.setup,
        crate::tui::scenes::Setup::Worlds { .. }
    ) {
        return None;
    }
    let wrap = |text: &str| -> Vec<Line<'static>> {
        crate::tui::widgets::wrap_words(text, width.max(8))
            .into_iter()
            .map(Line::raw)
            .collect()
    };
    let names: Vec<String> = app
        .panel
        .as_deref()?
        .anchors
        .iter()
        .map(|n| crate::error::sanitize(n))
        .collect();
    let family = match app.worlds.as_deref()? {
        Ok((_, family)) => family,
        Err(why) => return Some(wrap(why)),
    };
    let shown = |r: f64| format!("{:.2}", if r.abs() < 0.005 { 0.0 } else { r });
    let mut lines = wrap("two worlds, the same latent correlations:");
    let clean = (0..names.len()).filter_map(|k| family.if_clean(k).map(|w| (k, w)));
    for (n, (k, world)) in clean.take(2).enumerate() {
        let rho: Vec<String> = world.iter().map(|r| shown(*r)).collect();
        lines.extend(wrap(&format!(
            "world {}: {} clean, ρ = ({})",
            n + 1,
            names[k],
            rho.join(", ")
        )));
    }
    lines.extend(wrap("each ρ over every world the data allow:"));
    for (k, name) in names.iter().enumerate() {
        if let Some((a, b)) = family.range(k) {
            lines.extend(wrap(&format!("  {name}: {} to {}", shown(a), shown(b))));
        }
    }
    Some(lines)
}
