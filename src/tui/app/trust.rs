//! `t` on an anchor in the data pane: trust it as clean (ρ = 0, an assumption the data cannot
//! test), so the battery reads the designated-clean estimate with it and the estimates pane
//! shows the others' ρ̂ with intervals, or why they cannot be read (docs/method.md §7b).

use super::{App, Effect, Source};
use crate::tui::app::files::Role;

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
        self.battery_job().into_iter().collect()
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
        f.assumed = Some((at + steps * step).clamp(lo, hi));
        true
    }
}
