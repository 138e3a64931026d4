//! The explorer's figure key (`w`, and `W` for the bootstrap distributions): the view on screen
//! as a [`crate::plot`] figure, written by the event loop (the app stays free of I/O) into the
//! working directory under a name that never replaces a file.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::action::Pane;
use crate::plot::{self, Figure};

pub use super::action::Want;

/// Where the panel on screen comes from, as a figure's title names it.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A simulated scenario: its seed and true ρ.
    Scenario { seed: u64, truth: Vec<f64> },
    /// A panel file.
    File(PathBuf),
}

/// What a figure of the view needs from the explorer's state.
#[derive(Debug, Clone)]
pub struct View<'a> {
    /// The battery of the data on screen (none while it runs).
    pub report: Option<&'a crate::battery::BatteryReport>,
    pub panel: Option<&'a crate::panel::Panel>,
    pub source: Source,
    pub focus: Pane,
}

/// The figure of the view on screen and the stem of its file name (`rhoscope-rho`), or why
/// there is none yet.
///
/// # Errors
/// No battery result yet (it is still running, or ρ is not identified on this panel).
pub fn of_view(view: &View<'_>, want: Want) -> Result<(Figure, String), String> {
    let report = view
        .report
        .ok_or("no figure yet: the battery is still running (try again when its verdicts show)")?;
    let panel = view.panel.ok_or("no panel loaded")?;
    let (source, truth) = match &view.source {
        Source::Scenario { seed, truth } => (
            format!("explorer scenario, N = {}, seed {seed}", panel.n),
            Some(truth.clone()),
        ),
        Source::File(path) => {
            // A piped panel is "standard input", as the status line and data pane say.
            let name = path
                .file_name()
                .filter(|_| path.as_os_str() != "-")
                .map_or_else(
                    || crate::wording::source_name(path),
                    |n| n.to_string_lossy().into_owned(),
                );
            (crate::error::sanitize(&name), None)
        }
    };
    let (figure, kind) = match (want, view.focus) {
        (Want::Bootstrap, _) => (
            Figure::Bootstrap(plot::rho_figure(
                &format!("Bootstrap distribution of ρ̂: {source}"),
                &panel.anchors,
                report,
                truth,
            )),
            "bootstrap",
        ),
        (Want::View, Pane::Battery) => (
            Figure::Battery(plot::battery_figure(
                &format!("Diagnostic battery: {source}"),
                report,
            )),
            "battery",
        ),
        (Want::View, _) => (
            Figure::Rho(plot::rho_figure(
                &format!("Contamination ρ̂ per anchor: {source}"),
                &panel.anchors,
                report,
                truth,
            )),
            "rho",
        ),
    };
    Ok((figure, format!("rhoscope-{kind}")))
}

/// Renders `figure` and writes it into `dir` as `STEM.svg`, or `STEM-2.svg`, `STEM-3.svg`, …
/// if taken: first into a temporary file, then hard-linked under the name, which fails rather
/// than replace a file that appeared meanwhile. Returns the name written.
///
/// # Errors
/// The figure has nothing to draw, or the folder cannot be written.
pub fn write_new(dir: &Path, stem: &str, figure: &Figure) -> Result<PathBuf, String> {
    let svg = figure.svg()?;
    let tmp = dir.join(format!(".{stem}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(svg.as_bytes()));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write in {}: {e}", dir.display()));
    }
    let mut result = Err("no free file name".to_string());
    for k in 1..1000 {
        let name = if k == 1 {
            format!("{stem}.svg")
        } else {
            format!("{stem}-{k}.svg")
        };
        let path = dir.join(&name);
        match std::fs::hard_link(&tmp, &path) {
            Ok(()) => {
                result = Ok(PathBuf::from(name));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                result = Err(format!("cannot write {}: {e}", path.display()));
                break;
            }
        }
    }
    let _ = std::fs::remove_file(&tmp);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_never_replaces_a_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("rhoscope-rho.svg"), b"mine").unwrap();
        let fig = Figure::Rho(plot::RhoFigure {
            title: "t".into(),
            anchors: vec!["A1".into()],
            series: vec![plot::RhoSeries {
                label: "closed form".into(),
                rho: vec![Some(0.2)],
                interval: vec![None],
                draws: vec![vec![]],
                resamples: 0,
            }],
            truth: None,
        });
        let name = write_new(dir.path(), "rhoscope-rho", &fig).unwrap();
        assert_eq!(name, PathBuf::from("rhoscope-rho-2.svg"));
        assert_eq!(
            std::fs::read(dir.path().join("rhoscope-rho.svg")).unwrap(),
            b"mine"
        );
        let svg = std::fs::read_to_string(dir.path().join(&name)).unwrap();
        assert!(svg.starts_with("<svg"));
        // No temporary file is left behind.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2);
    }
}
