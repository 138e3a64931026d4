//! Opening panel files and editing their column roles and families: every edit reloads the
//! file with the new roles as a new generation, so what is on screen always matches a load.

use std::path::PathBuf;

use super::{App, Entry, Mode, Source};
use crate::data::LoadOptions;
use crate::tui::action::{Effect, LoadJob, LoadedFile};

/// A column's role in a loaded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Judge,
    Anchor,
    Ignored,
}

/// A loaded (or loading) file and its editable column roles and families.
#[derive(Debug, Clone, PartialEq)]
pub struct FileState {
    pub path: PathBuf,
    pub header: Vec<String>,
    pub roles: Vec<Role>,
    /// Family number of each column (judges only).
    pub families: Vec<Option<u32>>,
    pub loading: bool,
}

impl App {
    pub(super) fn file_columns(&self) -> usize {
        match &self.source {
            Source::File(f) => f.header.len(),
            Source::Scenario => 0,
        }
    }

    /// A file arrived from the worker: its roles and families as loaded.
    pub(super) fn loaded(&mut self, file: LoadedFile) -> Vec<Effect> {
        let panel = file.panel;
        let roles = file
            .header
            .iter()
            .map(|h| {
                if panel.judges.contains(h) {
                    Role::Judge
                } else if panel.anchors.contains(h) {
                    Role::Anchor
                } else {
                    Role::Ignored
                }
            })
            .collect();
        let fam = panel.judge_families();
        let families = file
            .header
            .iter()
            .map(|h| {
                let j = panel.judges.iter().position(|n| n == h)?;
                fam.as_ref()
                    .map(|f| u32::try_from(f.index[j] + 1).unwrap_or(1))
            })
            .collect();
        self.source = Source::File(FileState {
            path: file.path,
            header: file.header,
            roles,
            families,
            loading: false,
        });
        self.load_error = None;
        self.study = None;
        self.set_panel(panel);
        self.battery_job().into_iter().collect()
    }

    pub(super) fn open_file(&mut self, path: PathBuf, options: LoadOptions) -> Vec<Effect> {
        self.load_error = None;
        self.source = Source::File(FileState {
            path: path.clone(),
            header: Vec::new(),
            roles: Vec::new(),
            families: Vec::new(),
            loading: true,
        });
        self.panel = None;
        self.fit = None;
        self.battery = None;
        self.request_load(path, options)
    }

    /// `Enter` in the data pane: open the preset or file under the cursor.
    pub(super) fn activate(&mut self) -> Vec<Effect> {
        match self.entries.get(self.cursor).cloned() {
            Some(Entry::Preset(name)) => {
                let params = crate::scenario::preset(name).unwrap_or_default();
                self.source = Source::Scenario;
                self.mode = Mode::Explore;
                self.scenario = super::Scenario::from_params(&params, self.scenario.n());
                self.selected = 0;
                self.regenerate()
            }
            Some(Entry::File(path)) => {
                self.mode = Mode::Explore;
                self.open_file(
                    path,
                    LoadOptions {
                        min_anchors: 0,
                        ..LoadOptions::default()
                    },
                )
            }
            None => Vec::new(),
        }
    }

    /// Applies `f` to the column under the cursor, then reloads the file with the new roles.
    pub(super) fn edit_column(&mut self, f: impl FnOnce(&mut FileState, usize)) -> Vec<Effect> {
        let Some(c) = self.cursor.checked_sub(self.entries.len()) else {
            return Vec::new();
        };
        let Source::File(file) = &mut self.source else {
            return Vec::new();
        };
        if c >= file.header.len() {
            return Vec::new();
        }
        f(file, c);
        let (path, options) = (file.path.clone(), reload_options(file));
        self.request_load(path, options)
    }

    /// Asks the worker for (a reload of) a file as a new generation; what is on screen stays
    /// until the result arrives.
    pub(super) fn request_load(&mut self, path: PathBuf, options: LoadOptions) -> Vec<Effect> {
        self.generation += 1;
        if let Source::File(f) = &mut self.source {
            f.loading = true;
        }
        vec![Effect::Load(LoadJob {
            generation: self.generation,
            path,
            options,
        })]
    }
}

/// Load options reproducing the edited roles and families of a file.
fn reload_options(file: &FileState) -> LoadOptions {
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
        .filter_map(|((h, _), f)| f.map(|f| format!("{h}=F{f}")))
        .collect();
    LoadOptions {
        judges: Some(named(Role::Judge)),
        anchors: Some(named(Role::Anchor)),
        families: (!families.is_empty()).then(|| families.join(",")),
        min_anchors: 0,
        ..LoadOptions::default()
    }
}

impl FileState {
    /// `Space`: judge → anchor → ignored → judge.
    pub fn cycle_role(&mut self, c: usize) {
        self.roles[c] = match self.roles[c] {
            Role::Judge => Role::Anchor,
            Role::Anchor => Role::Ignored,
            Role::Ignored => Role::Judge,
        };
        if self.roles[c] != Role::Judge {
            self.families[c] = None;
        }
    }

    /// `+`/`-`: the judge's family number (0 = none).
    pub fn shift_family(&mut self, c: usize, d: i32) {
        if self.roles[c] != Role::Judge {
            return;
        }
        let max = u32::try_from(self.header.len()).unwrap_or(u32::MAX);
        let cur = i64::from(self.families[c].unwrap_or(0));
        let next = (cur + i64::from(d)).clamp(0, i64::from(max));
        self.families[c] = u32::try_from(next).ok().filter(|f| *f > 0);
    }
}
