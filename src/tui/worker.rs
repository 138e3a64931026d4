//! The background worker: one thread, one overwritable slot per kind of job (the newest
//! request wins), generation tags on every result, and cancellation of a superseded job
//! through its progress callback. A panic in the worker reaches the loop as `Crashed`.

mod notes;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;

use super::action::{
    BatteryJob, LoadFailure, LoadJob, LoadedFile, PlanJob, PowerJob, ValidateJob, WorkerMsg,
};
use crate::battery;
use crate::progress::{Flow, Progress};
use notes::{load_keeping_the_panel, load_notes, unmatched_families};

/// The jobs waiting to run: at most one of each kind.
#[derive(Default)]
struct Slots {
    load: Option<LoadJob>,
    battery: Option<BatteryJob>,
    power: Option<PowerJob>,
    plan: Option<PlanJob>,
    /// A validation study and the ticket it runs under.
    validate: Option<(ValidateJob, u64)>,
    shutdown: bool,
}

struct Shared {
    slots: Mutex<Slots>,
    wake: Condvar,
    /// The newest battery generation submitted; older running jobs stop.
    battery_gen: AtomicU64,
    /// Bumped on every power submission; a running power job stops when it changes.
    power_epoch: AtomicU64,
    /// Bumped on every plan submission; a running plan stops when it changes.
    plan_epoch: AtomicU64,
    /// Set by a battery, load or validation submission: a running power study or planner
    /// yields (and is queued again), so verdicts, files and studies the user asked for never
    /// wait behind them. Cleared when such a job is taken.
    preempt: AtomicBool,
    /// The ticket of the validation study wanted: every submission and every cancellation
    /// takes a new one, and a running study whose ticket is no longer current stops.
    validate_ticket: AtomicU64,
}

/// Handle to the worker thread.
pub struct Worker {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
}

/// Sends `Crashed` if the worker thread unwinds.
struct CrashGuard<F: Fn(WorkerMsg)>(F);

impl<F: Fn(WorkerMsg)> Drop for CrashGuard<F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            (self.0)(WorkerMsg::Crashed);
        }
    }
}

impl Worker {
    /// Starts the worker; results go to `send` (wrapped into the loop's events by the caller).
    pub fn start<T: Send + 'static>(tx: Sender<T>, wrap: fn(WorkerMsg) -> T) -> Worker {
        let shared = Arc::new(Shared {
            slots: Mutex::new(Slots::default()),
            wake: Condvar::new(),
            battery_gen: AtomicU64::new(0),
            power_epoch: AtomicU64::new(0),
            plan_epoch: AtomicU64::new(0),
            preempt: AtomicBool::new(false),
            validate_ticket: AtomicU64::new(0),
        });
        let s = Arc::clone(&shared);
        let handle = std::thread::Builder::new()
            .name("rhoscope-worker".into())
            .spawn(move || {
                let send = move |m: WorkerMsg| {
                    let _ = tx.send(wrap(m));
                };
                let _guard = CrashGuard(send.clone());
                work(&s, &send);
            })
            .ok();
        Worker { shared, handle }
    }

    /// Queues a battery run, replacing any waiting one; a running older one is cancelled.
    pub fn battery(&self, job: BatteryJob) {
        self.shared
            .battery_gen
            .store(job.generation, Ordering::SeqCst);
        self.put_first(|s| s.battery = Some(job));
    }

    /// Queues an operating-characteristics run, replacing (and cancelling) older ones.
    pub fn power(&self, job: PowerJob) {
        self.shared.power_epoch.fetch_add(1, Ordering::SeqCst);
        self.put(|s| s.power = Some(job));
    }

    /// Queues the planner for a configuration, replacing (and cancelling) older ones.
    pub fn plan(&self, job: PlanJob) {
        self.shared.plan_epoch.fetch_add(1, Ordering::SeqCst);
        self.put(|s| s.plan = Some(job));
    }

    /// Queues a validation study, replacing (and cancelling) any other.
    pub fn validate(&self, job: ValidateJob) {
        let ticket = self.shared.validate_ticket.fetch_add(1, Ordering::SeqCst) + 1;
        self.put_first(|s| s.validate = Some((job, ticket)));
    }

    /// Cancels the waiting or running validation study, if any.
    pub fn cancel_validate(&self) {
        self.shared.validate_ticket.fetch_add(1, Ordering::SeqCst);
        self.put(|s| s.validate = None);
    }

    /// Queues a file load, replacing any waiting one.
    pub fn load(&self, job: LoadJob) {
        self.put_first(|s| s.load = Some(job));
    }

    /// [`Worker::put`] for a job the user waits on: a running power study or planner yields to
    /// it. The flag is raised under the slots' lock, so the yielding job finds it queued.
    fn put_first(&self, f: impl FnOnce(&mut Slots)) {
        self.put(|s| {
            f(s);
            self.shared.preempt.store(true, Ordering::SeqCst);
        });
    }

    fn put(&self, f: impl FnOnce(&mut Slots)) {
        let mut slots = self
            .shared
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        f(&mut slots);
        self.shared.wake.notify_one();
    }
}

impl Drop for Worker {
    /// Cancels what is running and tells the thread to stop, without waiting for it: a job
    /// that cannot be cancelled (a file load, a read from a FIFO) must never delay quitting.
    /// The thread ends after its job, or with the process.
    fn drop(&mut self) {
        self.shared.battery_gen.store(u64::MAX, Ordering::SeqCst);
        self.shared.power_epoch.fetch_add(1, Ordering::SeqCst);
        self.shared.plan_epoch.fetch_add(1, Ordering::SeqCst);
        self.shared.validate_ticket.fetch_add(1, Ordering::SeqCst);
        self.put(|s| s.shutdown = true);
        drop(self.handle.take());
    }
}

enum Job {
    Load(LoadJob),
    Battery(BatteryJob),
    Power(PowerJob, u64),
    Plan(PlanJob, u64),
    Validate(ValidateJob, u64),
}

fn work(s: &Shared, send: &(dyn Fn(WorkerMsg) + Sync)) {
    loop {
        let job = {
            let mut slots = s.slots.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if slots.shutdown {
                    return;
                }
                if let Some(j) = slots.load.take() {
                    s.preempt.store(false, Ordering::SeqCst);
                    break Job::Load(j);
                }
                if let Some(j) = slots.battery.take() {
                    s.preempt.store(false, Ordering::SeqCst);
                    break Job::Battery(j);
                }
                if let Some((j, ticket)) = slots.validate.take() {
                    s.preempt.store(false, Ordering::SeqCst);
                    break Job::Validate(j, ticket);
                }
                if let Some(j) = slots.power.take() {
                    break Job::Power(j, s.power_epoch.load(Ordering::SeqCst));
                }
                if let Some(j) = slots.plan.take() {
                    break Job::Plan(j, s.plan_epoch.load(Ordering::SeqCst));
                }
                slots = s.wake.wait(slots).unwrap_or_else(PoisonError::into_inner);
            }
        };
        match job {
            Job::Load(j) => send(run_load(&j)),
            Job::Battery(j) => {
                let current = || s.battery_gen.load(Ordering::SeqCst) == j.generation;
                let stop = move |_: Progress| {
                    if current() {
                        Flow::Continue
                    } else {
                        Flow::Stop
                    }
                };
                // The verdicts first; the next steps' re-checks follow, for the same generation.
                let Some(mut report) = run_verdicts(&j, &stop) else {
                    continue;
                };
                send(WorkerMsg::Battery {
                    generation: j.generation,
                    report: Box::new(report.clone()),
                });
                if check_steps(&j, &mut report, &stop).is_some() {
                    send(WorkerMsg::Battery {
                        generation: j.generation,
                        report: Box::new(report),
                    });
                }
            }
            Job::Validate(j, ticket) => {
                let current = || s.validate_ticket.load(Ordering::SeqCst) == ticket;
                // Each replicate taken is reported, so the status line can count them.
                let (taken, total) = (AtomicU64::new(0), crate::validate::total_steps(&j.options));
                let stop = |_: Progress| {
                    if !current() {
                        return Flow::Stop;
                    }
                    let done = taken.fetch_add(1, Ordering::SeqCst) + 1;
                    send(WorkerMsg::Validating {
                        generation: j.generation,
                        done,
                        total,
                    });
                    Flow::Continue
                };
                if let Some(msg) = run_validate(&j, &stop)
                    && current()
                {
                    send(msg);
                }
            }
            Job::Power(j, epoch) => preemptible(
                s,
                (&s.power_epoch, epoch),
                j,
                run_power,
                |slots| &mut slots.power,
                send,
            ),
            Job::Plan(j, epoch) => preemptible(
                s,
                (&s.plan_epoch, epoch),
                j,
                run_plan,
                |slots| &mut slots.plan,
                send,
            ),
        }
    }
}

/// A job that yields to the battery: it stops when its epoch moves on (superseded: dropped)
/// or when a battery, load or validation is submitted (preempted: put back in its slot to run
/// afterwards).
fn preemptible<J>(
    s: &Shared,
    (epochs, epoch): (&AtomicU64, u64),
    job: J,
    run: fn(&J, &(dyn Fn(Progress) -> Flow + Sync)) -> Option<WorkerMsg>,
    slot: fn(&mut Slots) -> &mut Option<J>,
    send: &(dyn Fn(WorkerMsg) + Sync),
) {
    let current = || epochs.load(Ordering::SeqCst) == epoch;
    let stop = |_: Progress| {
        if current() && !s.preempt.load(Ordering::SeqCst) {
            Flow::Continue
        } else {
            Flow::Stop
        }
    };
    match run(&job, &stop) {
        Some(msg) => send(msg),
        None if current() => {
            let mut slots = s.slots.lock().unwrap_or_else(PoisonError::into_inner);
            let waiting = slot(&mut slots);
            if waiting.is_none() {
                *waiting = Some(job);
            }
        }
        None => {}
    }
}

/// Loads a panel file and its header (used by the worker and by headless tests).
#[must_use]
pub fn run_load(j: &LoadJob) -> WorkerMsg {
    let family_file = family_file(&j.path);
    let (loaded, unused) = load_keeping_the_panel(j);
    // A long layout's columns are its raters: those are what take roles.
    let raters = j
        .options
        .long
        .as_ref()
        .and_then(|spec| crate::data::long_raters(&j.path, spec).ok());
    let layout = j.options.long.as_ref().map(|_| {
        "note: long layout: one row per score; each rater is a column below (Space sets its role)"
            .to_string()
    });
    let result = loaded
        .map(|loaded| LoadedFile {
            path: j.path.clone(),
            notes: layout
                .into_iter()
                .chain(unused)
                .chain(load_notes(&j.path, &loaded))
                // Families given another way (a file named on the command line) and applied
                // leave nothing for the sidecar to say.
                .chain(
                    unmatched_families(&family_file, &loaded.header)
                        .filter(|_| loaded.panel.families.is_none() && loaded.panel.p() == 0),
                )
                .collect(),
            header: raters.clone().unwrap_or(loaded.header),
            family: crate::tui::trust::traced(&loaded.panel),
            panel: Arc::new(loaded.panel),
            family_file: family_file.clone(),
        })
        .map_err(|e| {
            let header = raters
                .clone()
                .unwrap_or_else(|| crate::data::header(&j.path).unwrap_or_default());
            let column = match &e {
                crate::error::Error::Data { at, .. } => at.column.clone(),
                _ => None,
            };
            let about_columns = match &e {
                crate::error::Error::Data { at, .. } => at.row.is_none() || at.column.is_some(),
                crate::error::Error::Usage(_) => true,
                _ => false,
            };
            LoadFailure {
                message: e.worded(&crate::tui::text::Keys),
                // Fewer than 3 columns can never make a panel (2 judges and an anchor).
                fixable_by_roles: about_columns
                    && header.len() >= 3
                    // A file no choice of columns makes a panel (all text) is no roles matter.
                    && (!j.path.is_file() || crate::data::could_be_panel(&j.path)),
                header,
                family_file: family_file.clone(),
                column,
            }
        });
    WorkerMsg::Loaded {
        generation: j.generation,
        result,
    }
}

/// `judge,family` pairs of a `families.csv` beside a panel file (not the panel itself), or
/// none. A first row `judge,family` is a header.
#[must_use]
pub fn family_file(panel: &std::path::Path) -> Vec<(String, String)> {
    // The same file the loader adopts (`data::families_beside`, the one rule).
    let Some((beside, _)) = crate::data::families_beside(panel) else {
        return Vec::new();
    };
    let Ok(text) = std::fs::read_to_string(&beside) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| {
            let (j, f) = l.split_once(',')?;
            let (j, f) = (j.trim(), f.trim());
            (!j.is_empty() && !f.is_empty() && !f.contains(','))
                .then(|| (j.to_string(), f.to_string()))
        })
        .filter(|(j, f)| !(j.eq_ignore_ascii_case("judge") && f.eq_ignore_ascii_case("family")))
        .collect()
}

/// Runs the battery of a job, its next steps checked; `None` when it was superseded.
#[must_use]
pub fn run_battery(
    j: &BatteryJob,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<WorkerMsg> {
    let mut report = run_verdicts(j, progress)?;
    check_steps(j, &mut report, progress)?;
    Some(WorkerMsg::Battery {
        generation: j.generation,
        report: Box::new(report),
    })
}

/// The options and conventions a job's battery runs under.
fn settings(j: &BatteryJob) -> (battery::Options, battery::Conventions) {
    let opts = battery::Options {
        seed: j.seed,
        ..battery::Options::default()
    };
    let conventions = battery::Conventions {
        designated_clean: j.designated,
        ..battery::Conventions::default()
    };
    (opts, conventions)
}

/// A job's verdicts, fits and answer, its role-changing next steps still to check
/// ([`battery::run_unchecked`]); `None` when it was superseded.
#[must_use]
pub fn run_verdicts(
    j: &BatteryJob,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<battery::BatteryReport> {
    let (opts, conventions) = settings(j);
    let room = battery::reading::Room::default();
    battery::run_unchecked(&j.panel, &room, &j.null, &opts, conventions, progress)
}

/// Settles the next steps of [`run_verdicts`]'s report as `battery --seed` gives them;
/// `None` when it was superseded.
pub fn check_steps(
    j: &BatteryJob,
    report: &mut battery::BatteryReport,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<()> {
    let (opts, conventions) = settings(j);
    let room = battery::reading::Room::default();
    battery::check_steps(report, &j.panel, &room, &opts, conventions, progress)
}

/// The live power study of a job's configuration ([`crate::power::summary`]); `None` when it
/// was superseded.
#[must_use]
pub fn run_power(j: &PowerJob, progress: &(dyn Fn(Progress) -> Flow + Sync)) -> Option<WorkerMsg> {
    let summary = crate::power::summary(&j.request, progress)?;
    Some(WorkerMsg::Power {
        request: Box::new(j.request.clone()),
        summary: Box::new(summary),
    })
}

/// The planner's N for a job's configuration ([`crate::tui::app::PLAN_TARGET`] with the
/// command's default search); `None` when it was superseded or preempted.
#[must_use]
pub fn run_plan(j: &PlanJob, progress: &(dyn Fn(Progress) -> Flow + Sync)) -> Option<WorkerMsg> {
    let plan = crate::plan::plan(
        &j.design,
        super::app::PLAN_TARGET,
        &crate::plan::PlanOptions::default(),
        progress,
    );
    let plan = match plan {
        Ok(Some(p)) => Ok(Box::new(p)),
        Ok(None) => return None,
        Err(e) => Err(crate::error::sanitize(&e.to_string())),
    };
    Some(WorkerMsg::Planned {
        design: Box::new(j.design.clone()),
        plan,
    })
}

/// Runs a validation study of a job's panel; `None` when it was cancelled or superseded. A
/// panel validation cannot use is a one-line reason, never a panic.
#[must_use]
pub fn run_validate(
    j: &ValidateJob,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<WorkerMsg> {
    let result = crate::validate::Texture::of(&j.panel)
        .and_then(|tex| crate::validate::run(&tex, &j.options, progress));
    let result = match result {
        Ok(Some(study)) => Ok(Box::new(study)),
        Ok(None) => return None,
        Err(e) => Err(crate::error::sanitize(&e.to_string())),
    };
    Some(WorkerMsg::Validated {
        generation: j.generation,
        result,
    })
}
