//! What can happen to the explorer (user intents and worker messages) and what it asks the
//! outside world to do in return. `App::update` turns one into the other, with no I/O.

use std::path::PathBuf;
use std::sync::Arc;

use crate::battery::{BatteryReport, NullSpec};
use crate::panel::Panel;
use crate::power::{PowerSummary, StudyRequest};

/// The panes, in focus order (keys 1–5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    Data,
    Sliders,
    Estimates,
    Battery,
    Config,
}

impl Pane {
    pub const ALL: [Pane; 5] = [
        Pane::Data,
        Pane::Sliders,
        Pane::Estimates,
        Pane::Battery,
        Pane::Config,
    ];

    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Pane::Data => "1 Data",
            Pane::Sliders => "2 Sliders",
            Pane::Estimates => "3 Estimates",
            Pane::Battery => "4 Battery",
            Pane::Config => "5 Configuration",
        }
    }

    /// The pane's place in [`Pane::ALL`] (its key, less one).
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Pane::Data => 0,
            Pane::Sliders => 1,
            Pane::Estimates => 2,
            Pane::Battery => 3,
            Pane::Config => 4,
        }
    }
}

/// One value per pane, indexed by [`Pane`], so per-pane state never counts the panes itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PerPane<T>([T; Pane::ALL.len()]);

impl<T> PerPane<T> {
    /// A value for every pane from `f`.
    pub fn from_fn(mut f: impl FnMut(Pane) -> T) -> PerPane<T> {
        PerPane(Pane::ALL.map(&mut f))
    }

    /// `(pane, value)` in focus order.
    pub fn iter(&self) -> impl Iterator<Item = (Pane, &T)> {
        Pane::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> std::ops::Index<Pane> for PerPane<T> {
    type Output = T;
    fn index(&self, p: Pane) -> &T {
        &self.0[p.index()]
    }
}

impl<T> std::ops::IndexMut<Pane> for PerPane<T> {
    fn index_mut(&mut self, p: Pane) -> &mut T {
        &mut self.0[p.index()]
    }
}

/// A user intent or a message from the worker.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Quit,
    /// `Ctrl-z`: give the terminal back and stop (the event loop raises SIGTSTP; `fg` resumes).
    Suspend,
    /// `q`: close the overlay if one is open, else quit.
    CloseOrQuit,
    /// `Esc`: close the overlay; never quits.
    CloseOverlay,
    ToggleHelp,
    FocusNext,
    FocusPrev,
    Focus(Pane),
    Up,
    Down,
    Top,
    Bottom,
    /// Move the selected slider by this many fine (`h`/`l`) steps.
    Fine(i32),
    /// Move the selected slider by this many coarse (`H`/`L`) steps.
    Coarse(i32),
    /// Select the previous / next slider (`[`/`]`).
    SelectSlider(i32),
    ResetSlider,
    ResetAll,
    Rerun,
    NewSeed,
    Freeze,
    Next,
    Prev,
    /// `Enter` in the data pane: open the selected file or preset.
    Activate,
    /// `space` in the data pane: cycle the selected column's role.
    CycleRole,
    /// `+`/`-` in the data pane: change the selected judge's family.
    Family(i32),
    /// `F` in the data pane: type the selected judge's family by name.
    TypeFamily,
    /// `c` in the data pane: score the selected column as ordinal or continuous.
    ToggleScale,
    /// `t` in the data pane: trust the selected anchor as clean (again: trust none).
    TrustAnchor,
    /// A mouse click on a pane; `item` is the slider or data-pane entry drawn under the
    /// pointer, if any (the event loop finds both from the layout the view draws).
    Click {
        pane: Pane,
        item: Option<usize>,
    },
    /// The mouse wheel over a pane (`up` = away from the user).
    Wheel {
        pane: Pane,
        up: bool,
    },
    /// `o`: open the open-path prompt.
    OpenPrompt,
    /// An edit of the open-path prompt (the event loop routes keys here while it is open).
    Prompt(PromptEdit),
    /// `v`: toggle the presentation layout.
    TogglePresent,
    /// `Enter` in the battery pane: the whole verdict of every test, its meaning and what to do.
    ToggleDetail,
    /// `w` / `W`: write the view's figure (or the bootstrap distributions) as SVG.
    WriteFigure(Want),
    /// `V`: validate on the loaded file's textures; again: cancel it, or show / hide its table.
    Validate,
    /// The event loop wrote the figure (its file name), or could not.
    FigureWritten(Result<PathBuf, String>),
    Worker(WorkerMsg),
    /// A key that acts only in another pane (`keys` as help shows them): the status says where.
    Elsewhere {
        keys: &'static str,
        pane: Pane,
    },
    /// A printable key bound nowhere: the status says so, so no earlier key's message stays
    /// as if this one had said it.
    Unbound(char),
}

/// Which figure a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// The figure of the focused pane: the battery's in the battery pane, else ρ̂ with CIs.
    View,
    /// The bootstrap distribution of each ρ̂_k.
    Bootstrap,
}

/// An edit of a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptEdit {
    Insert(char),
    Backspace,
    /// `Ctrl-U`: the whole line.
    ClearLine,
    /// `Ctrl-W`: back to the previous `/` or space.
    DeleteWord,
    /// `Tab`: the completed text, and the names it could still become when more than one
    /// (computed by the event loop, which may read folders).
    Completed {
        text: String,
        choices: Vec<String>,
    },
    Submit,
    Cancel,
}

/// Results coming back from the background worker, tagged with what they answer.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerMsg {
    Battery {
        generation: u64,
        report: Box<BatteryReport>,
    },
    Power {
        request: Box<StudyRequest>,
        summary: Box<PowerSummary>,
    },
    Loaded {
        generation: u64,
        result: Result<LoadedFile, LoadFailure>,
    },
    /// The planner's answer for a configuration (or why it has none).
    Planned {
        design: Box<crate::model::Params>,
        plan: Result<Box<crate::plan::Plan>, String>,
    },
    /// A validation study took its `done`-th replicate of `total`.
    Validating {
        generation: u64,
        done: u64,
        total: u64,
    },
    /// A validation study of a loaded file finished (or could not run: a one-line reason).
    Validated {
        generation: u64,
        result: Result<Box<crate::validate::Study>, String>,
    },
    /// The worker thread panicked: fatal.
    Crashed,
}

/// A loaded panel file with every header name, so roles can be edited.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedFile {
    pub path: PathBuf,
    pub header: Vec<String>,
    pub panel: Arc<Panel>,
    /// `judge,family` pairs from a `families.csv` beside the file, if any.
    pub family_file: Vec<(String, String)>,
    /// The loader's one-line notes (sanitised, without the file name): items dropped for
    /// missing values, a families sidecar adopted, identical judge columns.
    pub notes: Vec<String>,
    /// The family of ρ the panel allows (where ρ is not point-identified), traced in the
    /// worker with the load, so no key waits for it.
    pub family: Option<Arc<crate::tui::trust::Traced>>,
}

/// A file that did not load as a panel: the loader's message, and its header when it could
/// be read (so the user can assign the roles the loader could not guess).
#[derive(Debug, Clone, PartialEq)]
pub struct LoadFailure {
    pub message: String,
    pub header: Vec<String>,
    pub family_file: Vec<(String, String)>,
    /// Whether choosing other columns can cure it: a header of at least 3 columns was read
    /// and the error is about which columns are judges and anchors, or about a cell of one of
    /// them (not a missing file, a folder, or a row that is not a table row).
    pub fixable_by_roles: bool,
    /// The column the error is about, when it names one (a cell that is not a number).
    pub column: Option<String>,
}

/// A battery run for one generation of the data.
#[derive(Debug, Clone)]
pub struct BatteryJob {
    pub generation: u64,
    pub panel: Arc<Panel>,
    pub null: NullSpec,
    pub seed: u64,
    /// The anchor trusted as clean (`t`), by index among the panel's anchors.
    pub designated: Option<usize>,
}

/// Operating characteristics for one configuration.
#[derive(Debug, Clone)]
pub struct PowerJob {
    pub request: StudyRequest,
}

/// The sample-size planner's answer for one configuration ([`crate::plan`]).
#[derive(Debug, Clone)]
pub struct PlanJob {
    /// The design on screen, violations and all: what `rhoscope plan` reads for it.
    pub design: crate::model::Params,
}

/// A validation study (`rhoscope validate`) of a loaded panel's textures.
#[derive(Debug, Clone)]
pub struct ValidateJob {
    pub generation: u64,
    pub panel: Arc<Panel>,
    pub options: crate::validate::Options,
}

/// Load (or reload with edited roles) a panel file.
#[derive(Debug, Clone)]
pub struct LoadJob {
    pub generation: u64,
    pub path: PathBuf,
    pub options: crate::data::PanelRequest,
}

/// What `App::update` asks the loop to do.
#[derive(Debug, Clone)]
pub enum Effect {
    Quit,
    Battery(BatteryJob),
    Power(PowerJob),
    /// The planner's N for the configuration on screen (lowest priority).
    Plan(PlanJob),
    Load(LoadJob),
    /// Run a validation study (`rhoscope validate`) of the loaded file in the background.
    Validate(ValidateJob),
    /// Stop the validation study under way.
    CancelValidate,
    /// Write this figure into the working directory under a new `STEM[-K].svg`.
    Figure {
        figure: Box<crate::plot::Figure>,
        stem: String,
    },
}
