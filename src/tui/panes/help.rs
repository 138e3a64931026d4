//! The `?` overlay, generated from the keymap table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::tui::keymap::help_lines;
use crate::tui::theme::{Theme, centred, clear};

pub fn render(frame: &mut Frame<'_>, area: Rect, theme: Theme) {
    let lines: Vec<Line> = help_lines()
        .into_iter()
        .map(|(k, h)| {
            Line::from(vec![
                Span::styled(format!("{k:>10}  "), theme.border(true)),
                Span::raw(h),
            ])
        })
        .collect();
    let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let r = centred(area, 72, h);
    clear(frame, r);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" keys (q or Esc closes) ");
    frame.render_widget(Paragraph::new(lines).block(block), r);
}
