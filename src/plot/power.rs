//! Power curves: each test's rejection rate against N (log axis) at one violation strength,
//! each on its own violation design (`power`), with ±2 Monte-Carlo SE bars and the nominal
//! 5 % level dashed.

use super::PlotError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::data::PowerFigure;
use super::style::{self, Dash, Entry, Marker};

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &PowerFigure,
) -> Result<(), PlotError> {
    let ns: Vec<f64> = f
        .curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.0 as f64))
        .collect();
    if ns.is_empty() {
        return Err(PlotError::Draw(
            "nothing to plot: no test has a power estimate".into(),
        ));
    }
    let area = style::canvas(root, &f.title)?;
    let (body, legend) = area.split_horizontally(area.dim_in_pixel().0 * 62 / 100);
    let n_lo = ns.iter().copied().fold(f64::INFINITY, f64::min);
    let n_hi = ns.iter().copied().fold(0.0, f64::max);
    let (x_lo, x_hi) = if n_hi > n_lo {
        (n_lo / 1.15, n_hi * 1.15)
    } else {
        (n_lo / 2.0, n_lo * 2.0)
    };
    let mut chart = ChartBuilder::on(&body)
        .margin(20)
        .margin_bottom(50)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d((x_lo..x_hi).log_scale(), 0.0..1.05)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(2)
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|y: &f64| format!("{y:.1}"))
        .x_desc("N (items, log scale)")
        .y_desc(format!("power at strength {}", f.strength))
        .label_style(style::font(style::TICK))
        .axis_desc_style(style::font(style::LABEL))
        .light_line_style(WHITE)
        .draw()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    // A tick at every N drawn (a log axis's own ticks skip most of them).
    let mut drawn: Vec<usize> = f
        .curves
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.0))
        .collect();
    drawn.sort_unstable();
    drawn.dedup();
    for &n in &drawn {
        let x = n as f64;
        style::path(
            &mut chart,
            Dash::Solid,
            vec![(x, 0.0), (x, 1.05)],
            RGBColor(225, 225, 225).stroke_width(1),
        )?;
        let (px, py) = chart.backend_coord(&(x, 0.0));
        let tick = style::font(style::TICK).pos(Pos::new(HPos::Center, VPos::Top));
        root.draw(&Text::new(n.to_string(), (px, py + 8), tick))
            .map_err(|e| PlotError::Draw(e.to_string()))?;
    }
    style::path(
        &mut chart,
        Dash::Dotted,
        vec![(x_lo, 0.05), (x_hi, 0.05)],
        style::GREY.stroke_width(style::STROKE),
    )?;
    for (i, c) in f.curves.iter().enumerate() {
        let (colour, dash, marker) = (style::colour(i), Dash::of(i), Marker::of(i));
        let line = colour.stroke_width(style::STROKE);
        let pts: Vec<(f64, f64)> = c.points.iter().map(|&(n, p, _)| (n as f64, p)).collect();
        style::path(&mut chart, dash, pts, line)?;
        for &(n, p, se) in &c.points {
            let x = n as f64;
            let (a, b) = ((p - 2.0 * se).max(0.0), (p + 2.0 * se).min(1.0));
            let bar = colour.stroke_width(2);
            style::path(&mut chart, Dash::Solid, vec![(x, a), (x, b)], bar)?;
            style::marker(&mut chart, marker, (x, p), 8, colour, true)?;
        }
    }
    let entries = legend_entries(f);
    style::legend_column(&legend, &entries)?;
    style::footnote(
        root,
        &format!(
            "{} replicates per point; bars ±2 Monte-Carlo SE; each test on its own violation design",
            f.reps
        ),
    )
}

/// The legend: a line per curve, the nominal level, and a line per test with no curve.
fn legend_entries(f: &PowerFigure) -> Vec<Entry> {
    let curves = f.curves.iter().enumerate().map(|(i, c)| Entry {
        label: c.label.clone(),
        colour: style::colour(i),
        dash: Some(Dash::of(i)),
        marker: Some(Marker::of(i)),
    });
    let level = Entry {
        label: "nominal 5 % level".into(),
        colour: style::GREY,
        dash: Some(Dash::Dotted),
        marker: None,
    };
    let missing = f.missing.iter().map(|why| Entry {
        label: format!("no curve: {why}"),
        colour: style::GREY,
        dash: None,
        marker: None,
    });
    curves
        .chain(std::iter::once(level))
        .chain(missing)
        .collect()
}
