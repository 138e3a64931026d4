//! Runs each subcommand: core calls in, text or JSON out (through [`crate::report`]).

use std::io::{self, Write};
use std::path::Path;

use clap::CommandFactory;

mod output;
mod plot;
mod stages;

use crate::battery::{self, NullSpec};
use crate::cli::{
    BatteryArgs, Cli, Command, EstimateArgs, IdentifyArgs, Method, PanelArgs, PlanArgs, PowerArgs,
    ReproduceArgs, SimulateArgs, ValidateArgs,
};
use crate::data::{self, LoadOptions, Loaded};
use crate::error::Error;
use crate::estimate::{Context, Estimator, Fits};
use crate::power::{self, PowerOptions};
use crate::progress::{Flow, Progress};
use crate::report::{self, estimate::EstimateReport};
use crate::scenario;
use crate::simulate;

/// Runs a parsed command line.
///
/// # Errors
/// Any [`Error`], to be printed by `main` with its exit code.
pub fn run(cli: Cli) -> Result<(), Error> {
    if let Some(t) = cli.threads {
        start_thread_pool(usize::from(t), "--threads")?;
    } else if let Some(t) = env_threads() {
        start_thread_pool(t, "RAYON_NUM_THREADS=")?;
    }
    match cli.command {
        Some(Command::Estimate(a)) => estimate(&a),
        Some(Command::Simulate(a)) => simulate_cmd(&a),
        Some(Command::Export(a)) => export_cmd(&a),
        Some(Command::Plan(a)) => plan_cmd(&a),
        Some(Command::Plot(a)) => plot::plot_cmd(&a),
        Some(Command::Battery(a)) => battery_cmd(&a),
        Some(Command::Identify(a)) => identify_cmd(&a),
        Some(Command::Power(a)) => power_cmd(&a),
        Some(Command::Validate(a)) => validate_cmd(&a),
        Some(Command::Reproduce(a)) => reproduce_cmd(&a),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "rhoscope", &mut out);
            write_stdout(&out)
        }
        Some(Command::Explore(a)) => explore(a.panel.as_deref(), &a.opts, !a.no_mouse, None),
        Some(Command::Demo(a)) => demo(a.hanna.clone(), !a.no_mouse, usize::from(a.scene) - 1),
        None => explore(None, &crate::cli::PanelOptions::default(), true, None),
    }
}

#[cfg(feature = "tui")]
fn explore(
    panel: Option<&std::path::Path>,
    opts: &crate::cli::PanelOptions,
    mouse: bool,
    hanna: Option<std::path::PathBuf>,
) -> Result<(), Error> {
    use crate::tui::app::Start;
    let start = match panel {
        Some(p) => Start::File(p.to_path_buf(), load_options(opts, 0)),
        None => Start::Default,
    };
    crate::tui::run(crate::tui::Options {
        start,
        mouse,
        hanna,
    })
}

#[cfg(feature = "tui")]
fn demo(hanna: Option<std::path::PathBuf>, mouse: bool, scene: usize) -> Result<(), Error> {
    crate::tui::run(crate::tui::Options {
        start: crate::tui::app::Start::Scene(scene),
        mouse,
        hanna,
    })
}

#[cfg(not(feature = "tui"))]
fn explore(
    _: Option<&std::path::Path>,
    _: &crate::cli::PanelOptions,
    _: bool,
    _: Option<std::path::PathBuf>,
) -> Result<(), Error> {
    Err(no_tui())
}

#[cfg(not(feature = "tui"))]
fn demo(_: Option<std::path::PathBuf>, _: bool, _: usize) -> Result<(), Error> {
    Err(no_tui())
}

#[cfg(not(feature = "tui"))]
fn no_tui() -> Error {
    Error::Usage(
        "this rhoscope was built without the `tui` feature; run estimate, battery or power".into(),
    )
}

/// The loader options of a panel's flags.
#[must_use]
pub fn load_options(a: &crate::cli::PanelOptions, min_anchors: usize) -> LoadOptions {
    LoadOptions {
        judges: a.judges.clone(),
        anchors: a.anchors.clone(),
        id: a.id.clone(),
        long: a.long.clone(),
        families: a.families.clone(),
        continuous: a.continuous.clone(),
        min_anchors,
    }
}

/// Loads a panel and notes dropped items on stderr (one line).
///
/// # Errors
/// Any load error.
pub fn load_panel(a: &PanelArgs, min_anchors: usize) -> Result<Loaded, Error> {
    let loaded = data::load(&a.panel, &load_options(&a.opts, min_anchors))?;
    print_notes(&loaded);
    if let Some(at) = &loaded.first_dropped {
        let e = Error::data_at(
            &a.panel,
            at.clone(),
            format!(
                "note: {} of {} items dropped for missing values (first here)",
                loaded.panel.n_dropped,
                loaded.panel.n + loaded.panel.n_dropped
            ),
        );
        note(&e.to_string());
    }
    Ok(loaded)
}

/// Refuses a panel on which ρ is not identified (Section 7's ordinal hierarchy).
fn identified(path: &std::path::Path, panel: &crate::panel::Panel) -> Result<(), Error> {
    crate::decision::refusal(panel).map_or(Ok(()), |reason| {
        Err(Error::NotIdentified {
            path: path.to_path_buf(),
            reason,
        })
    })
}

fn estimate(a: &EstimateArgs) -> Result<(), Error> {
    let loaded = load_panel(&a.panel, 2)?;
    let panel = &loaded.panel;
    identified(&a.panel.panel, panel)?;
    let s = panel.covariance();
    let clean = match &a.designated_clean {
        Some(name) => Some(anchor_index(&panel.anchors, name, "--designated-clean")?),
        None => None,
    };
    let ctx = Context {
        families: panel.judge_families(),
        clean,
    };
    let flagged = [
        (Estimator::Blocked, a.blocked),
        (Estimator::DesignatedClean, clean.is_some()),
    ];
    let flagged: Vec<Estimator> = flagged.iter().filter(|f| f.1).map(|f| f.0).collect();
    let which = a.method.estimators(&flagged);
    if which.contains(&Estimator::Ml) && panel.p() + panel.m() <= crate::estimate::ml::MAX_VARIABLES
    {
        let what = format!(
            "maximum likelihood on {} judges and {} anchors",
            panel.p(),
            panel.m()
        );
        warn_cost(crate::cost::ml_seconds(panel.p(), panel.m()), &what);
    }
    if a.bias_correct && !which.contains(&Estimator::FreeScale) {
        return Err(Error::Usage(
            "--bias-correct corrects the free-scale estimate: add --method free-scale (or all)"
                .into(),
        ));
    }
    let fits = Fits::of(panel, &s, &ctx, &which);
    let bias = match fits.free_scale().filter(|_| a.bias_correct) {
        Some(fs) => {
            let reps = a.bias_reps as usize;
            let bar = progress_bar(reps as u64, !a.json);
            let tick = |_: Progress| {
                bar.inc(1);
                Flow::Continue
            };
            let streams = crate::rng::Streams::of(a.seed);
            let b = crate::estimate::bias::correct(panel, fs, reps, streams, &tick)
                .map(|b| b.expect("a progress bar never stops the run"));
            bar.finish_and_clear();
            Some(b)
        }
        None => None,
    };
    // A refused comparison the user asked for is an error; anything else that ran is still
    // shown first, so one estimator's trouble never hides another's numbers.
    let refused = fits.refused.first().map(|(e, why)| match e {
        Estimator::Ml => Error::data(&a.panel.panel, format!("maximum likelihood: {why}")),
        Estimator::FreeScale => Error::data(&a.panel.panel, format!("free-scale: {why}")),
        Estimator::Blocked => Error::Usage(format!(
            "--blocked {why} (give --families NAME=FAMILY,... or a families file)"
        )),
        _ => Error::data(&a.panel.panel, why.clone()),
    });
    if let Some(Error::Usage(_)) = refused {
        return Err(refused.expect("matched Some"));
    }
    let source = a.panel.panel.display().to_string();
    let r = EstimateReport {
        source: &source,
        panel,
        families_source: loaded.families_source.as_deref(),
        fits: &fits,
        ctx: &ctx,
        closed: !matches!(a.method, Method::Ml | Method::FreeScale),
        bias: bias.as_ref(),
    };
    let something_to_show = r.closed
        || fits
            .fits
            .iter()
            .any(|f| f.estimator != Estimator::ClosedForm);
    if a.json {
        write_json(&report::estimate::json(&r))?;
    } else if something_to_show {
        write_stdout(report::estimate::text(&r).as_bytes())?;
    }
    refused.map_or(Ok(()), Err)
}

/// What `battery` reports for exit purposes.
fn battery_cmd(a: &BatteryArgs) -> Result<(), Error> {
    let loaded = load_panel(&a.panel, 0)?;
    let panel = &loaded.panel;
    let opts = battery::Options {
        resamples: a.bootstrap as usize,
        null_draws: a.null_draws as usize,
        seed: a.seed,
    };
    let shape = crate::cost::BatteryShape {
        n: panel.n,
        judges: panel.p(),
        anchors: panel.m(),
        resamples: opts.resamples,
        null_draws: opts.null_draws,
        ordinal: panel
            .scales
            .iter()
            .any(|s| matches!(s, crate::panel::Scale::Ordinal { .. })),
    };
    let what = format!(
        "the battery (N = {}, {} judges, {} anchors, B = {}, {} null draws)",
        panel.n,
        panel.p(),
        panel.m(),
        opts.resamples,
        opts.null_draws
    );
    warn_cost(crate::cost::battery_seconds(&shape), &what);
    let bars = stages::StageBars::new(&opts, !a.json);
    let conventions = battery::Conventions {
        codes_as_numbers: a.codes_as_numbers,
    };
    let report = battery::run_with(panel, &NullSpec::Matched, &opts, conventions, &|p| {
        bars.tick(p)
    })
    .expect("a progress bar never stops the run");
    bars.finish();
    let source = a.panel.panel.display().to_string();
    let fam = loaded.families_source.as_deref();
    if a.json {
        write_json(&report::battery::json(&source, panel, fam, &report))?;
    } else {
        write_stdout(report::battery::text(&source, panel, fam, &report).as_bytes())?;
    }
    if a.fail_on_diagnostic && report.any_alarm() {
        return Err(Error::Diagnostic);
    }
    Ok(())
}

/// `identify`: Section 7's hierarchy at the paper's design, or at a panel's own point.
fn identify_cmd(a: &IdentifyArgs) -> Result<(), Error> {
    let Some(path) = &a.panel else {
        let o = &a.opts;
        let given = [
            ("--judges", o.judges.is_some()),
            ("--anchors", o.anchors.is_some()),
            ("--families", o.families.is_some()),
            ("--id", o.id.is_some()),
            ("--long", o.long.is_some()),
            ("--continuous", o.continuous.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, on)| *on) {
            return Err(Error::Usage(format!(
                "{flag} describes a panel file: give the PANEL too, or leave it out for the paper's design"
            )));
        }
        let id = crate::identify::at_paper_design().map_err(Error::System)?;
        let r = report::identify::IdentifyReport {
            id: &id,
            panel: None,
        };
        return if a.json {
            write_json(&report::identify::json(&r))
        } else {
            write_stdout(report::identify::text(&r).as_bytes())
        };
    };
    let args = PanelArgs {
        panel: path.clone(),
        opts: a.opts.clone(),
    };
    let loaded = load_panel(&args, 1)?;
    let id = crate::identify::at_panel(&loaded.panel)
        .map_err(|e| Error::data(path, format!("identify: {e}")))?;
    let source = path.display().to_string();
    let r = report::identify::IdentifyReport {
        id: &id,
        panel: Some((&source, &loaded.panel, loaded.families_source.as_deref())),
    };
    if a.json {
        write_json(&report::identify::json(&r))
    } else {
        write_stdout(report::identify::text(&r).as_bytes())
    }
}

fn power_cmd(a: &PowerArgs) -> Result<(), Error> {
    let design = a.design;
    if let Some(bad) = a.strength.iter().find(|s| !s.is_finite() || **s < 0.0) {
        return Err(Error::Usage(format!(
            "--strength {bad}: strengths are finite and ≥ 0"
        )));
    }
    let opts = PowerOptions {
        ns: a
            .n
            .iter()
            .map(|n| usize::try_from(*n).unwrap_or(usize::MAX))
            .collect(),
        strengths: a.strength.clone(),
        reps: a.reps as usize,
        null_draws: a.null_draws as usize,
        seed: a.seed,
        coverage: a.coverage.map(|b| b as usize),
    };
    let bar = progress_bar(power::total_steps(&opts), !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let base = match a.ordinal {
        Some(l) => power::with_ordinal_judges(&design.base(), l as usize, a.skewed),
        None => design.base(),
    };
    let cells = power::characteristics_on(design, &base, &opts, &tick)
        .map_err(|e| Error::Usage(format!("power: {e}")))?
        .expect("a progress bar never stops the run");
    bar.finish_and_clear();
    if a.json {
        let mut doc = report::power::json(design, &opts, &cells);
        if let Some(l) = a.ordinal {
            doc["ordinal_judges"] = serde_json::json!({"levels": l, "skewed": a.skewed});
        }
        write_json(&doc)
    } else if let Some(l) = a.ordinal {
        let mut out = report::power::text(design, &opts, &cells);
        out.push_str(&report::power::ordinal_line(l, a.skewed));
        out.push_str(&report::power::all_tests_text(&cells));
        write_stdout(out.as_bytes())
    } else {
        write_stdout(report::power::text(design, &opts, &cells).as_bytes())
    }
}

fn plan_cmd(a: &PlanArgs) -> Result<(), Error> {
    let mut pm = scenario::preset(&a.preset).map_err(Error::Usage)?;
    for s in &a.set {
        scenario::apply_set(&mut pm, s).map_err(Error::Usage)?;
    }
    pm.validate()
        .map_err(|e| Error::Usage(format!("invalid design: {e}")))?;
    let target = crate::plan::Target::parse(&a.target).map_err(Error::Usage)?;
    let opts = crate::plan::PlanOptions {
        reps: a.reps as usize,
        null_draws: a.null_draws as usize,
        resamples: a.bootstrap as usize,
        seed: a.seed,
        max_n: usize::try_from(a.max_n).unwrap_or(usize::MAX),
    };
    let per_eval = match target {
        crate::plan::Target::CiWidth(_) => opts.reps,
        crate::plan::Target::Power { .. } => opts.null_draws + 2 * opts.reps,
    };
    let bar = progress_bar((crate::plan::MAX_EVALUATIONS * per_eval) as u64, !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let plan = crate::plan::plan(&pm, target, &opts, &tick)
        .map_err(|e| Error::Usage(format!("plan: {e}")))?
        .expect("a progress bar never stops the run");
    bar.finish_and_clear();
    let scenario = format!(
        "preset {}{}",
        a.preset,
        a.set.iter().fold(String::new(), |mut acc, s| {
            let _ = std::fmt::Write::write_fmt(
                &mut acc,
                format_args!(" --set {}", crate::error::sanitize(s)),
            );
            acc
        })
    );
    if a.json {
        write_json(&report::plan::json(&scenario, &plan, &opts))
    } else {
        write_stdout(report::plan::text(&scenario, &plan, &opts).as_bytes())
    }
}

/// `validate`: Section 7's real-texture protocol on the panel's own judges.
fn validate_cmd(a: &ValidateArgs) -> Result<(), Error> {
    use crate::validate::{self, Thresholds};
    let mut ns = Vec::new();
    let mut opts = validate::Options {
        inject: a.inject.clone(),
        ns: Vec::new(),
        reps: a.reps as usize,
        seed: a.seed,
        bootstrap: a.bootstrap as usize,
        null_draws: a.null_draws as usize,
        thresholds: if a.balanced {
            Thresholds::Balanced
        } else {
            Thresholds::Own
        },
    };
    // Usage errors before the file is read.
    opts.ns = vec![10];
    opts.check()
        .map_err(|e| Error::Usage(format!("validate: {e}")))?;
    let loaded = load_panel(&a.panel, 0)?;
    let panel = &loaded.panel;
    let tex = validate::Texture::of(panel).map_err(|e| Error::data(&a.panel.panel, e))?;
    ns.push(panel.n);
    for &n in &a.n {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !ns.contains(&n) {
            ns.push(n);
        }
    }
    opts.ns = ns;
    opts.check()
        .map_err(|e| Error::data(&a.panel.panel, format!("validate: {e}")))?;
    let bar = progress_bar(validate::total_steps(&opts), !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let study = validate::run(&tex, &opts, &tick)
        .map_err(|e| Error::Usage(format!("validate: {e}")))?
        .expect("a progress bar never stops the run");
    bar.finish_and_clear();
    let source = a.panel.panel.display().to_string();
    let fam = loaded.families_source.as_deref();
    if a.json {
        write_json(&report::validate::json(&source, panel, fam, &opts, &study))
    } else {
        write_stdout(report::validate::text(&source, panel, fam, &opts, &study).as_bytes())
    }
}

fn reproduce_cmd(a: &ReproduceArgs) -> Result<(), Error> {
    let n_tables = if a.tables.is_empty() {
        crate::reproduce::TABLES.len()
    } else {
        a.tables.len()
    };
    // Both files are checked before the tables run, so a refusal costs nothing.
    let outs = match &a.out {
        Some(dir) => {
            if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
                return Err(Error::Usage(format!(
                    "--out {}: is a file; --out names a folder for report.md and results.json",
                    crate::error::sanitize(&dir.display().to_string())
                )));
            }
            std::fs::create_dir_all(dir).map_err(|e| output_error(Some(dir), &e))?;
            Some((
                output::target(&dir.join("report.md"), a.force)?,
                output::target(&dir.join("results.json"), a.force)?,
            ))
        }
        None => None,
    };
    let bar = progress_bar(n_tables as u64, !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let budget = crate::reproduce::Budget { quick: a.quick };
    let start = std::time::Instant::now();
    let tables = crate::reproduce::run(&a.tables, budget, &tick).map_err(Error::Usage)?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    if let Some((report_md, results_json)) = &outs {
        let md = report::reproduce::markdown(&tables, a.quick, seconds);
        output::write(report_md, |w| w.write_all(md.as_bytes()))?;
        let mut js =
            serde_json::to_string_pretty(&report::reproduce::json(&tables, a.quick, seconds))
                .expect("JSON values always serialise");
        js.push('\n');
        output::write(results_json, |w| w.write_all(js.as_bytes()))?;
    }
    if a.json {
        write_json(&report::reproduce::json(&tables, a.quick, seconds))
    } else {
        write_stdout(report::reproduce::text(&tables, a.quick, seconds).as_bytes())
    }
}

/// A progress bar on stderr; hidden when `show` is false or stderr is not a terminal
/// (indicatif checks the latter itself).
fn progress_bar(len: u64, show: bool) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {bar:40} {percent:>3}% {elapsed_precise} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    bar
}

/// An anchor by name or 1-based position among the anchors.
fn anchor_index(anchors: &[String], tok: &str, flag: &str) -> Result<usize, Error> {
    anchors
        .iter()
        .position(|n| n == tok)
        .or_else(|| {
            tok.parse::<usize>()
                .ok()
                .filter(|i| (1..=anchors.len()).contains(i))
                .map(|i| i - 1)
        })
        .ok_or_else(|| {
            Error::Usage(format!(
                "{flag}: '{}' is not an anchor (anchors: {})",
                crate::error::sanitize(tok),
                anchors.join(", ")
            ))
        })
}

/// `export`: the model as a lavaan or semopy script, on stdout or into `-o FILE` (atomically;
/// an existing file only with `--force`).
fn export_cmd(a: &crate::cli::ExportArgs) -> Result<(), Error> {
    if a.panel.opts.long.is_some() {
        return Err(Error::Usage(
            "export reads wide panel files; the script cannot reshape --long tables (write the wide table first)".into(),
        ));
    }
    if !std::fs::metadata(&a.panel.panel).is_ok_and(|m| m.is_file()) && a.panel.panel.exists()
        || a.panel.panel.as_os_str() == "-"
    {
        return Err(Error::Usage(format!(
            "{}: export writes a script that reads the panel file again; give a regular file, not standard input, a pipe or a device",
            crate::error::sanitize(&a.panel.panel.display().to_string())
        )));
    }
    let out = output_target(a.output.as_deref(), a.force)?;
    let loaded = load_panel(&a.panel, 2)?;
    identified(&a.panel.panel, &loaded.panel)?;
    let path = a.panel.panel.display().to_string();
    let src = crate::export::Source {
        path: &path,
        delimiter: loaded.delimiter,
        columns: &loaded.raw_names,
    };
    let syntax = match a.syntax {
        crate::cli::Syntax::Lavaan => crate::export::Syntax::Lavaan,
        crate::cli::Syntax::Semopy => crate::export::Syntax::Semopy,
    };
    let text = crate::export::script(&loaded.panel, &src, syntax);
    output::write(&out, |w| w.write_all(text.as_bytes()))
}

/// The checked target of an optional `-o FILE` (standard output without one).
fn output_target(path: Option<&Path>, force: bool) -> Result<output::Target, Error> {
    path.map_or(Ok(output::Target::Stdout), |p| output::target(p, force))
}

fn simulate_cmd(a: &SimulateArgs) -> Result<(), Error> {
    let mut pm = scenario::preset(&a.preset).map_err(Error::Usage)?;
    for s in &a.set {
        scenario::apply_set(&mut pm, s).map_err(Error::Usage)?;
    }
    let n = usize::try_from(a.n).map_err(|_| Error::Usage("--n is too large".into()))?;
    let out = output_target(a.output.as_deref(), a.force)?;
    let side = match (&out, &a.output) {
        (output::Target::File { .. }, Some(path)) => Some(data::families_sidecar(path)),
        _ => None,
    };
    let has_families = pm.violations.families != crate::model::Families::None;
    let stale = match &side {
        Some(side) => check_sidecar(side, has_families, a.force)?,
        None => false,
    };
    let side_target = match &side {
        Some(side) if has_families => Some(output::target(side, true)?),
        _ => None,
    };
    let panel = simulate::simulate(&pm, n, a.seed)
        .map_err(|e| Error::Usage(format!("invalid design: {e}")))?;
    if side.is_none()
        && let Some(f) = &panel.families
    {
        let pairs: Vec<String> = panel
            .judges
            .iter()
            .zip(f)
            .map(|(j, x)| format!("{j}={x}"))
            .collect();
        note(&format!(
            "families (pass to estimate): --families {}",
            crate::error::sanitize(&pairs.join(","))
        ));
    }
    output::write(&out, |w| panel.write_csv(w))?;
    if let (Some(t), Some(_)) = (&side_target, &panel.families) {
        output::write(t, |w| panel.write_families(w))?;
    } else if let (Some(side), true) = (&side, stale) {
        std::fs::remove_file(side).map_err(|e| output_error(Some(side), &e))?;
    }
    Ok(())
}

/// One line on stderr; a stderr that cannot be written is no reason to fail the command.
pub(crate) fn note(line: &str) {
    let _ = writeln!(io::stderr(), "rhoscope: {line}");
}

use output::output_error;

/// Writes pretty JSON and a newline to stdout.
///
/// # Panics
/// Never: a `serde_json::Value` always serialises.
///
/// # Errors
/// A write failure other than a closed pipe.
pub fn write_json(v: &serde_json::Value) -> Result<(), Error> {
    let mut s = serde_json::to_string_pretty(v).expect("JSON values always serialise");
    s.push('\n');
    write_stdout(s.as_bytes())
}

/// Writes to stdout; a closed pipe (`rhoscope … | head`) is not an error.
///
/// # Errors
/// Any other write failure.
pub fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(output_error(None, &e)),
        _ => Ok(()),
    }
}

/// Refuses to touch an existing families sidecar the user did not name (SPEC §6: nothing is
/// written over a file without being asked). A design with families would overwrite it; one
/// without would leave it for `estimate` to adopt. With `--force`, returns whether the stale
/// sidecar must be deleted.
fn check_sidecar(side: &Path, has_families: bool, force: bool) -> Result<bool, Error> {
    let exists = std::fs::symlink_metadata(side).is_ok();
    if !exists || force {
        return Ok(exists && !has_families);
    }
    let shown = crate::error::sanitize(&side.display().to_string());
    Err(Error::Usage(if has_families {
        format!(
            "{shown} already exists and simulate will not overwrite a file you did not name: remove it, or pass --force"
        )
    } else {
        format!(
            "{shown} exists from an earlier run, and `estimate` would adopt it for this family-less panel: remove it, or pass --force to delete it"
        )
    }))
}

/// Says on stderr, before it starts, that a computation will take more than
/// [`crate::cost::WARN_SECONDS`] (one line; the estimate comes from the panel's shape).
fn warn_cost(seconds: f64, what: &str) {
    if let Some(w) = crate::cost::warning(seconds, what) {
        note(&w);
    }
}

/// Prints the loader's one-line notes (sidecar adopted, identical judges) on stderr.
fn print_notes(loaded: &Loaded) {
    for line in &loaded.notes {
        note(line);
    }
}

/// A positive `RAYON_NUM_THREADS`, which rayon would otherwise honour unchecked.
fn env_threads() -> Option<usize> {
    std::env::var("RAYON_NUM_THREADS")
        .ok()?
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|t| *t > 0)
}

/// Builds the global rayon pool with `threads` workers (from `source`: the flag or the
/// environment), refusing counts above [`data::limits::max_threads`] (usage error) and
/// reporting a pool the OS will not start (instead of a later panic in the first parallel
/// call).
fn start_thread_pool(threads: usize, source: &str) -> Result<(), Error> {
    let max = data::limits::max_threads();
    if threads > max {
        let sep = if source.ends_with('=') { "" } else { " " };
        return Err(Error::Usage(format!(
            "{source}{sep}{threads}: at most {max} threads on this machine ({} per core, never above {})",
            data::limits::THREADS_PER_CORE,
            data::limits::MAX_THREADS
        )));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| Error::System(format!("cannot start {threads} worker threads: {e}")))
}
