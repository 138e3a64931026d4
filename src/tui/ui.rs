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

use std::fmt::Write as _;

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

/// The smallest screen the explorer draws on; below it, one notice says so.
pub const MIN_WIDTH: u16 = 72;
pub const MIN_HEIGHT: u16 = 20;

/// Whether a screen of `area` is too small for the panes.
#[must_use]
pub fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

/// The caption's lines wrapped to `width`, title apart.
#[must_use]
pub fn caption_lines(app: &App, width: u16) -> Option<(String, Vec<String>)> {
    let (title, lines) = caption::of(app)?;
    let w = usize::from(width).max(1);
    let wrapped = lines
        .iter()
        .filter(|l| !l.is_empty())
        .flat_map(|l| super::widgets::wrap_words(l, w))
        .collect();
    Some((title, wrapped))
}

/// The layout for a screen of `area` and this state. The caption grows to fit its text (up
/// to half the screen); a loaded file gives the data pane the room the sliders do not need;
/// the presentation layout (`v`, on in talks) shows only estimates, battery and caption.
#[must_use]
pub fn areas(app: &App, area: Rect) -> Areas {
    let cap_rows = caption_lines(app, area.width).map_or(0, |(_, l)| {
        u16::try_from(l.len() + 1)
            .unwrap_or(u16::MAX)
            .min(area.height / 2)
    });
    let status_rows =
        u16::try_from(status_lines(app, Theme { color: false }, usize::from(area.width)).len())
            .unwrap_or(1);
    let [main, cap, status] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(cap_rows),
        Constraint::Length(status_rows),
    ])
    .areas(area);
    // The battery's verdict rows whole (at most half the column), then three fifths of the
    // rest to the estimates and two fifths to the configuration.
    let right_split = |r: Rect| -> [Rect; 3] {
        let battery = panes::battery::verdict_rows(app, usize::from(r.width.saturating_sub(2)))
            .min(r.height / 2);
        Layout::vertical([
            Constraint::Fill(3),
            Constraint::Length(battery),
            Constraint::Fill(2),
        ])
        .areas(r)
    };
    if app.present {
        let [estimates, battery, config] = right_split(main);
        let none = Rect::new(main.x, main.y, 0, 0);
        return Areas {
            data: none,
            sliders: none,
            estimates,
            battery,
            config,
            caption: cap,
            status,
        };
    }
    // A file's columns (name, role, family, scale) want more width than the sliders do.
    let left_pct = match app.source {
        super::app::Source::File(_) => 44,
        super::app::Source::Scenario => 36,
    };
    let [left, right] = Layout::horizontal([
        Constraint::Percentage(left_pct),
        Constraint::Percentage(100 - left_pct),
    ])
    .areas(main);
    let [data, sliders] = match app.source {
        // A file: the sliders pane says why it is idle, or draws the family of ρ (up to
        // two fifths of the column).
        super::app::Source::File(ref f) => {
            let rows = f
                .family
                .as_ref()
                .map_or(1, |_| app.panel.as_ref().map_or(1, |p| p.m() + 2));
            let want = u16::try_from(rows + 2).unwrap_or(u16::MAX);
            Layout::vertical([
                Constraint::Min(0),
                Constraint::Length(want.min((left.height * 2 / 5).max(3))),
            ])
            .areas(left)
        }
        // A scenario: the data pane needs its list of entries, the sliders the rest.
        super::app::Source::Scenario => {
            let want = u16::try_from(app.entries.len() + 3).unwrap_or(u16::MAX);
            Layout::vertical([
                Constraint::Length(want.min(left.height * 2 / 5)),
                Constraint::Min(0),
            ])
            .areas(left)
        }
    };
    let [estimates, battery, config] = right_split(right);
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

pub use super::widgets::{clamp_scroll, scroll_wrapped};

/// The pane under a terminal cell of a screen of `area`, and the slider or data-pane entry
/// drawn there, for the mouse.
#[must_use]
pub fn item_at(app: &App, area: Rect, x: u16, y: u16) -> Option<(Pane, Option<usize>)> {
    if too_small(area) {
        return None;
    }
    let a = areas(app, area);
    let pane = Pane::ALL
        .into_iter()
        .find(|p| a.of(*p).contains(ratatui::layout::Position { x, y }))?;
    let r = a.of(pane);
    let item = match pane {
        Pane::Data => panes::data::item_at(app, r, y),
        Pane::Sliders if y > r.y && y + 1 < r.bottom() => {
            let rows = usize::from(r.height.saturating_sub(2));
            let i = panes::sliders::offset(app, rows) + usize::from(y - r.y - 1);
            (i < app.scenario.sliders.len()).then_some(i)
        }
        _ => None,
    };
    Some((pane, item))
}

/// Draws the whole screen from the state. Pure: it reads `app` and writes the frame.
pub fn render(frame: &mut Frame<'_>, app: &App) {
    let theme = Theme { color: app.color };
    let area = frame.area();
    if too_small(area) {
        let text = format!(
            "terminal too small: need {MIN_WIDTH}×{MIN_HEIGHT}, have {}×{} (q quits)",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    let a = areas(app, area);
    if !app.present {
        panes::data::render(frame, a.data, app, theme);
        panes::sliders::render(frame, a.sliders, app, theme);
    }
    panes::estimates::render(frame, a.estimates, app, theme);
    panes::battery::render(frame, a.battery, app, theme);
    panes::config::render(frame, a.config, app, theme);
    for p in [Pane::Estimates, Pane::Battery, Pane::Config] {
        more_below(frame, a.of(p), app, p, theme);
    }
    if !app.present {
        more_below(frame, a.sliders, app, Pane::Sliders, theme);
    }
    if let Some((title, lines)) = caption_lines(app, a.caption.width) {
        let block = Block::new()
            .borders(Borders::TOP)
            .title(format!(" {title} "))
            .border_style(theme.border(true));
        let text: Vec<Line> = lines.into_iter().map(Line::from).collect();
        frame.render_widget(Paragraph::new(text).block(block), a.caption);
    }
    frame.render_widget(
        Paragraph::new(status_lines(app, theme, usize::from(a.status.width))),
        a.status,
    );
    if app.detail() {
        panes::detail::render(frame, area, app, theme);
    }
    if app.help() {
        panes::help::render(frame, area, theme, app, &app.overlay_end);
    }
}

/// A mark on the bottom border of a scrolling pane whose content goes on below what is
/// shown, with the keys that reach it: a line cut at the edge never passes for the end.
fn more_below(frame: &mut Frame<'_>, area: Rect, app: &App, pane: Pane, theme: Theme) {
    let end = app.scroll_end[pane].get();
    if app.scroll[pane].min(end) >= end || area.height < 3 {
        return;
    }
    let key = &pane.title()[..1];
    let text = if app.focus == pane {
        " ↓ more · j/k ".to_string()
    } else if app.frozen {
        format!(" ↓ more · f, then {key} and j/k ")
    } else {
        format!(" ↓ more · {key} then j/k ")
    };
    let w = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
    if w + 4 > area.width {
        return;
    }
    let r = Rect::new(area.right() - w - 2, area.bottom() - 1, w, 1);
    frame.render_widget(Paragraph::new(Line::styled(text, theme.warn())), r);
}

/// The validation study's progress on the status line: replicates taken, and how to stop.
fn validating_text(app: &App) -> Option<String> {
    app.validating
        .map(|v| format!(" validating {}/{} (V stops) ", v.done, v.total))
}

/// The status line, and below it the status message when it cannot share that line whole.
/// A message too long for the rows under the status line takes the status line's row too,
/// until the next key; one longer still ends with where to read it whole (`?`), so no
/// message is cut before its point and the layout never gives it more rows.
#[must_use]
pub fn status_lines(app: &App, theme: Theme, width: usize) -> Vec<Line<'static>> {
    if let Some(prompt) = app.overlay.prompt() {
        return vec![prompt_line(prompt, theme, width)];
    }
    if app.status.is_empty() || message_fits(app, width) {
        return vec![status_line(app, theme, width, true)];
    }
    let text = crate::error::sanitize(&app.status);
    let inner = width.saturating_sub(2).max(1);
    let mut rows = super::widgets::wrap_words(&text, inner);
    let mut lines = Vec::new();
    if rows.len() < STATUS_ROWS {
        lines.push(status_line(app, theme, width, false));
    } else if rows.len() > STATUS_ROWS {
        rows.truncate(STATUS_ROWS);
        rows[STATUS_ROWS - 1] = super::widgets::ended(&rows[STATUS_ROWS - 1], inner);
    }
    lines.extend(
        rows.into_iter()
            .map(|l| Line::styled(format!(" {l} "), theme.warn())),
    );
    lines
}

/// The most rows the status line and its message take.
const STATUS_ROWS: usize = 3;

/// Whether a file is being read (at start, a large panel takes seconds): the status line says so.
fn loading(app: &App) -> bool {
    matches!(&app.source, super::app::Source::File(f) if f.loading)
}

/// What the status line shows besides the source and the message: the busy and frozen badges.
fn busy_cells(app: &App) -> usize {
    let computing = if app.computing() { 14 } else { 0 } + if loading(app) { 10 } else { 0 };
    let frozen = if app.frozen { 8 } else { 0 };
    computing + frozen + validating_text(app).map_or(0, |v| v.chars().count())
}

/// Whether the status message fits whole on the status line beside the source (the size and
/// seed of a simulated panel, or at least the end of a file's path).
fn message_fits(app: &App, width: usize) -> bool {
    let message = app.status.chars().count() + 2;
    let source = match &app.source {
        super::app::Source::Scenario => scenario_text(app).chars().count(),
        super::app::Source::File(f) => name_room(&f.path) + 2,
    };
    10 + source + busy_cells(app) + message <= width
}

/// The cells the status line keeps for a file's source: its name whole (and the "…" before
/// it when the path is longer), as [`crate::wording::source_name`] words it.
fn name_room(path: &std::path::Path) -> usize {
    let shown = crate::error::sanitize(&crate::wording::source_name(path));
    let name = path
        .file_name()
        .filter(|_| path.as_os_str() != "-")
        .map_or_else(
            || shown.clone(),
            |n| crate::error::sanitize(&n.to_string_lossy()),
        );
    let len = name.chars().count();
    if len < shown.chars().count() {
        len + 1
    } else {
        len
    }
}

fn scenario_text(app: &App) -> String {
    // A talk scene without its panel (HANNA not at hand) shows no simulated one.
    if app.panel.is_none() && matches!(app.mode, super::app::Mode::Demo(_)) {
        return " no panel in this scene ".into();
    }
    format!(" simulated · N = {} · seed {} ", app.scenario.n(), app.seed)
}

fn status_line(app: &App, theme: Theme, width: usize, message: bool) -> Line<'static> {
    let status = if message { app.status.as_str() } else { "" };
    let mut spans = vec![Span::styled(" rhoscope ", theme.highlight())];
    let source = match &app.source {
        super::app::Source::Scenario => scenario_text(app),
        super::app::Source::File(f) => {
            // A long path gives way (keeping its end, the file's name) so that the status
            // message after it, which may carry a number, is shown whole.
            let path = crate::error::sanitize(&crate::wording::source_name(&f.path));
            let status = if status.is_empty() {
                0
            } else {
                status.chars().count() + 2
            };
            // Stepping, the keys that step keep their room too ("? help · n/p steps").
            let keys = match app.mode {
                super::app::Mode::Explore => 0,
                _ => hint_text(app)
                    .split(" · ")
                    .take(2)
                    .map(|p| p.chars().count() + 3)
                    .sum(),
            };
            // The file's own name stays whole: a stub such as "…e_panel.csv" names nothing.
            let room = width
                .saturating_sub(10 + 2 + status + busy_cells(app) + keys)
                .max(name_room(&f.path));
            format!(" {} ", super::widgets::keep_end(&path, room))
        }
    };
    spans.push(Span::raw(source));
    if loading(app) {
        spans.push(Span::styled(" loading… ", theme.warn()));
    }
    if app.computing() {
        spans.push(Span::styled(" recomputing… ", theme.warn()));
    }
    if let Some(v) = validating_text(app) {
        spans.push(Span::styled(v, theme.warn()));
    }
    if app.frozen {
        spans.push(Span::styled(" FROZEN ", theme.warn()));
    }
    if !status.is_empty() {
        spans.push(Span::styled(format!(" {status} "), theme.warn()));
    }
    // The keys the message already names are not said twice.
    let hint: Vec<&str> = hint_text(app)
        .split(" · ")
        .filter(|part| {
            let key = part.split(' ').next().unwrap_or_default();
            !app.status.split_whitespace().any(|w| w == key)
        })
        .collect();
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let shown = super::widgets::whole_parts(&hint.join(" · "), width.saturating_sub(used + 2));
    if !shown.is_empty() {
        spans.push(Span::styled(format!(" {shown} "), theme.dim()));
    }
    Line::from(spans)
}

/// The keys the status line offers; frozen, only those that act (no help, no layout).
fn hint_text(app: &App) -> &'static str {
    match (app.mode, app.frozen) {
        (super::app::Mode::Explore, false) => "? help · n talk/walk · q quit",
        (super::app::Mode::Explore, true) => "q quit",
        (_, false) => "? help · n/p steps · v layout · Esc back",
        (_, true) => "n/p steps · f unfreezes · Esc back",
    }
}

/// A prompt on the status line: what it asks, the text (its end in view, where the typing
/// happens) and the keys or, after an ambiguous `Tab`, what it could still become.
fn prompt_line(prompt: &super::app::Prompt, theme: Theme, width: usize) -> Line<'static> {
    let (label, keys) = match prompt.kind {
        super::app::PromptKind::Path => (
            " open: ".to_string(),
            "Tab completes · Enter opens · Esc cancels",
        ),
        super::app::PromptKind::Family(_) => (
            " family: ".to_string(),
            "Enter sets · empty clears · Esc cancels",
        ),
    };
    let text = crate::error::sanitize(&prompt.text);

    let label_len = label.chars().count();
    let mut shown = super::widgets::keep_end(&text, width.saturating_sub(8));
    if !prompt.choices.is_empty() {
        // The choices are the point after an ambiguous Tab: the typed text keeps its end.
        shown = super::widgets::keep_end(&text, text.chars().count().min(24));
    }
    // After an ambiguous Tab, what each name the path could still become adds to the typed
    // text (what to type next), as many as fit whole, and how many more.
    let room = width.saturating_sub(label_len + shown.chars().count() + 2);
    let typed = prompt.text.rsplit('/').next().unwrap_or_default();
    let mut hint = String::new();
    for (i, c) in prompt.choices.iter().enumerate() {
        let c = crate::error::sanitize(c.strip_prefix(typed).unwrap_or(c));
        let left = prompt.choices.len() - i - 1;
        let more = if left > 0 {
            8 + left.to_string().len()
        } else {
            0
        };
        if hint.chars().count() + 2 + c.chars().count() + more > room {
            let _ = write!(hint, "  +{} more", prompt.choices.len() - i);
            break;
        }
        hint.push_str("  ");
        hint.push_str(if c.is_empty() {
            "(as typed)"
        } else {
            c.as_str()
        });
    }
    if !prompt.choices.is_empty() {
        let hint_len = hint.chars().count();
        shown = super::widgets::keep_end(&text, width.saturating_sub(label_len + hint_len + 2));
    }
    if prompt.choices.is_empty() {
        let keys = if prompt.no_match {
            format!("no match · {keys}")
        } else {
            keys.to_string()
        };
        hint = super::widgets::whole_parts(&keys, room.saturating_sub(2));
        if !hint.is_empty() {
            hint.insert_str(0, "  ");
        }
    }
    Line::from(vec![
        Span::styled(label, theme.highlight()),
        Span::raw(format!("{shown}▏")),
        Span::styled(hint, theme.dim()),
    ])
}
