//! The data pane: presets and panel files to open, and a loaded file's columns with their
//! role, detected scale, family and missing count (roles and families are editable).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::error::sanitize;
use crate::tui::action::Pane;
use crate::tui::app::{App, Entry, Role, Source};
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::wrap_words;

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let extra = match &app.source {
        Source::Scenario => "simulated",
        Source::File(_) => "file",
    };
    let block = pane_block(Pane::Data, app, theme, extra);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // A load error stays on top, unscrolled, so it is seen at any size (leaving two rows for the list).
    let errors: Vec<Line> = app.load_error.as_ref().map_or_else(Vec::new, |e| {
        wrap_words(&format!("error: {}", sanitize(e)), usize::from(inner.width))
            .into_iter()
            .map(|l| Line::styled(l, theme.warn()))
            .collect()
    });
    let error_rows = u16::try_from(errors.len())
        .unwrap_or(u16::MAX)
        .min(inner.height.saturating_sub(2));
    let [top, list_area] =
        Layout::vertical([Constraint::Length(error_rows), Constraint::Min(0)]).areas(inner);
    frame.render_widget(Paragraph::new(errors), top);
    let mut lines: Vec<Line> = Vec::new();
    lines.push(Line::styled("open (Enter):", theme.dim()));
    for (i, e) in app.entries.iter().enumerate() {
        let label = match e {
            Entry::Preset(n) => format!("preset  {n}"),
            Entry::File(p) => format!("file    {}", sanitize(&p.display().to_string())),
        };
        lines.push(cursor_line(app, i, &label, theme));
    }
    if let Source::File(f) = &app.source {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!(
                "{}{}",
                sanitize(&f.path.display().to_string()),
                if f.loading { " — loading…" } else { "" }
            ),
            theme.dim(),
        ));
        if !f.header.is_empty() {
            lines.push(Line::styled("Space: role · +/-: family", theme.dim()));
            lines.push(Line::styled(
                "column  role  scale  family  missing",
                theme.dim(),
            ));
        }
        let panel = app.panel.as_deref();
        for (c, name) in f.header.iter().enumerate() {
            let role = match f.roles.get(c) {
                Some(Role::Judge) => "judge",
                Some(Role::Anchor) => "anchor",
                _ => "—",
            };
            let idx = panel.and_then(|p| p.names().iter().position(|n| n == name));
            let scale = idx
                .and_then(|i| panel.map(|p| p.scales[i].describe()))
                .unwrap_or_default();
            let missing = idx
                .and_then(|i| panel.map(|p| p.missing[i].to_string()))
                .unwrap_or_default();
            let fam = f
                .families
                .get(c)
                .copied()
                .flatten()
                .map_or("—".into(), |x| format!("F{x}"));
            let label = format!("{}  {role}  {scale}  {fam}  {missing}", sanitize(name));
            lines.push(cursor_line(app, app.entries.len() + c, &label, theme));
        }
    }
    // Keep the cursor's line in view: scroll so it sits on the last visible row at most.
    let visible = usize::from(list_area.height).max(1);
    let cursor_line = lines
        .iter()
        .position(|l| l.spans.first().is_some_and(|s| s.content.starts_with('▸')))
        .unwrap_or(0);
    let offset = u16::try_from(cursor_line.saturating_sub(visible - 1)).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(lines).scroll((offset, 0)), list_area);
}

fn cursor_line(app: &App, i: usize, label: &str, theme: Theme) -> Line<'static> {
    if app.focus == Pane::Data && app.cursor == i {
        Line::from(Span::styled(format!("▸ {label}"), theme.highlight()))
    } else {
        Line::raw(format!("  {label}"))
    }
}
