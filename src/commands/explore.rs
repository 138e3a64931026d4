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

#[cfg(feature = "tui")]
pub(super) fn demo(
    hanna: Option<std::path::PathBuf>,
    mouse: bool,
    scene: usize,
) -> Result<(), Error> {
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
