//! The battery pane: a row per registered test that can run, with a verdict badge, statistic
//! against threshold (significant digits enough to tell the sides apart), p-value and a
//! sparkline of the statistic over its own threshold; one line naming the tests that cannot
//! run here; weak-ID and range flags on one line; then the null used and ρ̂_k's history.
//! While a rerun is under way the last result stays, dimmed and marked stale. Sparklines
//! are dropped before any number is.

use crate::estimate::Estimator;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::battery::reading::{RangeVerdict, WeakIdVerdict};
use crate::battery::{TestId, Verdict};
use crate::bootstrap::WEAK_ID_T;
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::{badge, cells, sig, sparkline, versus};

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
    let mut shown: Vec<TestId> = Vec::new();
    for t in TestId::ALL {
        let res = &r.tests[t];
        if res.verdict == Verdict::NotApplicable && res.statistic.is_none() {
            idle.push(t.name());
            continue;
        }
        shown.push(t);
    }
    // One form for every row (the first in which each keeps its sparkline), so the rows
    // line up and read alike.
    let form = shown
        .iter()
        .map(|t| row_form(app, *t, width))
        .max()
        .unwrap_or(0);
    for t in shown {
        lines.push(test_line(app, t, width, form, (stale, body, theme)));
    }
    if !idle.is_empty() {
        let mut idle_line = vec![
            Span::styled(
                format!(
                    "Test{} {} ",
                    if idle.len() > 1 { "s" } else { "" },
                    idle.join(", ")
                ),
                body,
            ),
            badge(Verdict::NotApplicable, stale, theme),
        ];
        with_hint(
            &mut idle_line,
            Span::styled("  Enter: why", theme.dim()),
            width,
        );
        lines.push(Line::from(idle_line));
    }
    lines.extend(weak_and_range(r, width, (stale, body, theme)));
    let names = app
        .panel
        .as_ref()
        .map(|p| p.anchors.clone())
        .unwrap_or_default();
    if let Some(e) = r
        .route
        .read
        .filter(|e| *e != crate::estimate::Estimator::ClosedForm)
    {
        let mut read = vec![Span::styled(
            format!("read the {}", read_name(e, &names, app.designated())),
            theme.highlight(),
        )];
        with_hint(
            &mut read,
            Span::styled(" (Enter: why)", theme.highlight()),
            width,
        );
        lines.push(Line::from(read));
    }
    lines
}

/// The weak-identification screen and the range flags, on one line where it fits: each
/// the reading's one verdict.
fn weak_and_range(
    r: &crate::battery::BatteryReport,
    width: usize,
    (stale, body, theme): (bool, Style, Theme),
) -> Vec<Line<'static>> {
    let weak_id = r.reading.evidence.weak_id;
    let weak_v = weak_id.verdict();
    let weak_t = match weak_id {
        // No verdict on a flagged fit: "PASS" would vouch for it.
        WeakIdVerdict::OutOfRange { .. } => " no verdict, fit flagged".into(),
        WeakIdVerdict::Weak { t } | WeakIdVerdict::Ok { t } => format!(" T {}", sig(t, 3)),
        WeakIdVerdict::NoFit => " no fit".into(),
    };
    let (range_v, range_t) = range_row(r);
    let weak = vec![
        Span::styled("weak-ID ", body),
        badge(weak_v, stale, theme),
        Span::styled(weak_t, body),
    ];
    let range = vec![
        Span::styled("range ", body),
        badge(range_v, stale, theme),
        Span::styled(range_t, body),
    ];
    let cells = |v: &[Span]| v.iter().map(|s| s.content.chars().count()).sum::<usize>();
    if cells(&weak) + 2 + cells(&range) <= width {
        let mut one = weak;
        // A semicolon, not a dot: the N/A badge's own dot must not read as a separator.
        one.push(Span::styled("; ", body));
        one.extend(range);
        vec![Line::from(one)]
    } else {
        vec![Line::from(weak), Line::from(range)]
    }
}

/// The read estimate's name: a trusted anchor's by its name, as the estimates and
/// configuration panes give it; the others by their short key.
fn read_name(e: Estimator, names: &[String], designated: Option<usize>) -> String {
    match e {
        Estimator::DesignatedClean | Estimator::DesignatedCleanLatent => {
            crate::tui::reading::pane_label(e, names, designated)
        }
        _ => format!("{} estimate", e.key().replace('_', "-")),
    }
}

/// `hint` after `spans` when the row then fits `width`: a key hint is dropped whole, never
/// cut at the pane's edge.
fn with_hint(spans: &mut Vec<Span<'static>>, hint: Span<'static>, width: usize) {
    let used: usize = spans.iter().map(|s| cells(&s.content)).sum();
    if used + cells(&hint.content) <= width {
        spans.push(hint);
    }
}

/// The range row's verdict and text, from the reading's one range verdict. Without a
/// closed-form fit there is nothing to range-check: it says so, not "0 flag(s)" (a FLAG the
/// estimates pane shows then belongs to a point fit the battery could not use).
fn range_row(r: &crate::battery::BatteryReport) -> (Verdict, String) {
    let range = &r.reading.evidence.range;
    let text = match range {
        RangeVerdict::NoFit => " no closed-form fit (Enter: why)".into(),
        RangeVerdict::InRange => " 0 flag(s)".into(),
        RangeVerdict::OutOfRange(f) => {
            format!(" flags: {}", crate::battery::phrase::flag_counts(f))
        }
    };
    (range.verdict(), text)
}

/// The p-value in the fewest characters that keep its first significant digits: bootstrap
/// p-values are multiples of 1/(draws + 1), so a small one needs one digit, not two.
#[must_use]
pub fn p_text(p: f64) -> String {
    crate::battery::phrase::p_value(p)
}

/// A test row's wordings, longest first: "Test A" and double spaces, then "A", then single
/// spaces.
const FORMS: [(&str, &str); 3] = [("Test ", "  "), ("", "  "), ("", " ")];

/// A test row's parts in wording `form`: name, the badge, the numbers, and the cells used.
fn row_parts(
    app: &App,
    t: TestId,
    form: usize,
    look: (bool, Theme),
) -> (String, Span<'static>, String) {
    let (stale, theme) = look;
    let Some(r) = &app.battery else {
        return (String::new(), Span::raw(""), String::new());
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
    let (test, gap) = FORMS[form.min(FORMS.len() - 1)];
    let p = res
        .p_value
        .map_or(String::new(), |p| format!("{gap}p {}", p_text(p)));
    (
        format!("{test}{} ", t.name()),
        badge(res.verdict, stale, theme),
        format!("{gap}{stat}{p}"),
    )
}

/// The sparkline's cells a row wants at the least: its history, up to 4; none without a null.
fn spark_want(app: &App, t: TestId) -> usize {
    let has_null = app
        .battery
        .as_ref()
        .is_some_and(|r| r.tests[t].statistic.is_some() && r.tests[t].threshold.is_some());
    if has_null {
        app.history.stats[t].len().clamp(1, 4)
    } else {
        0
    }
}

/// The first wording in which test `t`'s row keeps its sparkline at `width`.
fn row_form(app: &App, t: TestId, width: usize) -> usize {
    let theme = Theme { color: false };
    (0..FORMS.len())
        .find(|&f| {
            let (head, badge, text) = row_parts(app, t, f, (false, theme));
            let used = head.chars().count() + badge.content.chars().count() + text.chars().count();
            used + FORMS[f].1.len() + spark_want(app, t) <= width
        })
        .unwrap_or(FORMS.len() - 1)
}

/// One test's row in wording `form`: name, badge, statistic against threshold, p-value and,
/// for a test with a null distribution, its sparkline in the cells left (up to 30). Numbers
/// are never cut: the words shorten first, then the sparkline.
fn test_line(
    app: &App,
    t: TestId,
    width: usize,
    form: usize,
    look: (bool, Style, Theme),
) -> Line<'static> {
    let (stale, body, theme) = look;
    let (head, badge, text) = row_parts(app, t, form, (stale, theme));
    let gap = FORMS[form.min(FORMS.len() - 1)].1;
    let used = head.chars().count() + badge.content.chars().count() + text.chars().count();
    let mut spans = vec![Span::styled(head, body), badge, Span::styled(text, body)];
    let room = width.saturating_sub(used + gap.len());
    if spark_want(app, t) > 0 && room >= 1 {
        let history: Vec<f64> = app.history.stats[t].iter().copied().collect();
        spans.push(Span::raw(gap));
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
    // The sparklines' scale rides in the title, so it shows however few rows the pane has.
    let extra = if app.computing() {
        "recomputing… · spark ▄ = threshold"
    } else if app.battery.is_some() {
        "spark ▄ = threshold · j/k scroll"
    } else {
        "j/k scroll"
    };
    // Frozen, the keys a hint names must act: scrolling only where the focus is, no Enter.
    let extra = if app.frozen && app.focus != Pane::Battery {
        extra
            .trim_end_matches(" · j/k scroll")
            .trim_end_matches("j/k scroll")
    } else {
        extra
    };
    let block = pane_block(Pane::Battery, app, theme, extra, area);
    let inner = block.inner(area);
    let mut lines = lines(app, theme, usize::from(inner.width));
    if app.frozen {
        for span in lines.iter_mut().flat_map(|l| l.spans.iter_mut()) {
            if span.content.contains("Enter: why") {
                let text = span.content.replace(" (Enter: why)", "");
                span.content = text.replace("  Enter: why", "").into();
            }
        }
    }
    let offset = crate::tui::widgets::clamp_scroll(
        app.scroll[Pane::Battery],
        lines.len(),
        inner.height,
        &app.scroll_end[Pane::Battery],
    );
    frame.render_widget(Paragraph::new(lines).block(block).scroll((offset, 0)), area);
}

/// What the pane says before any battery result exists: why there is no panel, the one
/// fact every key that needs a panel words too.
fn empty(app: &App, width: usize) -> Vec<Line<'static>> {
    let text = if app.panel.is_some() {
        "running the battery…"
    } else {
        crate::tui::reading::why_no_panel(app)
    };
    crate::tui::widgets::wrap_words(text, width)
        .into_iter()
        .map(Line::raw)
        .collect()
}
