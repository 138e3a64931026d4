//! Layout and the pure render function.
//!
//! ```text
//! ┌ 1 Data ──────────┐┌ 3 Estimates ───────────────────────────┐
//! │ presets, files,  ││ ρ̂_k with CI against the true ρ_k       │
//! │ columns          │├ 4 Battery ─────────────────────────────┤
//! ├ 2 Sliders ───────┤│ verdicts, statistic vs threshold,       │
//! │ ρ_k, spread, g,  ││ sparklines                              │
//! │ h, s, σ_f, N, …  │├ 5 Configuration ───────────────────────┤
//! │                  ││ decision table, power, CI width         │
//! └──────────────────┘└─────────────────────────────────────────┘
//!  caption (talk scenes and walkthrough steps)
//!  status line
//! ```

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::action::Pane;
use super::app::App;
use super::theme::Theme;
use super::{caption, panes};

/// Where each part of the screen goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub data: Rect,
    pub sliders: Rect,
    pub estimates: Rect,
    pub battery: Rect,
    pub config: Rect,
    pub caption: Rect,
    pub status: Rect,
}

impl Areas {
    #[must_use]
    pub fn of(&self, pane: Pane) -> Rect {
        match pane {
            Pane::Data => self.data,
            Pane::Sliders => self.sliders,
            Pane::Estimates => self.estimates,
            Pane::Battery => self.battery,
            Pane::Config => self.config,
        }
    }
}

/// The layout for a screen of `area` (captions take three lines when shown).
#[must_use]
pub fn areas(area: Rect, caption: bool) -> Areas {
    let [main, cap, status] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(if caption { 3 } else { 0 }),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(36), Constraint::Percentage(64)]).areas(main);
    let [data, sliders] =
        Layout::vertical([Constraint::Percentage(42), Constraint::Percentage(58)]).areas(left);
    let [estimates, battery, config] = Layout::vertical([
        Constraint::Percentage(36),
        Constraint::Percentage(34),
        Constraint::Percentage(30),
    ])
    .areas(right);
    Areas {
        data,
        sliders,
        estimates,
        battery,
        config,
        caption: cap,
        status,
    }
}

/// The pane under a terminal cell of a screen of `area`, for the mouse.
#[must_use]
pub fn pane_at(app: &App, area: Rect, x: u16, y: u16) -> Option<Pane> {
    let a = areas(area, caption::of(app).is_some());
    Pane::ALL
        .into_iter()
        .find(|p| a.of(*p).contains(ratatui::layout::Position { x, y }))
}

/// Draws the whole screen from the state. Pure: it reads `app` and writes the frame.
pub fn render(frame: &mut Frame<'_>, app: &App) {
    let theme = Theme { color: app.color };
    let caption = caption::of(app);
    let a = areas(frame.area(), caption.is_some());
    panes::data::render(frame, a.data, app, theme);
    panes::sliders::render(frame, a.sliders, app, theme);
    panes::estimates::render(frame, a.estimates, app, theme);
    panes::battery::render(frame, a.battery, app, theme);
    panes::config::render(frame, a.config, app, theme);
    if let Some((title, lines)) = caption {
        let block = Block::new()
            .borders(Borders::TOP)
            .title(format!(" {title} "))
            .border_style(theme.border(true));
        let text: Vec<Line> = lines.into_iter().map(Line::from).collect();
        frame.render_widget(
            Paragraph::new(text).block(block).wrap(Wrap { trim: true }),
            a.caption,
        );
    }
    frame.render_widget(Paragraph::new(status_line(app, theme)), a.status);
    if app.help {
        panes::help::render(frame, frame.area(), theme);
    }
}

fn status_line(app: &App, theme: Theme) -> Line<'static> {
    let mut spans = vec![Span::styled(" rhoscope ", theme.highlight())];
    let source = match &app.source {
        super::app::Source::Scenario => {
            format!(" simulated · N = {} · seed {} ", app.scenario.n(), app.seed)
        }
        super::app::Source::File(f) => format!(
            " {} ",
            crate::error::sanitize(&f.path.display().to_string())
        ),
    };
    spans.push(Span::raw(source));
    if app.computing() {
        spans.push(Span::styled(" recomputing… ", theme.warn()));
    }
    if app.frozen {
        spans.push(Span::styled(" FROZEN ", theme.warn()));
    }
    if !app.status.is_empty() {
        spans.push(Span::styled(format!(" {} ", app.status), theme.warn()));
    }
    spans.push(Span::styled(" ? help · n/p steps · q quit ", theme.dim()));
    Line::from(spans)
}
