//! Each JSON subcommand's body as in `commands`, returning its `--json` document (and the
//! notes the CLI prints on stderr) instead of writing them; a cancel hook stops long work.

use std::ffi::OsString;

use serde_json::Value;

use crate::battery::{self, NullSpec};
use crate::cli::{
    BatteryArgs, Command, EstimateArgs, IdentifyArgs, Method, PanelArgs, PlanArgs, PowerArgs,
    ValidateArgs,
};
use crate::data::{self, Loaded};
use crate::error::Error;
use crate::estimate::{Context, Estimator, Fits};
use crate::power::{self, PowerOptions};
use crate::progress::{Flow, Progress};
use crate::report::{self, estimate::EstimateReport};
use crate::scenario;

/// A command's `--json` document and the notes the CLI would print on stderr.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub doc: Value,
    pub notes: Vec<String>,
    /// The command's error after its document (a refused estimator the user asked for, a
    /// diagnostic with `--fail-on-diagnostic`): exit code and message.
    pub error: Option<(i32, String)>,
}

/// Whether long work should stop (Ctrl-C in the caller).
type Cancel<'a> = &'a (dyn Fn() -> bool + Sync);

/// A run stopped by the cancel hook, as an interrupt (SIGINT).
fn cancelled() -> Error {
    Error::Signal(2)
}

/// Runs a JSON subcommand (`estimate`, `battery`, `identify`, `validate`, `power`, `plan`)
/// from its command line (`--json` implied), on `threads` workers as `--threads` would.
/// `shown` names an in-memory panel in the document instead of its temporary file.
///
/// # Errors
/// The command's [`Error`], as the CLI reports it; [`Error::Signal`] when cancelled.
pub fn json(
    args: Vec<OsString>,
    shown: Option<&str>,
    cancel: Cancel<'_>,
) -> Result<Outcome, Error> {
    let cli = super::entry::parse(args)?;
    let pool = pool(cli.threads)?;
    let mut notes = Vec::new();
    let run = || match cli.command {
        Some(Command::Estimate(a)) => estimate(&a, shown, cancel, &mut notes),
        Some(Command::Battery(a)) => battery_json(&a, shown, cancel, &mut notes),
        Some(Command::Identify(a)) => identify_json(&a, shown, &mut notes),
        Some(Command::Validate(a)) => validate_json(&a, shown, cancel, &mut notes),
        Some(Command::Power(a)) => power_json(&a, cancel).map(|d| (d, None)),
        Some(Command::Plan(a)) => plan_json(&a, cancel).map(|d| (d, None)),
        _ => Err(Error::Usage(
            "the API runs estimate, battery, identify, validate, power and plan".into(),
        )),
    };
    let (doc, error) = match &pool {
        Some(p) => p.install(run)?,
        None => run()?,
    };
    Ok(Outcome {
        doc,
        notes,
        error: error.map(|e| (e.exit_code(), e.to_string())),
    })
}

/// Runs a file-writing subcommand (`simulate`, `export`, `plot`) through the library's
/// command dispatch, on `threads` workers as `--threads` would.
///
/// # Errors
/// The command's [`Error`].
pub fn files(args: Vec<OsString>) -> Result<(), Error> {
    let mut cli = super::entry::parse(args)?;
    if !matches!(
        cli.command,
        Some(Command::Simulate(_) | Command::Export(_) | Command::Plot(_))
    ) {
        return Err(Error::Usage("files runs simulate, export and plot".into()));
    }
    match pool(cli.threads.take())? {
        Some(p) => p.install(|| crate::commands::run(cli)),
        None => crate::commands::run(cli),
    }
}

/// A local pool for `--threads` (the global one can be built once per process only).
fn pool(threads: Option<u16>) -> Result<Option<rayon::ThreadPool>, Error> {
    let Some(t) = threads else { return Ok(None) };
    let (t, max) = (usize::from(t), data::limits::max_threads());
    if t > max {
        return Err(Error::Usage(format!(
            "--threads {t}: at most {max} threads on this machine ({} per core, never above {})",
            data::limits::THREADS_PER_CORE,
            data::limits::MAX_THREADS
        )));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .map(Some)
        .map_err(|e| Error::System(format!("cannot start {t} worker threads: {e}")))
}

/// A progress hook that only watches the cancel hook.
fn ticker(cancel: Cancel<'_>) -> impl Fn(Progress) -> Flow + Sync + '_ {
    move |_| if cancel() { Flow::Stop } else { Flow::Continue }
}

/// `commands::load_panel`, with its notes collected instead of printed.
fn load(a: &PanelArgs, min_anchors: usize, notes: &mut Vec<String>) -> Result<Loaded, Error> {
    let loaded = data::load(
        &a.panel,
        &crate::commands::load_options(&a.opts, min_anchors),
    )?;
    notes.extend(loaded.notes.iter().map(|l| format!("rhoscope: {l}")));
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
        notes.push(format!("rhoscope: {e}"));
    }
    Ok(loaded)
}

fn source(a: &PanelArgs, shown: Option<&str>) -> String {
    shown.map_or_else(|| a.panel.display().to_string(), String::from)
}

fn cost_note(seconds: f64, what: &str, notes: &mut Vec<String>) {
    if let Some(w) = crate::cost::warning(seconds, what) {
        notes.push(format!("rhoscope: {w}"));
    }
}

/// An anchor by name or 1-based position among the anchors (as `commands`).
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

type Doc = (Value, Option<Error>);

fn estimate(
    a: &EstimateArgs,
    shown: Option<&str>,
    cancel: Cancel<'_>,
    notes: &mut Vec<String>,
) -> Result<Doc, Error> {
    let loaded = load(&a.panel, 2, notes)?;
    let panel = &loaded.panel;
    if let Some(reason) = crate::battery::decision::refusal(panel) {
        return Err(Error::NotIdentified {
            path: a.panel.panel.clone(),
            reason,
        });
    }
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
        cost_note(crate::cost::ml_seconds(panel.p(), panel.m()), &what, notes);
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
            let streams = crate::rng::Streams::of(a.seed);
            let tick = ticker(cancel);
            match crate::estimate::bias::correct(panel, fs, a.bias_reps as usize, streams, &tick) {
                Ok(None) => return Err(cancelled()),
                Ok(Some(b)) => Some(Ok(b)),
                Err(e) => Some(Err(e.to_string())),
            }
        }
        None => None,
    };
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
    let source = source(&a.panel, shown);
    let r = EstimateReport {
        source: &source,
        panel,
        families_source: loaded.families_source.as_deref(),
        fits: &fits,
        ctx: &ctx,
        closed: !matches!(a.method, Method::Ml | Method::FreeScale),
        bias: bias.as_ref(),
    };
    Ok((report::estimate::json(&r), refused))
}

fn battery_json(
    a: &BatteryArgs,
    shown: Option<&str>,
    cancel: Cancel<'_>,
    notes: &mut Vec<String>,
) -> Result<Doc, Error> {
    let loaded = load(&a.panel, 0, notes)?;
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
    cost_note(crate::cost::battery_seconds(&shape), &what, notes);
    let conventions = battery::Conventions {
        codes_as_numbers: a.codes_as_numbers,
    };
    let tick = ticker(cancel);
    let report = battery::run_with(panel, &NullSpec::Matched, &opts, conventions, &tick)
        .ok_or_else(cancelled)?;
    let source = source(&a.panel, shown);
    let fam = loaded.families_source.as_deref();
    let doc = report::battery::json(&source, panel, fam, &report);
    let error = (a.fail_on_diagnostic && report.any_alarm()).then_some(Error::Diagnostic);
    Ok((doc, error))
}

fn identify_json(
    a: &IdentifyArgs,
    shown: Option<&str>,
    notes: &mut Vec<String>,
) -> Result<Doc, Error> {
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
        let id = crate::identify::at_paper_design().map_err(|e| Error::System(e.to_string()))?;
        let r = report::identify::IdentifyReport {
            id: &id,
            panel: None,
        };
        return Ok((report::identify::json(&r), None));
    };
    let args = PanelArgs {
        panel: path.clone(),
        opts: a.opts.clone(),
    };
    let loaded = load(&args, 1, notes)?;
    let id = crate::identify::at_panel(&loaded.panel)
        .map_err(|e| Error::data(path, format!("identify: {e}")))?;
    let source = source(&args, shown);
    let r = report::identify::IdentifyReport {
        id: &id,
        panel: Some((&source, &loaded.panel, loaded.families_source.as_deref())),
    };
    Ok((report::identify::json(&r), None))
}

fn validate_json(
    a: &ValidateArgs,
    shown: Option<&str>,
    cancel: Cancel<'_>,
    notes: &mut Vec<String>,
) -> Result<Doc, Error> {
    use crate::validate::{self, Thresholds};
    let mut opts = validate::Options {
        inject: a.inject.clone(),
        ns: vec![10],
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
    opts.check()
        .map_err(|e| Error::Usage(format!("validate: {e}")))?;
    let loaded = load(&a.panel, 0, notes)?;
    let panel = &loaded.panel;
    let tex = validate::Texture::of(panel).map_err(|e| Error::data(&a.panel.panel, e))?;
    let mut ns = vec![panel.n];
    for &n in &a.n {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !ns.contains(&n) {
            ns.push(n);
        }
    }
    opts.ns = ns;
    opts.check()
        .map_err(|e| Error::data(&a.panel.panel, format!("validate: {e}")))?;
    let tick = ticker(cancel);
    let study = validate::run(&tex, &opts, &tick)
        .map_err(|e| Error::Usage(format!("validate: {e}")))?
        .ok_or_else(cancelled)?;
    let source = source(&a.panel, shown);
    let fam = loaded.families_source.as_deref();
    Ok((
        report::validate::json(&source, panel, fam, &opts, &study),
        None,
    ))
}

fn power_json(a: &PowerArgs, cancel: Cancel<'_>) -> Result<Value, Error> {
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
    let base = match a.ordinal {
        Some(l) => power::with_ordinal_judges(&design.base(), l as usize, a.skewed),
        None => design.base(),
    };
    let tick = ticker(cancel);
    let cells = power::characteristics_on(design, &base, &opts, &tick)
        .map_err(|e| Error::Usage(format!("power: {e}")))?
        .ok_or_else(cancelled)?;
    let mut doc = report::power::json(design, &opts, &cells);
    if let Some(l) = a.ordinal {
        doc["ordinal_judges"] = serde_json::json!({"levels": l, "skewed": a.skewed});
    }
    Ok(doc)
}

fn plan_json(a: &PlanArgs, cancel: Cancel<'_>) -> Result<Value, Error> {
    let mut pm = scenario::preset(&a.preset).map_err(Error::from)?;
    for s in &a.set {
        scenario::apply_set(&mut pm, s).map_err(Error::from)?;
    }
    pm.validate()
        .map_err(|e| Error::Usage(format!("invalid design: {e}")))?;
    let target = crate::plan::Target::parse(&a.target).map_err(|e| Error::Usage(e.to_string()))?;
    let opts = crate::plan::PlanOptions {
        reps: a.reps as usize,
        null_draws: a.null_draws as usize,
        resamples: a.bootstrap as usize,
        seed: a.seed,
        max_n: usize::try_from(a.max_n).unwrap_or(usize::MAX),
    };
    let tick = ticker(cancel);
    let plan = crate::plan::plan(&pm, target, &opts, &tick)
        .map_err(|e| Error::Usage(format!("plan: {e}")))?
        .ok_or_else(cancelled)?;
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
    Ok(report::plan::json(&scenario, &plan, &opts))
}
