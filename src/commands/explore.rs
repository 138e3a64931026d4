//! `explore` and `demo`: the terminal explorer on a file, the default scene or a demo scene.

use crate::error::Error;

#[cfg(feature = "tui")]
pub(super) fn explore(
    panel: Option<&std::path::Path>,
    opts: &crate::cli::PanelOptions,
    mouse: bool,
    hanna: Option<std::path::PathBuf>,
) -> Result<(), Error> {
    use crate::tui::app::Start;
    check_hanna(hanna.as_deref())?;
    let start = match panel {
        Some(p) => {
            let request = opts.request(0)?;
            check_flags(p, &request)?;
            Start::File(p.to_path_buf(), request)
        }
        None => Start::Default,
    };
    crate::tui::run(crate::tui::Options {
        start,
        mouse,
        hanna,
        own_signals: super::output::explorer_owns_signals,
    })
}

/// `--judges`, `--anchors`, `--families` … that do not fit the file are refused before the
/// explorer starts, in the command line's one line (exit 2), as `--threads 99` is: inside, the
/// same message would name keys the user never pressed. A file that cannot be read is left
/// to the explorer, which says why in its data pane.
#[cfg(feature = "tui")]
fn check_flags(path: &std::path::Path, request: &crate::data::PanelRequest) -> Result<(), Error> {
    let given = request.judges.is_some()
        || request.anchors.is_some()
        || request.families.is_some()
        || !request.set_aside.is_empty()
        || request.id.is_some()
        || request.long.is_some();
    if !given || !path.is_file() {
        return Ok(());
    }
    // Roles typed on the command line are never thrown away inside: a load they break (a text
    // column made a judge) is refused here too, unless only a --families file is at fault,
    // which the explorer sets aside with a note.
    let typed = request.judges.is_some() || request.anchors.is_some();
    match crate::data::load(path, request) {
        Err(e @ crate::data::DataError::Usage(_)) => Err(Error::from(e)),
        Err(e @ crate::data::DataError::Data { .. }) if typed => {
            let without = crate::data::PanelRequest {
                families: None,
                ..request.clone()
            };
            match crate::data::load(path, &without) {
                Ok(_) => Ok(()),
                Err(_) => Err(Error::from(e)),
            }
        }
        _ => Ok(()),
    }
}

/// A `--hanna PATH` that names neither the HANNA file nor a folder holding it: refused
/// before the talk starts, rather than the HANNA scene telling the user to pass `--hanna PATH`.
#[cfg(feature = "tui")]
fn check_hanna(hanna: Option<&std::path::Path>) -> Result<(), Error> {
    use crate::tui::scenes::{HANNA_FILE, find_hanna};
    match hanna {
        Some(p) if find_hanna(Some(p)).is_none() => Err(Error::NoInput {
            path: p.to_path_buf(),
            reason: if p.is_dir() {
                format!("--hanna names a folder without {HANNA_FILE}")
            } else {
                format!("no such file (--hanna takes {HANNA_FILE} or the folder holding it)")
            },
        }),
        _ => Ok(()),
    }
}

#[cfg(feature = "tui")]
pub(super) fn demo(
    hanna: Option<std::path::PathBuf>,
    mouse: bool,
    scene: usize,
) -> Result<(), Error> {
    check_hanna(hanna.as_deref())?;
    crate::tui::run(crate::tui::Options {
        start: crate::tui::app::Start::Scene(scene),
        mouse,
        hanna,
        own_signals: super::output::explorer_owns_signals,
    })
}

#[cfg(not(feature = "tui"))]
pub(super) fn explore(
    _: Option<&std::path::Path>,
    _: &crate::cli::PanelOptions,
    _: bool,
    _: Option<std::path::PathBuf>,
) -> Result<(), Error> {
    Err(no_tui())
}

#[cfg(not(feature = "tui"))]
pub(super) fn demo(_: Option<std::path::PathBuf>, _: bool, _: usize) -> Result<(), Error> {
    Err(no_tui())
}

#[cfg(not(feature = "tui"))]
fn no_tui() -> Error {
    Error::Usage(
        "this rhoscope was built without the `tui` feature; run estimate, battery or power".into(),
    )
}
