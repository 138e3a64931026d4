//! The battery pane: a row per registered test with a verdict badge, statistic against
//! threshold (significant digits enough to tell the sides apart), p-value and a sparkline of
//! the statistic over its own threshold; then weak-ID, range flags and ρ̂_k's history.
//! While a rerun is under way the last result stays, dimmed and marked stale. Sparklines
//! are dropped before any number is.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::battery::{TestId, Verdict};
use crate::bootstrap::WEAK_ID_T;
use crate::tui::action::Pane;
use crate::tui::app::{App, pane_index};
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::{badge, sig, sparkline, versus};

/// Sparklines of stat/threshold run on [0, 2]: the threshold (1) is the middle bar `▄`.
pub const SPARK_HI: f64 = 2.0;

/// The lines of the battery pane for a content width of `width`.
#[must_use]
pub fn lines(app: &App, theme: Theme, width: usize) -> Vec<Line<'static>> {
    let Some(r) = &app.battery else {
        return empty(app, width);
    };
    let stale = app.battery_stale();
    let body = if stale { theme.dim() } else { Style::new() };
    let mut lines: Vec<Line> = Vec::new();
    lines.push(Line::styled(
        format!(
            "{} null, {} draws · sparks: stat/threshold (▄ = 1)",
            r.null.kind, r.null.draws
        ),
        theme.dim(),
    ));
    for t in TestId::ALL {
        let res = &r.tests[t];
        let stat = match (res.statistic, res.threshold) {
            (Some(s), Some(th)) => {
                let (a, b) = versus(s, th);
                format!("{a} vs {b}")
            }
            (Some(s), None) => sig(s, 3),
            _ => "—".into(),
        };
        let p = res
            .p_value
            .map_or(String::new(), |p| format!("  p {}", sig(p, 2)));
        let head = format!("Test {} ", t.name());
        let badge = badge(res.verdict, stale, theme);
        let text = format!("  {stat}{p}");
        let used = head.chars().count() + badge.content.chars().count() + text.chars().count();
        let mut spans = vec![Span::styled(head, body), badge, Span::styled(text, body)];
        let room = width.saturating_sub(used + 2);
        if room >= 6 {
            let history: Vec<f64> = app.history.stats[t].iter().copied().collect();
            spans.push(Span::raw("  "));
            spans.push(Span::styled(
                sparkline(&history, 0.0, SPARK_HI, room.min(30)),
                theme.dim(),
            ));
        }
        lines.push(Line::from(spans));
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
                Span::styled(
                    format!("  T = {} (flag below {WEAK_ID_T})", sig(w.t, 3)),
                    body,
                ),
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
    let names = app
        .panel
        .as_ref()
        .map(|p| p.anchors.clone())
        .unwrap_or_default();
    for (k, h) in app.history.rho.iter().enumerate() {
        let h: Vec<f64> = h.iter().copied().collect();
        let name = names
            .get(k)
            .map_or_else(|| format!("ρ_{}", k + 1), |n| crate::error::sanitize(n));
        let head = crate::error::clip(&format!("ρ̂ {name} history "), width / 2);
        let room = width.saturating_sub(head.chars().count());
        lines.push(Line::from(vec![
            Span::styled(head, theme.dim()),
            Span::styled(sparkline(&h, -1.0, 1.0, room.min(30)), theme.dim()),
        ]));
    }
    lines
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let extra = if app.computing() {
        "recomputing…"
    } else {
        "j/k scroll"
    };
    let block = pane_block(Pane::Battery, app, theme, extra);
    let inner = block.inner(area);
    let lines = lines(app, theme, usize::from(inner.width));
    let offset = crate::tui::ui::clamp_scroll(
        app.scroll[pane_index(Pane::Battery)],
        lines.len(),
        inner.height,
    );
    frame.render_widget(Paragraph::new(lines).block(block).scroll((offset, 0)), area);
}

/// What the pane says before any battery result exists.
fn empty(app: &App, width: usize) -> Vec<Line<'static>> {
    let text = if app.panel.is_some() {
        "running the battery…"
    } else if matches!(app.source, crate::tui::app::Source::File(_)) {
        "no panel yet: give the file at least 2 judges (Space on a column in the data pane)"
    } else {
        "no panel: open a preset or a file in the data pane"
    };
    crate::tui::widgets::wrap_words(text, width)
        .into_iter()
        .map(Line::raw)
        .collect()
}
