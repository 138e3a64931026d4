//! The sliders pane: each knob with its value, range and a bar; the selected one marked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::action::Pane;
use crate::tui::app::{App, Source};
use crate::tui::theme::{Theme, pane_block};

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let block = pane_block(
        Pane::Sliders,
        app,
        theme,
        "h/l ±fine · H/L ±coarse · [ ] select",
    );
    if app.source != Source::Scenario {
        let p = Paragraph::new(vec![
            Line::raw("Sliders drive simulated scenarios."),
            Line::styled("Open a preset in the data pane to use them.", theme.dim()),
        ])
        .block(block);
        frame.render_widget(p, area);
        return;
    }
    let inner_w = usize::from(area.width.saturating_sub(2));
    let bar_w = inner_w.saturating_sub(34).clamp(0, 24);
    let mut lines: Vec<Line> = Vec::new();
    for (i, s) in app.scenario.sliders.iter().enumerate() {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "fraction in [0, 1]"
        )]
        let filled = (s.fraction() * bar_w as f64).round() as usize;
        let bar = format!(
            "{}{}",
            "█".repeat(filled),
            "░".repeat(bar_w - filled.min(bar_w))
        );
        let value = if s.fine >= 1.0 {
            format!("{:.0}", s.value)
        } else {
            format!("{:.2}", s.value)
        };
        let text = format!("{:<18} {bar} {value:>6}", s.label);
        let selected = i == app.selected;
        let style = if selected {
            theme.highlight()
        } else {
            ratatui::style::Style::new()
        };
        let marker = if selected { "▸ " } else { "  " };
        lines.push(Line::from(vec![Span::styled(
            format!("{marker}{text}"),
            style,
        )]));
    }
    if let Some(s) = app.scenario.sliders.get(app.selected) {
        lines.push(Line::styled(
            format!("  {}: {} … {} — {}", s.label, s.min, s.max, s.hint),
            theme.dim(),
        ));
    }
    let sa: Vec<String> = app
        .scenario
        .sigma_a
        .iter()
        .map(|x| format!("{x}"))
        .collect();
    lines.push(Line::styled(
        format!(
            "  fixed: σ_t² = {}, σ_a = ({}), 3 families, seed {} (s: new)",
            app.scenario.sigma_t2,
            sa.join(", "),
            app.seed
        ),
        theme.dim(),
    ));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
