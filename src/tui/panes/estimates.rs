//! The estimates pane: ρ̂_k with its bootstrap CI beside the true ρ_k as a marker plot,
//! σ̂_t² and σ̂_c², flags with their meaning, and the blocked and designated-clean estimates.

use crate::tui::text::Keys;
use crate::wording::reword;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use crate::estimate::{Estimate, Estimator};
use crate::tui::action::Pane;
use crate::tui::app::{App, Source};
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::marker_line;

mod comparisons;

use comparisons::{comparison_lines, num};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    if super::validation::render(frame, area, app, theme) {
        return;
    }
    let width = usize::from(area.width.saturating_sub(2));
    // The worlds of a talk scene draw no marker; a scene without a panel draws nothing.
    if let Some(lines) = crate::tui::trust::worlds_lines(app, width) {
        let block = pane_block(Pane::Estimates, app, theme, "", area);
        render_text(frame, area, app, Paragraph::new(lines).block(block));
        return;
    }
    let legend = match app.source {
        Source::Scenario if app.panel.is_some() => "● estimate ═ 95% CI ◆ truth",
        Source::Scenario => "",
        Source::File(_) => "● estimate ═ 95% CI", // a real panel has no truth to mark
    };
    let block = pane_block(Pane::Estimates, app, theme, legend, area);
    let Some((fits, e)) = app
        .fit
        .as_ref()
        .and_then(|f| f.closed_form().map(|e| (f, e)))
    else {
        render_unfitted(frame, area, app, theme, block);
        return;
    };
    let truth = match app.source {
        Source::Scenario => Some(app.scenario.params()),
        Source::File(_) => None,
    };
    let stale = app.battery_stale();
    let read = app.battery.as_deref().filter(|_| !stale);
    let boot = read.and_then(|b| b.boot());
    let names = app
        .panel
        .as_ref()
        .map(|p| p.anchors.clone())
        .unwrap_or_default();
    let judges: Vec<String> = app
        .panel
        .as_ref()
        .map_or_else(Vec::new, |p| p.judges.clone());
    let truths: Vec<Option<f64>> = (0..e.anchors.len())
        .map(|k| truth.as_ref().and_then(|p| p.rho.get(k).copied()))
        .collect();
    // The marker rows show the estimate the reading names, with its intervals; the closed
    // form is then one of the comparisons below.
    let lead = lead(app, fits);
    let mut lines = head_lines(app, lead.as_ref().map(|l| l.0), &names, theme);
    let head = lines.len();
    let (shown, shown_boot) = lead.as_ref().map_or((e, boot), |(_, le, lb)| (*le, *lb));
    let rows = (truths.as_slice(), read.and_then(|r| r.reading.assumed()));
    lines.extend(anchor_lines(
        shown, shown_boot, rows, &names, stale, width, theme,
    ));
    // The moments of the estimate the rows show, named by fit when another leads; a
    // scenario's truth is on the closed form's scale, so it stands beside the closed form only.
    let truth_beside = truth.as_ref().filter(|_| lead.is_none());
    let led = lead.as_ref().map(|(l, _, _)| *l);
    let fit = (led, app.designated());
    lines.extend(moment_lines(shown, truth_beside, fit, &names, width));
    // A real panel's judges load as they do; the walkthrough's Test J step points here, so
    // it comes before the votes line, in view at 80×24 under a no-read line.
    if matches!(app.source, Source::File(_))
        && let Some(l) = crate::tui::readout::loadings(Some(fits), app.battery.as_deref())
        && let Some(p) = app.panel.as_deref()
    {
        lines.push(Line::raw(crate::tui::readout::loading_line(p, &l, width)));
    }
    lines.extend(neff_line(app, stale, width));
    // The closed form's flags, named as its own when another estimate leads.
    let whose = if lead.is_some() { "closed form " } else { "" };
    for f in &e.flags {
        lines.push(Line::styled(
            format!(
                "{whose}FLAG {}: {}",
                f.code.as_str(),
                reword(&f.message(e, &names, &judges), &Keys).into_owned()
            ),
            theme.warn(),
        ));
    }
    let (comparisons, pointed) = comparison_lines(app, fits, stale, &names, led);
    lines.extend(comparisons);
    if let Some(line) = pointed {
        lines.insert(head + shown.anchors.len(), line);
    }
    let paragraph = Paragraph::new(lines)
        .block(block)
        .wrap(Wrap { trim: false });
    let i = Pane::Estimates;
    frame.render_widget(
        crate::tui::widgets::scroll_wrapped(paragraph, app.scroll[i], area, &app.scroll_end[i]),
        area,
    );
}

/// The pane with no closed form (every column ordinal): the fit the reading names, if the
/// battery read one (a trusted anchor), else why there is none.
fn render_unfitted(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    theme: Theme,
    block: Block<'static>,
) {
    if let Some(lines) = battery_read_lines(app, area, theme) {
        let (i, p) = (Pane::Estimates, Paragraph::new(lines).block(block));
        let p = p.wrap(Wrap { trim: false });
        let shown = crate::tui::widgets::scroll_wrapped(p, app.scroll[i], area, &app.scroll_end[i]);
        frame.render_widget(shown, area);
        return;
    }
    let names = app
        .panel
        .as_ref()
        .map(|p| p.anchors.clone())
        .unwrap_or_default();
    let mut lines: Vec<Line<'static>> = crate::tui::trust::unread_line(app, &names, theme)
        .into_iter()
        .collect();
    lines.push(Line::raw(no_estimate(app)));
    render_text(frame, area, app, Paragraph::new(lines).block(block));
}

/// The lines above the marker rows: the estimate they show when another than the closed
/// form leads, why a trusted anchor gives none, or, in one short line, why no ρ̂ reads.
fn head_lines(
    app: &App,
    lead: Option<Estimator>,
    names: &[String],
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(l) = lead {
        lines.push(Line::styled(
            format!("read: {}", crate::tui::trust::lead_label(app, l, names)),
            theme.highlight(),
        ));
    }
    lines.extend(crate::tui::trust::unread_line(app, names, theme));
    lines.extend(no_read_line(app, names, theme));
    lines
}

/// The reading's answer when it reads no ρ̂ and no anchor is trusted (a trusted anchor's
/// line says it), in a few words: the rows below are the raw fit, not an answer, and the
/// battery's full view gives each reason whole.
fn no_read_line(app: &App, names: &[String], theme: Theme) -> Option<Line<'static>> {
    let r = app.battery.as_deref().filter(|_| !app.battery_stale())?;
    if r.reading.answer.read.is_some() || app.designated().is_some() {
        return None;
    }
    let mut why: Vec<String> = Vec::new();
    for o in &r.reading.answer.obstacles {
        let said = crate::tui::trust::short_obstacle(o, names);
        if !why.contains(&said) {
            why.push(said);
        }
    }
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(": {}", why.join("; "))
    };
    Some(Line::styled(format!("no ρ̂ to read{why}"), theme.warn()))
}

/// Why the pane has no estimate to show: the decision table's refusal for the panel, or
/// that there is no panel or fit yet.
fn no_estimate(app: &App) -> String {
    app.panel
        .as_ref()
        // The table's own reason: the explorer has no command to send the user to.
        .and_then(|p| {
            use crate::battery::decision::{Configuration, decide};
            decide(&Configuration::of(p))
                .refusal
                .map(|r| reword(&r, &Keys).into_owned())
        })
        .unwrap_or_else(|| match app.mode {
            crate::tui::app::Mode::Demo(_) if app.panel.is_none() => {
                "no panel in this scene (the caption says why)".into()
            }
            // A large file takes seconds to read: no claim about its roles meanwhile.
            _ if matches!(&app.source, crate::tui::app::Source::File(f) if f.loading) => {
                "reading the panel…".into()
            }
            _ => "no estimate yet (ρ needs ≥ 2 judges and ≥ 2 anchors)".into(),
        })
}

/// The estimate the battery's reading names when the explorer fits no closed form (every
/// column ordinal, one anchor trusted): its name, its marker rows with intervals, its
/// moments and flags, from the same fit the walkthrough and the battery read.
fn battery_read_lines(app: &App, area: Rect, theme: Theme) -> Option<Vec<Line<'static>>> {
    let r = app.battery.as_deref().filter(|_| !app.battery_stale())?;
    let e = r.reading.answer.read?;
    let fit = r.fit(e)?;
    let names = app.panel.as_ref()?.anchors.clone();
    let judges = app.panel.as_ref()?.judges.clone();
    let width = usize::from(area.width.saturating_sub(2));
    let mut lines = vec![Line::styled(
        format!("read: {}", crate::tui::trust::lead_label(app, e, &names)),
        theme.highlight(),
    )];
    let truths = vec![None; fit.estimate.anchors.len()];
    lines.extend(anchor_lines(
        &fit.estimate,
        Some(&fit.boot),
        (&truths, r.reading.assumed()),
        &names,
        false,
        width,
        theme,
    ));
    lines.extend(moment_lines(
        &fit.estimate,
        None,
        (Some(e), app.designated()),
        &names,
        width,
    ));
    lines.extend(neff_line(app, false, width));
    for f in &fit.estimate.flags {
        lines.push(Line::styled(
            format!(
                "FLAG {}: {}",
                f.code.as_str(),
                reword(&f.message(&fit.estimate, &names, &judges), &Keys).into_owned()
            ),
            theme.warn(),
        ));
    }
    Some(lines)
}

/// The effective number of judges of the last battery ([`crate::neff`]); while a new one
/// runs, the old value without its interval.
fn neff_line(app: &App, stale: bool, width: usize) -> Option<Line<'static>> {
    let b = app.battery.as_ref()?;
    let mut n = b.n_eff.clone();
    if stale {
        n.boot = None;
    }
    let mut text = crate::report::neff::sentence(&n);
    if stale {
        text.push_str(" […]");
    }
    // Narrow panes: "votes" alone, so the interval is never split across lines.
    if text.chars().count() > width {
        text = text.replacen(" independent vote", " vote", 1);
    }
    Some(Line::raw(text))
}

/// The estimate the battery's reading names, when it is not the closed form and the
/// explorer fits it: its estimator, its fit and its intervals (the marker rows show them).
fn lead<'a>(
    app: &'a App,
    fits: &'a crate::estimate::Fits,
) -> Option<(
    Estimator,
    &'a Estimate,
    Option<&'a crate::bootstrap::BootstrapResult>,
)> {
    let r = app.battery.as_deref().filter(|_| !app.battery_stale())?;
    let e = r
        .reading
        .answer
        .read
        .filter(|e| *e != Estimator::ClosedForm)?;
    // The designated-clean latent fit is the battery's alone (the explorer does not fit it).
    let fit = fits.estimate(e).or_else(|| r.fit(e).map(|f| &f.estimate))?;
    Some((e, fit, r.fit(e).map(|f| &f.boot)))
}

/// σ̂_t², σ̂_c², K and the denominator (and the truth of a scenario), each label beside its
/// number however the line wraps.
fn moment_lines(
    e: &Estimate,
    truth: Option<&crate::model::Params>,
    (fit, designated): (Option<Estimator>, Option<usize>),
    names: &[String],
    width: usize,
) -> Vec<Line<'static>> {
    let mut items: Vec<String> = fit
        .map(|f| format!("{}:", crate::tui::reading::pane_label(f, names, designated)))
        .into_iter()
        .collect();
    items.extend([
        format!("σ̂_t² {}", num(Some(e.sigma_t2))),
        format!("σ̂_c² {}", num(Some(e.sigma_c2))),
        format!("K {}", num(Some(e.k))),
        format!("den {}", num(Some(e.denominator))),
    ]);
    // Proposition 1: a uniform second factor adds g·h to the σ_t² the closed form sees.
    if let Some(p) = truth {
        items.push(format!(
            "(true σ_t² {:.2}, σ_c² {:.2})",
            p.sigma_t2, p.sigma_c2
        ));
    }
    crate::tui::widgets::flow(&items, "  ", width)
        .into_iter()
        .map(Line::raw)
        .collect()
}

/// The pane's one text, scrolled like the rest: its length, not an earlier panel's, says
/// whether more is below.
fn render_text(frame: &mut Frame<'_>, area: Rect, app: &App, paragraph: Paragraph<'_>) {
    let (i, paragraph) = (Pane::Estimates, paragraph.wrap(Wrap { trim: true }));
    let shown =
        crate::tui::widgets::scroll_wrapped(paragraph, app.scroll[i], area, &app.scroll_end[i]);
    frame.render_widget(shown, area);
}

/// One line per anchor: name, marker plot, ρ̂ with its interval, and the truth when known.
/// The numbers come first: the plot is dropped before the name is elided, and the name
/// elided before a number is cut.
fn anchor_lines(
    e: &Estimate,
    boot: Option<&crate::bootstrap::BootstrapResult>,
    (truths, assumed): (&[Option<f64>], Option<usize>),
    names: &[String],
    stale: bool,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let shown: Vec<String> = names.iter().map(|n| crate::error::sanitize(n)).collect();
    let longest = shown
        .iter()
        .map(|n| crate::tui::widgets::cells(n))
        .max()
        .unwrap_or(0);
    // Each row's numbers, then one layout for every row: the rows share the name column and
    // the plot's axis (its zero and its scale), however long each row's numbers are.
    let rows: Vec<(
        Option<crate::bootstrap::Interval>,
        Option<f64>,
        String,
        String,
    )> = e
        .anchors
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let t = truths.get(k).copied().flatten();
            if assumed == Some(k) {
                return (None, t, " ρ = 0 (assumed)".to_string(), String::new());
            }
            let ci = boot.and_then(|b| crate::battery::RhoInterval::of(a.rho, b, k).interval());
            let ci_text = ci.map_or_else(
                || if stale { "[…]" } else { "[—]" }.to_string(),
                |c| format!("[{:.2}, {:.2}]", c.lo, c.hi),
            );
            let numbers = format!(" ρ̂ {} {ci_text}", num(a.rho));
            let truth_text = t.map(|t| format!(" ◆{t:.2}")).unwrap_or_default();
            (ci, t, numbers, truth_text)
        })
        .collect();
    // The numbers first, then the name, then the plot: the plot is dropped before the name
    // is elided, and the name elided before a number is cut.
    let tail = rows
        .iter()
        .map(|(_, _, n, t)| n.chars().count() - 1 + t.chars().count())
        .max()
        .unwrap_or(0);
    let room = width.saturating_sub(tail);
    let plot_w = room.saturating_sub(longest + 2).min(41);
    let (name_w, plot_w) = if plot_w >= 9 {
        (longest, plot_w)
    } else {
        (longest.min(room.saturating_sub(1)).max(4), 0)
    };
    let elided = crate::tui::widgets::elide_distinct(&shown, name_w);
    let mut lines: Vec<Line> = Vec::new();
    for ((a, (ci, t, numbers, truth_text)), name) in e.anchors.iter().zip(rows).zip(elided) {
        // By cells: a wide (CJK) name never pushes the interval onto the next line.
        let name = crate::tui::widgets::fit_cells(&name, name_w);
        let mut spans = vec![Span::raw(format!("{name} "))];
        if plot_w > 0 {
            spans.push(Span::raw(marker_line(
                a.rho,
                ci.map(|c| (c.lo, c.hi)),
                t,
                plot_w,
            )));
        }
        spans.push(Span::raw(numbers));
        if !truth_text.is_empty() {
            spans.push(Span::styled(truth_text, theme.truth()));
        }
        lines.push(Line::from(spans));
    }
    // An interval past ±1 is said, as the command line says it (trial 43, finding 14).
    for ((a, name), k) in e.anchors.iter().zip(&shown).zip(0..) {
        if let Some(crate::battery::RhoInterval::Shown {
            past_unit: true, ..
        }) = boot.map(|b| crate::battery::RhoInterval::of(a.rho, b, k))
        {
            lines.push(Line::styled(
                format!(
                    "note: {name}'s interval {}.",
                    crate::battery::RhoInterval::PAST_UNIT
                ),
                theme.warn(),
            ));
        }
    }
    lines
}
