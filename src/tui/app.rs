//! The explorer's state and its one transition, `update(Action) -> Vec<Effect>`. No I/O
//! happens here: files are loaded and batteries run by the worker, on request.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::action::{
    Action, BatteryJob, Effect, LoadJob, LoadedFile, NullKind, Pane, PowerJob, PowerSummary,
    WorkerMsg,
};
use super::scenes::{self, HANNA_RATERS, Scene, Setup};
use super::sliders::Scenario;
use crate::battery::{BatteryReport, TestId};
use crate::data::LoadOptions;
use crate::estimate::{Estimate, blocked::family_blocked, clean::designated_clean, closed_form};
use crate::model::{Families, Params, Violations};
use crate::moments::{JudgePairs, Moments};
use crate::panel::Panel;
use crate::simulate::{Design, replicate_rng};

/// Sparkline histories keep this many points.
pub const HISTORY: usize = 60;

/// What the explorer is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Explore,
    /// Talk mode, showing scene i.
    Demo(usize),
    /// Stepping through a real panel's diagnostics, at step i.
    Walkthrough(usize),
}

/// The walkthrough's steps, in order.
pub const WALKTHROUGH: [&str; 7] = [
    "configuration",
    "estimate",
    "weak-ID",
    "Test A",
    "Test B",
    "Test C",
    "overall verdict",
];

/// A column's role in a loaded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Judge,
    Anchor,
    Ignored,
}

/// A loaded (or loading) file and its editable column roles and families.
#[derive(Debug, Clone, PartialEq)]
pub struct FileState {
    pub path: PathBuf,
    pub header: Vec<String>,
    pub roles: Vec<Role>,
    /// Family number of each column (judges only).
    pub families: Vec<Option<u32>>,
    pub loading: bool,
}

/// Where the data comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    Scenario,
    File(FileState),
}

/// An entry of the data pane's open list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Preset(&'static str),
    File(PathBuf),
}

/// The estimates recomputed at once on every change.
#[derive(Debug, Clone, PartialEq)]
pub struct QuickFit {
    pub estimate: Estimate,
    pub blocked: Option<Estimate>,
    /// Designating the first anchor as clean.
    pub clean: Estimate,
}

/// Sparkline histories: each test's statistic as results arrive, and ρ̂_k per change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub stats: [Vec<f64>; 3],
    pub rho: Vec<Vec<f64>>,
}

fn push(v: &mut Vec<f64>, x: f64) {
    v.push(x);
    if v.len() > HISTORY {
        v.remove(0);
    }
}

/// How the explorer starts.
#[derive(Debug, Clone)]
pub enum Start {
    /// The built-in default scenario (the paper's base design, N = 500).
    Default,
    /// A panel file, read with these options.
    File(PathBuf, LoadOptions),
    /// Talk mode from the first scene.
    Demo,
}

/// Start-up settings gathered by the caller (who may do I/O).
#[derive(Debug, Clone)]
pub struct Settings {
    pub start: Start,
    pub color: bool,
    /// Files offered in the data pane.
    pub files: Vec<PathBuf>,
    /// The HANNA panel, if at hand.
    pub hanna: Option<PathBuf>,
}

/// The explorer's whole state.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches: help, frozen, quit, colour"
)]
pub struct App {
    pub focus: Pane,
    pub help: bool,
    pub frozen: bool,
    pub quit: bool,
    pub mode: Mode,
    pub source: Source,
    pub scenario: Scenario,
    /// The selected slider.
    pub selected: usize,
    pub seed: u64,
    /// Bumped by every change of the data; results of older generations are dropped.
    pub generation: u64,
    pub panel: Option<Arc<Panel>>,
    pub fit: Option<QuickFit>,
    pub battery: Option<Box<BatteryReport>>,
    /// The generation the shown battery belongs to.
    pub battery_generation: u64,
    pub history: History,
    pub power: HashMap<String, PowerSummary>,
    pub power_key: Option<String>,
    pub entries: Vec<Entry>,
    /// Cursor in the data pane: over the entries, then over the file's columns.
    pub cursor: usize,
    pub load_error: Option<String>,
    pub hanna: Option<PathBuf>,
    pub scenes: Vec<Scene>,
    pub color: bool,
    pub size: (u16, u16),
    /// One line for the status bar.
    pub status: String,
}

/// The battery seed of the explorer: fixed, so a configuration always shows the same verdicts.
pub const BATTERY_SEED: u64 = 1;

impl App {
    /// A new explorer and the effects its start needs.
    #[must_use]
    pub fn new(settings: Settings) -> (App, Vec<Effect>) {
        let mut entries: Vec<Entry> = crate::scenario::PRESETS
            .iter()
            .map(|(n, _)| Entry::Preset(n))
            .collect();
        entries.extend(settings.files.into_iter().map(Entry::File));
        let mut app = App {
            focus: Pane::Sliders,
            help: false,
            frozen: false,
            quit: false,
            mode: Mode::Explore,
            source: Source::Scenario,
            scenario: Scenario::default(),
            selected: 0,
            seed: 1,
            generation: 0,
            panel: None,
            fit: None,
            battery: None,
            battery_generation: 0,
            history: History::default(),
            power: HashMap::new(),
            power_key: None,
            entries,
            cursor: 0,
            load_error: None,
            hanna: settings.hanna,
            scenes: scenes::scenes(),
            color: settings.color,
            size: (120, 40),
            status: String::new(),
        };
        let effects = match settings.start {
            Start::Default => app.regenerate(),
            Start::File(path, options) => {
                app.focus = Pane::Data;
                app.open_file(path, options)
            }
            Start::Demo => app.show_scene(0),
        };
        (app, effects)
    }

    /// Whether the battery on screen belongs to older data (shown dimmed).
    #[must_use]
    pub fn battery_stale(&self) -> bool {
        self.battery_generation != self.generation
    }

    /// Whether a battery run for the data on screen is under way.
    #[must_use]
    pub fn computing(&self) -> bool {
        self.panel.is_some() && self.battery_stale()
    }

    /// The power summary of the configuration on screen, if computed.
    #[must_use]
    pub fn power_summary(&self) -> Option<&PowerSummary> {
        self.power_key.as_ref().and_then(|k| self.power.get(k))
    }

    /// The one transition.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        self.status.clear();
        if self.frozen && changes_data(&action) {
            self.status = "frozen: f to unfreeze".into();
            return Vec::new();
        }
        match action {
            Action::CloseOrQuit if self.help => {
                self.help = false;
                Vec::new()
            }
            Action::Quit | Action::CloseOrQuit => self.quit(),
            Action::CloseOverlay => {
                self.help = false;
                Vec::new()
            }
            Action::ToggleHelp => {
                self.help = !self.help;
                Vec::new()
            }
            Action::FocusNext => self.cycle_focus(1),
            Action::FocusPrev => self.cycle_focus(-1),
            Action::Focus(p) => {
                self.focus = p;
                Vec::new()
            }
            Action::Up => self.move_cursor(-1),
            Action::Down => self.move_cursor(1),
            Action::Top => self.move_cursor(i32::MIN / 2),
            Action::Bottom => self.move_cursor(i32::MAX / 2),
            Action::Fine(d) => self.nudge(f64::from(d), false),
            Action::Coarse(d) => self.nudge(f64::from(d), true),
            Action::SelectSlider(d) => self.select_slider(d),
            Action::ResetSlider => self.reset_slider(),
            Action::ResetAll => self.reset_all(),
            Action::Rerun => self.battery_job().into_iter().collect(),
            Action::NewSeed => {
                self.seed = self.seed.wrapping_add(1);
                self.regenerate()
            }
            Action::Freeze => {
                self.frozen = !self.frozen;
                self.status = if self.frozen { "frozen" } else { "live" }.into();
                Vec::new()
            }
            Action::Next => self.step(1),
            Action::Prev => self.step(-1),
            Action::Activate => self.activate(),
            Action::CycleRole => self.edit_column(FileState::cycle_role),
            Action::Family(d) => self.edit_column(|app, c| app.shift_family(c, d)),
            Action::Click { x, y } => {
                if let Some(p) = super::ui::pane_at(self, x, y) {
                    self.focus = p;
                }
                Vec::new()
            }
            Action::Wheel { x, y, up } => {
                if super::ui::pane_at(self, x, y) == Some(Pane::Sliders) {
                    self.nudge(if up { 1.0 } else { -1.0 }, false)
                } else {
                    Vec::new()
                }
            }
            Action::Resize { width, height } => {
                self.size = (width, height);
                Vec::new()
            }
            Action::Worker(msg) => self.receive(msg),
        }
    }

    fn quit(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }

    fn cycle_focus(&mut self, d: i32) -> Vec<Effect> {
        let i = Pane::ALL.iter().position(|p| *p == self.focus).unwrap_or(0);
        let n = Pane::ALL.len();
        let j = if d > 0 { (i + 1) % n } else { (i + n - 1) % n };
        self.focus = Pane::ALL[j];
        Vec::new()
    }

    fn move_cursor(&mut self, d: i32) -> Vec<Effect> {
        match self.focus {
            Pane::Sliders => self.select_slider(d),
            Pane::Data => {
                let len = self.entries.len() + self.file_columns();
                self.cursor = step_index(self.cursor, d, len);
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn select_slider(&mut self, d: i32) -> Vec<Effect> {
        self.selected = step_index(self.selected, d, self.scenario.sliders.len());
        Vec::new()
    }

    fn file_columns(&self) -> usize {
        match &self.source {
            Source::File(f) => f.header.len(),
            Source::Scenario => 0,
        }
    }

    fn nudge(&mut self, steps: f64, coarse: bool) -> Vec<Effect> {
        if self.source != Source::Scenario {
            self.status =
                "sliders drive simulated scenarios: open a preset in the data pane".into();
            return Vec::new();
        }
        let i = self
            .selected
            .min(self.scenario.sliders.len().saturating_sub(1));
        let s = &self.scenario.sliders[i];
        let (knob, delta) = (s.knob, steps * if coarse { s.coarse } else { s.fine });
        if self.scenario.nudge(i, delta) {
            self.follow(knob);
            self.regenerate()
        } else {
            Vec::new()
        }
    }

    fn reset_slider(&mut self) -> Vec<Effect> {
        let Some(knob) = self.scenario.sliders.get(self.selected).map(|s| s.knob) else {
            return Vec::new();
        };
        if self.source == Source::Scenario && self.scenario.reset(self.selected) {
            self.follow(knob);
            return self.regenerate();
        }
        Vec::new()
    }

    /// Keeps the selection on `knob` when the m slider adds or removes ρ sliders.
    fn follow(&mut self, knob: super::sliders::Knob) {
        self.selected = self
            .scenario
            .sliders
            .iter()
            .position(|s| s.knob == knob)
            .unwrap_or(0);
    }

    fn reset_all(&mut self) -> Vec<Effect> {
        self.scenario = Scenario::default();
        self.source = Source::Scenario;
        self.mode = Mode::Explore;
        self.seed = 1;
        self.selected = 0;
        self.regenerate()
    }

    /// New data from the sliders: simulate, fit at once, and queue the battery.
    fn regenerate(&mut self) -> Vec<Effect> {
        self.generation += 1;
        let params = self.scenario.params();
        let design = match Design::new(&params) {
            Ok(d) => d,
            Err(e) => {
                self.status = format!("invalid design: {e}");
                return Vec::new();
            }
        };
        let panel = design.panel(self.scenario.n(), &mut replicate_rng(self.seed, 0));
        self.set_panel(Arc::new(panel));
        let mut effects: Vec<Effect> = self.battery_job().into_iter().collect();
        let key = power_key(&params, self.scenario.n());
        if !self.power.contains_key(&key) {
            effects.push(Effect::Power(PowerJob {
                key: key.clone(),
                base: null_base(&params),
                n: self.scenario.n(),
            }));
        }
        self.power_key = Some(key);
        effects
    }

    fn set_panel(&mut self, panel: Arc<Panel>) {
        self.fit = quick_fit(&panel);
        let m = panel.m();
        self.history.rho.resize(m, Vec::new());
        for k in 0..m {
            let r = self
                .fit
                .as_ref()
                .and_then(|f| f.estimate.anchors[k].rho)
                .unwrap_or(f64::NAN);
            push(&mut self.history.rho[k], r);
        }
        self.panel = Some(panel);
    }

    fn battery_job(&self) -> Option<Effect> {
        let panel = self.panel.clone()?;
        let null = match self.source {
            Source::Scenario => NullKind::Scenario(Box::new(self.scenario.params())),
            Source::File(_) => NullKind::Matched,
        };
        Some(Effect::Battery(BatteryJob {
            generation: self.generation,
            panel,
            null,
            seed: BATTERY_SEED,
        }))
    }

    fn receive(&mut self, msg: WorkerMsg) -> Vec<Effect> {
        match msg {
            WorkerMsg::Battery { generation, report } => {
                if generation == self.generation {
                    for t in TestId::ALL {
                        let x = report.tests[t as usize].statistic.unwrap_or(f64::NAN);
                        push(&mut self.history.stats[t as usize], x);
                    }
                    self.battery = Some(report);
                    self.battery_generation = generation;
                }
                Vec::new()
            }
            WorkerMsg::Power { key, summary } => {
                self.power.insert(key, summary);
                Vec::new()
            }
            WorkerMsg::Loaded { generation, result } => {
                if generation != self.generation {
                    return Vec::new();
                }
                match result {
                    Ok(file) => self.loaded(file),
                    Err(e) => {
                        self.load_error = Some(e);
                        if let Source::File(f) = &mut self.source {
                            f.loading = false;
                        }
                        Vec::new()
                    }
                }
            }
            WorkerMsg::Crashed => {
                self.status = "the background worker crashed".into();
                self.quit()
            }
        }
    }

    fn loaded(&mut self, file: LoadedFile) -> Vec<Effect> {
        let panel = file.panel;
        let roles = file
            .header
            .iter()
            .map(|h| {
                if panel.judges.contains(h) {
                    Role::Judge
                } else if panel.anchors.contains(h) {
                    Role::Anchor
                } else {
                    Role::Ignored
                }
            })
            .collect();
        let fam_index = panel.family_index();
        let families = file
            .header
            .iter()
            .map(|h| {
                let j = panel.judges.iter().position(|n| n == h)?;
                fam_index
                    .as_ref()
                    .map(|f| u32::try_from(f[j] + 1).unwrap_or(1))
            })
            .collect();
        self.source = Source::File(FileState {
            path: file.path,
            header: file.header,
            roles,
            families,
            loading: false,
        });
        self.load_error = None;
        self.power_key = None;
        self.set_panel(panel);
        self.battery_job().into_iter().collect()
    }

    fn open_file(&mut self, path: PathBuf, options: LoadOptions) -> Vec<Effect> {
        self.load_error = None;
        self.source = Source::File(FileState {
            path: path.clone(),
            header: Vec::new(),
            roles: Vec::new(),
            families: Vec::new(),
            loading: true,
        });
        self.panel = None;
        self.fit = None;
        self.battery = None;
        self.request_load(path, options)
    }

    fn activate(&mut self) -> Vec<Effect> {
        match self.entries.get(self.cursor).cloned() {
            Some(Entry::Preset(name)) => {
                let params = crate::scenario::preset(name).unwrap_or_default();
                self.source = Source::Scenario;
                self.mode = Mode::Explore;
                self.scenario = Scenario::from_params(&params, self.scenario.n());
                self.selected = 0;
                self.regenerate()
            }
            Some(Entry::File(path)) => {
                self.mode = Mode::Explore;
                self.open_file(
                    path,
                    LoadOptions {
                        min_anchors: 0,
                        ..LoadOptions::default()
                    },
                )
            }
            None => Vec::new(),
        }
    }

    /// Applies `f` to the column under the cursor, then reloads the file with the new roles.
    fn edit_column(&mut self, f: impl FnOnce(&mut FileState, usize)) -> Vec<Effect> {
        let Some(c) = self.cursor.checked_sub(self.entries.len()) else {
            return Vec::new();
        };
        let Source::File(file) = &mut self.source else {
            return Vec::new();
        };
        if c >= file.header.len() {
            return Vec::new();
        }
        f(file, c);
        let (path, options) = (file.path.clone(), reload_options(file));
        self.request_load(path, options)
    }

    /// Asks the worker for (a reload of) a file as a new generation; what is on screen stays
    /// until the result arrives.
    fn request_load(&mut self, path: PathBuf, options: LoadOptions) -> Vec<Effect> {
        self.generation += 1;
        if let Source::File(f) = &mut self.source {
            f.loading = true;
        }
        vec![Effect::Load(LoadJob {
            generation: self.generation,
            path,
            options,
        })]
    }

    /// `n` / `p`: talk scenes in demo mode, walkthrough steps with a file, else start the talk.
    fn step(&mut self, d: i32) -> Vec<Effect> {
        match self.mode {
            Mode::Demo(i) => {
                let n = self.scenes.len();
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    clippy::cast_possible_wrap,
                    reason = "a handful of scenes"
                )]
                let next = (i as i32 + d).clamp(0, n as i32 - 1) as usize;
                if next == i {
                    return Vec::new();
                }
                self.show_scene(next)
            }
            Mode::Walkthrough(i) => {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    clippy::cast_possible_wrap,
                    reason = "seven steps"
                )]
                let next = (i as i32 + d).clamp(0, WALKTHROUGH.len() as i32 - 1) as usize;
                self.walk(next)
            }
            Mode::Explore => match self.source {
                Source::File(_) => self.walk(0),
                Source::Scenario if d > 0 => self.show_scene(0),
                Source::Scenario => Vec::new(),
            },
        }
    }

    fn walk(&mut self, step: usize) -> Vec<Effect> {
        self.mode = Mode::Walkthrough(step);
        self.focus = match step {
            0 => Pane::Config,
            1 => Pane::Estimates,
            _ => Pane::Battery,
        };
        Vec::new()
    }

    /// Puts scene `i` on screen.
    pub fn show_scene(&mut self, i: usize) -> Vec<Effect> {
        self.mode = Mode::Demo(i);
        match self.scenes[i].setup.clone() {
            Setup::Simulated { params, n, seed } => {
                self.source = Source::Scenario;
                self.scenario = Scenario::from_params(params.as_ref(), n);
                self.seed = seed;
                self.selected = 0;
                self.focus = Pane::Estimates;
                self.regenerate()
            }
            Setup::Hanna => match self.hanna.clone() {
                Some(path) => {
                    let effects = self.open_file(
                        path,
                        LoadOptions {
                            judges: Some(HANNA_RATERS.iter().map(|s| (*s).to_string()).collect()),
                            min_anchors: 0,
                            ..LoadOptions::default()
                        },
                    );
                    self.focus = Pane::Battery;
                    effects
                }
                None => Vec::new(),
            },
        }
    }

    /// The caption of the current scene or walkthrough step (two lines), if any.
    #[must_use]
    pub fn caption(&self) -> Option<(String, [String; 2])> {
        match self.mode {
            Mode::Explore => None,
            Mode::Demo(i) => {
                let scene = &self.scenes[i];
                let lines = if scene.setup == Setup::Hanna && self.hanna.is_none() {
                    scenes::HANNA_MISSING
                } else {
                    scene.caption
                };
                Some((
                    format!("Talk {}/{}: {}", i + 1, self.scenes.len(), scene.title),
                    lines.map(String::from),
                ))
            }
            Mode::Walkthrough(i) => Some((
                format!(
                    "Walkthrough {}/{}: {}",
                    i + 1,
                    WALKTHROUGH.len(),
                    WALKTHROUGH[i]
                ),
                super::walkthrough::explain(self, i),
            )),
        }
    }
}

/// Which actions change the data (ignored while frozen).
fn changes_data(a: &Action) -> bool {
    matches!(
        a,
        Action::Fine(_)
            | Action::Coarse(_)
            | Action::ResetSlider
            | Action::ResetAll
            | Action::NewSeed
            | Action::Activate
            | Action::CycleRole
            | Action::Family(_)
            | Action::Next
            | Action::Prev
            | Action::Wheel { .. }
    )
}

fn step_index(i: usize, d: i32, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    #[expect(
        clippy::cast_possible_wrap,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "lists are short"
    )]
    let j = (i as i64 + i64::from(d)).clamp(0, len as i64 - 1) as usize;
    j
}

/// The closed form, the blocked estimate (with ≥ 2 families) and the designated-clean
/// estimate (first anchor trusted), when ρ is identified (≥ 2 anchors).
#[must_use]
pub fn quick_fit(panel: &Panel) -> Option<QuickFit> {
    if panel.m() < 2 {
        return None;
    }
    let s = panel.covariance();
    let mom = Moments::from_cov(&s, panel.p(), JudgePairs::All)?;
    let blocked = panel
        .family_index()
        .filter(|f| crate::estimate::blocked::n_families(f) >= 2)
        .and_then(|f| family_blocked(&s, &f).ok());
    Some(QuickFit {
        estimate: closed_form(&mom),
        blocked,
        clean: designated_clean(&mom, 0),
    })
}

/// The configuration a power summary depends on.
fn power_key(params: &Params, n: usize) -> String {
    let rho: Vec<String> = params.rho.iter().map(|r| format!("{r:.2}")).collect();
    let sa: Vec<String> = params
        .sigma_a_full()
        .iter()
        .map(|s| format!("{s:.2}"))
        .collect();
    format!(
        "p={} n={n} c={:.2} rho={} sa={}",
        params.p,
        params.sigma_c2,
        rho.join("/"),
        sa.join("/")
    )
}

/// The scenario with its violations off (families kept), the base of power studies.
fn null_base(params: &Params) -> Params {
    Params {
        violations: Violations {
            families: Families::Blocks(3),
            ..Violations::default()
        },
        ..params.clone()
    }
}

/// Load options reproducing the edited roles and families of a file.
fn reload_options(file: &FileState) -> LoadOptions {
    let named = |role: Role| -> Vec<String> {
        file.header
            .iter()
            .zip(&file.roles)
            .filter(|(_, r)| **r == role)
            .map(|(h, _)| h.clone())
            .collect()
    };
    let families: Vec<String> = file
        .header
        .iter()
        .zip(&file.roles)
        .zip(&file.families)
        .filter(|((_, r), _)| **r == Role::Judge)
        .filter_map(|((h, _), f)| f.map(|f| format!("{h}=F{f}")))
        .collect();
    LoadOptions {
        judges: Some(named(Role::Judge)),
        anchors: Some(named(Role::Anchor)),
        families: (!families.is_empty()).then(|| families.join(",")),
        min_anchors: 0,
        ..LoadOptions::default()
    }
}

impl FileState {
    fn cycle_role(&mut self, c: usize) {
        self.roles[c] = match self.roles[c] {
            Role::Judge => Role::Anchor,
            Role::Anchor => Role::Ignored,
            Role::Ignored => Role::Judge,
        };
        if self.roles[c] != Role::Judge {
            self.families[c] = None;
        }
    }

    fn shift_family(&mut self, c: usize, d: i32) {
        if self.roles[c] != Role::Judge {
            return;
        }
        let max = u32::try_from(self.header.len()).unwrap_or(u32::MAX);
        let cur = i64::from(self.families[c].unwrap_or(0));
        let next = (cur + i64::from(d)).clamp(0, i64::from(max));
        self.families[c] = u32::try_from(next).ok().filter(|f| *f > 0);
    }
}
