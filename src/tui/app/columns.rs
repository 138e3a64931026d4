//! Editing a loaded file's columns: roles, families and scales. Every edit reloads the file
//! with load options that reproduce it, so what is on screen always matches a load.

use super::{App, FileState, Role, Source};
use crate::data::LoadOptions;
use crate::tui::action::Effect;

impl App {
    /// Applies `f` to the column under the cursor, then reloads the file with the new roles.
    pub(super) fn edit_column(&mut self, f: impl FnOnce(&mut FileState, usize)) -> Vec<Effect> {
        let column = self.cursor.checked_sub(self.entries.len());
        let (Some(c), Source::File(file)) = (column, &mut self.source) else {
            // On a preset or a file name: say where the key acts instead of nothing.
            self.status = match self.source {
                Source::File(_) => "Space and +/- edit a column: move down to one (j)",
                Source::Scenario => "Space and +/- edit a file's columns: open a file first",
            }
            .into();
            return Vec::new();
        };
        if c >= file.header.len() {
            return Vec::new();
        }
        f(file, c);
        let (path, options) = (file.path.clone(), reload_options(file));
        self.request_load(path, options)
    }

    /// `c`: the column under the cursor scored continuous (its codes read as numbers), or
    /// back on the scale its values have; the estimates and the battery follow the reload.
    pub(super) fn toggle_scale(&mut self) -> Vec<Effect> {
        let column = self.cursor.checked_sub(self.entries.len());
        let Some((c, Source::File(file))) = column.map(|c| (c, &mut self.source)) else {
            self.status = "c changes a column's scale: move to a column of a file first".into();
            return Vec::new();
        };
        if c >= file.header.len() {
            return Vec::new();
        }
        let name = file.header[c].clone();
        if file.roles[c] == Role::Ignored {
            self.status = "only judges and anchors have a scale: Space sets the role".into();
            return Vec::new();
        }
        let read = self.panel.as_deref().and_then(|p| {
            let i = p.names().iter().position(|n| *n == name)?;
            p.scales.get(i).cloned()
        });
        let shown = crate::error::sanitize(&name);
        if file.forces_continuous(&name) {
            file.unforce_continuous(&name);
            self.status = format!("'{shown}' back on the scale of its values");
        } else if read.as_ref().is_some_and(|s| !s.is_ordinal()) {
            self.status = format!(
                "'{shown}' is continuous as read (fractional values or more than {} levels)",
                crate::panel::MAX_ORDINAL_LEVELS
            );
            return Vec::new();
        } else {
            file.continuous
                .get_or_insert_with(Vec::new)
                .push(name.clone());
            self.status = format!("'{shown}' scored continuous: its codes read as numbers");
        }
        let (path, options) = (file.path.clone(), reload_options(file));
        self.request_load(path, options)
    }
}

/// Load options reproducing the edited roles and families of a file.
pub(super) fn reload_options(file: &FileState) -> LoadOptions {
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
        .filter_map(|((h, _), f)| f.as_ref().map(|f| format!("{h}={f}")))
        .collect();
    LoadOptions {
        judges: Some(named(Role::Judge)),
        anchors: Some(named(Role::Anchor)),
        families: (!families.is_empty()).then(|| families.join(",")),
        continuous: panel_continuous(file),
        min_anchors: 0,
        ..LoadOptions::default()
    }
}

/// The continuous list less the columns that have no role now (the loader names only the
/// panel's columns).
fn panel_continuous(file: &FileState) -> Option<Vec<String>> {
    let list = file.continuous.as_ref()?;
    let kept: Vec<String> = list
        .iter()
        .filter(|n| {
            n.trim().eq_ignore_ascii_case("all")
                || file
                    .header
                    .iter()
                    .zip(&file.roles)
                    .any(|(h, r)| h == *n && *r != Role::Ignored)
        })
        .cloned()
        .collect();
    (!kept.is_empty()).then_some(kept)
}

/// The family a `families.csv` gives `name`.
pub(super) fn lookup(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(j, _)| j == name)
        .map(|(_, f)| f.clone())
}

impl FileState {
    /// Whether `--continuous` (or `c`) scores column `name` continuous.
    #[must_use]
    pub fn forces_continuous(&self, name: &str) -> bool {
        self.continuous.as_ref().is_some_and(|list| {
            list.iter()
                .any(|n| n == name || n.trim().eq_ignore_ascii_case("all"))
        })
    }

    /// Drops column `name` from the continuous list (`all` becomes every other column).
    fn unforce_continuous(&mut self, name: &str) {
        let Some(list) = &mut self.continuous else {
            return;
        };
        if list.iter().any(|n| n.trim().eq_ignore_ascii_case("all")) {
            // `all` names the panel's columns: the judges and the anchors.
            *list = self
                .header
                .iter()
                .zip(&self.roles)
                .filter(|(_, r)| **r != Role::Ignored)
                .map(|(h, _)| h.clone())
                .collect();
        }
        list.retain(|n| n != name);
        if list.is_empty() {
            self.continuous = None;
        }
    }

    /// `Space`: — → judge → anchor → — (a new judge takes its family from `families.csv`).
    pub fn cycle_role(&mut self, c: usize) {
        self.roles[c] = match self.roles[c] {
            Role::Judge => Role::Anchor,
            Role::Anchor => Role::Ignored,
            Role::Ignored => Role::Judge,
        };
        self.families[c] = if self.roles[c] == Role::Judge {
            lookup(&self.family_file, &self.header[c])
        } else {
            None
        };
    }

    /// `+`/`-`: the judge's family, stepping through none, the labels in use (and those of
    /// `families.csv`), and one new label. Only this judge's label changes.
    pub fn shift_family(&mut self, c: usize, d: i32) {
        if self.roles[c] != Role::Judge {
            return;
        }
        let mut labels: Vec<Option<String>> = vec![None];
        let used = self
            .family_file
            .iter()
            .map(|(_, f)| f.clone())
            .chain(self.families.iter().flatten().cloned());
        for l in used {
            if !labels.contains(&Some(l.clone())) {
                labels.push(Some(l));
            }
        }
        // One more label than are in use: some F1…F(n+1) is free.
        let fresh = (1..=labels.len() + 1)
            .map(|i| format!("F{i}"))
            .find(|l| !labels.contains(&Some(l.clone())))
            .unwrap_or_default();
        labels.push(Some(fresh));
        let cur = labels
            .iter()
            .position(|l| *l == self.families[c])
            .unwrap_or(0);
        let next = super::step_index(cur, d, labels.len());
        self.families[c].clone_from(&labels[next]);
    }
}
