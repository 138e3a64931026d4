//! The battery's detail overlay (`Enter` in the battery pane): every test's verdict whole,
//! what it guards against, its statistic against the threshold of the named null, and what
//! the verdict means for this panel and what to do (the battery's own message). Modal.

use crate::tui::text::Keys;
use crate::wording::reword;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::battery::reading::{RangeVerdict, WeakIdVerdict};
use crate::battery::{TestId, Verdict};
use crate::bootstrap::WEAK_ID_T;
use crate::tui::app::App;
use crate::tui::theme::{Theme, centred, clear};
use crate::tui::widgets::{badge, sig, versus, wrap_words};

/// The overlay's lines for a content width of `width`.
#[must_use]
pub fn lines(app: &App, theme: Theme, width: usize) -> Vec<Line<'static>> {
    let Some(r) = &app.battery else {
        let why = if app.panel.is_some() {
            "running the battery…"
        } else {
            crate::tui::reading::why_no_panel(app)
        };
        return vec![Line::raw(why)];
    };
    let stale = app.battery_stale();
    let mut out: Vec<Line> = Vec::new();
    // Every sentence's settings in the explorer's keys; the advice is the reading's.
    let wrap = |text: &str, out: &mut Vec<Line<'static>>| {
        for l in wrap_words(&reword(text, &Keys), width) {
            out.push(Line::raw(l));
        }
    };
    // The null's note names its kind already ("scenario null: …"): said once.
    let null = if r.null.note.starts_with(&format!("{} null", r.null.kind)) {
        format!(
            "{} ({} draws, {})",
            r.null.note, r.null.draws, r.null.method
        )
    } else {
        format!(
            "{} null ({} draws, {}): {}",
            r.null.kind, r.null.draws, r.null.method, r.null.note
        )
    };
    wrap(&null, &mut out);
    if let Some(note) = &r.null.free_scale {
        wrap(note, &mut out);
    }
    out.push(Line::raw(""));
    out.push(Line::styled("Which estimate to read", theme.highlight()));
    wrap(&r.route.why, &mut out);
    for t in TestId::ALL {
        let res = &r.tests[t];
        let name = format!("Test {} ", t.name());
        heading(
            &mut out,
            &wrap,
            (theme, stale),
            (&name, res.verdict),
            &t.guards(),
        );
        if let (Some(s), Some(th)) = (res.statistic, res.threshold) {
            let (a, b) = versus(s, th);
            let p = res.p_value.map_or(String::new(), |p| {
                format!(", p {}", crate::tui::panes::battery::p_text(p))
            });
            let mc = res
                .threshold_mc_sd
                .map_or(String::new(), |sd| format!(" ± {} MC", sig(sd, 2)));
            wrap(
                &format!("statistic {a} against the 95% threshold {b}{mc}{p}"),
                &mut out,
            );
        }
        wrap(&res.message, &mut out);
    }
    screens(app, theme, &wrap, &mut out);
    // What to do about this panel: the reading's next steps, as the walkthrough's last step.
    if let (Some(panel), false) = (app.panel.as_deref(), stale)
        && let Some(next) = crate::tui::reading::next_steps(&r.reading, panel)
    {
        out.push(Line::raw(""));
        out.push(Line::styled("Next steps", theme.highlight()));
        wrap(next.trim_start_matches("Next: "), &mut out);
    }
    out
}

/// A check's heading: a blank line, its name with its verdict badge, and what it guards.
fn heading(
    out: &mut Vec<Line<'static>>,
    wrap: &dyn Fn(&str, &mut Vec<Line<'static>>),
    (theme, stale): (Theme, bool),
    (name, verdict): (&str, Verdict),
    guards: &str,
) {
    out.push(Line::raw(""));
    out.push(Line::from(vec![
        Span::styled(name.to_string(), theme.highlight()),
        badge(verdict, stale, theme),
    ]));
    wrap(&format!("guards against: {guards}"), out);
}

/// The two screens the pane shows beside the tests, whole: the weak-identification screen
/// of the closed form and its range flags, each with what it means.
fn screens(
    app: &App,
    theme: Theme,
    wrap: &dyn Fn(&str, &mut Vec<Line<'static>>),
    out: &mut Vec<Line<'static>>,
) {
    let Some(r) = &app.battery else {
        return;
    };
    let stale = app.battery_stale();
    let weak_id = r.reading.evidence.weak_id;
    let weak_text = match weak_id {
        WeakIdVerdict::OutOfRange { t } => format!(
            "T = |den̂| / SD_boot = {}, but the fit is out of range or gives no ρ̂ (see the range flags), so T gives no verdict.",
            sig(t, 3)
        ),
        WeakIdVerdict::Weak { t } => format!(
            "T = |den̂| / SD_boot = {} against {WEAK_ID_T}: the denominator of Theorem 1 is weakly identified: read ρ̂ as an interval only, where it has one (the answer names any anchor without).",
            sig(t, 3)
        ),
        WeakIdVerdict::Ok { t } => format!(
            "T = |den̂| / SD_boot = {} against {WEAK_ID_T}: the denominator is well away from zero; the point estimates can be read.",
            sig(t, 3)
        ),
        WeakIdVerdict::NoFit => no_closed_form(app),
    };
    let weak_v = weak_id.verdict();
    heading(
        out,
        wrap,
        (theme, stale),
        ("weak-ID ", weak_v),
        "a Theorem 1 denominator too close to zero for its noise (weak identification)",
    );
    wrap(&weak_text, out);
    let names = app
        .panel
        .as_ref()
        .map(|p| p.anchors.clone())
        .unwrap_or_default();
    let judges = app
        .panel
        .as_ref()
        .map(|p| p.judges.clone())
        .unwrap_or_default();
    let range_v = r.reading.evidence.range.verdict();
    let range_text = match (&r.reading.evidence.range, r.estimate()) {
        (RangeVerdict::NoFit, _) | (_, None) => vec![no_closed_form(app)],
        (RangeVerdict::InRange, _) => {
            vec!["every closed-form quantity lies in its admissible range.".to_string()]
        }
        (RangeVerdict::OutOfRange(_), Some(e)) => e
            .flags
            .iter()
            .map(|f| {
                crate::wording::reword(&f.message(e, &names, &judges), &crate::tui::text::Keys)
                    .into_owned()
            })
            .collect(),
    };
    // Worded from the flags' kinds: a censored or Likert column is not out of range.
    let guards = match &r.reading.evidence.range {
        RangeVerdict::OutOfRange(codes) if !codes.is_empty() => format!(
            "a flagged closed-form fit; this one {}",
            crate::battery::phrase::flagged(codes)
        ),
        _ => "a flagged closed-form fit: out of range (σ̂_c² ≤ 0, |ρ̂| > 1, …), on a scale it cannot use, not point-identified, or not fitting".to_string(),
    };
    heading(out, wrap, (theme, stale), ("range ", range_v), &guards);
    for t in &range_text {
        wrap(t, out);
    }
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let r = centred(
        area,
        area.width.saturating_sub(4),
        area.height.saturating_sub(2),
    );
    // The whole screen, not just the box: fragments of the panes in its margins read as
    // stray characters (`│≤│`) beside the verdicts.
    clear(frame, area);
    let width = usize::from(r.width.saturating_sub(2)).max(1);
    let lines = lines(app, theme, width);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" battery in full (j/k scroll · q or Esc closes) ");
    let offset = crate::tui::widgets::clamp_scroll(
        app.overlay_scroll,
        lines.len(),
        r.height.saturating_sub(2),
        &app.overlay_end,
    );
    let end = app.overlay_end.get();
    let block = crate::tui::widgets::more_below(block, offset, end, theme.warn());
    frame.render_widget(Paragraph::new(lines).block(block).scroll((offset, 0)), r);
}

/// Why the battery has no closed-form fit to screen or range-check, in its own words, and
/// whose a FLAG on the estimates pane is then.
fn no_closed_form(app: &App) -> String {
    let Some(r) = &app.battery else {
        return String::new();
    };
    let why = r
        .refused
        .iter()
        .find(|(e, _)| *e == crate::estimate::Estimator::ClosedForm)
        .map_or_else(
            || "ρ is not identified on this panel".to_string(),
            |(_, why)| reword(why, &Keys).into_owned(),
        );
    let point_flags = app
        .fit
        .as_ref()
        .and_then(|f| f.closed_form())
        .is_some_and(|e| !e.flags.is_empty());
    if point_flags {
        format!(
            "no closed-form fit in the battery: {why}. The FLAG on the estimates pane is the explorer's point fit, which the battery does not report."
        )
    } else {
        format!("no closed-form fit to check: {why}.")
    }
}
