//! The configuration pane: the paper's decision table with this panel's row highlighted,
//! what is available and what is left unguarded, and live operating characteristics for
//! this configuration (power at strengths 0.4 and 0.6, expected CI width).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::battery::decision::{Idle, TABLE};
use crate::plan::Target;
use crate::power::SUMMARY_STRENGTHS;
use crate::tui::action::Pane;
use crate::tui::app::{App, PLAN_TARGET};
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::flow;

/// The planner's answer for the configuration on screen: the N at which every ρ_k's 95 %
/// interval is [`PLAN_TARGET`] wide on average, with its Monte-Carlo error.
fn plan_lines(app: &App, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let Target::CiWidth(w) = PLAN_TARGET else {
        return Vec::new();
    };
    if app.study.is_none() {
        return Vec::new();
    }
    let lead = format!("N for every 95% CI ≤ {w} wide:");
    let (items, style) = match app.plan_of_screen() {
        None => (vec![lead, "computing…".into()], theme.dim()),
        Some(Err(why)) => (vec![lead, why.clone()], theme.dim()),
        Some(Ok(plan)) => match plan.n {
            Some(n) => {
                let mut items = vec![lead, format!("N ≈ {n}")];
                let at = plan.evaluations.iter().find(|e| e.n == n);
                if let Some((v, se)) = at.and_then(|e| e.value.map(|v| (v, e.mc_se))) {
                    items.push(format!("(width {v:.3} ± {se:.3} MC SE;"));
                    items.push("rhoscope plan)".into());
                }
                (items, Style::new())
            }
            None => (
                vec![
                    lead,
                    format!(
                        "not reached by N = {}",
                        crate::plan::PlanOptions::default().max_n
                    ),
                ],
                Style::new(),
            ),
        },
    };
    flow(&items, " ", width)
        .into_iter()
        .map(|l| Line::styled(l, style))
        .collect()
}

/// The failure modes left unguarded, each test's with the reason it cannot run as the
/// battery gives it (its own applicability rule, or a null it could not calibrate), not the
/// table's generic wording.
fn unguarded(app: &App, d: &crate::battery::decision::Decision) -> Vec<String> {
    use crate::battery::{Layout, TestId, Verdict};
    let layout = app.panel.as_deref().map(Layout::of);
    let report = app.battery.as_deref().filter(|_| !app.battery_stale());
    let why = |t: TestId, reason: &str| {
        let text = t.spec().unguarded;
        let head = text.split_once(" (no ").map_or(text, |(h, _)| h);
        format!(
            "{head} (no Test {}: {})",
            t.name(),
            reason.trim_end_matches('.')
        )
    };
    let mut out: Vec<String> = d
        .unguarded
        .iter()
        .map(|u| {
            let test = TestId::ALL.into_iter().find(|t| t.spec().unguarded == u);
            let reason = test
                .zip(layout.as_ref())
                .and_then(|(t, l)| t.applicable(l).err().map(|e| why(t, &e.0)));
            reason.unwrap_or_else(|| u.clone())
        })
        .collect();
    // A test the table counts on that the battery could not run here (no calibrated null).
    if let Some(r) = report {
        let extra = TestId::ALL.into_iter().filter(|&t| {
            r.tests[t].verdict == Verdict::NotApplicable
                && !d.unguarded.iter().any(|u| {
                    u == t.spec().unguarded || u.contains(&format!("(no Test {}", t.name()))
                })
        });
        let at = out.len().saturating_sub(2).min(out.len());
        let extra: Vec<String> = extra.map(|t| why(t, &r.tests[t].message)).collect();
        out.splice(at..at, extra);
    }
    // A reason may name a setting: in the explorer's keys.
    out.iter()
        .map(|u| crate::wording::reword(u, &crate::tui::text::Keys).into_owned())
        .collect()
}

/// This panel's row, whole (it wraps), what it means for this panel, and what it leaves
/// unguarded.
fn row_lines(
    app: &App,
    d: &crate::battery::decision::Decision,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    // Broken before the dash where it does not fit, as the other rows are.
    // A row's tests that cannot run on this panel (too few judges for J, say) are not
    // offered by it: when none can, the row says so.
    let idle = app
        .battery
        .as_deref()
        .map_or(Idle::None, |r| d.idle(&r.reading.evidence));
    // Where the row does not fit the pane's one line, its spaces after ≥ and ≳ go first, so
    // that 80×24 shows it whole ("N ≳ 10⁴", not "N ≳").
    let whole = format!("▸ {}", d.row.configuration);
    let row = if whole.chars().count() > width {
        whole.replace("≥ ", "≥").replace("≳ ", "≳")
    } else {
        whole
    };
    let parts = [
        row,
        match idle {
            Idle::All => format!("— {} (none can run on this panel)", d.row.diagnostics),
            Idle::Some(names) => format!(
                "— {} ({} N/A on this panel)",
                d.row.diagnostics,
                names.join(", ")
            ),
            Idle::None => format!("— {}", d.row.diagnostics),
        },
    ];
    lines.extend(
        crate::tui::widgets::flow(&parts, " ", width)
            .into_iter()
            .map(|t| Line::from(Span::styled(t, theme.highlight()))),
    );
    // The panel's own count of anchors and why it identifies nothing: first, as it is the
    // point on this panel, in view at 80×24 before the row's list.
    if let (Some(why), Some(p)) = (&d.refusal, app.panel.as_deref())
        && p.m() < 2
    {
        lines.push(Line::styled(format!("this panel: {why}"), theme.warn()));
    }
    // What runs here, as the battery settled it: the list `battery` prints.
    let offer = match (app.battery.as_deref(), app.panel.as_deref()) {
        (Some(r), Some(p)) => {
            crate::battery::phrase::row_and_panel(&d.available, &r.reading, &p.anchors)
        }
        _ => format!("the row offers {}.", d.available.join("; ")),
    };
    // One line, as the row's list always was: what reads here leads, the list may be cut.
    lines.push(Line::raw(offer));
    let n = app.panel.as_ref().map_or(0, |p| p.n);
    if d.row.configuration.contains("10⁴") && n < 10_000 {
        lines.push(Line::styled(
            format!("this panel has N = {n}, below the row's N ≳ 10⁴: expect low power"),
            theme.warn(),
        ));
    }
    // Wrapped, so that each gap's reason is read whole at every size.
    let gaps = format!("unguarded: {}", unguarded(app, d).join("; "));
    lines.extend(
        crate::tui::widgets::flow(&[gaps], " ", width)
            .into_iter()
            .map(Line::raw),
    );
    lines
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    // Frozen, j/k scroll only the focused pane: no hint for a key that would be refused.
    let extra = if app.frozen && app.focus != Pane::Config {
        "decision table, §6"
    } else {
        "decision table, §6 · j/k"
    };
    let block = pane_block(Pane::Config, app, theme, extra, area);
    let current = app.battery.as_ref().map(|b| &b.decision);
    let width = usize::from(area.width.saturating_sub(2));
    let mut lines: Vec<Line> = Vec::new();
    match app.power_summary() {
        Some(s) => {
            let parts: Vec<String> = s
                .power
                .iter()
                .map(|(t, p)| {
                    let n = t.name();
                    p.map_or(format!("{n} n/a"), |(a, b)| format!("{n} {a:.2}/{b:.2}"))
                })
                .collect();
            let [s1, s2] = SUMMARY_STRENGTHS;
            let mut items = vec![format!(
                "power at N = {}, strength {s1}/{s2} ({} reps):",
                app.scenario.n(),
                s.reps
            )];
            items.extend(parts);
            lines.extend(flow(&items, "  ", width).into_iter().map(Line::raw));
            let widths: Vec<String> = s
                .ci_width
                .iter()
                .map(|w| w.map_or("—".into(), |w| format!("{w:.2}")))
                .collect();
            lines.push(Line::raw(format!(
                "expected 95% CI width of each ρ: {}",
                widths.join(", ")
            )));
        }
        None if app.study.is_some() => {
            lines.push(Line::styled(
                "power and CI width for this configuration: computing…",
                theme.dim(),
            ));
        }
        None => {}
    }
    lines.extend(plan_lines(app, width, theme));
    // This panel's row, whole (it wraps); then the rest of the table, for reference, each row
    // whole too: the diagnostics in a column of their own where the pane is wide enough for
    // every row, else each wrapped under its configuration after a dash (one layout for all
    // rows, so that no row reads as a different kind of line).
    if let Some(d) = current {
        lines.extend(row_lines(app, d, width, theme));
    }
    let width = usize::from(area.width.saturating_sub(4));
    let one = |row: &crate::battery::decision::Row| {
        format!("{:<46} {}", row.configuration, row.diagnostics)
    };
    let columns = TABLE.iter().all(|row| one(row).chars().count() <= width);
    for row in &TABLE {
        if current.is_some_and(|d| d.row == *row) {
            continue;
        }
        let text = if columns {
            vec![one(row)]
        } else {
            crate::tui::widgets::flow(
                &[
                    row.configuration.to_string(),
                    format!("— {}", row.diagnostics),
                ],
                " ",
                width,
            )
        };
        lines.extend(
            text.into_iter()
                .map(|t| Line::styled(format!("  {t}"), theme.dim())),
        );
    }
    // Last: why a file's pane has no live numbers (they need a model to simulate from).
    if matches!(app.source, crate::tui::app::Source::File(_)) {
        lines.push(Line::styled(
            "power, CI widths and the planner: for simulated scenarios (a preset)",
            theme.dim(),
        ));
    }
    let paragraph = Paragraph::new(lines)
        .block(block)
        .wrap(Wrap { trim: false });
    let i = Pane::Config;
    frame.render_widget(
        crate::tui::widgets::scroll_wrapped(paragraph, app.scroll[i], area, &app.scroll_end[i]),
        area,
    );
}
