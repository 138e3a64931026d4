//! The battery figure: one panel per test that ran, its calibrated null distribution as a
//! histogram (docs/method.md §3), the 95th-percentile threshold dashed, and the observed statistic as a
//! solid line with a diamond, the verdict and p-value in the panel's caption.

use super::PlotError;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::data::{BatteryFigure, TestPanel};
use super::style::{self, Dash, Entry, Marker};
use crate::stats::percentile;

const BINS: usize = 30;
/// The null histogram's fill and the two lines' colours.
const NULL_FILL: RGBColor = RGBColor(86, 180, 233);
const THRESHOLD: RGBColor = RGBColor(230, 159, 0);
const OBSERVED: RGBColor = RGBColor(213, 94, 0);

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &BatteryFigure,
) -> Result<(), PlotError> {
    if f.tests.is_empty() {
        return Err(PlotError::Draw(
            "nothing to plot: no test ran against a calibrated null on this panel".into(),
        ));
    }
    let area = style::canvas(root, &f.title)?;
    let (body, strip) = area.split_vertically(area.dim_in_pixel().1.saturating_sub(90));
    for (panel, test) in style::grid(&body, f.tests.len(), 3).iter().zip(&f.tests) {
        draw_test(panel, test)?;
    }
    style::legend_strip(
        &strip,
        &[
            Entry {
                label: format!("null ({})", f.null),
                colour: NULL_FILL,
                dash: None,
                marker: Some(Marker::Square),
            },
            Entry {
                label: "95th percentile (threshold)".into(),
                colour: THRESHOLD,
                dash: Some(Dash::Dashed),
                marker: None,
            },
            Entry {
                label: "observed".into(),
                colour: OBSERVED,
                dash: Some(Dash::Solid),
                marker: Some(Marker::Diamond),
            },
        ],
    )?;
    style::footnote(
        root,
        "a test fires when the observed statistic exceeds the threshold (p < 0.05)",
    )
}

fn draw_test<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    t: &TestPanel,
) -> Result<(), PlotError> {
    let null = &t.null;
    let (mut lo, mut hi) = (percentile(null, 0.0), percentile(null, 0.995));
    for v in [t.threshold, t.observed].into_iter().flatten() {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    let (lo, hi) = style::padded(lo, hi, 0.05);
    let width = (hi - lo) / BINS as f64;
    let mut h = vec![0usize; BINS];
    for &v in null {
        if let Some(b) = style::bin(v, lo, width, BINS) {
            h[b] += 1;
        }
    }
    let top = h.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.15;
    // The battery's one p-value format, as its table and the explorer's pane print it.
    let p = t.p_value.map_or(String::new(), |p| {
        format!(", p = {}", crate::battery::phrase::p_value(p))
    });
    let caption = format!("{}: {}{p}", t.name, t.verdict);
    let (caption, desc) = caption.split_once(" — ").map_or(
        (caption.clone(), "statistic".to_string()),
        |(name, rest)| {
            let (title, verdict) = rest.rsplit_once(": ").unwrap_or((rest, ""));
            (format!("{name}: {verdict}"), title.to_string())
        },
    );
    let mut chart = ChartBuilder::on(panel)
        .caption(caption, style::font(style::TICK + 2))
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(lo..hi, 0.0..top)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(4)
        .y_labels(4)
        .x_label_formatter(&style::tick_format(lo, hi))
        .y_label_formatter(&|y: &f64| format!("{y:.0}"))
        .x_desc(desc)
        .y_desc("null draws")
        .label_style(style::font(style::TICK - 4))
        .axis_desc_style(style::font(style::TICK))
        .draw()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    chart
        .draw_series(
            h.iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(b, &c)| {
                    let x0 = lo + b as f64 * width;
                    Rectangle::new(
                        [(x0, 0.0), (x0 + width, c as f64)],
                        NULL_FILL.mix(0.6).filled(),
                    )
                }),
        )
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    if let Some(th) = t.threshold.filter(|v| v.is_finite()) {
        let line = THRESHOLD.stroke_width(style::STROKE + 1);
        style::path(&mut chart, Dash::Dashed, vec![(th, 0.0), (th, top)], line)?;
    }
    if let Some(obs) = t.observed.filter(|v| v.is_finite()) {
        let line = OBSERVED.stroke_width(style::STROKE + 1);
        style::path(
            &mut chart,
            Dash::Solid,
            vec![(obs, 0.0), (obs, top * 0.92)],
            line,
        )?;
        style::marker(
            &mut chart,
            Marker::Diamond,
            (obs, top * 0.92),
            9,
            OBSERVED,
            true,
        )?;
    }
    Ok(())
}
