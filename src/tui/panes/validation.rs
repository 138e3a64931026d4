//! The recovery table of a validation study (Section 7, "Validation on real rater
//! textures"; [`crate::validate`]), drawn in the estimates pane after `V`: mean ± SD of each
//! ρ̂ under each injected ρ, then per estimator its RMSE, CI coverage, ordering and
//! inadmissible share, then the battery's false positives. Every line is broken between whole
//! items, so a number is never split or clipped.

use std::fmt::Write as _;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::battery::TestId;
use crate::estimate::Estimator;
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::{flow, wrap_words};
use crate::validate::{Cell, Study};

/// A short name that fits the table's first column.
fn short(e: Estimator) -> &'static str {
    e.short()
}

/// An injected ρ as typed: `0`, `0.4`, `0.75`.
fn short_number(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

fn two(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map_or_else(|| "—".into(), |v| format!("{v:.2}"))
}

/// Draws the validation study of the data on screen (or why it could not run) in the
/// estimates pane's `area`, scrolled as the pane is; false when there is none to show.
pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) -> bool {
    let block = pane_block(
        Pane::Estimates,
        app,
        theme,
        "validation · j/k · V back",
        area,
    );
    if let Some(why) = app.validation_failure() {
        frame.render_widget(
            Paragraph::new(format!("cannot validate this panel: {why}"))
                .block(block)
                .wrap(Wrap { trim: true }),
            area,
        );
        return true;
    }
    let Some(study) = app.study_of_screen().filter(|_| app.showing_validation()) else {
        return false;
    };
    let width = usize::from(area.width.saturating_sub(2));
    let lines = lines(study, width, theme);
    let offset = crate::tui::widgets::clamp_scroll(
        app.scroll[Pane::Estimates],
        lines.len(),
        area.height.saturating_sub(2),
        &app.scroll_end[Pane::Estimates],
    );
    frame.render_widget(Paragraph::new(lines).block(block).scroll((offset, 0)), area);
    true
}

/// The lines of `study` for a pane `width` characters wide.
#[must_use]
pub fn lines(study: &Study, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for cell in &study.cells {
        cell_lines(study, cell, width, theme, &mut out);
    }
    out
}

fn cell_lines(
    study: &Study,
    cell: &Cell,
    width: usize,
    theme: Theme,
    out: &mut Vec<Line<'static>>,
) {
    let head = format!(
        "mean ± SD of ρ̂ over {} synthetic panels of N = {}{} built on these judges' own textures, with continuous synthetic anchors (not the file's anchors)",
        cell.reps,
        cell.n,
        if cell.n == study.panel_n {
            " (the file's)"
        } else {
            ""
        },
    );
    for l in wrap_words(&head, width) {
        out.push(Line::styled(l, theme.dim()));
    }
    let label_w = study
        .estimators
        .iter()
        .map(|e| short(*e).chars().count())
        .max()
        .unwrap_or(5);
    let cells: Vec<Vec<String>> = cell
        .estimators
        .iter()
        .map(|r| {
            r.anchors
                .iter()
                .map(|a| match (a.mean, a.sd) {
                    (Some(m), Some(s)) => format!("{m:.2}±{s:.2}"),
                    (Some(m), None) => format!("{m:.2}"),
                    _ => "undef".into(),
                })
                .collect()
        })
        .collect();
    let heads: Vec<String> = cell
        .estimators
        .first()
        .map(|r| {
            r.anchors
                .iter()
                .map(|a| format!("ρ={}", short_number(a.injected)))
                .collect()
        })
        .unwrap_or_default();
    let col_w = cells
        .iter()
        .flatten()
        .chain(&heads)
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(5);
    let table_w = label_w + heads.len() * (col_w + 1);
    if table_w <= width {
        let row = |label: &str, items: &[String]| {
            let mut s = format!("{label:<label_w$}");
            for it in items {
                let _ = write!(s, " {it:>col_w$}");
            }
            s
        };
        out.push(Line::styled(
            row("", &heads),
            ratatui::style::Style::new().add_modifier(ratatui::style::Modifier::BOLD),
        ));
        for (r, c) in cell.estimators.iter().zip(&cells) {
            out.push(Line::raw(row(short(r.estimator), c)));
        }
    } else {
        // Too narrow for a table: one flowed line per estimator.
        for (r, c) in cell.estimators.iter().zip(&cells) {
            let items: Vec<String> = std::iter::once(format!("{}:", short(r.estimator)))
                .chain(heads.iter().zip(c).map(|(h, v)| format!("{h} {v}")))
                .collect();
            out.extend(flow(&items, " · ", width).into_iter().map(Line::raw));
        }
    }
    detail_lines(cell, width, theme, out);
}

/// Per estimator its RMSE, coverage, ordering and inadmissible share; then the battery's
/// false alarms.
fn detail_lines(cell: &Cell, width: usize, theme: Theme, out: &mut Vec<Line<'static>>) {
    for r in &cell.estimators {
        if r.anchors.iter().all(|a| a.defined == 0) {
            let line = format!(
                "{}: undefined in all {} runs, because it never gave a ρ̂ (so no RMSE, no coverage)",
                short(r.estimator),
                cell.reps
            );
            out.extend(flow(&[line], " · ", width).into_iter().map(Line::raw));
            continue;
        }
        let rmse: Vec<String> = r.anchors.iter().map(|a| two(a.rmse)).collect();
        let mut items = vec![
            format!("{}: RMSE {}", short(r.estimator), rmse.join(" ")),
            format!("ordered in {}/{} runs", r.ordered, cell.reps),
            format!("means {}ordered", if r.ordered_means { "" } else { "NOT " }),
        ];
        if r.anchors.iter().any(|a| a.coverage.is_some()) {
            let cov: Vec<String> = r.anchors.iter().map(|a| two(a.coverage)).collect();
            items.insert(1, format!("95% CI coverage {}", cov.join(" ")));
        }
        if r.inadmissible > 0 {
            items.push(format!("inadmissible {}/{}", r.inadmissible, cell.reps));
        }
        out.extend(flow(&items, " · ", width).into_iter().map(Line::raw));
    }
    let fp: Vec<String> = TestId::ALL
        .into_iter()
        .filter_map(|t| cell.false_positives[t].map(|(k, of)| format!("{} {k}/{of}", t.name())))
        .collect();
    if !fp.is_empty() {
        let mut items = fp;
        items[0] = format!("false alarms (the model holds): {}", items[0]);
        if let Some(any) = cell.any_fired {
            items.push(format!("any {any}/{}", cell.reps));
        }
        let style = if cell.any_fired.unwrap_or(0) > 0 {
            theme.warn()
        } else {
            ratatui::style::Style::new()
        };
        out.extend(
            flow(&items, " · ", width)
                .into_iter()
                .map(|l| Line::styled(l, style)),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::widgets::flow;

    #[test]
    fn flow_breaks_between_items_only() {
        let items: Vec<String> = ["Thm 1: RMSE 0.14 0.06 0.03", "ordered in 24/24 runs", "x"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let l = flow(&items, " · ", 30);
        assert_eq!(
            l,
            vec![
                "Thm 1: RMSE 0.14 0.06 0.03".to_string(),
                "  ordered in 24/24 runs · x".to_string()
            ]
        );
        for w in 8..40 {
            for line in flow(&items, " · ", w) {
                assert!(line.chars().count() <= w, "{line:?} wider than {w}");
            }
        }
    }
}
