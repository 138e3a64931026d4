//! Colours and pane frames shared by every pane: a theme that honours `NO_COLOR` (verdicts
//! always carry a word and a symbol too), the focused-border block, and overlay helpers.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Borders, Clear};

use super::action::Pane;
use super::app::App;
use crate::battery::Verdict;

/// Colours, or none under `NO_COLOR`. Verdicts always carry a word and a symbol too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    #[must_use]
    pub fn border(self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            (true, false) => Style::new().add_modifier(Modifier::BOLD),
            (false, _) => Style::new(),
        }
    }

    #[must_use]
    pub fn verdict(self, v: Verdict) -> Style {
        let base = Style::new().add_modifier(Modifier::BOLD);
        if !self.color {
            return base;
        }
        match v {
            Verdict::Pass => base.fg(Color::Green),
            Verdict::Fires => base.fg(Color::Red),
            Verdict::NotApplicable => Style::new().fg(Color::DarkGray),
        }
    }

    #[must_use]
    pub fn dim(self) -> Style {
        if self.color {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    #[must_use]
    pub fn highlight(self) -> Style {
        if self.color {
            Style::new().fg(Color::Black).bg(Color::Cyan)
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }

    #[must_use]
    pub fn warn(self) -> Style {
        if self.color {
            Style::new().fg(Color::Yellow)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }

    #[must_use]
    pub fn truth(self) -> Style {
        if self.color {
            Style::new().fg(Color::Magenta)
        } else {
            Style::new()
        }
    }
}

/// A bordered pane block of `area` whose border shows focus. Its title is the pane's name and
/// as many whole parts of `extra` (split at " · ") as fit the top border: a hint is shown
/// whole or not at all.
#[must_use]
pub fn pane_block(pane: Pane, app: &App, theme: Theme, extra: &str, area: Rect) -> Block<'static> {
    let focused = app.focus == pane;
    // The corners take two cells and the title's closing space one.
    let room = usize::from(area.width).saturating_sub(3);
    let mut title = format!(" {}", pane.title());
    let hints = super::text::whole_parts(extra, room.saturating_sub(title.chars().count() + 3));
    if !hints.is_empty() {
        title = format!("{title} · {hints}");
    }
    title.push(' ');
    Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(title)
}

/// A centred rectangle of at most `w` × `h` inside `area`.
#[must_use]
pub fn centred(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Clears `area` (for overlays).
pub fn clear(frame: &mut Frame<'_>, area: Rect) {
    frame.render_widget(Clear, area);
}
