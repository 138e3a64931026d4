//! Stepping with `n`/`p`: talk scenes in demo mode, and the walkthrough of a real panel's
//! diagnostics, whose steps come from the diagnostics registry.

use super::state::{App, History, Saved, Source};
use crate::battery::TestId;
use crate::data::{ColumnRef, Columns, PanelRequest};
use crate::tui::action::{Action, Effect, Pane};
use crate::tui::scenes::{HANNA_RATERS, Setup};
use crate::tui::sliders::Scenario;

/// What the explorer is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Explore,
    /// Talk mode, showing scene i.
    Demo(usize),
    /// Stepping through a real panel's diagnostics, at step i of [`Step::all`].
    Walkthrough(usize),
}

/// One step of the walkthrough, in the order a careful reader checks a panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Configuration,
    Estimate,
    WeakId,
    Test(TestId),
    Overall,
}

impl Step {
    /// Every step: configuration, estimate, weak-ID, each registered test, overall verdict.
    #[must_use]
    pub fn all() -> Vec<Step> {
        [Step::Configuration, Step::Estimate, Step::WeakId]
            .into_iter()
            .chain(TestId::ALL.into_iter().map(Step::Test))
            .chain(std::iter::once(Step::Overall))
            .collect()
    }

    /// The step's name in the caption title.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Step::Configuration => "configuration".into(),
            Step::Estimate => "estimate".into(),
            Step::WeakId => "weak-ID".into(),
            Step::Test(t) => format!("Test {}", t.name()),
            Step::Overall => "overall verdict".into(),
        }
    }

    /// The pane that shows what the step explains.
    #[must_use]
    pub fn pane(self) -> Pane {
        match self {
            Step::Configuration => Pane::Config,
            Step::Estimate => Pane::Estimates,
            Step::WeakId | Step::Test(_) | Step::Overall => Pane::Battery,
        }
    }
}

/// `i` moved by `d`, kept within `0..len`.
fn clamp_step(i: usize, d: i32, len: usize) -> usize {
    super::step_index(i, d, len)
}

impl App {
    /// `n` / `p`: talk scenes in demo mode (a modified scene is first restored), walkthrough
    /// steps; in explore mode `n` starts the walkthrough (with a file) or the talk, keeping
    /// what was on screen for `Esc`.
    pub(super) fn step(&mut self, d: i32) -> Vec<Effect> {
        match self.mode {
            Mode::Demo(i) if self.modified => self.show_scene(i),
            Mode::Demo(i) => {
                let next = clamp_step(i, d, self.scenes.len());
                if next == i {
                    self.status = if d > 0 {
                        "last scene: Esc ends the talk"
                    } else {
                        "first scene: n steps on, Esc ends the talk"
                    }
                    .into();
                    return Vec::new();
                }
                self.show_scene(next)
            }
            Mode::Walkthrough(i) => {
                let next = clamp_step(i, d, Step::all().len());
                if next == i {
                    self.status = if d > 0 {
                        "last step: Esc leaves the walkthrough"
                    } else {
                        "first step: n steps on, Esc leaves the walkthrough"
                    }
                    .into();
                }
                self.walk(next)
            }
            Mode::Explore if d < 0 => Vec::new(),
            Mode::Explore => match self.source {
                // Nothing to walk through: no judges and anchors, so no battery will come.
                Source::File(_) if self.panel.is_none() => {
                    self.status = crate::tui::reading::why_no_panel(self).into();
                    Vec::new()
                }
                Source::File(_) => {
                    self.save();
                    self.walk(0)
                }
                Source::Scenario => {
                    let effects = self.start_talk(0);
                    self.status =
                        "talk mode, frozen: n/p scenes · Esc, frozen or not, returns to your sliders"
                            .into();
                    effects
                }
            },
        }
    }

    /// Starts the talk at scene `i` (clamped), in the presentation layout and frozen, so that
    /// a stray key changes nothing on stage, keeping the explore state for `Esc`.
    pub(super) fn start_talk(&mut self, i: usize) -> Vec<Effect> {
        self.save();
        self.present = true;
        self.frozen = true;
        self.status = "talk frozen: n/p step the scenes · f unfreezes".into();
        self.show_scene(i.min(self.scenes.len() - 1))
    }

    fn save(&mut self) {
        if self.mode != Mode::Explore {
            return;
        }
        self.saved = Some(Box::new(Saved {
            source: self.source.clone(),
            scenario: self.scenario.clone(),
            seed: self.seed,
            selected: self.selected,
            focus: self.focus,
            cursor: self.cursor,
            present: self.present,
            panel: self.panel.clone(),
            fit: self.fit.clone(),
            battery: (!self.battery_stale())
                .then(|| self.battery.clone())
                .flatten(),
            history: self.history.clone(),
            study: self.study.clone(),
            load_error: self.load_error.clone(),
        }));
    }

    /// `Esc` outside overlays: leave the talk or the walkthrough for what was on screen before.
    pub(super) fn leave(&mut self) -> Vec<Effect> {
        if self.mode == Mode::Explore {
            return Vec::new();
        }
        self.mode = Mode::Explore;
        self.modified = false;
        // A talk is frozen for the stage; explore mode is live again.
        self.frozen = false;
        let Some(s) = self.saved.take() else {
            self.present = false;
            return Vec::new();
        };
        let s = *s;
        self.generation += 1;
        self.source = s.source;
        self.scenario = s.scenario;
        self.seed = s.seed;
        self.selected = s.selected;
        self.focus = s.focus;
        self.cursor = s.cursor;
        self.present = s.present;
        self.panel = s.panel;
        self.fit = s.fit;
        self.history = s.history;
        self.study = s.study;
        self.load_error = s.load_error;
        self.status = "explore mode".into();
        let mut effects = Vec::new();
        if s.battery.is_some() {
            self.battery = s.battery;
            self.battery_generation = self.generation;
        } else {
            self.battery = None;
            effects.extend(self.battery_job());
        }
        if let Some(study) = &self.study {
            effects.extend(self.study_jobs(study));
        }
        if let Source::File(f) = &mut self.source {
            f.loading = false;
        }
        // A talk started from the command line had nothing on screen before: the default
        // scenario then.
        if self.panel.is_none() && self.source == Source::Scenario {
            return self.regenerate();
        }
        effects
    }

    /// Whether the presentation layout hides pane `p` (the data pane and the sliders).
    #[must_use]
    pub fn hidden(&self, p: Pane) -> bool {
        self.present && matches!(p, Pane::Data | Pane::Sliders)
    }

    /// A freeze holds the screen for a talk: only unfreezing, quitting, stepping through a
    /// talk or walkthrough, and what the worker and the loop report get through.
    pub(super) fn acts_while_frozen(&self, a: &Action) -> bool {
        match a {
            Action::Freeze
            | Action::CloseOrQuit
            | Action::Quit
            | Action::Suspend
            | Action::Worker(_)
            | Action::FigureWritten(_) => true,
            // "Esc ends the talk" holds frozen or not; an open overlay closes first.
            Action::CloseOverlay => self.mode != Mode::Explore || self.overlay.is_box(),
            Action::Next | Action::Prev => self.mode != Mode::Explore,
            // The HANNA scene without its file offers `o` to give the path; the prompt's
            // typing gets through while it is open.
            Action::OpenPrompt => self.hanna_missing(),
            Action::Prompt(_) => matches!(self.overlay, super::Overlay::Prompt(_)),
            // Scrolling a reading pane changes nothing shown but how far down it is read: a
            // flag cut at the pane's edge stays readable on stage.
            Action::Up | Action::Down | Action::Top | Action::Bottom => {
                matches!(self.focus, Pane::Estimates | Pane::Battery | Pane::Config)
            }
            _ => false,
        }
    }

    /// The two-worlds scene: its Likert-anchor panel, simulated at the scene's seed, and the
    /// family of worlds its latent correlations allow, traced once here for the view.
    fn show_worlds(&mut self, params: &crate::model::Params, n: usize, seed: u64) -> Vec<Effect> {
        self.generation += 1;
        self.source = Source::Scenario;
        self.scenario = Scenario::from_params(params, n);
        self.seed = seed;
        self.selected = 0;
        self.focus = Pane::Estimates;
        self.study = None;
        match crate::simulate::simulate(params, n, seed) {
            Ok(panel) => {
                self.worlds = crate::tui::trust::traced(&panel);
                self.set_panel(std::sync::Arc::new(panel));
                self.battery_job().into_iter().collect()
            }
            Err(e) => {
                self.status = format!("invalid design: {e}");
                self.panel = None;
                self.fit = None;
                self.battery = None;
                Vec::new()
            }
        }
    }

    /// On the HANNA scene with no HANNA file at hand (its caption offers `o`).
    #[must_use]
    pub fn hanna_missing(&self) -> bool {
        matches!(self.mode, Mode::Demo(i) if self.scenes[i].setup == Setup::Hanna)
            && self.hanna.is_none()
    }

    /// The path typed on the HANNA scene: the scene loads the panel from it, or the status
    /// says it holds none.
    pub(super) fn give_hanna(&mut self, typed: &std::path::Path) -> Vec<Effect> {
        let Mode::Demo(i) = self.mode else {
            return Vec::new();
        };
        if let Some(found) = crate::tui::scenes::find_hanna(Some(typed)) {
            self.hanna = Some(found);
            return self.show_scene(i);
        }
        self.status = format!(
            "no {} at {}: o to try another path",
            crate::tui::scenes::HANNA_FILE,
            crate::error::sanitize(&typed.display().to_string())
        );
        Vec::new()
    }

    /// `f`: hold the sliders and the data for a talk, or let them go. The FROZEN badge says
    /// the state; the status line says the way out.
    pub(super) fn toggle_freeze(&mut self) -> Vec<Effect> {
        self.frozen = !self.frozen;
        self.status = if self.frozen {
            "f unfreezes"
        } else {
            "live again"
        }
        .into();
        Vec::new()
    }

    fn walk(&mut self, step: usize) -> Vec<Effect> {
        self.mode = Mode::Walkthrough(step);
        self.focus = Step::all()[step].pane();
        Vec::new()
    }

    /// Puts scene `i` on screen, as its fixed setup (undoing any change the user made).
    pub fn show_scene(&mut self, i: usize) -> Vec<Effect> {
        self.mode = Mode::Demo(i);
        self.modified = false;
        self.history = History::default();
        // Another scene: its panes start at their tops, not where the last one was scrolled.
        self.scroll = crate::tui::action::PerPane::default();
        match self.scenes[i].setup.clone() {
            Setup::Simulated { params, n, seed } => {
                self.source = Source::Scenario;
                self.scenario = Scenario::from_params(params.as_ref(), n);
                self.seed = seed;
                self.selected = 0;
                self.focus = Pane::Estimates;
                self.regenerate()
            }
            Setup::Worlds { params, n, seed } => self.show_worlds(&params, n, seed),
            Setup::Hanna => {
                let Some(path) = self.hanna.clone() else {
                    // Nothing of the last scene stays under this scene's title.
                    self.generation += 1;
                    self.panel = None;
                    self.fit = None;
                    self.battery = None;
                    self.study = None;
                    return Vec::new();
                };
                let effects = self.open_file(
                    path,
                    PanelRequest {
                        judges: Some(HANNA_RATERS.iter().map(|s| ColumnRef::from(*s)).collect()),
                        // The paper's convention: the 1–5 codes read as numbers, so Test A
                        // asks its question (on Likert codes it is N/A).
                        continuous: Some(Columns::All),
                        ..PanelRequest::default()
                    },
                );
                // A file that is not the HANNA panel leaves this scene empty, its caption
                // saying why, rather than the last scene's panel under this title.
                self.fallback = None;
                self.focus = Pane::Battery;
                effects
            }
        }
    }
}
