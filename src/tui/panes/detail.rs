//! The battery's detail overlay (`Enter` in the battery pane): every test's verdict whole,
//! what it guards against, its statistic against the threshold of the named null, and what
//! the verdict means for this panel and what to do (the battery's own message). Modal.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::battery::TestId;
use crate::tui::app::App;
use crate::tui::theme::{Theme, centred, clear};
use crate::tui::widgets::{badge, sig, versus, wrap_words};

/// The overlay's lines for a content width of `width`.
#[must_use]
pub fn lines(app: &App, theme: Theme, width: usize) -> Vec<Line<'static>> {
    let Some(r) = &app.battery else {
        return vec![Line::raw("no battery yet")];
    };
    let stale = app.battery_stale();
    let mut out: Vec<Line> = Vec::new();
    let panel = app.panel.as_deref();
    let wrap = |text: &str, out: &mut Vec<Line<'static>>| {
        let text = crate::tui::readout::explorer_advice(text, panel);
        for l in wrap_words(&text, width) {
            out.push(Line::raw(l));
        }
    };
    wrap(
        &format!(
            "{} null ({} draws, {}): {}",
            r.null.kind, r.null.draws, r.null.method, r.null.note
        ),
        &mut out,
    );
    if let Some(note) = &r.null.free_scale {
        wrap(note, &mut out);
    }
    out.push(Line::raw(""));
    out.push(Line::styled("Which estimate to read", theme.highlight()));
    wrap(&r.route.why, &mut out);
    for t in TestId::ALL {
        let res = &r.tests[t];
        out.push(Line::raw(""));
        out.push(Line::from(vec![
            Span::styled(format!("Test {} ", t.name()), theme.highlight()),
            badge(res.verdict, stale, theme),
        ]));
        wrap(&format!("guards against: {}", t.guards()), &mut out);
        if let (Some(s), Some(th)) = (res.statistic, res.threshold) {
            let (a, b) = versus(s, th);
            let p = res
                .p_value
                .map_or(String::new(), |p| format!(", p {}", sig(p, 2)));
            wrap(
                &format!("statistic {a} against the 95% threshold {b}{p}"),
                &mut out,
            );
        }
        wrap(&res.message, &mut out);
    }
    out
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
    frame.render_widget(Paragraph::new(lines).block(block).scroll((offset, 0)), r);
}
