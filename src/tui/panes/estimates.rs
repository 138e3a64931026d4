//! The estimates pane: ρ̂_k with its bootstrap CI beside the true ρ_k as a marker plot,
//! σ̂_t² and σ̂_c², flags with their meaning, and the blocked and designated-clean estimates.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::estimate::{Context, Estimate, Estimator};
use crate::tui::action::Pane;
use crate::tui::app::{App, Source};
use crate::tui::theme::{Theme, pane_block};
use crate::tui::widgets::marker_line;

fn num(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map_or_else(|| "undef".into(), |v| format!("{v:.3}"))
}

pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App, theme: Theme) {
    let block = pane_block(Pane::Estimates, app, theme, "● estimate ═ 95% CI ◆ truth");
    let Some((fits, e)) = app
        .fit
        .as_ref()
        .and_then(|f| f.closed_form().map(|e| (f, e)))
    else {
        let why = app
            .battery
            .as_ref()
            .and_then(|b| b.decision.refusal.clone())
            .unwrap_or_else(|| "no estimate yet (ρ needs ≥ 2 judges and ≥ 2 anchors)".into());
        frame.render_widget(
            Paragraph::new(why).block(block).wrap(Wrap { trim: true }),
            area,
        );
        return;
    };
    let truth = match app.source {
        Source::Scenario => Some(app.scenario.params()),
        Source::File(_) => None,
    };
    let stale = app.battery_stale();
    let boot = app
        .battery
        .as_ref()
        .and_then(|b| b.boot())
        .filter(|_| !stale);
    let names = app
        .panel
        .as_ref()
        .map(|p| p.anchors.clone())
        .unwrap_or_default();
    let plot_w = usize::from(area.width.saturating_sub(40)).clamp(0, 41);
    let mut lines: Vec<Line> = Vec::new();
    for (k, a) in e.anchors.iter().enumerate() {
        let ci = boot.and_then(|b| b.rho.get(k).copied().flatten());
        let t = truth.as_ref().map(|p| p.rho[k]);
        let plot = marker_line(a.rho, ci.map(|c| (c.lo, c.hi)), t, plot_w);
        let ci_text = ci.map_or_else(
            || {
                if stale {
                    "[…]".to_string()
                } else {
                    "[—]".to_string()
                }
            },
            |c| format!("[{:.2}, {:.2}]", c.lo, c.hi),
        );
        let mut spans = vec![
            Span::raw(format!(
                "{:<4} ",
                crate::error::clip(names.get(k).map_or("", String::as_str), 4)
            )),
            Span::raw(plot),
            Span::raw(format!(" ρ̂ {} {ci_text}", num(a.rho))),
        ];
        if let Some(t) = t {
            spans.push(Span::styled(format!(" ◆{t:.2}"), theme.truth()));
        }
        lines.push(Line::from(spans));
    }
    let truth_s = truth
        .as_ref()
        .map(|p| {
            // Proposition 1: a uniform second factor adds g·h to the σ_t² the closed form sees.
            format!(" (true σ_t² {:.2}, σ_c² {:.2})", p.sigma_t2, p.sigma_c2)
        })
        .unwrap_or_default();
    lines.push(Line::raw(format!(
        "σ̂_t² {}  σ̂_c² {}  K {}  den {}{truth_s}",
        num(Some(e.sigma_t2)),
        num(Some(e.sigma_c2)),
        num(Some(e.k)),
        num(Some(e.denominator))
    )));
    for f in &e.flags {
        lines.push(Line::styled(
            format!("FLAG {}: {}", f.code.as_str(), f.message(e, &names)),
            theme.warn(),
        ));
    }
    // Every comparison the explorer fits, in its order; n/a where one cannot run.
    let ctx = Context {
        clean: Some(0),
        ..Context::default()
    };
    for e in crate::estimate::fits::EXPLORER {
        if e != Estimator::ClosedForm {
            lines.push(compare_line(&e.label(&ctx, &names), fits.estimate(e)));
        }
    }
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn compare_line(label: &str, est: Option<&Estimate>) -> Line<'static> {
    match est {
        None => Line::raw(format!("{label}: n/a")),
        Some(e) => {
            let rhos: Vec<String> = e.rho().iter().map(|r| num(*r)).collect();
            Line::raw(format!("{label}: ρ̂ = ({})", rhos.join(", ")))
        }
    }
}
