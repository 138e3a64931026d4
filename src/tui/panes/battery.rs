//! The battery pane: a row per registered test that can run, with a verdict badge, statistic
//! against threshold (significant digits enough to tell the sides apart), p-value and a
//! sparkline of the statistic over its own threshold; one line naming the tests that cannot
//! run here; weak-ID and range flags on one line; then the null used and ρ̂_k's history.
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

/// Rows the pane needs to show every verdict (its borders included): the tests that run,
/// one line for those that cannot, and the weak-ID/range line.
#[must_use]
pub fn verdict_rows(app: &App, width: usize) -> u16 {
    let rows = if app.battery.is_some() {
        verdicts(app, Theme { color: false }, width).len()
    } else {
        TestId::ALL.len() + 1
    };
    u16::try_from(rows + 2).unwrap_or(u16::MAX)
}

/// The lines of the battery pane for a content width of `width`.
#[must_use]
pub fn lines(app: &App, theme: Theme, width: usize) -> Vec<Line<'static>> {
    let Some(r) = &app.battery else {
        return empty(app, width);
    };
    let mut lines = verdicts(app, theme, width);
    // The caption wraps between its parts, so none is cut.
    let caption = [
        format!("{} null, {} draws", r.null.kind, r.null.draws),
        format!("weak-ID flags T < {WEAK_ID_T}"),
        "sparks: stat/threshold (▄ = 1)".to_string(),
    ];
    lines.extend(
        crate::tui::widgets::flow(&caption, " · ", width)
            .into_iter()
            .map(|l| Line::styled(l, theme.dim())),
    );
    histories(app, theme, width, &mut lines);
    lines
}

/// The verdict lines: each test that runs, one line for those that cannot, weak-ID and
/// range flags, and which estimate to read when it is not the closed form.
fn verdicts(app: &App, theme: Theme, width: usize) -> Vec<Line<'static>> {
    let Some(r) = &app.battery else {
        return Vec::new();
    };
    let stale = app.battery_stale();
    let body = if stale { theme.dim() } else { Style::new() };
    let mut lines: Vec<Line> = Vec::new();
    let mut idle: Vec<&str> = Vec::new();
    for t in TestId::ALL {
        let res = &r.tests[t];
        if res.verdict == Verdict::NotApplicable && res.statistic.is_none() {
            idle.push(t.name());
            continue;
        }
        lines.push(test_line(app, t, width, (stale, body, theme)));
    }
    if !idle.is_empty() {
        lines.push(Line::from(vec![
            Span::styled(
                format!(
                    "Test{} {} ",
                    if idle.len() > 1 { "s" } else { "" },
                    idle.join(", ")
                ),
                body,
            ),
            badge(Verdict::NotApplicable, stale, theme),
            Span::styled("  Enter: why", theme.dim()),
        ]));
    }
    // The weak-identification screen and the range flags share one line.
    let (weak_v, weak_t) = match r.weak_id {
        // No verdict on an out-of-range fit: "PASS" would vouch for it.
        Some(w) if w.out_of_range => (Verdict::NotApplicable, " no verdict, out of range ".into()),
        Some(w) => (
            if w.flag {
                Verdict::Fires
            } else {
                Verdict::Pass
            },
            format!(" T {} ", sig(w.t, 3)),
        ),
        None => (Verdict::NotApplicable, " ".into()),
    };
    let flags = r.estimate().map_or(0, |e| e.flags.len());
    let range_v = if r.estimate().is_none() {
        Verdict::NotApplicable
    } else if flags > 0 {
        Verdict::Fires
    } else {
        Verdict::Pass
    };
    let weak = vec![
        Span::styled("weak-ID ", body),
        badge(weak_v, stale, theme),
        Span::styled(weak_t, body),
    ];
    let range = vec![
        Span::styled("range ", body),
        badge(range_v, stale, theme),
        Span::styled(format!(" {flags} flag(s)"), body),
    ];
    let cells = |v: &[Span]| v.iter().map(|s| s.content.chars().count()).sum::<usize>();
    if cells(&weak) + 2 + cells(&range) <= width {
        let mut one = weak;
        // The N/A badge ends in its own dot.
        let sep = if weak_v == Verdict::NotApplicable && r.weak_id.is_none_or(|w| !w.out_of_range) {
            " "
        } else {
            "· "
        };
        one.push(Span::styled(sep, body));
        one.extend(range);
        lines.push(Line::from(one));
    } else {
        lines.push(Line::from(weak));
        lines.push(Line::from(range));
    }
    if let Some(e) = r
        .route
        .read
        .filter(|e| *e != crate::estimate::Estimator::ClosedForm)
    {
        lines.push(Line::styled(
            format!(
                "read the {} estimate (Enter: why)",
                e.key().replace('_', "-")
            ),
            theme.highlight(),
        ));
    }
    lines
}

/// One test's row: name, badge, statistic against threshold, p-value and, where there is
/// room, its sparkline.
fn test_line(app: &App, t: TestId, width: usize, look: (bool, Style, Theme)) -> Line<'static> {
    let (stale, body, theme) = look;
    let Some(r) = &app.battery else {
        return Line::raw("");
    };
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
    Line::from(spans)
}

fn histories(app: &App, theme: Theme, width: usize, lines: &mut Vec<Line<'static>>) {
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
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let extra = if app.computing() {
        "recomputing…"
    } else {
        "j/k scroll"
    };
    let block = pane_block(Pane::Battery, app, theme, extra, area);
    let inner = block.inner(area);
    let lines = lines(app, theme, usize::from(inner.width));
    let offset = crate::tui::widgets::clamp_scroll(
        app.scroll[pane_index(Pane::Battery)],
        lines.len(),
        inner.height,
        &app.scroll_end[pane_index(Pane::Battery)],
    );
    frame.render_widget(Paragraph::new(lines).block(block).scroll((offset, 0)), area);
}

/// What the pane says before any battery result exists.
fn empty(app: &App, width: usize) -> Vec<Line<'static>> {
    use crate::tui::app::Source;
    let text = match &app.source {
        _ if app.panel.is_some() => "running the battery…",
        Source::File(f) if !f.header.is_empty() => {
            "no panel yet: give the file at least 2 judges (Space on a column in the data pane)"
        }
        Source::File(f) if f.loading => "loading…",
        Source::File(_) => {
            "no panel: this file is not a panel (the data pane says why); open a preset or another file"
        }
        Source::Scenario => "no panel: open a preset or a file in the data pane",
    };
    crate::tui::widgets::wrap_words(text, width)
        .into_iter()
        .map(Line::raw)
        .collect()
}
