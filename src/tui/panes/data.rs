//! The data pane: presets and panel files to open, and a file's columns with their role,
//! scale, family and missing count (roles, scales and families are editable). A file whose
//! roles could not be guessed lists its header with role "—", ready for `Space`. The list
//! scrolls to keep the cursor in view.

use std::fmt::Write as _;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::error::{clip, sanitize};
use crate::tui::action::Pane;
use crate::tui::app::{App, Entry, FileState, Role, Source};
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::{cells, elide_distinct, fit_cells, keep_end, wrap_words};

/// The data pane's regions: the error on top (unscrolled) and the list.
fn regions(app: &App, area: Rect) -> (Rect, Rect, Vec<String>) {
    let inner = pane_block(Pane::Data, app, Theme { color: false }, "", area).inner(area);
    let errors: Vec<String> = app.load_error.as_ref().map_or_else(Vec::new, |e| {
        wrap_words(&sanitize(e), usize::from(inner.width))
    });
    // The whole reason, so it can be read; the list keeps two rows (the cursor's among them).
    let error_rows = u16::try_from(errors.len())
        .unwrap_or(u16::MAX)
        .min(inner.height.saturating_sub(2).max(2))
        .min(inner.height);
    let [top, list] =
        Layout::vertical([Constraint::Length(error_rows), Constraint::Min(0)]).areas(inner);
    (top, list, errors)
}

/// The data pane's list: lines with the entry (or column) each selects, and where the
/// loader's notes are among them.
struct List {
    lines: Vec<(Line<'static>, Option<usize>)>,
    notes: std::ops::Range<usize>,
}

/// The list: the open hint and the entries, then the open file's path, the loader's notes
/// and its columns.
fn list(app: &App, theme: Theme, width: usize) -> List {
    let mut lines: Vec<(Line, Option<usize>)> = Vec::new();
    lines.push((Line::styled("open (Enter) · o: a path", theme.dim()), None));
    for (i, e) in app.entries.iter().enumerate() {
        let label = match e {
            Entry::Preset(n) => format!("preset  {n}"),
            // A long path keeps its file's name.
            Entry::File(p) => format!(
                "file    {}",
                keep_end(
                    &sanitize(&p.display().to_string()),
                    width.saturating_sub(10)
                )
            ),
        };
        lines.push((cursor_line(app, i, &label, theme, width), Some(i)));
    }
    let Source::File(f) = &app.source else {
        return List { lines, notes: 0..0 };
    };
    lines.push((Line::raw(""), None));
    // A long path keeps its end, the file's name.
    let suffix = if f.loading { " — loading…" } else { "" };
    let path = sanitize(&crate::wording::source_name(&f.path));
    let path = keep_end(&path, width.saturating_sub(suffix.chars().count()).max(8));
    lines.push((Line::styled(format!("{path}{suffix}"), theme.dim()), None));
    // The loader's notes, whole (wrapped, never cut), under the path they are about.
    let start = lines.len();
    for note in &f.notes {
        for l in wrap_words(&sanitize(note), width.saturating_sub(2).max(1)) {
            lines.push((Line::styled(format!("  {l}"), theme.warn()), None));
        }
    }
    let notes = start..lines.len();
    if !f.header.is_empty() {
        column_lines(app, f, theme, width, &mut lines);
    }
    List { lines, notes }
}

/// The file's columns under their key hint and heading: name, role, family, and scale and
/// missing count where they fit whole.
fn column_lines(
    app: &App,
    f: &FileState,
    theme: Theme,
    width: usize,
    lines: &mut Vec<(Line<'static>, Option<usize>)>,
) {
    let keys = [
        "Space: role (judge/anchor/—)".to_string(),
        "c: scale (ord/cont)".into(),
        "F: type family".into(),
        "+/-: family".into(),
    ];
    for l in crate::tui::widgets::flow(&keys, " · ", width.saturating_sub(1)) {
        lines.push((Line::styled(l, theme.dim()), None));
    }
    let panel = app.panel.as_deref();
    let longest = f
        .header
        .iter()
        .map(|h| cells(&sanitize(h)))
        .max()
        .unwrap_or(0)
        .max("column".len());
    let fam_w = f
        .families
        .iter()
        .flatten()
        .map(|x| sanitize(x).chars().count())
        .max()
        .unwrap_or(1)
        .clamp(6, 14);
    // name, role (6), scale (5), family, then the missing count when there is room.
    // (the cursor marker takes two columns)
    let name_w = longest.min(width.saturating_sub(2 + 1 + 6 + 1 + 5 + 1 + fam_w).max(6));
    let mut heading = format!(
        "  {:<name_w$} {:<6} {:<5} {:<fam_w$}",
        clip("column", name_w),
        "role",
        "scale",
        "family"
    );
    // The missing count, heading and all rows together, only where it fits whole: a count
    // without its heading reads as stray digits at the border.
    // "NA" (the files' own word for a missing value) where "missing" does not fit.
    let digits = panel.map_or(1, |p| {
        p.missing
            .iter()
            .map(|m| m.to_string().len())
            .max()
            .unwrap_or(1)
    });
    // No panel yet, no counts: no heading either.
    let missing_w = ["missing", "NA"]
        .into_iter()
        .map(|h| (h, h.len().max(digits)))
        .find(|(_, w)| heading.chars().count() + 1 + w <= width)
        .filter(|_| panel.is_some());
    if let Some((h, w)) = missing_w {
        let _ = write!(heading, " {h:>w$}");
    }
    lines.push((Line::styled(heading, theme.dim()), None));
    let sanitized: Vec<String> = f.header.iter().map(|h| sanitize(h)).collect();
    let names = elide_distinct(&sanitized, name_w);
    for (c, name) in f.header.iter().enumerate() {
        // By cells, not characters: a wide (CJK) name keeps the columns after it in place.
        let shown = fit_cells(&names[c], name_w);
        let label = column_row(f, panel, c, name, &shown, fam_w, missing_w.map(|m| m.1));
        let i = app.entries.len() + c;
        lines.push((cursor_line(app, i, &label, theme, width), Some(i)));
    }
}

/// One column's row of the data pane: its role, scale (why a test may be N/A), family and
/// missing count, under the headings.
fn column_row(
    f: &FileState,
    panel: Option<&crate::panel::Panel>,
    c: usize,
    name: &str,
    shown: &str,
    fam_w: usize,
    missing_w: Option<usize>,
) -> String {
    // The trusted anchor carries its mark wherever its row is: "clean" is an assumption.
    let trusted = f.trusted.as_deref() == f.header.get(c).map(String::as_str);
    let role = match f.roles.get(c) {
        Some(Role::Judge) => "judge",
        Some(Role::Anchor) if trusted => "trust✓",
        Some(Role::Anchor) => "anchor",
        _ => "—",
    };
    let idx = panel.and_then(|p| p.names().iter().position(|n| n == name));
    // Never blank: the scale is why a test or an estimator is N/A.
    let scale = idx
        .and_then(|i| panel.and_then(|p| p.scales.get(i)))
        .map_or(
            if f.forces_continuous(name) {
                "cont"
            } else {
                "—"
            },
            |s| {
                if s.is_ordinal() { "ord" } else { "cont" }
            },
        );
    let missing = idx
        .and_then(|i| panel.map(|p| p.missing[i].to_string()))
        .unwrap_or_default();
    let fam = f
        .families
        .get(c)
        .cloned()
        .flatten()
        .map_or_else(|| "—".into(), |x| clip(&sanitize(&x), fam_w));
    let mut label = format!("{shown} {role:<6} {scale:<5} {fam:<fam_w$}");
    // Right-aligned under its heading, as wide as the widest count.
    if let Some(w) = missing_w {
        let _ = write!(label, " {missing:>w$}");
    }
    label
}

/// The first list line shown in a list of `rows` rows: the cursor's line stays in view, and
/// with the cursor on a column the list starts at the file's heading, not the open list.
fn offset(list: &List, cursor: usize, entries: usize, rows: usize) -> usize {
    let at = list
        .lines
        .iter()
        .position(|(_, i)| *i == Some(cursor))
        .unwrap_or(0);
    let low = at.saturating_sub(rows.max(1) - 1);
    if cursor < entries {
        return low;
    }
    // Line 0 is the hint, then the entries, a blank line, and the file's path: start there.
    let start = (entries + 2).clamp(low, at);
    // Never inside the loader's notes: a note's tail alone reads as nonsense. Past them
    // instead, when the path and the notes do not fit with the cursor.
    if start > list.notes.start && start < list.notes.end {
        list.notes.end.min(at)
    } else {
        start
    }
}

/// The entry or column drawn at screen row `y` of a data pane drawn in `area`, if any.
#[must_use]
pub fn item_at(app: &App, area: Rect, y: u16) -> Option<usize> {
    let (_, list_area, _) = regions(app, area);
    if y < list_area.y || y >= list_area.bottom() {
        return None;
    }
    let lines = list(app, Theme { color: false }, usize::from(list_area.width));
    let from = offset(
        &lines,
        app.cursor,
        app.entries.len(),
        usize::from(list_area.height),
    );
    lines
        .lines
        .get(from + usize::from(y - list_area.y))
        .and_then(|(_, i)| *i)
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let extra = match &app.source {
        Source::Scenario => "simulated",
        Source::File(_) => "file",
    };
    let block = pane_block(Pane::Data, app, theme, extra, area);
    frame.render_widget(block, area);
    let (top, list_area, errors) = regions(app, area);
    let errors: Vec<Line> = errors
        .into_iter()
        .map(|l| Line::styled(l, theme.warn()))
        .collect();
    frame.render_widget(Paragraph::new(errors), top);
    let lines = list(app, theme, usize::from(list_area.width));
    let from = offset(
        &lines,
        app.cursor,
        app.entries.len(),
        usize::from(list_area.height),
    );
    let shown: Vec<Line> = lines.lines.into_iter().skip(from).map(|(l, _)| l).collect();
    frame.render_widget(Paragraph::new(shown), list_area);
}

fn cursor_line(app: &App, i: usize, label: &str, theme: Theme, width: usize) -> Line<'static> {
    let text = clip(label, width.saturating_sub(2).max(1));
    if app.focus == Pane::Data && app.cursor == i {
        Line::from(Span::styled(format!("▸ {text}"), theme.highlight()))
    } else {
        Line::raw(format!("  {text}"))
    }
}
