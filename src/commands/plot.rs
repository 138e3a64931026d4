//! `rhoscope plot`: computes what a figure draws (a battery on a panel or a simulated
//! scenario, a power study, a boundary study) and writes it as SVG ([`crate::plot`]).

use std::fmt::Write as _;
use std::path::Path;

use super::output::{self, Target};
use super::shared::{load_panel, note, progress_bar};
use crate::battery::{self, NullSpec, TestId};
use crate::cli::{PanelArgs, PlotArgs};
use crate::error::{Error, sanitize};
use crate::model::Params;
use crate::plot::{self, BoundaryFigure, BoundaryOptions, Figure, Kind};
use crate::power::{self, PowerDesign, PowerOptions, StudyRequest};
use crate::progress::{Flow, Progress};
use crate::scenario;
use crate::wording::Setting;

pub(super) fn plot_cmd(a: &PlotArgs) -> Result<(), Error> {
    let kind = Kind::named(&a.kind)
        .ok_or_else(|| Error::Usage(format!("unknown kind {}", a.kind).into()))?;
    let inputs = a.panel.as_ref().map_or_else(Vec::new, |p| {
        super::inputs::input_files(&PanelArgs {
            panel: p.clone(),
            opts: a.opts.clone(),
        })
    });
    let inputs: Vec<&Path> = inputs.iter().map(std::path::PathBuf::as_path).collect();
    let out = check_output(&a.output, a.force, &inputs)?;
    if a.panel.is_some() && matches!(kind, Kind::Power | Kind::Boundary) {
        return Err(Error::Usage(
            format!(
                "the {} figure is drawn for a scenario ({}), not a panel file",
                kind.name(),
                Setting::Scenario.marked()
            )
            .into(),
        ));
    }
    let figure = match kind {
        Kind::Rho | Kind::Bootstrap | Kind::Battery => battery_figure(a, kind)?,
        Kind::Power => power_figure(a)?,
        Kind::Boundary => boundary_figure(a)?,
    };
    let svg = figure
        .svg()
        .map_err(|e| Error::Usage(format!("plot {}: {e}", kind.name()).into()))?;
    output::write(&out, |w| w.write_all(svg.as_bytes()))?;
    if !out.is_stream() {
        note(&format!(
            "wrote {}",
            sanitize(&a.output.display().to_string())
        ));
    }
    Ok(())
}

/// An SVG name, not an input, not already there unless `--force`; or a stream (`-`, a FIFO, a device).
fn check_output(out: &Path, force: bool, inputs: &[&Path]) -> Result<Target, Error> {
    let target = output::target_apart(out, force, inputs)?;
    if target.is_stream() {
        return Ok(target);
    }
    let shown = sanitize(&out.display().to_string());
    // `.svg` alone is an SVG name too (a dotfile, which has no extension to Path).
    let name = out
        .file_name()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !name
        .rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("svg"))
    {
        return Err(Error::Usage(format!(
            "{shown}: rhoscope writes SVG only (its text needs no font files); name the file .svg and convert it, e.g. rsvg-convert -o fig.png fig.svg"
        ).into()));
    }
    Ok(target)
}

/// The scenario of `--preset` and `--set`, validated.
fn scenario_of(a: &PlotArgs, default: &str) -> Result<(Params, String), Error> {
    let name = a.preset.as_deref().unwrap_or(default);
    let mut pm = scenario::preset(name).map_err(Error::from)?;
    scenario::apply_sets(&mut pm, &a.set).map_err(Error::from)?;
    pm.validate()
        .map_err(|e| Error::Usage(format!("invalid design: {e}").into()))?;
    let sets = a.set.iter().fold(String::new(), |mut acc, s| {
        let _ = write!(acc, ", {}", sanitize(s));
        acc
    });
    Ok((pm, format!("preset {name}{sets}")))
}

fn n_of(a: &PlotArgs, default: usize) -> Result<usize, Error> {
    a.n.map_or(Ok(default), |n| {
        usize::try_from(n).map_err(|_| Error::Usage("--n is too large".into()))
    })
}

/// The ρ̂, bootstrap and battery figures: the battery on the panel or a simulated one.
fn battery_figure(a: &PlotArgs, kind: Kind) -> Result<Figure, Error> {
    let opts = battery::Options {
        resamples: a.bootstrap as usize,
        // Only the battery figure shows the tests: the ρ̂ and bootstrap figures skip their nulls.
        null_draws: match kind {
            Kind::Battery => a.null_draws.unwrap_or(crate::cli::BATTERY_NULL_DRAWS) as usize,
            _ => 0,
        },
        seed: a.seed,
    };
    let (panel, spec, truth, source) = if let Some(path) = &a.panel {
        let args = PanelArgs {
            panel: path.clone(),
            opts: a.opts.clone(),
        };
        // The ρ̂ and bootstrap figures plot estimate's ρ̂: a panel estimate refuses (fewer than
        // two anchors, ρ not identified) is refused up front with estimate's line and code.
        let min_anchors = if kind == Kind::Battery { 0 } else { 2 };
        let loaded = load_panel(&args, min_anchors)?;
        if kind != Kind::Battery {
            super::shared::identified(path, &loaded.panel)?;
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
        (loaded.panel, NullSpec::Matched, None, sanitize(&name))
    } else {
        let (pm, desc) = scenario_of(a, "mid")?;
        let n = n_of(a, 500)?;
        let panel = crate::simulate::simulate(&pm, n, a.seed)
            .map_err(|e| Error::Usage(format!("invalid design: {e}").into()))?;
        let truth = Some(pm.rho.clone());
        let source = format!("simulated ({desc}, N = {n}, seed {})", a.seed);
        (panel, NullSpec::Scenario(Box::new(pm)), truth, source)
    };
    let bars = super::stages::StageBars::new(&opts, true);
    let report = battery::run(&panel, &spec, &opts, &|p| bars.tick(p))
        .expect("a progress bar never stops the run");
    bars.finish();
    Ok(match kind {
        Kind::Battery => {
            let mut f = plot::battery_figure(&format!("Diagnostic battery: {source}"), &report);
            // The figure names what reproduces it, as `rhoscope battery --seed S` does.
            let _ = write!(f.null, ", seed {}", a.seed);
            Figure::Battery(f)
        }
        Kind::Bootstrap => Figure::Bootstrap(plot::rho_figure(
            &format!("Bootstrap distribution of ρ̂: {source}"),
            &panel.anchors,
            &report,
            truth,
        )),
        _ => Figure::Rho(plot::rho_figure(
            &format!("Contamination ρ̂ per anchor: {source}"),
            &panel.anchors,
            &report,
            truth,
        )),
    })
}

/// Power against N for every test, each on its own violation design injected into the
/// scenario (three families of two judges, so Test C has a design).
fn power_figure(a: &PlotArgs) -> Result<Figure, Error> {
    let (pm, desc) = scenario_of(a, "mid")?;
    let base = StudyRequest::of(&pm, 0).base;
    let opts = PowerOptions {
        ns: a
            .ns
            .iter()
            .map(|n| usize::try_from(*n).unwrap_or(usize::MAX))
            .collect(),
        strengths: vec![a.strength],
        reps: a.reps as usize,
        null_draws: a.null_draws.unwrap_or(500) as usize,
        seed: a.seed,
        coverage: None,
    };
    let largest = opts.ns.iter().copied().max().unwrap_or(0);
    for t in TestId::ALL {
        let q = PowerDesign::Test(t).apply(&base, 0.0).q();
        super::shared::check_simulated("plot power", largest, q)?;
    }
    let bar = progress_bar(power::total_steps(&opts) * TestId::ALL.len() as u64, true);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let mut runs = Vec::new();
    for t in TestId::ALL {
        let cells = power::characteristics_on(PowerDesign::Test(t), &base, &opts, &tick)
            .map_err(|e| Error::Usage(format!("power: {e}").into()))?
            .expect("a progress bar never stops the run");
        runs.push((t, cells));
    }
    bar.finish_and_clear();
    super::output::bar_drawn(false);
    Ok(Figure::Power(plot::power_figure(
        &format!("Power against N: {desc}, strength {}", a.strength),
        a.strength,
        opts.reps,
        &runs,
        &battery::Layout::of_params(&base),
    )))
}

/// ρ̂_1 over replicates along the default ρ_1 grid, up to the boundary.
fn boundary_figure(a: &PlotArgs) -> Result<Figure, Error> {
    let (pm, _) = scenario_of(a, "boundary")?;
    let n = n_of(a, 2000)?;
    let opts = BoundaryOptions {
        base: pm,
        rho1: plot::RHO1_GRID.to_vec(),
        n,
        reps: a.reps as usize,
        seed: a.seed,
    };
    super::shared::check_simulated("plot boundary", n, opts.base.q())?;
    let bar = progress_bar((opts.rho1.len() * opts.reps) as u64, true);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let points = plot::boundary_study(&opts, &tick)
        .map_err(|e| Error::Usage(format!("boundary: {e}").into()))?
        .expect("a progress bar never stops the run");
    bar.finish_and_clear();
    super::output::bar_drawn(false);
    let others = opts.base.rho[1..]
        .iter()
        .enumerate()
        .fold(String::new(), |mut acc, (k, r)| {
            let _ = write!(acc, ", ρ{} = {r}", subscript(k + 2));
            acc
        });
    let sa = opts.base.sigma_a_full();
    let sa: Vec<String> = sa.iter().map(|v| format!("{v}")).collect();
    Ok(Figure::Boundary(BoundaryFigure {
        title: format!(
            "Approaching the boundary: Var(c) = {}, SD(A) = ({}){others}",
            opts.base.sigma_c2,
            sa.join(", ")
        ),
        n,
        reps: opts.reps,
        points,
    }))
}

/// `k` in subscript digits (ρ₂), since a figure's text has no markup for an underscore.
fn subscript(k: usize) -> String {
    k.to_string()
        .chars()
        .map(|d| char::from_u32(0x2080 + d.to_digit(10).unwrap_or(0)).unwrap_or(d))
        .collect()
}
