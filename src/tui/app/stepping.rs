//! Stepping with `n`/`p`: talk scenes in demo mode, and the walkthrough of a real panel's
//! diagnostics, whose steps come from the diagnostics registry.

use super::{App, Source};
use crate::battery::TestId;
use crate::data::LoadOptions;
use crate::tui::action::{Effect, Pane};
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
    /// `n` / `p`: talk scenes in demo mode, walkthrough steps with a file, else start the talk.
    pub(super) fn step(&mut self, d: i32) -> Vec<Effect> {
        match self.mode {
            Mode::Demo(i) => {
                let next = clamp_step(i, d, self.scenes.len());
                if next == i {
                    return Vec::new();
                }
                self.show_scene(next)
            }
            Mode::Walkthrough(i) => self.walk(clamp_step(i, d, Step::all().len())),
            Mode::Explore => match self.source {
                Source::File(_) => self.walk(0),
                Source::Scenario if d > 0 => self.show_scene(0),
                Source::Scenario => Vec::new(),
            },
        }
    }

    fn walk(&mut self, step: usize) -> Vec<Effect> {
        self.mode = Mode::Walkthrough(step);
        self.focus = Step::all()[step].pane();
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
}
