//! Opening panel files: a load, a failure, and the screen a new file replaces until it loads.
//! Editing a loaded file's columns lives in `columns`.

use std::path::PathBuf;

use super::columns::{lookup, reload_options};
use super::state::{App, Entry, Source};
use super::stepping::Mode;
use crate::data::{Columns, LongColumns, PanelRequest};
use crate::tui::action::{Effect, LoadFailure, LoadJob, LoadedFile};
use crate::tui::text::Keys;
use crate::wording::{Setting, Wording};

/// A column's role in a loaded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Judge,
    Anchor,
    Ignored,
}

/// Roles, families and generation of a load that succeeded.
pub type GoodLoad = (Vec<Role>, Vec<Option<String>>, u64);

/// A loaded (or loading) file and its editable column roles and families.
#[derive(Debug, Clone, PartialEq)]
pub struct FileState {
    pub path: PathBuf,
    pub header: Vec<String>,
    pub roles: Vec<Role>,
    /// Family label of each column (judges only). Labels are kept as the user set them: an
    /// edit changes only the edited judge's.
    pub families: Vec<Option<String>>,
    /// `judge,family` pairs of a `families.csv` beside the file, offered to judges.
    pub family_file: Vec<(String, String)>,
    pub loading: bool,
    /// The last load's notes (dropped items, adopted sidecar, identical judges), shown in the
    /// data pane under the file's path.
    pub notes: Vec<String>,
    /// Roles, families and generation of the last load that succeeded: a reload that fails
    /// for a reason no role can cure (the file was deleted) puts them back.
    pub last_good: Option<Box<GoodLoad>>,
    /// The columns marked continuous (at start, or with `c`): kept for every reload with
    /// edited roles.
    pub continuous: Option<Columns>,
    /// The anchor the user trusts as clean (`t`), by name: the battery reads the
    /// designated-clean estimate with it (docs/method.md §7b). Kept across reloads.
    pub trusted: Option<String>,
    /// The family of ρ the panel's latent correlations allow (or why none), computed in the
    /// core when the panel arrives; the sliders pane draws it.
    pub family: Option<std::sync::Arc<crate::tui::trust::Traced>>,
    /// Where the "assumed ρ of NAME" slider stands (`None`: at 0, the anchor clean).
    pub assumed: Option<f64>,
    /// The long layout the file was opened with (its item, rater and score columns): its
    /// columns are then the raters, and every reload with edited roles reads it so again.
    pub long: Option<Box<LongColumns>>,
    /// The generation whose battery answer the status line words after `t` (what the trust
    /// gave), so it never promises a reading the estimates pane then refuses.
    pub trust_answer: Option<u64>,
}

/// What the screen showed before a file was opened ([`App::failed`] puts it back).
#[derive(Debug, Clone)]
pub struct Fallback {
    source: Source,
    panel: Option<std::sync::Arc<crate::panel::Panel>>,
    fit: Option<crate::estimate::Fits>,
    battery: Option<Box<crate::battery::BatteryReport>>,
    study: Option<super::StudyRequest>,
    history: super::History,
    generation: u64,
    cursor: usize,
    /// Entries in the data pane before the prompt listed the new path.
    entries: usize,
}

impl App {
    pub(super) fn file_columns(&self) -> usize {
        match &self.source {
            Source::File(f) => f.header.len(),
            Source::Scenario => 0,
        }
    }

    /// A file arrived from the worker. A reload of the file on screen keeps the user's roles
    /// and family labels; a first load takes them from the panel (and `families.csv`).
    pub(super) fn loaded(&mut self, file: LoadedFile) -> Vec<Effect> {
        self.fallback = None;
        let panel = file.panel;
        let kept = match &self.source {
            Source::File(f) if f.path == file.path && f.header == file.header => {
                Some((f.roles.clone(), f.families.clone()))
            }
            _ => None,
        };
        let first = kept.is_none();
        let (continuous, long) = match &self.source {
            Source::File(f) if f.path == file.path => (f.continuous.clone(), f.long.clone()),
            _ => (None, None),
        };
        let (roles, families) = kept.unwrap_or_else(|| {
            let roles: Vec<Role> = file
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
            let families = file
                .header
                .iter()
                .map(|h| {
                    let j = panel.judges.iter().position(|n| n == h)?;
                    panel
                        .families
                        .as_ref()
                        .and_then(|f| f.get(j).cloned())
                        .filter(|f| !f.ends_with(" (own)"))
                        .or_else(|| lookup(&file.family_file, h))
                })
                .collect();
            (roles, families)
        });
        let trusted = match &self.source {
            Source::File(f) if f.path == file.path => f.trusted.clone(),
            _ => None,
        };
        let state = FileState {
            trusted,
            family: file.family,
            assumed: None,
            path: file.path,
            header: file.header,
            last_good: Some(Box::new((roles.clone(), families.clone(), self.generation))),
            roles,
            families,
            family_file: file.family_file,
            loading: false,
            notes: file.notes,
            continuous,
            long,
            trust_answer: None,
        };
        // Say so when a load brings notes the screen did not have (a first load, or the first
        // that succeeds once roles are set by hand), not on every reload.
        let before = match &self.source {
            Source::File(f) if f.path == state.path => f.notes.as_slice(),
            _ => &[],
        };
        let notes =
            (!state.notes.is_empty() && state.notes != before).then(|| match state.notes.len() {
                1 => "1 note: see the data pane".to_string(),
                k => format!("{k} notes: see the data pane"),
            });
        // A reload a key asked for keeps what the key did, the notes after it (trial 45, #20).
        if let Some(n) = &notes {
            let keep = !before.is_empty() && !self.status.is_empty();
            let key = keep.then(|| std::mem::take(&mut self.status));
            self.status = key.map_or_else(|| n.clone(), |k| format!("{k} · {n}"));
        }
        // Families from `families.csv` that the loaded panel does not carry yet: reload with them.
        let missing =
            first && panel.families.is_none() && state.families.iter().any(Option::is_some);
        self.load_error = None;
        self.study = None;
        self.set_panel(panel);
        if missing {
            let (path, options) = (state.path.clone(), reload_options(&state));
            self.source = Source::File(state);
            self.status = match notes {
                Some(n) => format!("families.csv read · {n}"),
                None => "families read from families.csv beside the file".into(),
            };
            return self.request_load(path, options);
        }
        self.source = Source::File(state);
        self.battery_job().into_iter().collect()
    }

    /// A file did not load: show why, and list its header (if read) so that roles can be
    /// assigned by hand. A newly opened file that no choice of columns can cure (a wrong
    /// path, a folder, not a table) gives the screen back as it was, the reason on top.
    pub(super) fn failed(&mut self, failure: LoadFailure) -> Vec<Effect> {
        let effects = self.failed_load(failure);
        // A file that listed no columns leaves the cursor on the open list.
        if self.cursor >= self.entries.len() + self.file_columns() {
            self.cursor = 0;
        }
        effects
    }

    fn failed_load(&mut self, failure: LoadFailure) -> Vec<Effect> {
        // The pane has a few rows: the file's name, not its whole path, but a path just typed
        // that names no file is whole, as its wrong part may be its folder (trial 45, #14).
        let typed = self.fallback.is_some() && !failure.fixable_by_roles;
        let message = match &self.source {
            Source::File(f) if !typed || f.path.exists() => short_path(&failure.message, &f.path),
            _ => failure.message.clone(),
        };
        if let Some(before) = self.fallback.take().filter(|_| !failure.fixable_by_roles) {
            let had_panel = before.panel.is_some();
            self.restore(*before);
            // The point first: a pane of a few rows may not show the end of the reason.
            self.load_error = Some(if had_panel {
                format!("error (your panel stays open): {message}")
            } else {
                format!("error (nothing opened): {message}")
            });
            return Vec::new();
        }
        if let Some(name) = self.refused_edit(&failure) {
            let name = crate::error::sanitize(&name);
            self.load_error = Some(format!(
                "error (your panel stays open; '{name}' keeps its role): {message}"
            ));
            self.status = format!("'{name}' cannot take that role: the data pane says why");
            return Vec::new();
        }
        if let Some(effects) = self.unrole_unreadable(&failure) {
            return effects;
        }
        if let Source::File(f) = &mut self.source
            && !failure.fixable_by_roles
            && let Some((roles, families, generation)) = f.last_good.as_deref().cloned()
        {
            // A reload of the file on screen failed (the file is gone, say): the roles go back
            // to the ones its panel was loaded with, and so does the generation, so the
            // estimates, the battery and `r` all speak of what is shown.
            f.roles = roles;
            f.families = families;
            f.loading = false;
            self.generation = generation;
            self.load_error = Some(format!(
                "error (your panel and its roles stay as they were): {message}"
            ));
            return Vec::new();
        }
        self.load_error = Some(match &self.source {
            // Roles still being set: what is missing, as guidance rather than an error.
            Source::File(f) if failure.fixable_by_roles && !f.header.is_empty() => {
                roles_missing(&f.roles).unwrap_or_else(|| format!("error: {message}"))
            }
            _ => format!("error: {message}"),
        });
        let first_column = self.entries.len();
        if failure.fixable_by_roles && matches!(self.source, Source::File(_)) {
            // These roles make no panel: the panes say so, rather than show the last panel's
            // numbers as "recomputing…" for a battery that will never run.
            self.panel = None;
            self.fit = None;
            self.battery = None;
            // The next panel's sparklines start with it, not after this state's predecessor.
            self.history = super::History::default();
        }
        if let Source::File(f) = &mut self.source {
            f.loading = false;
            // The last panel's notes (items dropped, say) would contradict this error.
            f.notes.retain(|_| !failure.fixable_by_roles);
            if f.header.is_empty() && failure.fixable_by_roles {
                // The roles the loader gave the names (J1, A1, judge_…), not all "—": a load
                // that failed for another reason (a column all missing) keeps them.
                f.roles = failure
                    .header
                    .iter()
                    .map(|h| match crate::data::default_role(h) {
                        Some(crate::data::Role::Judge) => Role::Judge,
                        Some(crate::data::Role::Anchor) => Role::Anchor,
                        None => Role::Ignored,
                    })
                    .collect();
                f.families = vec![None; failure.header.len()];
                f.header = failure.header;
                f.family_file = failure.family_file;
                // Not an error: the usual first step with a file whose roles are not guessed.
                // The key that sets roles, unless the message already names it.
                let roles_key = Keys.setting(Setting::Judges);
                self.load_error = Some(if message.contains(crate::data::limits::OVER_LIMIT) {
                    // A size refusal: fewer judge and anchor columns may fit, but no role is
                    // missing.
                    format!("too large: {message}")
                } else if message.contains(&*roles_key) {
                    format!("roles needed: {message}")
                } else {
                    format!("roles needed: {message} — Space on a column sets judge, anchor or —")
                });
                self.focus = super::Pane::Data;
                self.cursor = first_column;
            }
        }
        Vec::new()
    }

    /// A role edit that put a column the panel cannot read (text, say) into a panel on
    /// screen: the edit is undone and the panel stays, rather than the panel dropped for
    /// advice about roles. Returns the column's name.
    fn refused_edit(&mut self, failure: &LoadFailure) -> Option<String> {
        let name = failure.column.clone()?;
        let Source::File(f) = &mut self.source else {
            return None;
        };
        let (roles, families, generation) = f.last_good.as_deref().cloned()?;
        let c = f.header.iter().position(|h| *h == name)?;
        if self.panel.is_none() || roles.get(c) == f.roles.get(c) {
            return None;
        }
        f.roles = roles;
        f.families = families;
        f.loading = false;
        self.generation = generation;
        Some(name)
    }

    pub(super) fn open_file(&mut self, path: PathBuf, options: PanelRequest) -> Vec<Effect> {
        // What was on screen, a panel or a file's columns: a path that is no panel must not
        // take its place (nor stay listed, nor name the status line's source).
        let shown = self.panel.is_some() || matches!(self.source, Source::File(_));
        self.fallback = shown.then(|| {
            Box::new(Fallback {
                source: self.source.clone(),
                panel: self.panel.clone(),
                fit: self.fit.clone(),
                battery: self.battery.clone(),
                study: self.study.clone(),
                history: self.history.clone(),
                generation: self.generation,
                cursor: self.cursor,
                entries: self.entries.len(),
            })
        });
        self.load_error = None;
        // Another panel: its panes start at their tops.
        self.scroll = crate::tui::action::PerPane::default();
        self.source = Source::File(FileState {
            path: path.clone(),
            header: Vec::new(),
            roles: Vec::new(),
            families: Vec::new(),
            family_file: Vec::new(),
            loading: true,
            notes: Vec::new(),
            last_good: None,
            continuous: options.continuous.clone(),
            trusted: None,
            family: None,
            assumed: None,
            long: options.long.clone().map(Box::new),
            trust_answer: None,
        });
        self.panel = None;
        self.fit = None;
        self.battery = None;
        self.study = None;
        self.history = super::History::default();
        self.request_load(path, options)
    }

    /// Puts back what [`Self::open_file`] replaced, and drops a path the prompt listed for it.
    fn restore(&mut self, before: Fallback) {
        self.entries.truncate(before.entries);
        self.source = before.source;
        self.panel = before.panel;
        self.fit = before.fit;
        self.battery = before.battery;
        self.study = before.study;
        self.history = before.history;
        // The data are the ones of that generation again: its battery and study still apply.
        self.generation = before.generation;
        self.cursor = before.cursor;
    }

    /// `Enter` in the data pane: open the preset or file under the cursor.
    pub(super) fn activate(&mut self) -> Vec<Effect> {
        match self.entries.get(self.cursor).cloned() {
            Some(Entry::Preset(name)) => {
                let params = crate::scenario::preset(name).unwrap_or_default();
                // A file's load error is no longer about what is on screen.
                self.load_error = None;
                self.fallback = None;
                self.source = Source::Scenario;
                self.scroll = crate::tui::action::PerPane::default();
                self.mode = Mode::Explore;
                self.saved = None;
                self.history = super::History::default();
                self.scenario = super::Scenario::from_params(&params, self.scenario.n());
                self.selected = 0;
                self.regenerate()
            }
            Some(Entry::File(path)) => {
                self.mode = Mode::Explore;
                self.saved = None;
                // The file on screen keeps the scales chosen for it (at start, or with `c`).
                // …and its layout.
                let (continuous, long) = match &self.source {
                    Source::File(f) if f.path == path => {
                        (f.continuous.clone(), f.long.as_deref().cloned())
                    }
                    _ => (None, None),
                };
                self.open_file(
                    path,
                    PanelRequest {
                        long,
                        continuous,
                        ..PanelRequest::default()
                    },
                )
            }
            // A column row: Enter has nothing to open there.
            None if self.cursor < self.entries.len() + self.file_columns() => {
                self.status =
                    "Enter opens a file or preset (the list above); Space sets this column's role"
                        .into();
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    /// Asks the worker for (a reload of) a file as a new generation; what is on screen stays
    /// until the result arrives.
    pub(super) fn request_load(&mut self, path: PathBuf, options: PanelRequest) -> Vec<Effect> {
        if let Some(why) = not_a_regular_file(&path) {
            // Opening a FIFO would wait for a writer with "loading…" on screen, and the
            // explorer rereads its file after every role change: refused at once, saying so.
            return self.failed_load(LoadFailure {
                message: why,
                header: Vec::new(),
                family_file: Vec::new(),
                fixable_by_roles: false,
                column: None,
            });
        }
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

/// Why the explorer does not open `path`, when it is a FIFO, a socket or a device (standard
/// input, `-`, is read once into memory and is no file here).
fn not_a_regular_file(path: &std::path::Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let ft = std::fs::metadata(path).ok()?.file_type();
        let name = crate::error::sanitize(&path.display().to_string());
        if ft.is_fifo() {
            return Some(format!(
                "{name} is a FIFO (a named pipe): reading it waits for a writer, and the explorer rereads its file after each change; save the data to a file, or pipe it in: cat {name} | rhoscope explore -"
            ));
        }
        if ft.is_socket() || ft.is_char_device() || ft.is_block_device() {
            return Some(format!("{name} is a device or socket, not a file"));
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    None
}

/// `msg` with the full `path` it names shortened to the file's name.
fn short_path(msg: &str, path: &std::path::Path) -> String {
    let full = crate::error::sanitize(&path.display().to_string());
    let name = path.file_name().map_or_else(
        || full.clone(),
        |n| crate::error::sanitize(&n.to_string_lossy()),
    );
    msg.replacen(&full, &name, 1)
}

/// What the roles set so far still lack, as guidance while they are being set (a panel
/// needs 2 judges to load; ρ needs 2 anchors besides), or `None` when the judges are there.
fn roles_missing(roles: &[Role]) -> Option<String> {
    let judges = roles.iter().filter(|r| **r == Role::Judge).count();
    let anchors = roles.iter().filter(|r| **r == Role::Anchor).count();
    if judges >= 2 {
        return None;
    }
    let more = |k: usize, what: &str| format!("{k} more {what}{}", if k == 1 { "" } else { "s" });
    let mut wanted = vec![more(2 - judges, "judge")];
    if anchors < 2 {
        wanted.push(more(2 - anchors, "anchor"));
    }
    Some(format!(
        "roles needed: {} ({judges} judge(s), {anchors} anchor(s) set) — Space on a column sets judge, anchor or —",
        wanted.join(" and ")
    ))
}
