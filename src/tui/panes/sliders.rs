//! The sliders pane: each knob with its value, a bar when there is room, the selected one
//! marked and kept in view. Values are never clipped: the label is elided and the bar
//! dropped first.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::action::Pane;
use crate::tui::app::{App, Source};
use crate::tui::sliders::Slider;
use crate::tui::theme::{Theme, pane_block};

/// The first slider shown in a pane with `rows` lines of content, so that the selected one
/// is in view.
#[must_use]
pub fn offset(app: &App, rows: usize) -> usize {
    app.selected.saturating_sub(rows.max(1) - 1)
}

/// One slider line of exactly `width` characters (or the value alone, if even that is
/// wider): marker, label (padded to `label_w`, or elided), a bar when every line has room
/// for one, value right-aligned.
#[must_use]
pub fn slider_text(s: &Slider, selected: bool, width: usize, label_w: usize) -> String {
    let marker = if selected { "▸ " } else { "  " };
    let value = s.value_text();
    let fixed = 2 + 1 + 6;
    if width <= fixed {
        return value;
    }
    let room = width - fixed;
    let (label, bar) = if room >= label_w + 1 + 8 {
        let bar_w = (room - label_w - 1).min(24);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss,
            reason = "fraction in [0, 1]"
        )]
        let filled = ((s.fraction() * bar_w as f64).round() as usize).min(bar_w);
        let bar = format!("{}{}", "█".repeat(filled), "░".repeat(bar_w - filled));
        (format!("{:<label_w$}", s.label), bar)
    } else {
        (crate::error::clip(&s.label, room), String::new())
    };
    let left = if bar.is_empty() {
        label
    } else {
        format!("{label} {bar}")
    };
    let pad = room.saturating_sub(left.chars().count());
    format!("{marker}{left}{} {value:>6}", " ".repeat(pad))
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let block = pane_block(Pane::Sliders, app, theme, "h/l ±fine · H/L ±coarse", area);
    let i = Pane::Sliders;
    if let Some(lines) =
        crate::tui::trust::family_lines(app, usize::from(area.width.saturating_sub(2)))
    {
        // j/k scroll what does not fit; the border says "↓ more" (ui.rs).
        let p = Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block);
        let shown = crate::tui::widgets::scroll_wrapped(p, app.scroll[i], area, &app.scroll_end[i]);
        frame.render_widget(shown, area);
        return;
    }
    // The sliders scroll by selection: nothing lies below the border.
    app.scroll_end[i].set(0);
    if app.source != Source::Scenario {
        let p = Paragraph::new(Line::styled("for presets (simulated) only", theme.dim()))
            .wrap(Wrap { trim: true })
            .block(block);
        frame.render_widget(p, area);
        return;
    }
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let rows = usize::from(inner.height);
    let n = app.scenario.sliders.len();
    // Room for the hint lines only when every slider fits.
    let extra = rows.saturating_sub(n);
    let from = offset(app, rows);
    let label_w = app
        .scenario
        .sliders
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = Vec::new();
    for (i, s) in app.scenario.sliders.iter().enumerate().skip(from) {
        let selected = i == app.selected;
        let style = if selected {
            theme.highlight()
        } else {
            ratatui::style::Style::new()
        };
        lines.push(Line::from(Span::styled(
            slider_text(s, selected, width, label_w),
            style,
        )));
    }
    let mut notes: Vec<String> = Vec::new();
    if let Some(s) = app.scenario.sliders.get(app.selected) {
        notes.push(format!("{} … {}: {}", s.min, s.max, s.hint));
    }
    let sa: Vec<String> = app
        .scenario
        .sigma_a
        .iter()
        .map(|x| format!("{x}"))
        .collect();
    let families = match app.scenario.params().violations.families {
        crate::model::Families::None => "no families".to_string(),
        crate::model::Families::Blocks(k) => format!("{k} families"),
        crate::model::Families::Labels(mut l) => {
            l.sort();
            l.dedup();
            format!("{} families", l.len())
        }
    };
    notes.push(format!(
        "fixed: σ_t² = {}, σ_a = ({}), {families}, seed {} (s: new)",
        app.scenario.sigma_t2,
        sa.join(", "),
        app.seed
    ));
    // Whole notes only: a note cut after its first line loses its point ("(s: new)").
    let mut room = extra;
    for note in notes {
        let wrapped = crate::tui::widgets::wrap_words(&note, width.saturating_sub(2));
        if wrapped.len() > room {
            break;
        }
        room -= wrapped.len();
        for l in wrapped {
            lines.push(Line::styled(format!("  {l}"), theme.dim()));
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
