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
        Some(p) => Start::File(p.to_path_buf(), opts.request(0)?),
        None => Start::Default,
    };
    crate::tui::run(crate::tui::Options {
        start,
        mouse,
        hanna,
    })
}

/// A `--hanna PATH` that names neither the HANNA file nor a folder holding it: refused
/// before the talk starts, rather than scene 9 telling the user to pass `--hanna PATH`.
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
