//! The explorer's state and its one transition, `update(Action) -> Vec<Effect>`. No I/O
//! happens here, and nothing of the view: files are loaded and batteries run by the worker,
//! on request, and the view reads this state to draw. File-role editing and talk/walkthrough
//! stepping live in the submodules.

mod columns;
mod files;
mod navigate;
pub mod overlay;
mod receive;
mod simulated;
mod stepping;
mod trust;
pub mod validation;

use super::action::{Action, Effect, Pane, PerPane, PowerJob};
use super::scenes::{self, Scene};
use super::sliders::Scenario;
use crate::battery::{BatteryReport, PerTest};
use crate::data::PanelRequest;
use crate::estimate::Fits;
use crate::panel::Panel;
use crate::power::{PowerSummary, StudyRequest};
pub use files::{FileState, Role};
use navigate::step_index;
pub use overlay::{Overlay, Prompt, PromptKind};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
pub use stepping::{Mode, Step};

/// Sparkline histories keep this many points.
pub const HISTORY: usize = 60;

/// What the configuration pane asks the planner ([`crate::plan`]): the N at which every ρ_k's
/// 95 % interval is 0.2 wide on average (±0.1), the width a reader can act on.
pub const PLAN_TARGET: crate::plan::Target = crate::plan::Target::CiWidth(0.2);

/// Where the data comes from.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "one App holds one Source; a box would buy nothing but an indirection"
)]
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
#[expect(
    clippy::large_enum_variant,
    reason = "one Start is built, once, when the explorer opens"
)]
pub enum Start {
    /// The built-in default scenario (the paper's base design, N = 500).
    Default,
    /// A panel file, read with these options.
    File(PathBuf, PanelRequest),
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
    reason = "independent switches: frozen, quit, colour, layout"
)]
pub struct App {
    pub focus: Pane,
    /// Help, the battery in full, or a prompt: modal, one at a time.
    pub overlay: Overlay,
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
    pub plans: Vec<(crate::model::Params, Result<Box<crate::plan::Plan>, String>)>,
    /// The study of the configuration on screen.
    pub study: Option<StudyRequest>,
    pub entries: Vec<Entry>,
    /// Cursor in the data pane: over the entries, then over the file's columns.
    pub cursor: usize,
    pub load_error: Option<String>,
    /// The screen before the last file was opened, until that file loads or is given up.
    fallback: Option<Box<files::Fallback>>,
    pub hanna: Option<PathBuf>,
    /// The family of worlds of the two-worlds talk scene's panel (or why there is none).
    pub worlds: Option<Arc<crate::tui::trust::Traced>>,
    pub scenes: Vec<Scene>,
    pub color: bool,
    /// One line for the status bar; cleared by the next user input.
    pub status: String,
    /// The presentation layout: estimates, battery and caption only (`v`).
    pub present: bool,
    /// `q` was pressed once while frozen: a second `q` quits.
    pub confirm_quit: bool,
    /// The talk scene on screen was changed by the user (sliders or seed).
    pub modified: bool,
    /// Line offsets of the scrolling panes (estimates, battery, configuration), by pane.
    pub scroll: PerPane<u16>,
    /// The furthest offset of each scrolling pane at its last draw (the view sets it), so a
    /// key held past the end does not have to be undone.
    pub scroll_end: PerPane<std::cell::Cell<u16>>,
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
            overlay: Overlay::None,
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
            worlds: None,
            scenes: scenes::scenes(),
            color: settings.color,
            status: String::new(),
            present: false,
            confirm_quit: false,
            modified: false,
            scroll: PerPane::default(),
            scroll_end: PerPane::from_fn(|_| std::cell::Cell::new(MAX_SCROLL)),
            overlay_scroll: 0,
            overlay_end: std::cell::Cell::new(MAX_SCROLL),
            saved: None,
        };
        let effects = match settings.start {
            Start::Default => app.regenerate(),
            Start::File(path, options) => {
                app.focus = Pane::Data;
                // On the file's first column, not on a preset a reflex `Enter` would open.
                app.cursor = app.entries.len();
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
        self.study.as_ref()?;
        let design = self.scenario.params();
        self.plans
            .iter()
            .find(|(d, _)| *d == design)
            .map(|(_, p)| p)
    }

    /// The power study and the planner for `study`, each unless already known.
    pub(super) fn study_jobs(&self, study: &StudyRequest) -> Vec<Effect> {
        let mut effects = Vec::new();
        if !self.power.iter().any(|(r, _)| r == study) {
            effects.push(Effect::Power(PowerJob {
                request: study.clone(),
            }));
        }
        // The planner plans the design on screen, violations and all, as `rhoscope plan` does
        // for the same preset; the power study reads the violation-free base.
        let design = self.scenario.params();
        if !self.plans.iter().any(|(d, _)| *d == design) {
            effects.push(Effect::Plan(super::action::PlanJob { design }));
        }
        effects
    }

    /// The one transition.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let study = self.study.clone();
        let mut effects = self.transition(action);
        // A new configuration: its power lines are at the top of the configuration pane.
        if self.study != study {
            self.scroll[Pane::Config] = 0;
        }
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
        if self.frozen && !self.acts_while_frozen(&action) {
            self.status = "frozen: f to unfreeze".into();
            return Vec::new();
        }
        match action {
            Action::CloseOrQuit | Action::CloseOverlay if self.overlay.is_box() => {
                self.overlay = Overlay::None;
                self.overlay_scroll = 0;
                Vec::new()
            }
            Action::CloseOrQuit if self.frozen && !self.confirm_quit => {
                self.confirm_quit = true;
                self.status = "frozen: q again quits (Ctrl-c quits at once)".into();
                Vec::new()
            }
            Action::Quit | Action::CloseOrQuit => self.quit(),
            // The event loop stops the process; the state is untouched.
            Action::Suspend => Vec::new(),
            Action::CloseOverlay if self.validating.is_some() && self.mode == Mode::Explore => {
                self.cancel_validation()
            }
            Action::CloseOverlay if self.showing_validation() && self.mode == Mode::Explore => {
                self.hide_validation();
                Vec::new()
            }
            Action::CloseOverlay => self.leave(),
            Action::OpenPrompt => self.open_prompt(PromptKind::Path),
            Action::TypeFamily => self.type_family(),
            Action::Prompt(edit) => self.edit_prompt(edit),
            Action::ToggleDetail => self.toggle_box(Overlay::Detail),
            Action::ToggleHelp => self.toggle_box(Overlay::Help),
            Action::TogglePresent => {
                self.present = !self.present;
                // Keys must not act on a pane the layout hides (Space would edit a role unseen).
                if self.present && self.hidden(self.focus) {
                    self.focus = Pane::Estimates;
                }
                Vec::new()
            }
            other => self.act(other),
        }
    }

    /// The actions that neither close nor open an overlay.
    fn act(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Validate => self.validate(),
            Action::FocusNext => self.cycle_focus(1),
            Action::FocusPrev => self.cycle_focus(-1),
            Action::Focus(p) if self.hidden(p) => {
                self.status = format!(
                    "the {} pane is hidden in the presentation layout: v shows it",
                    p.title()[2..].to_lowercase()
                );
                Vec::new()
            }
            Action::Focus(p) => {
                self.focus = p;
                Vec::new()
            }
            Action::Up => self.move_cursor(-1),
            Action::Down => self.move_cursor(1),
            Action::Top => self.top(),
            Action::Bottom => self.move_cursor(i32::MAX / 2),
            Action::Fine(d) => self.said(|a| a.nudge(f64::from(d), false)),
            Action::Coarse(d) => self.said(|a| a.nudge(f64::from(d), true)),
            Action::SelectSlider(d) => self.said(|a| a.select_slider(d)),
            Action::ResetSlider => self.said(Self::reset_slider),
            Action::ResetAll => self.reset_all(),
            Action::Rerun => self.battery_job().into_iter().collect(),
            Action::NewSeed => self.new_seed(),
            Action::Freeze => self.toggle_freeze(),
            Action::Next => self.step(1),
            Action::Prev if self.mode == Mode::Explore => {
                self.status = "p steps back in a talk or walkthrough: n starts one".into();
                Vec::new()
            }
            Action::Prev => self.step(-1),
            Action::Activate => self.activate(),
            Action::CycleRole => self.cycle_role(),
            Action::ToggleScale => self.toggle_scale(),
            Action::TrustAnchor => self.trust_anchor(),
            Action::Family(d) => self.shift_family(d),
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
            Action::Elsewhere { keys, pane } => self.elsewhere(keys, pane),
            // Handled by `transition`.
            Action::Quit
            | Action::Suspend
            | Action::CloseOrQuit
            | Action::CloseOverlay
            | Action::OpenPrompt
            | Action::TypeFamily
            | Action::Prompt(_)
            | Action::ToggleDetail
            | Action::ToggleHelp
            | Action::TogglePresent => Vec::new(),
        }
    }

    /// A slider key; in the presentation layout, where the sliders pane is hidden, the
    /// status line names the slider it acted on and its value.
    fn said(&mut self, f: impl FnOnce(&mut Self) -> Vec<Effect>) -> Vec<Effect> {
        let effects = f(self);
        let quiet = self.present && self.status.is_empty() && self.source == Source::Scenario;
        if let Some(s) = self.scenario.sliders.get(self.selected).filter(|_| quiet) {
            self.status = format!("{} = {} (v shows the sliders)", s.label, s.value_text());
        }
        effects
    }

    /// `w` / `W`: asks the loop to write the view's figure, or says why there is none yet.
    fn write_figure(&mut self, want: super::action::Want) -> Vec<Effect> {
        let source = match &self.source {
            Source::Scenario => super::figure::Source::Scenario {
                seed: self.seed,
                truth: self.scenario.params().rho.clone(),
            },
            Source::File(f) => super::figure::Source::File(f.path.clone()),
        };
        let view = super::figure::View {
            report: self.battery.as_deref().filter(|_| !self.battery_stale()),
            panel: self.panel.as_deref(),
            source,
            focus: self.focus,
        };
        match super::figure::of_view(&view, want) {
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
}
