//! The data pane: presets and panel files to open, and a loaded file's columns with their
//! role, detected scale, family and missing count (roles and families are editable).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::error::sanitize;
use crate::tui::action::Pane;
use crate::tui::app::{App, Entry, Role, Source};
use crate::tui::ui::{Theme, pane_block};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let mut lines: Vec<Line> = Vec::new();
    // A load error goes first, so it is seen at any size.
    if let Some(e) = &app.load_error {
        lines.push(Line::styled(
            format!("error: {}", sanitize(e)),
            theme.warn(),
        ));
    }
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
            lines.push(Line::styled(
                "column  role  scale  family  missing   (Space role, +/- family)",
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
    let extra = match &app.source {
        Source::Scenario => "simulated",
        Source::File(_) => "file",
    };
    frame.render_widget(
        Paragraph::new(lines)
            .block(pane_block(Pane::Data, app, theme, extra))
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn cursor_line(app: &App, i: usize, label: &str, theme: Theme) -> Line<'static> {
    if app.focus == Pane::Data && app.cursor == i {
        Line::from(Span::styled(format!("▸ {label}"), theme.highlight()))
    } else {
        Line::raw(format!("  {label}"))
    }
}
