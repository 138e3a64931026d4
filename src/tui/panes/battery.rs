//! The battery pane: a row per test (A, B, C, weak-ID, out-of-range) with a verdict badge,
//! statistic against threshold, p-value and the statistic's history; then ρ̂_k's history.
//! While a rerun is under way the last result stays, dimmed and marked stale.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::battery::{TestId, Verdict};
use crate::bootstrap::WEAK_ID_T;
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::{badge, sparkline};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let stale = app.battery_stale();
    let extra = if app.computing() {
        "recomputing…"
    } else {
        "calibrated null, 1000 draws"
    };
    let block = pane_block(Pane::Battery, app, theme, extra);
    let Some(r) = &app.battery else {
        let text = if app.panel.is_some() {
            "running the battery…"
        } else {
            "no panel: open a preset or a file in the data pane"
        };
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    };
    let body = if stale { theme.dim() } else { Style::new() };
    let spark_w = usize::from(area.width.saturating_sub(58)).clamp(0, 30);
    let mut lines: Vec<Line> = Vec::new();
    for t in TestId::ALL {
        let res = &r.tests[t];
        let history: Vec<f64> = app.history.stats[t].iter().copied().collect();
        let hi = res.threshold.map_or(1.0, |th| th * 3.0).max(1e-9);
        let stat = match (res.statistic, res.threshold) {
            (Some(s), Some(th)) => format!("{s:.3} vs {th:.3}"),
            _ => "—".into(),
        };
        let p = res.p_value.map_or("—".into(), |p| format!("p {p:.3}"));
        lines.push(Line::from(vec![
            Span::styled(format!("Test {} ", t.name()), body),
            badge(res.verdict, stale, theme),
            Span::styled(format!("  {stat:<16} {p:<8} "), body),
            Span::styled(sparkline(&history, 0.0, hi, spark_w), theme.dim()),
        ]));
    }
    let weak = match r.weak_id {
        Some(w) => {
            let v = if w.flag {
                Verdict::Fires
            } else {
                Verdict::Pass
            };
            Line::from(vec![
                Span::styled("weak-ID ", body),
                badge(v, stale, theme),
                Span::styled(format!("  T = {:.2} (flag below {WEAK_ID_T})", w.t), body),
            ])
        }
        None => Line::from(vec![
            Span::styled("weak-ID ", body),
            badge(Verdict::NotApplicable, stale, theme),
        ]),
    };
    lines.push(weak);
    let flags = r.estimate().map_or(0, |e| e.flags.len());
    let v = if r.estimate().is_none() {
        Verdict::NotApplicable
    } else if flags > 0 {
        Verdict::Fires
    } else {
        Verdict::Pass
    };
    lines.push(Line::from(vec![
        Span::styled("range   ", body),
        badge(v, stale, theme),
        Span::styled(format!("  {flags} out-of-range flag(s)"), body),
    ]));
    for (k, h) in app.history.rho.iter().enumerate() {
        let h: Vec<f64> = h.iter().copied().collect();
        lines.push(Line::from(vec![
            Span::styled(format!("ρ̂_{} history ", k + 1), theme.dim()),
            Span::styled(sparkline(&h, -1.0, 1.0, spark_w.max(10)), theme.dim()),
        ]));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
