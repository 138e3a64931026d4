//! The bootstrap distribution of each ρ̂ₖ: one panel per anchor on one shared axis (so anchors
//! can be compared at a glance), each estimator's resampled
//! ρ̂ as an outline histogram (colour and dash), its 95 % percentile interval as a capped bar
//! above the histograms with ρ̂ marked on it, and the truth of a simulated panel as a black
//! vertical line.

use super::PlotError;
use std::fmt::Write as _;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::data::BootstrapFigure;
use super::style::Entry;
use super::style::{self, Dash, Marker};
use crate::stats::percentile;

/// Histogram bins across the shared axis.
const BINS: usize = 60;

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &BootstrapFigure,
) -> Result<(), PlotError> {
    let m = f.anchors.len();
    let with_draws: Vec<usize> = (0..f.series.len())
        .filter(|&i| f.series[i].draws.iter().any(|d| !d.is_empty()))
        .collect();
    if m == 0 || with_draws.is_empty() {
        return Err(PlotError::Draw(
            "nothing to plot: no estimator has bootstrap resamples".into(),
        ));
    }
    let area = style::canvas(root, &f.title)?;
    let (body, strip) = area.split_vertically(area.dim_in_pixel().1.saturating_sub(90));
    let sorted: Vec<Vec<f64>> = (0..m).map(|k| sorted_draws(f, k, &with_draws)).collect();
    let axes = shared_axes(f, &with_draws, &sorted);
    let panels = style::grid(&body, m, if m <= 3 { 1 } else { 2 });
    let mut outside = 0usize;
    for (k, panel) in panels.iter().enumerate().take(m) {
        outside += draw_anchor(panel, f, k, &with_draws, &sorted[k], axes)?;
    }
    let mut entries: Vec<Entry> = with_draws
        .iter()
        .map(|&i| Entry {
            label: format!("{} (B = {})", f.series[i].label, f.series[i].resamples),
            colour: style::colour(i),
            dash: Some(Dash::of(i)),
            marker: Some(Marker::of(i)),
        })
        .collect();
    if f.truth.is_some() {
        entries.push(Entry {
            label: "truth (simulated)".into(),
            colour: style::INK,
            dash: Some(Dash::Solid),
            marker: None,
        });
    }
    style::legend_strip(&strip, &entries)?;
    let mut note = String::from("bars: 95 % percentile intervals, marker: ρ̂");
    if outside > 0 {
        let _ = write!(
            note,
            "; {outside} resampled values beyond the 0.5–99.5 % range not binned"
        );
    }
    style::footnote(root, &note)
}

/// The binned range of anchor `k`'s panel: the pooled draws' 0.5–99.5 % range, widened to
/// every ρ̂_k and the truth.
fn x_range(f: &BootstrapFigure, k: usize, which: &[usize], sorted: &[f64]) -> (f64, f64) {
    let (mut lo, mut hi) = (percentile(sorted, 0.005), percentile(sorted, 0.995));
    let rhos = which
        .iter()
        .filter_map(|&i| f.series[i].rho.get(k).copied().flatten());
    let truth = f.truth.as_ref().and_then(|t| t.get(k)).copied();
    for v in rhos.chain(truth) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    style::padded(lo, hi, 0.05)
}

/// Each estimator's histogram density of anchor `k`'s draws, and how many fell outside.
fn densities(
    f: &BootstrapFigure,
    k: usize,
    which: &[usize],
    lo: f64,
    width: f64,
) -> (Vec<Vec<f64>>, usize) {
    let mut outside = 0;
    let hists = which
        .iter()
        .map(|&i| {
            let d = f.series[i].draws.get(k).map_or(&[][..], Vec::as_slice);
            let mut h = vec![0.0; BINS];
            for &v in d {
                match style::bin(v, lo, width, BINS) {
                    Some(b) => h[b] += 1.0,
                    None => outside += 1,
                }
            }
            let total = d.len().max(1) as f64;
            h.iter().map(|c| c / (total * width)).collect()
        })
        .collect();
    (hists, outside)
}

/// Anchor `k`'s finite draws of every estimator in `which`, sorted.
fn sorted_draws(f: &BootstrapFigure, k: usize, which: &[usize]) -> Vec<f64> {
    let mut all: Vec<f64> = which
        .iter()
        .flat_map(|&i| f.series[i].draws.get(k).into_iter().flatten().copied())
        .filter(|v| v.is_finite())
        .collect();
    all.sort_by(f64::total_cmp);
    all
}

/// The axes every panel shares: the union of the anchors' binned ranges, and the highest
/// density of any anchor's histogram.
#[derive(Debug, Clone, Copy)]
struct Axes {
    lo: f64,
    hi: f64,
    top: f64,
}

fn shared_axes(f: &BootstrapFigure, which: &[usize], sorted: &[Vec<f64>]) -> Axes {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (k, all) in sorted.iter().enumerate().filter(|(_, a)| !a.is_empty()) {
        let (a, b) = x_range(f, k, which, all);
        lo = lo.min(a);
        hi = hi.max(b);
    }
    let (lo, hi) = if lo < hi {
        (lo, hi)
    } else {
        style::padded(lo, hi, 0.05)
    };
    let width = (hi - lo) / BINS as f64;
    let top = (0..sorted.len())
        .flat_map(|k| densities(f, k, which, lo, width).0)
        .flatten()
        .fold(0.0f64, f64::max)
        .max(1e-9);
    Axes { lo, hi, top }
}

/// One anchor's panel on the shared axes; returns how many draws fell outside them.
fn draw_anchor<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    f: &BootstrapFigure,
    k: usize,
    which: &[usize],
    all: &[f64],
    Axes { lo, hi, top }: Axes,
) -> Result<usize, PlotError> {
    if all.is_empty() {
        panel
            .titled(
                &format!("{}: no admissible resample", f.anchors[k]),
                style::font(style::LABEL),
            )
            .map_err(|e| PlotError::Draw(e.to_string()))?;
        return Ok(0);
    }
    let width = (hi - lo) / BINS as f64;
    let (hists, outside) = densities(f, k, which, lo, width);
    // Room above the histograms for one interval bar per estimator.
    let bar_y = |j: usize| top * (1.08 + 0.1 * j as f64);
    let y_hi = bar_y(which.len()) + 0.02 * top;
    let mut chart = ChartBuilder::on(panel)
        .caption(&f.anchors[k], style::font(style::LABEL))
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(lo..hi, 0.0..y_hi)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(5)
        .y_labels(4)
        .x_label_formatter(&style::tick_format(lo, hi))
        .y_label_formatter(&|y: &f64| format!("{y:.0}"))
        .x_desc("ρ̂ₖ over resamples")
        .y_desc("density")
        .label_style(style::font(style::TICK))
        .axis_desc_style(style::font(style::TICK))
        .draw()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    if let Some(t) = f.truth.as_ref().and_then(|t| t.get(k)).copied() {
        style::path(
            &mut chart,
            Dash::Solid,
            vec![(t, 0.0), (t, top * 1.02)],
            style::INK.stroke_width(style::STROKE),
        )?;
    }
    for (j, (&i, h)) in which.iter().zip(&hists).enumerate() {
        let series = &f.series[i];
        let (colour, dash, marker) = (style::colour(i), Dash::of(i), Marker::of(i));
        let line = colour.stroke_width(style::STROKE);
        let mut outline = vec![(lo, 0.0)];
        for (b, &d) in h.iter().enumerate() {
            let x0 = lo + b as f64 * width;
            outline.push((x0, d));
            outline.push((x0 + width, d));
        }
        outline.push((hi, 0.0));
        style::path(&mut chart, dash, outline, line)?;
        let y = bar_y(j);
        let admissible = series.draws.get(k).map_or(0, Vec::len);
        if let Some(iv) = series.interval.get(k).copied().flatten() {
            let (a, b) = (iv.lo.clamp(lo, hi), iv.hi.clamp(lo, hi));
            style::path(&mut chart, Dash::Solid, vec![(a, y), (b, y)], line)?;
            let cap = 0.03 * top;
            for e in [a, b] {
                style::path(
                    &mut chart,
                    Dash::Solid,
                    vec![(e, y - cap), (e, y + cap)],
                    line,
                )?;
            }
        } else {
            let text = format!(
                "CI undefined ({admissible} of {} admissible)",
                series.resamples
            );
            chart
                .draw_series(std::iter::once(Text::new(
                    text,
                    (lo + 0.02 * (hi - lo), y),
                    style::font(style::TICK).color(&colour),
                )))
                .map_err(|e| PlotError::Draw(e.to_string()))?;
        }
        if let Some(Some(r)) = series.rho.get(k) {
            style::marker(&mut chart, marker, (r.clamp(lo, hi), y), 8, colour, true)?;
        }
    }
    Ok(outside)
}
