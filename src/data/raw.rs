//! What a reader hands the loader — the raw columns of the selected raters, read by one of
//! two strategies — and what loading gives back; shared by every reader of `data/`.

use std::path::{Path, PathBuf};

use super::input::is_stdin;

use crate::location::Location;
use crate::panel::Panel;
use crate::wording::Said;

/// Fewest complete items a panel may have: two degrees of freedom for every covariance.
pub const MIN_ITEMS: usize = 3;

/// A loaded panel and where its families came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub panel: Panel,
    /// The sidecar or file families were read from, if any.
    pub families_source: Option<PathBuf>,
    /// The first dropped item's location, for a one-line note.
    pub first_dropped: Option<Location>,
    /// The note that items were dropped for missing values, naming where the first one is
    /// (its row and column; in the long layout its item and rater): every front end says it.
    pub drop_note: Option<Said>,
    /// Every column name of the file's header (sanitised), whatever its role; the long
    /// layout's header names its item, rater and score columns.
    pub header: Vec<String>,
    /// One-line notes for the user (sanitised, each naming the file): a families sidecar
    /// adopted without being asked for, judges with identical columns.
    pub notes: Vec<Said>,
    /// The delimiter the file was read with (sniffed from its header).
    pub delimiter: u8,
    /// The judge and anchor columns' names as written in the file, not sanitised (panel
    /// order), so a script can select them; the long layout's rater ids.
    pub raw_names: Vec<String>,
    /// The judge and anchor columns' places in the file's header (0-based, panel order), so a
    /// script selects them by place: a name as another reader reads it may differ (spaces
    /// around it, a second BOM); empty where the panel is not a wide file's.
    pub raw_places: Vec<usize>,
}

/// The families sidecar that `simulate` writes next to a panel: `x.csv` → `x.families.csv`.
#[must_use]
pub fn families_sidecar(panel_path: &Path) -> PathBuf {
    let stem = panel_path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    panel_path.with_file_name(format!("{stem}.families.csv"))
}

/// Which reader a wide file goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "Sequential is the reference in unit tests")
)]
pub(super) enum Strategy {
    /// The parallel byte parser when the file allows it, else the `csv` crate.
    Auto,
    /// Always the `csv` crate, row by row (the reference the fast path is tested against).
    Sequential,
}

/// Columns of selected raters before complete-case filtering (`NaN` = missing).
pub(super) struct Raw {
    pub(super) judges: Vec<String>,
    pub(super) anchors: Vec<String>,
    /// Column-major, `stride` rows per column (judges then anchors).
    pub(super) data: Vec<f64>,
    pub(super) stride: usize,
    /// File line of each row (wide: its row; long: the row where the item first appeared);
    /// 0 marks a blank line, which is no item. `lines.len() <= stride`.
    pub(super) lines: Vec<u64>,
    pub(super) judges_given: bool,
    pub(super) anchors_given: bool,
    /// Wide layout: the selected columns' names as written (judges then anchors).
    pub(super) written_names: Vec<String>,
    /// Wide layout: the selected columns' places in the header (judges then anchors).
    pub(super) written_places: Vec<usize>,
    /// Notes on how the columns were picked (a number read as a name, not a position).
    pub(super) notes: Vec<String>,
    /// Long layout: each item's id as written (sanitised), so a note names the item; empty
    /// in the wide layout, whose rows are the items.
    pub(super) item_ids: Vec<String>,
    /// Long layout: the rater column's name.
    pub(super) rater_column: Option<String>,
    /// How many columns could take a role (the header less the id column; unbounded in the
    /// long layout), so no advice asks for more than the file has.
    pub(super) width: usize,
}

/// Which families file a load adopts when none is given (docs/file-formats.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Beside {
    /// The panel's own sidecar, `x.families.csv` beside `x.csv` (what `simulate` writes): it
    /// must name only the panel's judges.
    Own,
    /// A `families.csv` in the panel's folder, shared by the folder's panels: the entries
    /// naming this panel's judges are adopted, the others belong to other panels.
    Folder,
}

/// The one rule for the families file beside a panel, for every front end: the panel's own
/// sidecar if there is one, else a folder-wide `families.csv` (never the panel itself).
#[must_use]
pub fn families_beside(panel_path: &Path) -> Option<(PathBuf, Beside)> {
    if is_stdin(panel_path) {
        return None;
    }
    let own = families_sidecar(panel_path);
    if own.is_file() {
        return Some((own, Beside::Own));
    }
    let folder = panel_path.with_file_name("families.csv");
    (folder.is_file() && folder != panel_path).then_some((folder, Beside::Folder))
}
