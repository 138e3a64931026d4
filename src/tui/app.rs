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
mod state;
mod stepping;
mod trust;
pub mod validation;

use super::action::{Action, Effect, Pane, PerPane, PowerJob};
use super::scenes;
use super::sliders::Scenario;
use crate::power::{PowerSummary, StudyRequest};
pub use files::{FileState, Role};
use navigate::step_index;
pub use overlay::{Overlay, Prompt, PromptKind};
use state::MAX_SCROLL;
pub use state::{
    App, BATTERY_SEED, Entry, HISTORY, History, PLAN_TARGET, Saved, Settings, Source, Start,
};
pub use stepping::{Mode, Step};

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
        // `?` keeps the message: its box shows it whole where the status rows cut it.
        if !matches!(action, Action::Worker(_) | Action::ToggleHelp) {
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
            Action::Unbound(c) => {
                self.status = format!("{c} does nothing here (? lists the keys)");
                Vec::new()
            }
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
