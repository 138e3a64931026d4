//! The simulated scenario: slider moves, seeds and resets draw a new panel, fit it at once and
//! queue its battery and power study.

use std::collections::VecDeque;
use std::sync::Arc;

use super::state::{App, BATTERY_SEED, History, Source, push};
use super::stepping::Mode;
use crate::battery::NullSpec;
use crate::estimate::Fits;
use crate::panel::Panel;
use crate::power::StudyRequest;
use crate::simulate::{Design, replicate_rng};
use crate::tui::action::{BatteryJob, Effect};
use crate::tui::sliders::{Knob, Scenario};

/// Whether two panels give their columns the same roles, scales and families.
fn same_roles(a: &Panel, b: &Panel) -> bool {
    a.judges == b.judges
        && a.anchors == b.anchors
        && a.scales == b.scales
        && a.families == b.families
}

/// What a slider key says on a file panel, which has no sliders to move.
pub(super) const SLIDERS_IDLE: &str =
    "sliders drive simulated scenarios: open a preset in the data pane";

impl App {
    pub(super) fn nudge(&mut self, steps: f64, coarse: bool) -> Vec<Effect> {
        if self.nudge_family(steps, coarse) {
            return Vec::new();
        }
        if self.source != Source::Scenario {
            self.status = SLIDERS_IDLE.into();
            return Vec::new();
        }
        let i = self
            .selected
            .min(self.scenario.sliders.len().saturating_sub(1));
        let s = &self.scenario.sliders[i];
        let (knob, delta) = (s.knob, steps * if coarse { s.coarse } else { s.fine });
        // A key that cannot move the slider says why, with the range it lives in.
        let bound = format!("{} at its bound ({} … {})", s.label, s.min, s.max);
        if self.scenario.nudge(i, delta) {
            self.follow(knob);
            self.touched();
            self.regenerate()
        } else {
            self.status = bound;
            Vec::new()
        }
    }

    pub(super) fn reset_slider(&mut self) -> Vec<Effect> {
        if self.reset_family() {
            return Vec::new();
        }
        if self.source != Source::Scenario {
            self.status = SLIDERS_IDLE.into();
            return Vec::new();
        }
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
    fn follow(&mut self, knob: Knob) {
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

    /// `Ctrl-r`: every slider and the seed back to the default scenario's. A file on screen
    /// has neither, and its role edits are the user's work: it stays, and the status says so.
    pub(super) fn reset_all(&mut self) -> Vec<Effect> {
        if self.source != Source::Scenario {
            self.status = "Ctrl-r resets a simulated scenario's sliders and seed: this file and its roles stay as they are".into();
            return Vec::new();
        }
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

    /// `s`: the scenario drawn again with the next seed. A file has no seed: redrawing would
    /// put a simulated panel under its name.
    pub(super) fn new_seed(&mut self) -> Vec<Effect> {
        if self.source != Source::Scenario {
            self.status =
                "a new seed draws a simulated scenario: open a preset in the data pane".into();
            return Vec::new();
        }
        self.seed = self.seed.wrapping_add(1);
        self.touched();
        self.regenerate()
    }

    /// New data from the sliders: simulate, fit at once, and queue the battery and, for a
    /// configuration not studied yet, its power study.
    pub(super) fn regenerate(&mut self) -> Vec<Effect> {
        self.generation += 1;
        let params = self.scenario.params();
        let design = match Design::new(&params) {
            Ok(d) => d,
            Err(e) => {
                // No panel rather than the last one marked "recomputing…" for good.
                self.status = format!("invalid design: {e}");
                self.panel = None;
                self.fit = None;
                self.battery = None;
                self.study = None;
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

    pub(super) fn set_panel(&mut self, panel: Arc<Panel>) {
        // Sparklines follow one set of roles, scales and families: points of the role states
        // passed on the way to this one would read as this panel's history.
        if self
            .panel
            .as_deref()
            .is_some_and(|old| !same_roles(old, &panel))
        {
            self.history = History::default();
        }
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

    pub(super) fn battery_job(&self) -> Option<Effect> {
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
            designated: self.designated(),
        }))
    }
}
