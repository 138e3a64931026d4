//! Figures for slides and papers: `rhoscope plot KIND -o FILE.svg` and the explorer's figure
//! key. Five kinds, each a plain data struct built from what the other commands compute and a
//! renderer that turns it into SVG:
//!
//! - [`RhoFigure`]: every ρ̂_k with its 95 % percentile bootstrap interval (Section 4), beside
//!   the truth for simulated data;
//! - [`BootstrapFigure`]: the bootstrap distribution of each ρ̂_k, its interval marked;
//! - [`BatteryFigure`]: each test's statistic against its calibrated null (docs/method.md §3), with the
//!   95th-percentile threshold;
//! - [`PowerFigure`]: each test's power against N at one violation strength (`power`);
//! - [`BoundaryFigure`]: ρ̂_1's sampling spread against ρ_1 as the denominator of Corollary 1
//!   shrinks to zero.
//!
//! SVG only: plotters' SVG backend writes text as `<text>` and estimates its width without a
//! font file, so nothing depends on the machine's fonts, and the bytes are a function of the
//! data alone (a seed fixes them). A PNG is one `rsvg-convert` or browser away.

mod battery;
mod bootstrap;
mod boundary;
mod data;
mod power;
mod rho;
pub mod style;

use plotters::prelude::{IntoDrawingArea, SVGBackend};

use crate::battery::{BatteryReport, TestId};
use crate::estimate::fits::Context;

pub use boundary::{
    BoundaryFigure, BoundaryOptions, BoundaryPoint, RHO1_GRID, boundary_study,
    denominator as boundary_denominator,
};
pub use data::{
    BatteryFigure, BootstrapFigure, PlotError, PowerCurve, PowerFigure, RhoFigure, RhoSeries,
    TestPanel,
};

/// The figure kinds `rhoscope plot` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Rho,
    Bootstrap,
    Battery,
    Power,
    Boundary,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Rho,
        Kind::Bootstrap,
        Kind::Battery,
        Kind::Power,
        Kind::Boundary,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Rho => "rho",
            Kind::Bootstrap => "bootstrap",
            Kind::Battery => "battery",
            Kind::Power => "power",
            Kind::Boundary => "boundary",
        }
    }

    /// One line on what the figure shows.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Rho => "each ρ̂_k with its bootstrap CI, and the truth for simulated data",
            Kind::Bootstrap => "the bootstrap distribution of each ρ̂_k, percentile interval marked",
            Kind::Battery => "each test's statistic against its null, with the threshold",
            Kind::Power => "each test's power against N at one violation strength",
            Kind::Boundary => "ρ̂_1's spread against ρ_1 as Corollary 1's denominator shrinks",
        }
    }

    #[must_use]
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Any figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Figure {
    Rho(RhoFigure),
    Bootstrap(BootstrapFigure),
    Battery(BatteryFigure),
    Power(PowerFigure),
    Boundary(BoundaryFigure),
}

impl Figure {
    /// The figure as an SVG document.
    ///
    /// # Errors
    /// A figure with nothing to draw (no anchors, no runnable test), or a drawing error.
    pub fn svg(&self) -> Result<String, PlotError> {
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, style::SIZE).into_drawing_area();
            match self {
                Figure::Rho(f) => rho::draw(&root, f),
                Figure::Bootstrap(f) => bootstrap::draw(&root, f),
                Figure::Battery(f) => battery::draw(&root, f),
                Figure::Power(f) => power::draw(&root, f),
                Figure::Boundary(f) => boundary::draw(&root, f),
            }?;
            root.present().map_err(|e| PlotError::Draw(e.to_string()))?;
        }
        Ok(buf)
    }
}

/// The ρ̂ data of a battery report: every fitted estimator with its intervals and draws.
#[must_use]
pub fn rho_figure(
    title: &str,
    anchors: &[String],
    report: &BatteryReport,
    truth: Option<Vec<f64>>,
) -> RhoFigure {
    // The designated-clean series names the anchor the run trusted, not the first.
    let ctx = Context {
        clean: report.designated,
        ..Context::default()
    };
    RhoFigure {
        title: title.to_string(),
        anchors: anchors
            .iter()
            .map(|a| crate::location::sanitize(a))
            .collect(),
        series: report
            .fits
            .iter()
            .map(|f| RhoSeries {
                label: f.estimator.label(&ctx, anchors),
                rho: f.estimate.anchors.iter().map(|a| a.rho).collect(),
                interval: f.boot.rho.clone(),
                draws: f.boot.rho_draws.clone(),
                resamples: f.boot.resamples,
            })
            .collect(),
        truth,
    }
}

/// The battery figure of a report: every test that ran against its null.
#[must_use]
pub fn battery_figure(title: &str, report: &BatteryReport) -> BatteryFigure {
    let tests = TestId::ALL
        .into_iter()
        .filter(|&t| report.tests[t].applicable && !report.null_stats[t].is_empty())
        .map(|t| {
            let r = &report.tests[t];
            TestPanel {
                name: format!("Test {} — {}", t.name(), t.spec().title),
                null: report.null_stats[t].clone(),
                threshold: r.threshold,
                observed: r.statistic,
                p_value: r.p_value,
                verdict: r.verdict.as_str().to_string(),
            }
        })
        .collect();
    BatteryFigure {
        title: title.to_string(),
        tests,
        null: format!(
            "{} null, {} draws ({})",
            report.null.kind, report.null.draws, report.null.method
        ),
    }
}

/// The power curves of `power` runs: for each test, its rejection rate at `strength` per N.
#[must_use]
pub fn power_figure(
    title: &str,
    strength: f64,
    reps: usize,
    runs: &[(TestId, Vec<crate::power::PowerCell>)],
    layout: &crate::battery::Layout,
) -> PowerFigure {
    // Why a test has no curve, in a few words ("Test B needs ≥ 3 anchors").
    let missing = runs
        .iter()
        .filter(|(t, cells)| cells.iter().all(|c| c.rates[*t].is_none()))
        .map(|(t, _)| {
            let why = t.applicable(layout).err().unwrap_or_default().0;
            let short = why.split(" (").next().unwrap_or("").trim();
            let short = short.split(" for ").next().unwrap_or(short);
            format!("Test {} {short}", t.name()).trim_end().to_string()
        })
        .collect();
    PowerFigure {
        missing,
        title: title.to_string(),
        strength,
        reps,
        curves: runs
            .iter()
            .map(|(t, cells)| PowerCurve {
                label: format!("Test {} — {}", t.name(), t.spec().title),
                points: cells
                    .iter()
                    .filter(|c| c.strength == strength)
                    .filter_map(|c| {
                        c.rates[*t].map(|p| {
                            let se = (p * (1.0 - p) / reps.max(1) as f64).sqrt();
                            (c.n, p, se)
                        })
                    })
                    .collect(),
            })
            .filter(|c| !c.points.is_empty())
            .collect(),
    }
}

/// Formats a number for a caption: three decimals, or scientific beyond ±1000.
#[must_use]
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        "undefined".into()
    } else if x.abs() >= 1000.0 || (x != 0.0 && x.abs() < 1e-3) {
        format!("{x:.2e}")
    } else {
        format!("{x:.3}")
    }
}
