//! The `?` overlay, generated from the keymap table: two columns when every description fits
//! whole, else one column with descriptions wrapped, scrolled with `j`/`k`. The overlay is
//! modal (the model ignores other keys while it is open).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::tui::keymap::help_lines;
use crate::tui::theme::{Theme, centred, clear};
use crate::tui::widgets::wrap_words;

/// Width of the key column and the gap after it.
const KEY_W: usize = 11;

pub fn render(
    frame: &mut Frame<'_>,
    area: Rect,
    theme: Theme,
    app: &crate::tui::app::App,
    end: &std::cell::Cell<u16>,
) {
    let scroll = app.overlay_scroll;
    let entries = help_lines();
    let longest = entries
        .iter()
        .map(|(_, h)| h.chars().count())
        .max()
        .unwrap_or(0);
    let rows_free = usize::from(area.height.saturating_sub(2)).max(1);
    let inner = usize::from(area.width.saturating_sub(2));
    let two_fit = inner / 2 > KEY_W + longest && entries.len().div_ceil(2) <= rows_free;
    let key = |k: &str| Span::styled(format!("{k:>9}  "), theme.border(true));
    let (lines, width): (Vec<Line>, usize) = if two_fit {
        let per_col = entries.len().div_ceil(2);
        let col_w = KEY_W + longest + 1;
        let cell = |i: usize| -> Vec<Span<'static>> {
            entries.get(i).map_or_else(Vec::new, |(k, h)| {
                vec![key(k), Span::raw(format!("{h:<longest$} "))]
            })
        };
        let lines = (0..per_col)
            .map(|r| {
                let mut spans = cell(r);
                spans.extend(cell(r + per_col));
                Line::from(spans)
            })
            .collect();
        (lines, 2 * col_w + 2)
    } else {
        let width = inner.min(KEY_W + longest + 2);
        let text_w = width.saturating_sub(KEY_W + 2).max(8);
        let mut lines = Vec::new();
        for (k, h) in &entries {
            for (i, part) in wrap_words(h, text_w).into_iter().enumerate() {
                let lead = if i == 0 {
                    key(k)
                } else {
                    Span::raw(" ".repeat(KEY_W))
                };
                lines.push(Line::from(vec![lead, Span::raw(part)]));
            }
        }
        (lines, width + 2)
    };
    let lines = with_message(lines, &app.status, width.saturating_sub(2), theme);
    let w = u16::try_from(width).unwrap_or(u16::MAX);
    let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let r = centred(area, w, h);
    clear(frame, r);
    let offset =
        crate::tui::widgets::clamp_scroll(scroll, lines.len(), r.height.saturating_sub(2), end);
    let title = if usize::from(r.height.saturating_sub(2)) < lines.len() {
        " keys (j/k scroll · q or Esc closes) "
    } else {
        " keys (q or Esc closes) "
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title);
    let block = crate::tui::widgets::more_below(block, offset, end.get(), theme.warn());
    frame.render_widget(Paragraph::new(lines).block(block).scroll((offset, 0)), r);
}

/// The keys under the last message, whole: the status rows may have had to cut it.
fn with_message(
    keys: Vec<Line<'static>>,
    message: &str,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    if message.is_empty() {
        return keys;
    }
    let text = format!("last message: {}", crate::error::sanitize(message));
    let mut lines: Vec<Line<'static>> = wrap_words(&text, width.max(8))
        .into_iter()
        .map(|l| Line::styled(l, theme.warn()))
        .collect();
    lines.push(Line::raw(""));
    lines.extend(keys);
    lines
}
