//! Editing a loaded file's columns: roles, families and scales. Every edit reloads the file
//! with load options that reproduce it, so what is on screen always matches a load.

use super::files::{FileState, Role};
use super::state::{App, Source};
use crate::data::{ColumnRef, Columns, Families, PanelRequest};
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

    /// A load with no panel on screen yet that failed on a cell of a judge or anchor (a text
    /// column made a judge): that column goes back to —, the status line names it, and the
    /// other roles load as they are.
    pub(super) fn unrole_unreadable(
        &mut self,
        failure: &crate::tui::action::LoadFailure,
    ) -> Option<Vec<Effect>> {
        let name = failure.column.as_deref()?;
        let Source::File(f) = &mut self.source else {
            return None;
        };
        let c = f.header.iter().position(|h| h == name)?;
        if self.panel.is_some() || f.roles.get(c) == Some(&Role::Ignored) {
            return None;
        }
        f.roles[c] = Role::Ignored;
        f.families[c] = None;
        let shown = crate::error::sanitize(name);
        self.status = format!(
            "'{shown}' set back to —: it holds values that are not scores ({})",
            crate::error::sanitize(&failure.message)
        );
        let (path, options) = (f.path.clone(), reload_options(f));
        Some(self.request_load(path, options))
    }

    /// `+`/`-`: the family of the judge under the cursor; on an anchor, an ignored column or
    /// a judge already at no family, the status line says why nothing changed.
    pub(super) fn shift_family(&mut self, d: i32) -> Vec<Effect> {
        let column = self.cursor.checked_sub(self.entries.len());
        if let (Some(c), Source::File(file)) = (column, &self.source)
            && let Some(role) = file.roles.get(c)
        {
            let name = crate::error::sanitize(&file.header[c]);
            if *role != Role::Judge {
                self.status = format!(
                    "'{name}' is not a judge: families are for judges (Space sets the role)"
                );
                return Vec::new();
            }
            if d < 0 && file.families[c].is_none() {
                self.status =
                    format!("'{name}' has no family: + gives it one, F types one by name");
                return Vec::new();
            }
        }
        let effects = self.edit_column(|f, c| f.shift_family(c, d));
        if let (Some(c), Source::File(file)) = (column, &self.source)
            && let Some(family) = file.families.get(c)
            && self.status.is_empty()
        {
            let name = crate::error::sanitize(&file.header[c]);
            // A label no other judge nor families.csv has is a family of its own, said so.
            let shared = |f: &String| {
                let others = file.families.iter().enumerate().filter(|&(i, _)| i != c);
                others.filter_map(|(_, l)| l.as_ref()).any(|l| l == f)
                    || file.family_file.iter().any(|(_, l)| l == f)
            };
            self.status = match family {
                Some(f) if !shared(f) => format!(
                    "'{name}' in a new family {} of its own",
                    crate::error::sanitize(f)
                ),
                Some(f) => format!("'{name}' in family {}", crate::error::sanitize(f)),
                None => format!("'{name}' in no family"),
            };
        }
        effects
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
            file.force_continuous(&name);
            self.status = format!("'{shown}' scored continuous: its codes read as numbers");
        }
        let (path, options) = (file.path.clone(), reload_options(file));
        self.request_load(path, options)
    }
}

/// The panel request reproducing the edited roles, families and scales of a file: names
/// and pairs as they are, never joined into text.
pub(super) fn reload_options(file: &FileState) -> PanelRequest {
    let named = |role: Role| -> Vec<ColumnRef> {
        file.header
            .iter()
            .zip(&file.roles)
            .filter(|(_, r)| **r == role)
            .map(|(h, _)| ColumnRef::Name(h.clone()))
            .collect()
    };
    let families: Vec<(String, String)> = file
        .header
        .iter()
        .zip(&file.roles)
        .zip(&file.families)
        .filter(|((_, r), _)| **r == Role::Judge)
        .filter_map(|((h, _), f)| f.as_ref().map(|f| (h.clone(), f.clone())))
        .collect();
    // Families as the sidecar beside the file gives them are left to the loader, which
    // adopts the sidecar itself and says so in a note that a role edit must not lose.
    let as_sidecar = file
        .header
        .iter()
        .zip(&file.roles)
        .zip(&file.families)
        .filter(|((_, r), _)| **r == Role::Judge)
        .all(|((h, _), f)| *f == lookup(&file.family_file, h));
    PanelRequest {
        judges: Some(named(Role::Judge)),
        anchors: Some(named(Role::Anchor)),
        families: (!families.is_empty() && !as_sidecar).then_some(Families::Pairs(families)),
        continuous: panel_continuous(file),
        long: file.long.as_deref().cloned(),
        ..PanelRequest::default()
    }
}

/// The continuous marks less the columns that have no role now (the loader names only the
/// panel's columns).
fn panel_continuous(file: &FileState) -> Option<Columns> {
    let Columns::Listed(list) = file.continuous.as_ref()? else {
        return Some(Columns::All);
    };
    let kept: Vec<ColumnRef> = list
        .iter()
        .filter(|c| {
            file.header
                .iter()
                .zip(&file.roles)
                .any(|(h, r)| is(c, h) && *r != Role::Ignored)
        })
        .cloned()
        .collect();
    (!kept.is_empty()).then_some(Columns::Listed(kept))
}

/// Whether `col` names the column `name`.
fn is(col: &ColumnRef, name: &str) -> bool {
    matches!(col, ColumnRef::Name(n) if n == name)
}

/// The family a `families.csv` gives `name`.
pub(super) fn lookup(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(j, _)| j == name)
        .map(|(_, f)| f.clone())
}

impl FileState {
    /// Whether column `name` is marked continuous (at start, or with `c`).
    #[must_use]
    pub fn forces_continuous(&self, name: &str) -> bool {
        match &self.continuous {
            None => false,
            Some(Columns::All) => true,
            Some(Columns::Listed(list)) => list.iter().any(|c| is(c, name)),
        }
    }

    /// Column `name` marked continuous.
    fn force_continuous(&mut self, name: &str) {
        match &mut self.continuous {
            Some(Columns::All) => {}
            Some(Columns::Listed(list)) => list.push(ColumnRef::Name(name.to_string())),
            None => {
                self.continuous = Some(Columns::Listed(vec![ColumnRef::Name(name.to_string())]));
            }
        }
    }

    /// Drops column `name` from the continuous marks (all becomes every other column).
    fn unforce_continuous(&mut self, name: &str) {
        let mut list = match self.continuous.take() {
            None => return,
            Some(Columns::Listed(list)) => list,
            // All: the panel's columns, the judges and the anchors.
            Some(Columns::All) => self
                .header
                .iter()
                .zip(&self.roles)
                .filter(|(_, r)| **r != Role::Ignored)
                .map(|(h, _)| ColumnRef::Name(h.clone()))
                .collect(),
        };
        list.retain(|c| !is(c, name));
        if !list.is_empty() {
            self.continuous = Some(Columns::Listed(list));
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
        // The other judges' labels (and those of `families.csv`), not this judge's own: its
        // own new label counted as "in use" made the fresh one flip between F1 and F2.
        let others = self
            .families
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != c)
            .filter_map(|(_, l)| l.clone());
        let used = self
            .family_file
            .iter()
            .map(|(_, f)| f.clone())
            .chain(others);
        for l in used {
            if !labels.contains(&Some(l.clone())) {
                labels.push(Some(l));
            }
        }
        // A label of its own not used elsewhere (typed with F) keeps its place in the cycle.
        if let Some(own) = self.families[c]
            .clone()
            .filter(|l| !labels.contains(&Some(l.clone())))
            && !(own.starts_with('F') && own[1..].parse::<usize>().is_ok())
        {
            labels.push(Some(own));
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
        // A cycle: past the new label `+` comes back to none.
        let len = i64::try_from(labels.len()).unwrap_or(1);
        let next = (i64::try_from(cur).unwrap_or(0) + i64::from(d)).rem_euclid(len);
        self.families[c].clone_from(&labels[usize::try_from(next).unwrap_or(0)]);
    }
}
