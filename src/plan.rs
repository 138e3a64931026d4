//! How many items do I need? The smallest N at which a scenario reaches a target, found by a
//! search over N on the existing simulation machinery: the expected width of every ρ_k's 95 %
//! bootstrap interval (Section 6), or a test's power at a stated violation strength (its
//! registered violation design, as `rhoscope power` runs it). Every evaluation states its
//! Monte-Carlo error; all N use the same replicate streams (common random numbers), so the
//! search compares like with like and the answer is bit-identical at any thread count.

use crate::battery::TestId;
use crate::bootstrap::bootstrap;
use crate::estimate::{Context, Estimator};
use crate::model::Params;
use crate::panel::Panel;
use crate::power::{PowerDesign, PowerOptions, characteristics_on};
use crate::progress::{Flow, Progress};
use crate::rng::Streams;
use crate::simulate::{Design, replicates};
use crate::wording::Setting;

/// Why a plan cannot be made; its message is the one the command line shows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// A malformed `--target`, with the accepted forms.
    #[error("{0}")]
    Target(String),
    /// Too few replicates or too small a search ceiling.
    #[error(
        "{} must be at least 2 and {} at least 10",
        crate::wording::RunSetting::Reps.marked(),
        crate::wording::RunSetting::MaxN.marked()
    )]
    Options,
    /// A power target needs two anchors at least.
    #[error("the scenario needs at least 2 anchors")]
    TooFewAnchors,
    /// The target's test cannot run on the scenario, so no N reaches its power.
    #[error("{0}")]
    NotApplicable(String),
    /// The scenario cannot be simulated.
    #[error(transparent)]
    Design(#[from] crate::simulate::SimError),
    /// The power study at one N failed.
    #[error(transparent)]
    Power(#[from] crate::power::PowerError),
}

/// Callers that still speak in messages keep working with `?`.
impl From<PlanError> for String {
    fn from(e: PlanError) -> String {
        e.to_string()
    }
}

/// What the panel must reach.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// Every ρ_k's mean 95 % bootstrap interval no wider than this.
    CiWidth(f64),
    /// A test's power at least `power` against its own violation at `strength`.
    Power {
        test: TestId,
        power: f64,
        strength: f64,
    },
}

impl Target {
    /// Parses `ci-width=W` or `power=TEST:P@S` (e.g. `power=test-a:0.8@0.4`).
    ///
    /// # Errors
    /// A malformed target, with the accepted forms.
    pub fn parse(s: &str) -> Result<Target, PlanError> {
        let forms = "use ci-width=W (0 < W < 2) or power=TEST:P@S (e.g. power=test-a:0.8@0.4)";
        let num = |x: &str| x.trim().parse::<f64>().ok().filter(|v| v.is_finite());
        if let Some(w) = s.strip_prefix("ci-width=") {
            return match num(w) {
                Some(w) if w > 0.0 && w < 2.0 => Ok(Target::CiWidth(w)),
                _ => Err(PlanError::Target(format!(
                    "{} {s}: {forms}",
                    Setting::Target.marked()
                ))),
            };
        }
        let Some(rest) = s.strip_prefix("power=") else {
            return Err(PlanError::Target(format!(
                "{} {s}: {forms}",
                Setting::Target.marked()
            )));
        };
        let parsed = rest.split_once(':').and_then(|(name, ps)| {
            let (p, st) = ps.split_once('@')?;
            let test = TestId::ALL
                .into_iter()
                .find(|t| t.spec().violation.name == name.trim())?;
            Some((test, num(p)?, num(st)?))
        });
        match parsed {
            Some((test, power, strength)) if power > 0.0 && power < 1.0 && strength >= 0.0 => {
                Ok(Target::Power {
                    test,
                    power,
                    strength,
                })
            }
            _ => Err(PlanError::Target(format!(
                "{} {s}: {forms}; tests: {}",
                Setting::Target.marked(),
                test_names()
            ))),
        }
    }

    /// The target as written on the command line.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Target::CiWidth(w) => format!("ci-width={w}"),
            Target::Power {
                test,
                power,
                strength,
            } => format!("power={}:{power}@{strength}", test.spec().violation.name),
        }
    }
}

/// The tests a power target may name, for messages.
#[must_use]
pub fn test_names() -> String {
    TestId::ALL.map(|t| t.spec().violation.name).join(", ")
}

/// Settings of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanOptions {
    /// Replicates per evaluated N.
    pub reps: usize,
    /// Null draws per evaluated N (power targets).
    pub null_draws: usize,
    /// Bootstrap resamples per replicate (CI-width targets).
    pub resamples: usize,
    pub seed: u64,
    /// The largest N the search may try.
    pub max_n: usize,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            reps: 100,
            null_draws: 500,
            resamples: 100,
            seed: 1,
            max_n: 200_000,
        }
    }
}

/// One evaluated N: the target's quantity (the widest anchor's mean CI width, or the power)
/// and its Monte-Carlo standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evaluation {
    pub n: usize,
    /// `None` when undefined at this N (an anchor with no interval in most replicates).
    pub value: Option<f64>,
    /// `NaN` when `value` is undefined (JSON `null`, text "undefined").
    pub mc_se: f64,
    pub reached: bool,
}

/// The search's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub target: Target,
    /// The smallest N found that reaches the target (`None`: not reached by `max_n`).
    pub n: Option<usize>,
    /// Every N evaluated, in the order tried.
    pub evaluations: Vec<Evaluation>,
}

/// Most evaluations one search makes (doubling to bracket, then bisection to 5 %).
pub const MAX_EVALUATIONS: usize = 24;

/// Finds the smallest N (to within 5 %) at which `base` reaches `target`: doubling from a
/// first guess until the target is met, then bisection in log N. For a width target the first
/// guess uses the 1/√N scaling of interval widths from one evaluation at N = 200. `None` when
/// `progress` stops the run.
///
/// # Errors
/// Invalid options, a design that cannot be simulated, or a test that cannot run on it.
pub fn plan(
    base: &Params,
    target: Target,
    opts: &PlanOptions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Option<Plan>, PlanError> {
    if opts.reps < 2 || opts.max_n < 10 {
        return Err(PlanError::Options);
    }
    reachable(base, target)?;
    crate::simulate::within_cells(opts.max_n, base.q(), || {
        plan_within(base, target, opts, progress)
    })?
}

/// [`plan`] once its panels fit the cell limit together.
fn plan_within(
    base: &Params,
    target: Target,
    opts: &PlanOptions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Option<Plan>, PlanError> {
    let mut search = Search {
        base,
        target,
        opts,
        progress,
        evaluations: Vec::new(),
    };
    let Some(first) = search.first_guess()? else {
        return Ok(None);
    };
    let Some((lo, hi)) = search.bracket(first)? else {
        return Ok(None);
    };
    let hi = match (lo, hi) {
        (Some(l), Some(h)) => match search.bisect(l, h)? {
            Some(h) => Some(h),
            None => return Ok(None),
        },
        (_, hi) => hi,
    };
    Ok(Some(Plan {
        target,
        n: hi,
        evaluations: search.evaluations,
    }))
}

/// Refuses a power target whose test cannot run on the scenario: no N would reach it.
fn reachable(base: &Params, target: Target) -> Result<(), PlanError> {
    let Target::Power { test, strength, .. } = target else {
        return Ok(());
    };
    let layout_base = PowerDesign::Test(test).apply(base, strength);
    if layout_base.m() < 2 {
        return Err(PlanError::TooFewAnchors);
    }
    test.applicable(&crate::battery::Layout::of_params(&layout_base))
        .map_err(|why| {
            PlanError::NotApplicable(format!(
                "Test {} cannot run on this scenario: it {why}. No N reaches its power; choose a scenario it applies to (e.g. {} {})",
                test.name(),
                crate::wording::RunSetting::Preset.marked(),
                if test.spec().violation.three_anchors {
                    "three-anchor"
                } else {
                    "mid"
                }
            ))
        })
}

/// The N that fails (`lo`) and the N that reaches (`hi`) the target, where found.
type Bracket = (Option<usize>, Option<usize>);

/// One search for N: its inputs and every evaluation made so far (each N evaluated once).
struct Search<'a> {
    base: &'a Params,
    target: Target,
    opts: &'a PlanOptions,
    progress: &'a (dyn Fn(Progress) -> Flow + Sync),
    evaluations: Vec<Evaluation>,
}

impl Search<'_> {
    /// The target's quantity at `n`, from memory when it was evaluated before.
    fn eval(&mut self, n: usize) -> Result<Option<Evaluation>, PlanError> {
        if let Some(e) = self.evaluations.iter().find(|e| e.n == n) {
            return Ok(Some(*e));
        }
        let Some(e) = evaluate(self.base, self.target, n, self.opts, self.progress)? else {
            return Ok(None);
        };
        self.evaluations.push(e);
        Ok(Some(e))
    }

    /// Where to start: for a width target, the 1/√N scaling from one evaluation at N = 200.
    fn first_guess(&mut self) -> Result<Option<usize>, PlanError> {
        let first = match self.target {
            Target::CiWidth(w) => {
                // Never past max_n: an N beyond it would be evaluated and then called unreached.
                let start = 200.min(self.opts.max_n);
                let Some(e) = self.eval(start)? else {
                    return Ok(None);
                };
                match e.value {
                    Some(v) if v > 0.0 => to_n(start as f64 * (v / w).powi(2)),
                    _ => 400,
                }
            }
            Target::Power { .. } => 100,
        };
        Ok(Some(first.clamp(10, self.opts.max_n)))
    }

    /// Doubling (or halving) from `n` until `lo` fails and `hi` reaches, or `max_n` fails.
    fn bracket(&mut self, mut n: usize) -> Result<Option<Bracket>, PlanError> {
        let (mut lo, mut hi) = (None::<usize>, None::<usize>);
        while hi.is_none() {
            let Some(e) = self.eval(n)? else {
                return Ok(None);
            };
            if e.reached {
                hi = Some(n);
                if n <= 10 {
                    break;
                }
                if lo.is_none() {
                    // Step down until a failing N brackets it from below.
                    let down = (n / 2).max(10);
                    let Some(d) = self.eval(down)? else {
                        return Ok(None);
                    };
                    if d.reached {
                        hi = None;
                        n = down;
                        if down == 10 {
                            hi = Some(10);
                        }
                        continue;
                    }
                    lo = Some(down);
                }
            } else {
                lo = Some(n);
                if n >= self.opts.max_n {
                    break;
                }
                n = (n * 2).min(self.opts.max_n);
            }
        }
        Ok(Some((lo, hi)))
    }

    /// Bisection in log N between a failing `l` and a reaching `h`, to within 5 %.
    fn bisect(&mut self, mut l: usize, mut h: usize) -> Result<Option<usize>, PlanError> {
        while h > l + 1 && (h - l) as f64 > 0.05 * h as f64 {
            let mid = to_n((l as f64 * h as f64).sqrt()).clamp(l + 1, h - 1);
            let Some(e) = self.eval(mid)? else {
                return Ok(None);
            };
            if e.reached {
                h = mid;
            } else {
                l = mid;
            }
        }
        Ok(Some(h))
    }
}

/// A positive real rounded to an item count (saturating).
fn to_n(x: f64) -> usize {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to [0, 1e12] first"
    )]
    let n = x.round().clamp(0.0, 1e12) as usize;
    n
}

/// The target's quantity at N = `n`. `None` when `progress` stops the run.
fn evaluate(
    base: &Params,
    target: Target,
    n: usize,
    opts: &PlanOptions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Option<Evaluation>, PlanError> {
    match target {
        Target::Power {
            test,
            power,
            strength,
        } => {
            let popts = PowerOptions {
                ns: vec![n],
                strengths: vec![strength],
                reps: opts.reps,
                null_draws: opts.null_draws,
                seed: opts.seed,
                coverage: None,
            };
            let Some(cells) = characteristics_on(PowerDesign::Test(test), base, &popts, progress)?
            else {
                return Ok(None);
            };
            let value = cells[1].rates[test];
            Ok(Some(Evaluation {
                n,
                value,
                // An undefined rate has no Monte-Carlo error either (text: "undefined").
                mc_se: value.map_or(f64::NAN, |p| (p * (1.0 - p) / opts.reps as f64).sqrt()),
                reached: value.is_some_and(|v| v >= power),
            }))
        }
        Target::CiWidth(w) => ci_width(base, n, w, opts, progress),
    }
}

/// The widest anchor's mean 95 % bootstrap CI width at N = `n` over `opts.reps` replicates,
/// with its Monte-Carlo SE (SD of that anchor's widths / √reps). An anchor whose interval is
/// undefined in more than a fifth of the replicates makes the value undefined (not reached).
fn ci_width(
    base: &Params,
    n: usize,
    w: f64,
    opts: &PlanOptions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Option<Evaluation>, PlanError> {
    let design = Design::new(base)?;
    let m = base.m();
    let names = base.column_names();
    let (judges, anchors) = names.split_at(base.p);
    let widths: Vec<Option<Vec<Option<f64>>>> =
        replicates(&design, n, opts.seed, opts.reps as u64, |r, data| {
            if progress(Progress::Step) == Flow::Stop {
                return None;
            }
            let panel = Panel::new(n, data.to_vec(), judges.to_vec(), anchors.to_vec());
            let streams = Streams {
                seed: opts.seed,
                base: r << 16,
            };
            let quiet = |_: Progress| Flow::Continue;
            let est = [Estimator::ClosedForm];
            let boot = bootstrap(
                &panel,
                &est,
                &Context::default(),
                opts.resamples,
                streams,
                &quiet,
            )?;
            Some(boot[0].rho.iter().map(|ci| ci.map(|c| c.width())).collect())
        });
    let Some(widths) = widths.into_iter().collect::<Option<Vec<_>>>() else {
        return Ok(None);
    };
    let mut worst: Option<(f64, f64)> = None;
    let mut undefined = false;
    for k in 0..m {
        let v: Vec<f64> = widths.iter().filter_map(|r| r[k]).collect();
        if (v.len() as f64) < 0.8 * opts.reps as f64 {
            undefined = true;
            continue;
        }
        let (mean, sd) = crate::stats::mean_sd(&v);
        let se = sd / (v.len() as f64).sqrt();
        if worst.is_none_or(|(x, _)| mean > x) {
            worst = Some((mean, se));
        }
    }
    let value = if undefined { None } else { worst.map(|x| x.0) };
    Ok(Some(Evaluation {
        n,
        value,
        mc_se: worst.filter(|_| !undefined).map_or(f64::NAN, |x| x.1),
        reached: value.is_some_and(|v| v <= w),
    }))
}
