//! `t` on an anchor in the data pane: trust it as clean (ρ = 0, an assumption the data cannot
//! test), so the battery reads the designated-clean estimate with it and the estimates pane
//! shows the others' ρ̂ with intervals, or why they cannot be read (docs/method.md §7b).

use super::files::FileState;
use super::state::{App, Source};
use crate::tui::action::Effect;
use crate::tui::app::files::Role;

/// What `[`, `]` say on a file's family of ρ, where the pane has one slider.
pub(super) const ONE_SLIDER: &str =
    "one slider here: h/l move the assumed ρ along the family, 0 sets it back, j/k scroll";

impl App {
    /// The trusted anchor's index among the panel's anchors, if it is one.
    #[must_use]
    pub fn designated(&self) -> Option<usize> {
        let Source::File(f) = &self.source else {
            return None;
        };
        let name = f.trusted.as_deref()?;
        self.panel
            .as_deref()?
            .anchors
            .iter()
            .position(|a| a == name)
    }

    /// Trusts the selected anchor as clean, or, on the trusted one, trusts none; the battery
    /// re-reads the panel with it.
    pub(super) fn trust_anchor(&mut self) -> Vec<Effect> {
        let column = self.cursor.checked_sub(self.entries.len());
        let Some((c, Source::File(file))) = column.map(|c| (c, &mut self.source)) else {
            self.status =
                "t trusts an anchor as clean: move to an anchor column of a file first".into();
            return Vec::new();
        };
        if file.roles.get(c) != Some(&Role::Anchor) {
            self.status =
                "only an anchor can be trusted as clean: Space makes this column one".into();
            return Vec::new();
        }
        let name = file.header[c].clone();
        file.assumed = None;
        let shown = crate::error::sanitize(&name);
        if file.trusted.as_deref() == Some(name.as_str()) {
            file.trusted = None;
            self.status = format!("'{shown}' no longer trusted: no anchor is assumed clean");
        } else {
            file.trusted = Some(name);
            // What the trust gives is the battery's to say, once it has re-read the panel.
            self.status = crate::battery::phrase::trusting(&shown);
        }
        // A new reading of the same data: the battery on screen no longer answers it.
        self.generation += 1;
        file.trust_answer = file.trusted.is_some().then_some(self.generation);
        self.battery_job().into_iter().collect()
    }
}

impl App {
    /// The battery of `generation` has arrived: if it answers a `t`, the status line says
    /// what the trust gave: the others' ρ read relative to the anchor, in the core's words
    /// ([`crate::battery::phrase::trusted`]), or the first reason none is, in a few words.
    pub(super) fn trust_answered(&mut self, generation: u64) {
        let Source::File(f) = &mut self.source else {
            return;
        };
        if f.trust_answer != Some(generation) {
            return;
        }
        f.trust_answer = None;
        let (Some(d), Some(panel), Some(report)) = (
            self.designated(),
            self.panel.as_deref(),
            self.battery.as_deref(),
        ) else {
            return;
        };
        let names: Vec<String> = panel
            .anchors
            .iter()
            .map(|n| crate::error::sanitize(n))
            .collect();
        // No ρ̂: the reason in a few words, so the status rows keep it whole at 80 columns;
        // the estimates pane's first line gives it in full.
        let first = report.reading.answer.obstacles.first();
        self.status = if let Some(o) = first.filter(|_| report.reading.answer.read.is_none()) {
            format!(
                "'{}' trusted as clean, but no ρ̂ can be read: {} (the estimates pane says why)",
                names.get(d).map_or("?", String::as_str),
                crate::tui::trust::short_obstacle(o, &names)
            )
        } else {
            let said = crate::battery::phrase::trusted(&report.reading, d, &names);
            crate::wording::reword(&said, &crate::tui::text::Keys).into_owned()
        };
    }
}

impl App {
    /// Moves the "assumed ρ of NAME" slider along the panel's family, when it has one;
    /// whether it did. Nothing is refitted: every world of the family is already traced.
    pub(super) fn nudge_family(&mut self, steps: f64, coarse: bool) -> bool {
        let k = self.designated().unwrap_or(0);
        let Source::File(f) = &mut self.source else {
            return false;
        };
        let Some(Ok((_, family))) = f.family.as_deref() else {
            return false;
        };
        let Some((_, (lo, hi), at)) = family.slider(k, f.assumed) else {
            return false;
        };
        let step = if coarse { 0.1 } else { 0.01 };
        let next = (at + steps * step).clamp(lo, hi);
        if next == at {
            self.status = format!("assumed ρ at its bound ({lo:.2} … {hi:.2})");
        }
        f.assumed = Some(next);
        // The presentation layout hides the slider: the status line names the move.
        if self.present && self.status.is_empty() {
            let name = self.panel.as_ref().and_then(|p| p.anchors.get(k).cloned());
            let name = crate::error::sanitize(&name.unwrap_or_else(|| "?".into()));
            self.status = format!("assumed ρ of {name} = {next:.2} (v shows the sliders)");
        }
        true
    }
}

impl App {
    /// Whether the sliders pane shows a file's family of ρ (or why there is none).
    #[must_use]
    pub fn family_shown(&self) -> bool {
        matches!(&self.source, Source::File(f) if f.family.is_some())
    }

    /// Whether the sliders pane has the family's one slider (an admissible family traced).
    #[must_use]
    pub fn family_slider(&self) -> bool {
        matches!(&self.source, Source::File(f) if matches!(f.family.as_deref(), Some(Ok(_))))
    }

    /// `0` on a file's family of ρ: the assumed ρ back to 0; whether it acted.
    pub(super) fn reset_family(&mut self) -> bool {
        let Source::File(f) = &mut self.source else {
            return false;
        };
        if !matches!(f.family.as_deref(), Some(Ok(_))) {
            return false;
        }
        f.assumed = None;
        self.status = "assumed ρ back to 0: the world where that anchor is clean".into();
        true
    }

    /// `Space` on a column: its role cycles; on the trusted anchor the status line says
    /// whether its trust is suspended (no longer an anchor) or back (an anchor again).
    pub(super) fn cycle_role(&mut self) -> Vec<Effect> {
        let effects = self.edit_column(FileState::cycle_role);
        let column = self.cursor.checked_sub(self.entries.len());
        let (Some(c), Source::File(f)) = (column, &self.source) else {
            return effects;
        };
        let Some(name) = f
            .trusted
            .as_deref()
            .filter(|t| f.header.get(c).map(String::as_str) == Some(*t))
        else {
            return effects;
        };
        let shown = crate::error::sanitize(name);
        self.status = if f.roles.get(c) == Some(&Role::Anchor) {
            format!("'{shown}' is an anchor again, so trusted as clean again (t on it: trust none)")
        } else {
            format!(
                "'{shown}' is no longer an anchor: trust in it is suspended until it is one again"
            )
        };
        effects
    }
}
