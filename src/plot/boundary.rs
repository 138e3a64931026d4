//! The boundary picture (Corollary 1, Table 1): as ρ_1 rises, β_1 = ρ_1 σ_a1 σ_c approaches
//! σ_c² and the denominator (σ_c² − β_1)(σ_c² − β_2)/σ_c² of Theorem 1 shrinks to zero;
//! ρ̂_1 stays centred but its sampling spread blows up. The top panel draws ρ̂_1's median,
//! interquartile and 5–95 % bands over simulated replicates against the truth; the bottom
//! panel the population denominator.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::data::PlotError;
use super::style::{self, Dash, Entry, Marker};
use crate::estimate::closed_form;
use crate::model::Params;
use crate::moments::{JudgePairs, Moments, covariance};
use crate::progress::{Flow, Progress};
use crate::simulate::{Design, replicates};
use crate::stats::{mean_sd, percentile};

/// The series' colours (Okabe–Ito blue, orange, vermilion).
const BLUE: RGBColor = style::PALETTE[1];
const ORANGE: RGBColor = style::PALETTE[0];
const RED: RGBColor = style::PALETTE[3];

/// What to simulate: `base` with ρ_1 set to each of `rho1`.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundaryOptions {
    pub base: Params,
    pub rho1: Vec<f64>,
    pub n: usize,
    pub reps: usize,
    pub seed: u64,
}

/// ρ̂_1 over the replicates at one ρ_1.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundaryPoint {
    pub rho1: f64,
    pub beta1: f64,
    /// The population denominator of Theorem 1 (the mean over anchor pairs, Corollary 1).
    pub denominator: f64,
    /// ρ̂_1's 5, 25, 50, 75 and 95 % quantiles over the admissible replicates.
    pub quantiles: [f64; 5],
    pub sd: f64,
    /// Replicates whose ρ̂_1 was inadmissible.
    pub undefined: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BoundaryFigure {
    pub title: String,
    pub n: usize,
    pub reps: usize,
    pub points: Vec<BoundaryPoint>,
}

/// An invalid design, kept as its message.
fn invalid(e: impl std::fmt::Display) -> PlotError {
    PlotError::Design(e.to_string())
}

/// The default grid of ρ_1: coarse far from the boundary, fine near it.
pub const RHO1_GRID: [f64; 13] = [
    0.0, 0.2, 0.4, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.985, 0.99,
];

/// Simulates `reps` panels at each ρ_1 and summarises ρ̂_1 (closed form). Replicate r at
/// grid point i uses stream r of seed `seed + i`, so the study is identical at any thread
/// count. `Ok(None)` when `progress` stopped it.
///
/// # Errors
/// A design that is invalid at some ρ_1 (e.g. |ρ_1| ≥ 1).
pub fn boundary_study(
    opts: &BoundaryOptions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Option<Vec<BoundaryPoint>>, PlotError> {
    if opts.base.m() < 2 {
        return Err(PlotError::Design(
            "the boundary needs at least two anchors".into(),
        ));
    }
    if opts.reps < 2 {
        return Err(PlotError::Design(
            "at least 2 replicates per point are needed".into(),
        ));
    }
    crate::simulate::within_cells(opts.n, opts.base.q(), || boundary_within(opts, progress))
        .map_err(invalid)?
}

/// [`boundary_study`] once its panels fit the cell limit together.
fn boundary_within(
    opts: &BoundaryOptions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Option<Vec<BoundaryPoint>>, PlotError> {
    let mut out = Vec::with_capacity(opts.rho1.len());
    for (i, &r1) in opts.rho1.iter().enumerate() {
        let mut pm = opts.base.clone();
        pm.rho[0] = r1;
        pm.validate()
            .map_err(|e| PlotError::Design(format!("ρ_1 = {r1}: {e}")))?;
        let design = Design::new(&pm).map_err(invalid)?;
        let (n, p) = (opts.n, pm.p);
        let rho: Vec<Option<Option<f64>>> = replicates(
            &design,
            n,
            opts.seed.wrapping_add(i as u64),
            opts.reps as u64,
            |_, d| {
                if progress(Progress::Step) == Flow::Stop {
                    return None;
                }
                let s = covariance(d, n, d.len() / n, &mut Vec::new());
                let est = Moments::from_cov(&s, p, JudgePairs::All).map(|m| closed_form(&m));
                Some(est.and_then(|e| e.anchors[0].rho))
            },
        );
        let Some(rho) = rho.into_iter().collect::<Option<Vec<_>>>() else {
            return Ok(None);
        };
        let mut ok: Vec<f64> = rho.iter().flatten().copied().collect();
        ok.sort_by(f64::total_cmp);
        let quantiles = if ok.is_empty() {
            [f64::NAN; 5]
        } else {
            [0.05, 0.25, 0.5, 0.75, 0.95].map(|q| percentile(&ok, q))
        };
        out.push(BoundaryPoint {
            rho1: r1,
            beta1: pm.beta()[0],
            denominator: denominator(&pm),
            quantiles,
            sd: mean_sd(&ok).1,
            undefined: rho.len() - ok.len(),
        });
    }
    Ok(Some(out))
}

/// The population denominator of Theorem 1: the mean over anchor pairs of
/// (σ_c² − β_k)(σ_c² − β_l)/σ_c² (Corollary 1).
#[must_use]
pub fn denominator(pm: &Params) -> f64 {
    let b = pm.beta();
    let c = pm.sigma_c2;
    let mut sum = 0.0;
    let mut pairs = 0.0;
    for k in 0..b.len() {
        for l in k + 1..b.len() {
            sum += (c - b[k]) * (c - b[l]) / c;
            pairs += 1.0;
        }
    }
    sum / pairs
}

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &BoundaryFigure,
) -> Result<(), PlotError> {
    let pts: Vec<_> = f
        .points
        .iter()
        .filter(|p| p.quantiles[2].is_finite())
        .collect();
    if pts.is_empty() {
        return Err(PlotError::Draw(
            "nothing to plot: no admissible ρ̂₁ at any ρ₁".into(),
        ));
    }
    let area = style::canvas(root, &f.title)?;
    let (top, rest) = area.split_vertically(area.dim_in_pixel().1 * 46 / 100);
    let (lower, strip) = rest.split_vertically(rest.dim_in_pixel().1.saturating_sub(80));
    // The denominator and the inadmissible share are different quantities: one axis each.
    let (middle, bottom) = lower.split_vertically(lower.dim_in_pixel().1 * 42 / 100);
    let x_lo = pts.iter().map(|p| p.rho1).fold(f64::INFINITY, f64::min);
    let x_hi = pts.iter().map(|p| p.rho1).fold(f64::NEG_INFINITY, f64::max);
    let (x_lo, x_hi) = style::padded(x_lo, x_hi, 0.03);
    draw_spread(&top, &pts, (x_lo, x_hi))?;
    draw_denominator(&middle, &pts, (x_lo, x_hi))?;
    draw_inadmissible(&bottom, f, (x_lo, x_hi))?;
    style::legend_strip(
        &strip,
        &[
            Entry {
                label: "median ρ̂₁ (bands: 25–75 %, 5–95 %)".into(),
                colour: BLUE,
                dash: Some(Dash::Solid),
                marker: Some(Marker::Circle),
            },
            Entry {
                label: "truth".into(),
                colour: style::INK,
                dash: Some(Dash::Dashed),
                marker: None,
            },
            Entry {
                label: "Cor. 1 denominator".into(),
                colour: ORANGE,
                dash: Some(Dash::Dotted),
                marker: Some(Marker::Square),
            },
            Entry {
                label: "share of ρ̂₁ inadmissible".into(),
                colour: RED,
                dash: Some(Dash::Dashed),
                marker: Some(Marker::Triangle),
            },
        ],
    )?;
    style::footnote(
        root,
        &format!(
            "N = {}, {} replicates per point, closed form; bands over the admissible ρ̂₁ (an inadmissible one has no value)",
            f.n, f.reps
        ),
    )
}

/// The top panel: ρ̂_1's median and bands against the truth.
fn draw_spread<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    pts: &[&BoundaryPoint],
    (x_lo, x_hi): (f64, f64),
) -> Result<(), PlotError> {
    let y_lo = pts
        .iter()
        .map(|p| p.quantiles[0])
        .fold(f64::INFINITY, f64::min);
    let y_hi = pts
        .iter()
        .map(|p| p.quantiles[4])
        .fold(f64::NEG_INFINITY, f64::max);
    let (y_lo, y_hi) = style::padded(y_lo.min(x_lo).max(-2.0), y_hi.max(x_hi).min(2.0), 0.05);
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .margin_bottom(6)
        .x_label_area_size(8)
        .y_label_area_size(90)
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_label_formatter(&|_: &f64| String::new())
        .y_label_formatter(&|y: &f64| format!("{y:.1}"))
        .y_desc("ρ̂₁ over replicates")
        .label_style(style::font(style::TICK))
        .axis_desc_style(style::font(style::LABEL))
        .draw()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    let clamp = |y: f64| y.clamp(y_lo, y_hi);
    let band = |a: usize, b: usize| -> Vec<(f64, f64)> {
        let mut v: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.rho1, clamp(p.quantiles[a])))
            .collect();
        v.extend(pts.iter().rev().map(|p| (p.rho1, clamp(p.quantiles[b]))));
        v
    };
    let blue = BLUE;
    chart
        .draw_series([
            Polygon::new(band(0, 4), blue.mix(0.18).filled()),
            Polygon::new(band(1, 3), blue.mix(0.4).filled()),
        ])
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    let ink = style::INK.stroke_width(style::STROKE);
    style::path(
        &mut chart,
        Dash::Dashed,
        vec![(x_lo, x_lo), (x_hi, x_hi)],
        ink,
    )?;
    let median: Vec<(f64, f64)> = pts
        .iter()
        .map(|p| (p.rho1, clamp(p.quantiles[2])))
        .collect();
    style::path(
        &mut chart,
        Dash::Solid,
        median.clone(),
        blue.stroke_width(style::STROKE),
    )?;
    for &c in &median {
        style::marker(&mut chart, Marker::Circle, c, 7, blue, true)?;
    }

    Ok(())
}

/// The middle panel: Corollary 1's population denominator, which reaches 0 at the boundary.
fn draw_denominator<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    pts: &[&BoundaryPoint],
    (x_lo, x_hi): (f64, f64),
) -> Result<(), PlotError> {
    let d_lo = pts
        .iter()
        .map(|p| p.denominator)
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let d_hi = pts
        .iter()
        .map(|p| p.denominator)
        .fold(f64::NEG_INFINITY, f64::max);
    let (d_lo, d_hi) = style::padded(d_lo, d_hi, 0.08);
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Corollary 1's denominator (population): 0 at the boundary",
            style::font(style::TICK),
        )
        .margin(16)
        .margin_top(2)
        .margin_bottom(2)
        .x_label_area_size(8)
        .y_label_area_size(90)
        .build_cartesian_2d(x_lo..x_hi, d_lo..d_hi)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .y_labels(3)
        .x_label_formatter(&|_: &f64| String::new())
        .y_label_formatter(&style::tick_format(d_lo, d_hi))
        .label_style(style::font(style::TICK))
        .axis_desc_style(style::font(style::TICK))
        .draw()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    style::path(
        &mut chart,
        Dash::Solid,
        vec![(x_lo, 0.0), (x_hi, 0.0)],
        style::GREY.stroke_width(1),
    )?;
    let den: Vec<(f64, f64)> = pts.iter().map(|p| (p.rho1, p.denominator)).collect();
    style::path(
        &mut chart,
        Dash::Dotted,
        den.clone(),
        ORANGE.stroke_width(style::STROKE),
    )?;
    for &c in &den {
        style::marker(&mut chart, Marker::Square, c, 7, ORANGE, true)?;
    }
    Ok(())
}

/// The bottom panel: the share of replicates whose ρ̂₁ is inadmissible, on a 0–1 axis.
fn draw_inadmissible<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    f: &BoundaryFigure,
    (x_lo, x_hi): (f64, f64),
) -> Result<(), PlotError> {
    let share = |p: &BoundaryPoint| p.undefined as f64 / f.reps.max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "share of replicates with ρ̂₁ inadmissible",
            style::font(style::TICK),
        )
        .margin(16)
        .margin_top(2)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d(x_lo..x_hi, -0.05..1.05)
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .y_labels(3)
        .x_label_formatter(&|x: &f64| format!("{x:.2}"))
        .y_label_formatter(&|y: &f64| format!("{y:.1}"))
        .x_desc("true ρ₁")
        .label_style(style::font(style::TICK))
        .axis_desc_style(style::font(style::TICK))
        .draw()
        .map_err(|e| PlotError::Draw(e.to_string()))?;
    let undefined: Vec<(f64, f64)> = f.points.iter().map(|p| (p.rho1, share(p))).collect();
    style::path(
        &mut chart,
        Dash::Dashed,
        undefined.clone(),
        RED.stroke_width(style::STROKE),
    )?;
    for &c in &undefined {
        style::marker(&mut chart, Marker::Triangle, c, 6, RED, true)?;
    }
    Ok(())
}
