//! `V`: "would this work on a panel like mine?" on the loaded file. Section 7's validation on
//! real rater textures (docs/method.md §7; [`crate::validate`]) runs as a cancellable background job, its
//! progress counted on the status line, and its recovery table replaces the estimates pane
//! until `V` is pressed again.

use super::state::{App, Source};
use crate::tui::action::{Effect, Pane, ValidateJob};
use crate::validate::{DEFAULT_INJECT, Options, Study, Thresholds};

/// Replicates per study: the command's default, so the explorer's table is `rhoscope validate`'s.
pub const REPS: usize = 24;
/// Bootstrap resamples per replicate, for the CI coverage column.
pub const BOOTSTRAP: usize = 200;
/// Matched-null draws per test in each replicate's battery (the command's default).
pub const NULL_DRAWS: usize = 40;

/// A validation study under way for one generation of the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Validating {
    pub generation: u64,
    /// Replicates taken so far, of `total`.
    pub done: u64,
    pub total: u64,
}

impl App {
    /// Why the study of the data on screen could not run, if it could not.
    #[must_use]
    pub fn validation_failure(&self) -> Option<&str> {
        self.validation_failed
            .as_ref()
            .filter(|(g, _)| *g == self.generation && self.show_validation)
            .map(|(_, s)| s.as_str())
    }

    /// The finished study of the data on screen, if any.
    #[must_use]
    pub fn study_of_screen(&self) -> Option<&Study> {
        self.validation
            .as_ref()
            .filter(|(g, _)| *g == self.generation)
            .map(|(_, s)| s.as_ref())
    }

    /// Whether the estimates pane shows the recovery table.
    #[must_use]
    pub fn showing_validation(&self) -> bool {
        self.show_validation && self.study_of_screen().is_some()
    }

    /// The options the explorer's study runs with: the panel's own N, the paper's injections,
    /// the command's defaults plus a bootstrap for coverage, and the explorer's seed.
    #[must_use]
    pub fn validate_options(&self, n: usize) -> Options {
        Options {
            inject: DEFAULT_INJECT.to_vec(),
            ns: vec![n],
            reps: REPS,
            seed: self.seed,
            bootstrap: BOOTSTRAP,
            null_draws: NULL_DRAWS,
            thresholds: Thresholds::Own,
        }
    }

    /// `V`: cancel a running study; else show or hide the finished one; else start one on the
    /// loaded file (a simulated scenario has no real textures to validate on).
    pub(super) fn validate(&mut self) -> Vec<Effect> {
        if self.validating.take().is_some() {
            self.status = "validation cancelled".into();
            return vec![Effect::CancelValidate];
        }
        if self.study_of_screen().is_some() {
            self.show_validation = !self.show_validation;
            self.scroll[Pane::Estimates] = 0;
            return Vec::new();
        }
        if self.validation_failure().is_some() {
            self.show_validation = false;
            return Vec::new();
        }
        let Source::File(file) = &self.source else {
            self.status = "V works on a file's own textures: o opens one".into();
            return Vec::new();
        };
        let Some(panel) = self.panel.clone().filter(|p| p.p() >= 3) else {
            self.status = match self.panel.as_deref() {
                Some(p) => too_few_judges(file, Some(p)),
                None => crate::tui::reading::why_no_panel(self).into(),
            };
            return Vec::new();
        };
        let options = self.validate_options(panel.n);
        self.validating = Some(Validating {
            generation: self.generation,
            done: 0,
            total: crate::validate::total_steps(&options),
        });
        self.show_validation = true;
        self.scroll[Pane::Estimates] = 0;
        vec![Effect::Validate(ValidateJob {
            generation: self.generation,
            panel,
            options,
        })]
    }

    /// `Esc` on the recovery table: back to the estimates (`V` shows it again).
    pub(super) fn hide_validation(&mut self) {
        self.show_validation = false;
        self.scroll[Pane::Estimates] = 0;
    }

    /// `Esc` while a study runs: cancel it.
    pub(super) fn cancel_validation(&mut self) -> Vec<Effect> {
        self.validating = None;
        self.status = "validation cancelled".into();
        vec![Effect::CancelValidate]
    }

    /// A study of older data is cancelled as soon as the data change (another file, edited
    /// roles, a new seed); called after every transition.
    pub(super) fn drop_stale_validation(&mut self, effects: &mut Vec<Effect>) {
        if self
            .validating
            .is_some_and(|v| v.generation != self.generation)
        {
            self.validating = None;
            self.status = "validation cancelled: the data changed".into();
            effects.push(Effect::CancelValidate);
        }
    }

    /// A replicate was taken.
    pub(super) fn validation_progress(&mut self, generation: u64, done: u64, total: u64) {
        if let Some(v) = self.validating.as_mut()
            && v.generation == generation
        {
            v.done = v.done.max(done);
            v.total = total;
        }
    }

    /// The study finished, or could not run (a one-line reason).
    pub(super) fn validated(&mut self, generation: u64, result: Result<Box<Study>, String>) {
        if self.validating.is_none_or(|v| v.generation != generation)
            || generation != self.generation
        {
            return;
        }
        self.validating = None;
        match result {
            Ok(study) => {
                self.validation = Some((generation, study));
                self.show_validation = true;
                self.status = "validation done: the estimates pane shows it (V: back)".into();
            }
            Err(e) => {
                // The reason can be long: the estimates pane shows it whole.
                self.validation_failed = Some((generation, crate::error::sanitize(&e)));
                self.show_validation = true;
                self.status = "cannot validate: the estimates pane says why (V: back)".into();
            }
        }
    }
}

/// Why `V` cannot run with fewer than 3 judges, and the step this file can take: a spare
/// column made a judge, an anchor made one while 2 anchors stay, or else new judges' scores.
fn too_few_judges(file: &super::FileState, panel: Option<&crate::panel::Panel>) -> String {
    let judges = panel.map_or(0, crate::panel::Panel::p);
    let anchors = panel.map_or(0, crate::panel::Panel::m);
    let spare = file
        .roles
        .iter()
        .filter(|r| **r == super::Role::Ignored)
        .count();
    let step = if spare > 0 {
        "Space on a column with role — makes it a judge"
    } else if anchors > 2 {
        "Space twice on an anchor makes it a judge (2 anchors stay)"
    } else {
        "every column has a role, so a third judge's scores must be added to the file"
    };
    format!("V needs ≥ 3 judges and this panel has {judges}: {step}")
}
