//! The ρ̂ marker plot: one group per anchor, one marker per estimator with its 95 % percentile
//! bootstrap interval (Section 4), and the truth of a simulated panel as a black bar.

use super::PlotError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use plotters::coord::CoordTranslate;

use super::data::{RhoFigure, RhoSeries};
use super::style::{self, Dash, Entry, Marker};

/// How far an interval may reach before it is cut at the frame (and the cut marked).
const LIMIT: f64 = 2.0;

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &RhoFigure,
) -> Result<(), PlotError> {
    let m = f.anchors.len();
    if m == 0 || f.series.is_empty() {
        return Err(PlotError::Draw(
            "nothing to plot: no anchor has an estimate".into(),
        ));
    }
    let area = style::canvas(root, &f.title)?;
    let (body, strip) = area.split_vertically(area.dim_in_pixel().1.saturating_sub(90));
    let (lo, hi) = y_range(f);
    let x_range = -0.5..(m as f64 - 0.5);
    let mut chart = ChartBuilder::on(&body)
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d(x_range, lo..hi)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    let names = f.anchors.clone();
    let anchor_name = move |x: &f64| {
        style::category(*x, names.len()).map_or_else(String::new, |k| names[k].clone())
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(m)
        .x_label_formatter(&anchor_name)
        .y_label_formatter(&|y: &f64| format!("{:.1}", if y.abs() < 1e-9 { 0.0 } else { *y }))
        .x_desc("anchor")
        .y_desc("ρ̂ₖ (95 % bootstrap CI)")
        .label_style(style::font(style::TICK))
        .axis_desc_style(style::font(style::LABEL))
        .draw()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    // ρ = 0: an uncontaminated anchor.
    style::path(
        &mut chart,
        Dash::Solid,
        vec![(-0.5, 0.0), (m as f64 - 0.5, 0.0)],
        style::GREY.stroke_width(1),
    )?;
    let mut entries = Vec::new();
    if let Some(truth) = &f.truth {
        for (k, &t) in truth.iter().enumerate() {
            let x = k as f64;
            style::path(
                &mut chart,
                Dash::Solid,
                vec![(x - 0.4, t), (x + 0.4, t)],
                style::INK.stroke_width(4),
            )?;
        }
        entries.push(Entry {
            label: "truth (simulated)".into(),
            colour: style::INK,
            dash: Some(Dash::Solid),
            marker: None,
        });
    }
    let mut notes = Notes::default();
    for (i, series) in f.series.iter().enumerate() {
        draw_estimator(
            &mut chart,
            series,
            (i, f.series.len()),
            (lo, hi),
            &mut notes,
        )?;
        entries.push(Entry {
            label: if series.resamples > 0 {
                format!("{} (B = {})", series.label, series.resamples)
            } else {
                series.label.clone()
            },
            colour: style::colour(i),
            dash: Some(Dash::of(i)),
            marker: Some(Marker::of(i)),
        });
    }
    style::legend_strip(&strip, &entries)?;
    style::footnote(root, &notes.text())
}

/// What the footnote must explain.
#[derive(Default)]
struct Notes {
    hollow: bool,
    missing: bool,
    cut: bool,
}

impl Notes {
    fn text(&self) -> String {
        let mut notes = Vec::new();
        if self.hollow {
            notes.push("hollow marker: CI undefined (< 80 % of resamples admissible)");
        }
        if self.missing {
            notes.push("undefined: ρ̂ inadmissible");
        }
        if self.cut {
            notes.push("values beyond ±2 at the frame");
        }
        notes.join("; ")
    }
}

/// Estimator `i` of `count`: its marker and interval at every anchor, offset within the
/// anchor's group, clamped to `[lo, hi]`.
fn draw_estimator<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    series: &RhoSeries,
    (i, count): (usize, usize),
    (lo, hi): (f64, f64),
    notes: &mut Notes,
) -> Result<(), PlotError>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let (colour, marker, dash) = (style::colour(i), Marker::of(i), Dash::of(i));
    let line = colour.stroke_width(style::STROKE);
    let offset = (i as f64 - (count as f64 - 1.0) / 2.0) * (0.6 / count as f64);
    for (k, rho) in series.rho.iter().enumerate() {
        let x = k as f64 + offset;
        let Some(r) = *rho else {
            notes.missing = true;
            let at = (x, lo + 0.04 * (hi - lo));
            let text = style::font(style::TICK)
                .color(&colour)
                .pos(Pos::new(HPos::Center, VPos::Bottom));
            chart
                .draw_series(std::iter::once(Text::new("undefined", at, text)))
                .map_err(|e| PlotError::Draw(e.to_string()))?;
            continue;
        };
        let interval = series.interval.get(k).copied().flatten();
        if let Some(iv) = interval {
            let (a, b) = (iv.lo.clamp(lo, hi), iv.hi.clamp(lo, hi));
            notes.cut |= a != iv.lo || b != iv.hi;
            style::path(chart, dash, vec![(x, a), (x, b)], line)?;
            for end in [a, b] {
                style::path(
                    chart,
                    Dash::Solid,
                    vec![(x - 0.04, end), (x + 0.04, end)],
                    line,
                )?;
            }
        } else {
            notes.hollow = true;
        }
        let shown = r.clamp(lo, hi);
        notes.cut |= shown != r;
        style::marker(chart, marker, (x, shown), 9, colour, interval.is_some())?;
    }
    Ok(())
}

/// [−1, 1] widened to every estimate, interval and truth, at most to ±[`LIMIT`].
fn y_range(f: &RhoFigure) -> (f64, f64) {
    let mut lo: f64 = -1.0;
    let mut hi: f64 = 1.0;
    let mut see = |v: f64| {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    };
    for s in &f.series {
        s.rho.iter().flatten().for_each(|&v| see(v));
        for iv in s.interval.iter().flatten() {
            see(iv.lo);
            see(iv.hi);
        }
    }
    f.truth.iter().flatten().for_each(|&v| see(v));
    let (lo, hi) = (lo.max(-LIMIT), hi.min(LIMIT));
    let pad = 0.05 * (hi - lo);
    (lo - pad, hi + pad)
}
