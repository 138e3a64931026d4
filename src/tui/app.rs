//! The explorer's state and its one transition, `update(Action) -> Vec<Effect>`. No I/O
//! happens here, and nothing of the view: files are loaded and batteries run by the worker,
//! on request, and the view reads this state to draw. File-role editing and talk/walkthrough
//! stepping live in the submodules.

mod files;
mod stepping;
pub mod validation;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

pub use files::{FileState, Role};
pub use stepping::{Mode, Step};

use super::action::{Action, BatteryJob, Effect, Pane, PowerJob, PromptEdit, WorkerMsg};
use super::scenes::{self, Scene};
use super::sliders::Scenario;
use crate::battery::{BatteryReport, NullSpec, PerTest, TestId};
use crate::data::LoadOptions;
use crate::estimate::Fits;
use crate::panel::Panel;
use crate::power::{PowerSummary, StudyRequest};
use crate::simulate::{Design, replicate_rng};

/// Sparkline histories keep this many points.
pub const HISTORY: usize = 60;

/// What the configuration pane asks the planner ([`crate::plan`]): the N at which every ρ_k's
/// 95 % interval is 0.2 wide on average (±0.1), the width a reader can act on.
pub const PLAN_TARGET: crate::plan::Target = crate::plan::Target::CiWidth(0.2);

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

/// Sparkline histories: each test's statistic over its own threshold as results arrive (a
/// scale-free value: above 1 fires), and ρ̂_k per change. Reset when the source changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub stats: PerTest<VecDeque<f64>>,
    pub rho: Vec<VecDeque<f64>>,
}

fn push(v: &mut VecDeque<f64>, x: f64) {
    if v.len() == HISTORY {
        v.pop_front();
    }
    v.push_back(x);
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
    /// Talk mode from scene i (0-based).
    Scene(usize),
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

/// The furthest a pane scrolls before its first draw says how far its content goes.
const MAX_SCROLL: u16 = 1000;

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
    /// The explorer's fits ([`Fits::explorer`]), recomputed at once on every change.
    pub fit: Option<Fits>,
    pub battery: Option<Box<BatteryReport>>,
    /// The generation the shown battery belongs to.
    pub battery_generation: u64,
    pub history: History,
    /// Live power studies, each keyed by its whole request.
    pub power: Vec<(StudyRequest, PowerSummary)>,
    /// The newest validation study of the loaded file, with the data generation it answers.
    pub validation: Option<(u64, Box<crate::validate::Study>)>,
    /// Why the last validation study could not run, with the generation it was for.
    pub validation_failed: Option<(u64, String)>,
    /// The validation study under way, if any.
    pub validating: Option<validation::Validating>,
    /// Whether the estimates pane shows the validation study (`V` toggles).
    pub show_validation: bool,
    /// The planner's answers, each keyed by its whole request (or why there is none).
    pub plans: Vec<(StudyRequest, Result<Box<crate::plan::Plan>, String>)>,
    /// The study of the configuration on screen.
    pub study: Option<StudyRequest>,
    pub entries: Vec<Entry>,
    /// Cursor in the data pane: over the entries, then over the file's columns.
    pub cursor: usize,
    pub load_error: Option<String>,
    /// The screen before the last file was opened, until that file loads or is given up.
    fallback: Option<Box<files::Fallback>>,
    pub hanna: Option<PathBuf>,
    pub scenes: Vec<Scene>,
    pub color: bool,
    /// One line for the status bar; cleared by the next user input.
    pub status: String,
    /// The presentation layout: estimates, battery and caption only (`v`).
    pub present: bool,
    /// The battery's detail overlay (`Enter` in the battery pane), modal like help.
    pub detail: bool,
    /// The open-path prompt's text, while it is open (`o`).
    pub prompt: Option<String>,
    /// What a `Tab` that could not complete further could still become (status line).
    pub prompt_choices: Vec<String>,
    /// `q` was pressed once while frozen: a second `q` quits.
    pub confirm_quit: bool,
    /// The talk scene on screen was changed by the user (sliders or seed).
    pub modified: bool,
    /// Line offsets of the scrolling panes (estimates, battery, configuration), by pane.
    pub scroll: [u16; 5],
    /// The furthest offset of each scrolling pane at its last draw (the view sets it), so a
    /// key held past the end does not have to be undone.
    pub scroll_end: [std::cell::Cell<u16>; 5],
    /// Line offset of the modal overlays (help, the battery's detail view), so scrolling an
    /// overlay never moves the pane beneath it.
    pub overlay_scroll: u16,
    /// The overlay's furthest offset at its last draw.
    pub overlay_end: std::cell::Cell<u16>,
    /// What explore mode looked like before a talk or walkthrough began (`Esc` restores it).
    pub saved: Option<Box<Saved>>,
}

/// The state `Esc` returns to from a talk or a walkthrough.
#[derive(Debug, Clone)]
pub struct Saved {
    source: Source,
    scenario: Scenario,
    seed: u64,
    selected: usize,
    focus: Pane,
    cursor: usize,
    present: bool,
    panel: Option<Arc<Panel>>,
    fit: Option<Fits>,
    battery: Option<Box<BatteryReport>>,
    history: History,
    study: Option<StudyRequest>,
    load_error: Option<String>,
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
            power: Vec::new(),
            plans: Vec::new(),
            validation: None,
            validation_failed: None,
            validating: None,
            show_validation: false,
            study: None,
            entries,
            cursor: 0,
            load_error: None,
            fallback: None,
            hanna: settings.hanna,
            scenes: scenes::scenes(),
            color: settings.color,
            status: String::new(),
            present: false,
            detail: false,
            prompt: None,
            prompt_choices: Vec::new(),
            confirm_quit: false,
            modified: false,
            scroll: [0; 5],
            scroll_end: std::array::from_fn(|_| std::cell::Cell::new(MAX_SCROLL)),
            overlay_scroll: 0,
            overlay_end: std::cell::Cell::new(MAX_SCROLL),
            saved: None,
        };
        let effects = match settings.start {
            Start::Default => app.regenerate(),
            Start::File(path, options) => {
                app.focus = Pane::Data;
                app.open_file(path, options)
            }
            Start::Demo => app.start_talk(0),
            Start::Scene(i) => app.start_talk(i),
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
        let study = self.study.as_ref()?;
        self.power.iter().find(|(r, _)| r == study).map(|(_, s)| s)
    }

    /// The planner's answer for the configuration on screen, if computed.
    #[must_use]
    pub fn plan_of_screen(&self) -> Option<&Result<Box<crate::plan::Plan>, String>> {
        let study = self.study.as_ref()?;
        self.plans.iter().find(|(r, _)| r == study).map(|(_, p)| p)
    }

    /// The power study and the planner for `study`, each unless already known.
    pub(super) fn study_jobs(&self, study: &StudyRequest) -> Vec<Effect> {
        let mut effects = Vec::new();
        if !self.power.iter().any(|(r, _)| r == study) {
            effects.push(Effect::Power(PowerJob {
                request: study.clone(),
            }));
        }
        if !self.plans.iter().any(|(r, _)| r == study) {
            effects.push(Effect::Plan(super::action::PlanJob {
                request: study.clone(),
            }));
        }
        effects
    }

    /// The one transition.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let mut effects = self.transition(action);
        self.drop_stale_validation(&mut effects);
        effects
    }

    fn transition(&mut self, action: Action) -> Vec<Effect> {
        if !matches!(action, Action::Worker(_)) {
            self.status.clear();
            if !matches!(action, Action::CloseOrQuit) {
                self.confirm_quit = false;
            }
        }
        if self.blocked_by_overlay(&action) {
            return Vec::new();
        }
        if self.frozen && changes_data(&action) {
            self.status = "frozen: f to unfreeze".into();
            return Vec::new();
        }
        match action {
            Action::CloseOrQuit | Action::CloseOverlay if self.help || self.detail => {
                self.help = false;
                self.detail = false;
                self.overlay_scroll = 0;
                Vec::new()
            }
            Action::CloseOrQuit if self.frozen && !self.confirm_quit => {
                self.confirm_quit = true;
                self.status = "frozen: q again quits (Ctrl-c quits at once)".into();
                Vec::new()
            }
            Action::Quit | Action::CloseOrQuit => self.quit(),
            Action::CloseOverlay if self.frozen && self.mode != Mode::Explore => {
                self.status = "frozen: f to unfreeze".into();
                Vec::new()
            }
            Action::CloseOverlay if self.validating.is_some() && self.mode == Mode::Explore => {
                self.cancel_validation()
            }
            Action::CloseOverlay if self.showing_validation() && self.mode == Mode::Explore => {
                self.hide_validation();
                Vec::new()
            }
            Action::CloseOverlay => self.leave(),
            Action::Validate => self.validate(),
            Action::OpenPrompt => {
                self.prompt = Some(String::new());
                Vec::new()
            }
            Action::Prompt(edit) => self.edit_prompt(edit),
            Action::ToggleDetail => {
                self.detail = !self.detail && !self.help;
                self.overlay_scroll = 0;
                Vec::new()
            }
            Action::TogglePresent => {
                self.present = !self.present;
                Vec::new()
            }
            Action::ToggleHelp => {
                self.help = !self.help;
                self.overlay_scroll = 0;
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
            Action::NewSeed => self.new_seed(),
            Action::Freeze => self.toggle_freeze(),
            Action::Next => self.step(1),
            Action::Prev => self.step(-1),
            Action::Activate => self.activate(),
            Action::CycleRole => self.edit_column(FileState::cycle_role),
            Action::Family(d) => self.edit_column(|f, c| f.shift_family(c, d)),
            Action::Click { pane, item } => self.click(pane, item),
            Action::Wheel { pane, up } => self.wheel(pane, up),
            Action::WriteFigure(want) => self.write_figure(want),
            Action::FigureWritten(result) => {
                self.status = match result {
                    Ok(name) => format!(
                        "wrote ./{}",
                        crate::error::sanitize(&name.display().to_string())
                    ),
                    Err(why) => format!("figure not written: {}", crate::error::sanitize(&why)),
                };
                Vec::new()
            }
            Action::Worker(msg) => self.receive(msg),
        }
    }

    /// The overlays and the prompt are modal: only closing them, quitting, worker results
    /// (and, in the battery's detail view, scrolling) get through.
    fn blocked_by_overlay(&self, action: &Action) -> bool {
        let scrolls = matches!(
            action,
            Action::Up | Action::Down | Action::Top | Action::Bottom
        );
        if ((self.help || self.detail) && !scrolls)
            && !matches!(
                action,
                Action::CloseOrQuit
                    | Action::CloseOverlay
                    | Action::ToggleHelp
                    | Action::ToggleDetail
                    | Action::Quit
                    | Action::Worker(_)
            )
        {
            return true;
        }
        self.prompt.is_some()
            && !matches!(action, Action::Prompt(_) | Action::Quit | Action::Worker(_))
    }

    /// `w` / `W`: asks the loop to write the view's figure, or says why there is none yet.
    fn write_figure(&mut self, want: super::figure::Want) -> Vec<Effect> {
        match super::figure::of_view(self, want) {
            Ok((figure, stem)) => vec![Effect::Figure {
                figure: Box::new(figure),
                stem,
            }],
            Err(why) => {
                self.status = why;
                Vec::new()
            }
        }
    }

    fn quit(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }

    /// `Tab` / `Shift-Tab`, skipping the panes the presentation layout hides.
    fn cycle_focus(&mut self, d: i32) -> Vec<Effect> {
        let shown: Vec<Pane> = Pane::ALL
            .into_iter()
            .filter(|p| !self.present || !matches!(p, Pane::Data | Pane::Sliders))
            .collect();
        let i = shown.iter().position(|p| *p == self.focus).unwrap_or(0);
        let n = shown.len();
        let j = if d > 0 { (i + 1) % n } else { (i + n - 1) % n };
        self.focus = shown[j];
        Vec::new()
    }

    /// `f`: hold the sliders and the data for a talk, or let them go. The FROZEN badge says
    /// the state; the status line says the way out.
    fn toggle_freeze(&mut self) -> Vec<Effect> {
        self.frozen = !self.frozen;
        self.status = if self.frozen {
            "f unfreezes"
        } else {
            "live again"
        }
        .into();
        Vec::new()
    }

    fn move_cursor(&mut self, d: i32) -> Vec<Effect> {
        if self.help || self.detail {
            // The view clamps the offset to the overlay's content.
            let next = i64::from(self.overlay_scroll) + i64::from(d.clamp(-1000, 1000));
            let end = i64::from(self.overlay_end.get().min(MAX_SCROLL));
            self.overlay_scroll = u16::try_from(next.clamp(0, end)).unwrap_or(0);
            return Vec::new();
        }
        match self.focus {
            Pane::Sliders => self.select_slider(d),
            Pane::Data => {
                let len = self.entries.len() + self.file_columns();
                self.cursor = step_index(self.cursor, d, len);
                Vec::new()
            }
            p => {
                // The view clamps the offset to the pane's content.
                let i = pane_index(p);
                let next = i64::from(self.scroll[i]) + i64::from(d.clamp(-1000, 1000));
                let end = i64::from(self.scroll_end[i].get().min(MAX_SCROLL));
                self.scroll[i] = u16::try_from(next.clamp(0, end)).unwrap_or(0);
                Vec::new()
            }
        }
    }

    /// A click: focus the pane and select the slider or data-pane entry under the pointer.
    fn click(&mut self, pane: Pane, item: Option<usize>) -> Vec<Effect> {
        self.focus = pane;
        match (pane, item) {
            (Pane::Sliders, Some(i)) if i < self.scenario.sliders.len() => self.selected = i,
            (Pane::Data, Some(i)) if i < self.entries.len() + self.file_columns() => {
                self.cursor = i;
            }
            _ => {}
        }
        Vec::new()
    }

    /// The wheel steps the slider under it, moves the data cursor, or scrolls a pane.
    fn wheel(&mut self, pane: Pane, up: bool) -> Vec<Effect> {
        let d = if up { -1 } else { 1 };
        match pane {
            Pane::Sliders => self.nudge(f64::from(-d), false),
            p => {
                let focus = std::mem::replace(&mut self.focus, p);
                let effects = self.move_cursor(d);
                self.focus = focus;
                effects
            }
        }
    }

    fn edit_prompt(&mut self, edit: PromptEdit) -> Vec<Effect> {
        let Some(text) = self.prompt.as_mut() else {
            return Vec::new();
        };
        // Any edit but a completion clears the choices a `Tab` listed.
        self.prompt_choices.clear();
        match edit {
            PromptEdit::Completed { text: t, choices } => {
                if choices.len() > 1 {
                    self.prompt_choices = choices;
                }
                *text = t;
            }
            PromptEdit::Insert(c) => text.push(c),
            PromptEdit::Backspace => {
                text.pop();
            }
            PromptEdit::Cancel => self.prompt = None,
            PromptEdit::Submit => {
                let path = PathBuf::from(text.trim());
                self.prompt = None;
                if path.as_os_str().is_empty() {
                    return Vec::new();
                }
                self.mode = Mode::Explore;
                self.saved = None;
                self.focus = Pane::Data;
                let effects = self.open_file(
                    path.clone(),
                    LoadOptions {
                        min_anchors: 0,
                        ..LoadOptions::default()
                    },
                );
                let entry = Entry::File(path);
                self.cursor = if let Some(i) = self.entries.iter().position(|e| *e == entry) {
                    i
                } else {
                    self.entries.push(entry);
                    self.entries.len() - 1
                };
                return effects;
            }
        }
        Vec::new()
    }

    fn select_slider(&mut self, d: i32) -> Vec<Effect> {
        self.selected = step_index(self.selected, d, self.scenario.sliders.len());
        Vec::new()
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
            self.touched();
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
            self.touched();
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

    /// A talk scene changed by the user is marked so its caption is not taken for the truth.
    fn touched(&mut self) {
        if matches!(self.mode, Mode::Demo(_)) {
            self.modified = true;
        }
    }

    fn reset_all(&mut self) -> Vec<Effect> {
        self.scenario = Scenario::default();
        self.source = Source::Scenario;
        self.mode = Mode::Explore;
        self.saved = None;
        self.modified = false;
        self.history = History::default();
        self.seed = 1;
        self.selected = 0;
        self.regenerate()
    }

    /// New data from the sliders: simulate, fit at once, and queue the battery and, for a
    /// configuration not studied yet, its power study.
    /// `s`: the scenario drawn again with the next seed. A file has no seed: redrawing would
    /// put a simulated panel under its name.
    fn new_seed(&mut self) -> Vec<Effect> {
        if self.source != Source::Scenario {
            self.status =
                "a new seed draws a simulated scenario: open a preset in the data pane".into();
            return Vec::new();
        }
        self.seed = self.seed.wrapping_add(1);
        self.touched();
        self.regenerate()
    }

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
        let study = StudyRequest::of(&params, self.scenario.n());
        effects.extend(self.study_jobs(&study));
        self.study = Some(study);
        effects
    }

    fn set_panel(&mut self, panel: Arc<Panel>) {
        self.fit = Fits::explorer(&panel);
        let m = panel.m();
        self.history.rho.resize(m, VecDeque::new());
        let closed = self.fit.as_ref().and_then(Fits::closed_form);
        for k in 0..m {
            let r = closed.and_then(|e| e.anchors[k].rho).unwrap_or(f64::NAN);
            push(&mut self.history.rho[k], r);
        }
        self.panel = Some(panel);
    }

    fn battery_job(&self) -> Option<Effect> {
        let panel = self.panel.clone()?;
        let null = match self.source {
            Source::Scenario => NullSpec::Scenario(Box::new(self.scenario.params())),
            Source::File(_) => NullSpec::Matched,
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
                        let r = &report.tests[t];
                        let x = match (r.statistic, r.threshold) {
                            (Some(s), Some(th)) if th > 0.0 => s / th,
                            _ => f64::NAN,
                        };
                        push(&mut self.history.stats[t], x);
                    }
                    self.battery = Some(report);
                    self.battery_generation = generation;
                }
                Vec::new()
            }
            WorkerMsg::Power { request, summary } => {
                self.power.retain(|(r, _)| *r != *request);
                self.power.push((*request, *summary));
                Vec::new()
            }
            WorkerMsg::Loaded { generation, result } => {
                if generation != self.generation {
                    return Vec::new();
                }
                match result {
                    Ok(file) => self.loaded(file),
                    Err(e) => self.failed(e),
                }
            }
            WorkerMsg::Planned { request, plan } => {
                self.plans.retain(|(r, _)| *r != *request);
                self.plans.push((*request, plan));
                Vec::new()
            }
            WorkerMsg::Validating {
                generation,
                done,
                total,
            } => {
                self.validation_progress(generation, done, total);
                Vec::new()
            }
            WorkerMsg::Validated { generation, result } => {
                // A study of older data (another file, edited roles) is dropped.
                self.validated(generation, result);
                Vec::new()
            }
            WorkerMsg::Crashed => {
                self.status = "the background worker crashed".into();
                self.quit()
            }
        }
    }
}

/// The index of a pane in [`Pane::ALL`].
#[must_use]
pub fn pane_index(p: Pane) -> usize {
    Pane::ALL.iter().position(|q| *q == p).unwrap_or(0)
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
            | Action::Wheel {
                pane: Pane::Sliders,
                ..
            }
            | Action::Prompt(PromptEdit::Submit)
    )
}

/// `i` moved by `d` within `0..len`.
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
