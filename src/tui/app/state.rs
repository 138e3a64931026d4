//! The explorer's state: the `App` the update and every pane read, and the types it holds.
//! Its behaviour is `impl App` in `app.rs` and the sibling files, split by concern.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use super::files::{Fallback, FileState};
use super::overlay::Overlay;
use super::stepping::Mode;
use super::validation::Validating;
use crate::battery::{BatteryReport, PerTest};
use crate::data::PanelRequest;
use crate::estimate::Fits;
use crate::panel::Panel;
use crate::power::{PowerSummary, StudyRequest};
use crate::tui::action::{Pane, PerPane};
use crate::tui::scenes::Scene;
use crate::tui::sliders::Scenario;

/// Sparkline histories keep this many points.
pub const HISTORY: usize = 60;

/// What the configuration pane asks the planner ([`crate::plan`]): the N at which every ρ_k's
/// 95 % interval is 0.2 wide on average (±0.1), the width a reader can act on.
pub const PLAN_TARGET: crate::plan::Target = crate::plan::Target::CiWidth(0.2);

/// Where the data comes from.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "one App holds one Source; a box would buy nothing but an indirection"
)]
pub enum Source {
    Scenario,
    File(FileState),
}

/// An entry of the data pane's open list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Preset(&'static str),
    File(PathBuf),
}

/// Sparkline histories: each test's statistic over its own threshold as results arrive (a
/// scale-free value: above 1 fires), and ρ̂_k per change. Reset when the source changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub stats: PerTest<VecDeque<f64>>,
    pub rho: Vec<VecDeque<f64>>,
}

pub(super) fn push(v: &mut VecDeque<f64>, x: f64) {
    if v.len() == HISTORY {
        v.pop_front();
    }
    v.push_back(x);
}

/// How the explorer starts.
#[derive(Debug, Clone)]
#[expect(
    clippy::large_enum_variant,
    reason = "one Start is built, once, when the explorer opens"
)]
pub enum Start {
    /// The built-in default scenario (the paper's base design, N = 500).
    Default,
    /// A panel file, read with these options.
    File(PathBuf, PanelRequest),
    /// Talk mode from the first scene.
    Demo,
    /// Talk mode from scene i (0-based).
    Scene(usize),
}

/// Start-up settings gathered by the caller (who may do I/O).
#[derive(Debug, Clone)]
pub struct Settings {
    pub start: Start,
    pub color: bool,
    /// Files offered in the data pane.
    pub files: Vec<PathBuf>,
    /// The HANNA panel, if at hand.
    pub hanna: Option<PathBuf>,
}

/// The furthest a pane scrolls before its first draw says how far its content goes.
pub(super) const MAX_SCROLL: u16 = 1000;

/// The explorer's whole state.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches: frozen, quit, colour, layout"
)]
pub struct App {
    pub focus: Pane,
    /// Help, the battery in full, or a prompt: modal, one at a time.
    pub overlay: Overlay,
    pub frozen: bool,
    pub quit: bool,
    pub mode: Mode,
    pub source: Source,
    pub scenario: Scenario,
    /// The selected slider.
    pub selected: usize,
    pub seed: u64,
    /// Bumped by every change of the data; results of older generations are dropped.
    pub generation: u64,
    pub panel: Option<Arc<Panel>>,
    /// The explorer's fits ([`Fits::explorer`]), recomputed at once on every change.
    pub fit: Option<Fits>,
    pub battery: Option<Box<BatteryReport>>,
    /// The generation the shown battery belongs to.
    pub battery_generation: u64,
    pub history: History,
    /// Live power studies, each keyed by its whole request.
    pub power: Vec<(StudyRequest, PowerSummary)>,
    /// The newest validation study of the loaded file, with the data generation it answers.
    pub validation: Option<(u64, Box<crate::validate::Study>)>,
    /// Why the last validation study could not run, with the generation it was for.
    pub validation_failed: Option<(u64, String)>,
    /// The validation study under way, if any.
    pub validating: Option<Validating>,
    /// Whether the estimates pane shows the validation study (`V` toggles).
    pub show_validation: bool,
    /// The planner's answers, each keyed by its whole request (or why there is none).
    pub plans: Vec<(crate::model::Params, Result<Box<crate::plan::Plan>, String>)>,
    /// The study of the configuration on screen.
    pub study: Option<StudyRequest>,
    pub entries: Vec<Entry>,
    /// Cursor in the data pane: over the entries, then over the file's columns.
    pub cursor: usize,
    pub load_error: Option<String>,
    /// The screen before the last file was opened, until that file loads or is given up.
    pub(super) fallback: Option<Box<Fallback>>,
    pub hanna: Option<PathBuf>,
    /// The family of worlds of the two-worlds talk scene's panel (or why there is none).
    pub worlds: Option<Arc<crate::tui::trust::Traced>>,
    pub scenes: Vec<Scene>,
    pub color: bool,
    /// One line for the status bar; cleared by the next user input.
    pub status: String,
    /// The presentation layout: estimates, battery and caption only (`v`).
    pub present: bool,
    /// `q` was pressed once while frozen: a second `q` quits.
    pub confirm_quit: bool,
    /// The talk scene on screen was changed by the user (sliders or seed).
    pub modified: bool,
    /// Line offsets of the scrolling panes (estimates, battery, configuration), by pane.
    pub scroll: PerPane<u16>,
    /// The furthest offset of each scrolling pane at its last draw (the view sets it), so a
    /// key held past the end does not have to be undone.
    pub scroll_end: PerPane<std::cell::Cell<u16>>,
    /// Line offset of the modal overlays (help, the battery's detail view), so scrolling an
    /// overlay never moves the pane beneath it.
    pub overlay_scroll: u16,
    /// The overlay's furthest offset at its last draw.
    pub overlay_end: std::cell::Cell<u16>,
    /// What explore mode looked like before a talk or walkthrough began (`Esc` restores it).
    pub saved: Option<Box<Saved>>,
}

/// The state `Esc` returns to from a talk or a walkthrough.
#[derive(Debug, Clone)]
pub struct Saved {
    pub(super) source: Source,
    pub(super) scenario: Scenario,
    pub(super) seed: u64,
    pub(super) selected: usize,
    pub(super) focus: Pane,
    pub(super) cursor: usize,
    pub(super) present: bool,
    pub(super) panel: Option<Arc<Panel>>,
    pub(super) fit: Option<Fits>,
    pub(super) battery: Option<Box<BatteryReport>>,
    pub(super) history: History,
    pub(super) study: Option<StudyRequest>,
    pub(super) load_error: Option<String>,
}

/// The battery seed of the explorer: fixed, so a configuration always shows the same verdicts.
pub const BATTERY_SEED: u64 = 1;
