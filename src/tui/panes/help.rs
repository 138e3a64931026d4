//! The `?` overlay, generated from the keymap table: one column when it fits, else two.
//! The overlay is modal (the model ignores other keys while it is open).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::error::clip;
use crate::tui::keymap::help_lines;
use crate::tui::theme::{Theme, centred, clear};

pub fn render(frame: &mut Frame<'_>, area: Rect, theme: Theme) {
    let entries = help_lines();
    let rows_free = usize::from(area.height.saturating_sub(2)).max(1);
    let columns = if entries.len() <= rows_free { 1 } else { 2 };
    let per_col = entries.len().div_ceil(columns);
    let width = if columns == 1 {
        72
    } else {
        area.width.saturating_sub(2)
    };
    let col_w = usize::from(width.saturating_sub(2)) / columns;
    let cell = |i: usize| -> Vec<Span<'static>> {
        entries.get(i).map_or_else(Vec::new, |(k, h)| {
            let help_w = col_w.saturating_sub(12);
            vec![
                Span::styled(format!("{k:>9}  "), theme.border(true)),
                Span::raw(format!("{:<help_w$} ", clip(h, help_w))),
            ]
        })
    };
    let lines: Vec<Line> = (0..per_col)
        .map(|r| {
            let mut spans = cell(r);
            if columns == 2 {
                if spans.is_empty() {
                    spans.push(Span::raw(" ".repeat(col_w)));
                }
                spans.extend(cell(r + per_col));
            }
            Line::from(spans)
        })
        .collect();
    let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let r = centred(area, width, h);
    clear(frame, r);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" keys (q or Esc closes) ");
    frame.render_widget(Paragraph::new(lines).block(block), r);
}
