//! The configuration pane: the paper's decision table with this panel's row highlighted,
//! what is available and what is left unguarded, and live operating characteristics for
//! this configuration (power at strengths 0.4 and 0.6, expected CI width).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::decision::TABLE;
use crate::power::SUMMARY_STRENGTHS;
use crate::tui::action::Pane;
use crate::tui::app::{App, pane_index};
use crate::tui::theme::{Theme, pane_block};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let block = pane_block(Pane::Config, app, theme, "decision table, Section 6 · j/k");
    let current = app.battery.as_ref().map(|b| &b.decision);
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
            lines.push(Line::raw(format!(
                "power at N = {}, strength {s1}/{s2} ({} reps): {}",
                app.scenario.n(),
                s.reps,
                parts.join("  ")
            )));
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
    // This panel's row first, whole (it wraps), so it is never below the fold; then the
    // rest of the table, one clipped line a row, for reference.
    if let Some(d) = current {
        lines.push(Line::from(Span::styled(
            format!("▸ {} — {}", d.row.configuration, d.row.diagnostics),
            theme.highlight(),
        )));
        let n = app.panel.as_ref().map_or(0, |p| p.n);
        if d.row.configuration.contains("10⁴") && n < 10_000 {
            lines.push(Line::styled(
                format!("this panel has N = {n}, below the row's N ≳ 10⁴: expect low power"),
                theme.warn(),
            ));
        }
        lines.push(Line::raw(format!("unguarded: {}", d.unguarded.join("; "))));
    }
    let width = usize::from(area.width.saturating_sub(4));
    for row in &TABLE {
        if current.is_some_and(|d| d.row == *row) {
            continue;
        }
        let text = crate::error::clip(
            &format!("{:<46} {}", row.configuration, row.diagnostics),
            width,
        );
        lines.push(Line::styled(format!("  {text}"), theme.dim()));
    }
    let offset = crate::tui::ui::clamp_scroll(
        app.scroll[pane_index(Pane::Config)],
        lines.len(),
        area.height.saturating_sub(2),
    );
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((offset, 0)),
        area,
    );
}
