//! The one thing that may sit over the panes: help, the battery in full, or a prompt. Each is
//! modal, so one enum holds them and no two can be open at once.

use std::path::PathBuf;

use super::files::Role;
use super::state::{App, Entry, Source};
use super::stepping::Mode;
use crate::data::PanelRequest;
use crate::tui::action::{Action, Effect, Pane, PromptEdit};

/// What a prompt asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptKind {
    /// A panel file to open (`o`).
    Path,
    /// The family of the judge in this file column (`F` in the data pane).
    Family(usize),
}

/// A prompt on the status line: what it asks, the text typed so far, and what a `Tab` that
/// could not complete further could still become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub text: String,
    pub choices: Vec<String>,
    /// A `Tab` found nothing to complete: the prompt says so until the next edit.
    pub no_match: bool,
}

/// The overlay on screen, if any.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Overlay {
    #[default]
    None,
    /// The key table (`?`).
    Help,
    /// Every verdict whole (`Enter` in the battery pane).
    Detail,
    /// A line to type on the status line.
    Prompt(Prompt),
}

impl Overlay {
    /// Help or the battery in full: a box over the panes that scrolls.
    #[must_use]
    pub fn is_box(&self) -> bool {
        matches!(self, Overlay::Help | Overlay::Detail)
    }

    /// The prompt, if one is open.
    #[must_use]
    pub fn prompt(&self) -> Option<&Prompt> {
        match self {
            Overlay::Prompt(p) => Some(p),
            _ => None,
        }
    }
}

impl App {
    /// Whether the help overlay is open.
    #[must_use]
    pub fn help(&self) -> bool {
        self.overlay == Overlay::Help
    }

    /// Whether the battery's detail overlay is open.
    #[must_use]
    pub fn detail(&self) -> bool {
        self.overlay == Overlay::Detail
    }

    /// The open prompt's text, if any.
    #[must_use]
    pub fn prompt(&self) -> Option<&str> {
        self.overlay.prompt().map(|p| p.text.as_str())
    }

    /// Opens `o` (a path) or `F` (the family of the judge under the data cursor).
    pub(super) fn open_prompt(&mut self, kind: PromptKind) -> Vec<Effect> {
        let text = match kind {
            PromptKind::Path => String::new(),
            PromptKind::Family(c) => match &self.source {
                Source::File(f) => f.families.get(c).cloned().flatten().unwrap_or_default(),
                Source::Scenario => String::new(),
            },
        };
        self.overlay = Overlay::Prompt(Prompt {
            kind,
            text,
            choices: Vec::new(),
            no_match: false,
        });
        Vec::new()
    }

    /// `F` in the data pane: type the family of the judge under the cursor.
    pub(super) fn type_family(&mut self) -> Vec<Effect> {
        let column = self.cursor.checked_sub(self.entries.len());
        let role = match (&self.source, column) {
            (Source::File(f), Some(c)) => f.roles.get(c).copied(),
            _ => None,
        };
        match (role, column) {
            (Some(Role::Judge), Some(c)) => self.open_prompt(PromptKind::Family(c)),
            (Some(_), _) => {
                self.status = "families are for judges: Space makes this column a judge".into();
                Vec::new()
            }
            _ => {
                self.status = "F types a judge's family: move to a judge's column first".into();
                Vec::new()
            }
        }
    }

    /// `?` and `Enter` in the battery pane open their box (closing the other's); again closes.
    pub(super) fn toggle_box(&mut self, which: Overlay) -> Vec<Effect> {
        self.overlay = if self.overlay == which {
            Overlay::None
        } else if which == Overlay::Detail && self.help() {
            Overlay::Help
        } else {
            which
        };
        self.overlay_scroll = 0;
        Vec::new()
    }

    /// The overlays and the prompt are modal: only closing them, quitting, worker results
    /// (and, in the boxes, scrolling) get through.
    pub(super) fn blocked_by_overlay(&self, action: &Action) -> bool {
        match &self.overlay {
            Overlay::None => false,
            Overlay::Help | Overlay::Detail => !matches!(
                action,
                Action::Up
                    | Action::Down
                    | Action::Top
                    | Action::Bottom
                    | Action::CloseOrQuit
                    | Action::CloseOverlay
                    | Action::ToggleHelp
                    | Action::ToggleDetail
                    | Action::Quit
                    | Action::Worker(_)
            ),
            Overlay::Prompt(_) => {
                !matches!(action, Action::Prompt(_) | Action::Quit | Action::Worker(_))
            }
        }
    }

    pub(super) fn edit_prompt(&mut self, edit: PromptEdit) -> Vec<Effect> {
        let Overlay::Prompt(prompt) = &mut self.overlay else {
            return Vec::new();
        };
        // Any edit but a completion clears the choices a `Tab` listed.
        prompt.choices.clear();
        prompt.no_match = false;
        match edit {
            PromptEdit::Completed { text, choices } => {
                prompt.no_match = choices.is_empty() && text == prompt.text;
                if choices.len() > 1 {
                    prompt.choices = choices;
                }
                prompt.text = text;
            }
            PromptEdit::Insert(c) => prompt.text.push(c),
            PromptEdit::Backspace => {
                prompt.text.pop();
            }
            PromptEdit::ClearLine => prompt.text.clear(),
            PromptEdit::DeleteWord => {
                // Trailing separators first, then the word before them.
                let t = prompt.text.trim_end_matches(['/', ' ']);
                let keep = t.rfind(['/', ' ']).map_or(0, |i| i + 1);
                prompt.text.truncate(keep);
            }
            PromptEdit::Cancel => self.overlay = Overlay::None,
            PromptEdit::Submit => {
                let (kind, text) = (prompt.kind.clone(), prompt.text.trim().to_string());
                self.overlay = Overlay::None;
                return match kind {
                    PromptKind::Path if self.hanna_missing() => {
                        self.give_hanna(std::path::Path::new(&text))
                    }
                    PromptKind::Path => self.open_typed(PathBuf::from(text)),
                    PromptKind::Family(c) => self.set_family(c, &text),
                };
            }
        }
        Vec::new()
    }

    /// The family typed for column `c` (empty: none), and a reload with it.
    fn set_family(&mut self, c: usize, label: &str) -> Vec<Effect> {
        let Source::File(f) = &mut self.source else {
            return Vec::new();
        };
        let Some(slot) = f.families.get_mut(c) else {
            return Vec::new();
        };
        let label = crate::error::sanitize(label);
        let new = (!label.is_empty()).then_some(label);
        // Said as `+`/`-` say it, changed or not, so Enter is never silent.
        let name = crate::error::sanitize(&f.header[c]);
        let said = match &new {
            Some(l) => format!("'{name}' in family {l}"),
            None => format!("'{name}' in no family"),
        };
        if *slot == new {
            self.status = format!("{said} (as it was)");
            return Vec::new();
        }
        *slot = new;
        let (path, options) = (f.path.clone(), super::columns::reload_options(f));
        let effects = self.request_load(path, options);
        if self.status.is_empty() {
            self.status = said;
        }
        effects
    }

    /// A path typed at the `o` prompt: opened, and listed among the data pane's entries.
    fn open_typed(&mut self, path: PathBuf) -> Vec<Effect> {
        if path.as_os_str().is_empty() {
            return Vec::new();
        }
        self.mode = Mode::Explore;
        self.saved = None;
        self.focus = Pane::Data;
        let effects = self.open_file(path.clone(), PanelRequest::default());
        if !matches!(&self.source, Source::File(f) if f.path == path) {
            // Refused at once (a FIFO): what was open stays, and the path is not listed.
            return effects;
        }
        // One row per file, however it is spelled (relative or absolute): the typed one.
        let same = |e: &Entry| matches!(e, Entry::File(p) if *p == path || same_file(p, &path));
        let listed = self.entries.iter().position(same);
        let entry = Entry::File(path);
        self.cursor = if let Some(i) = listed {
            self.entries[i] = entry;
            i
        } else {
            self.entries.push(entry);
            self.entries.len() - 1
        };
        effects
    }
}

/// Whether two spellings name one file (both resolve to the same path).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}
