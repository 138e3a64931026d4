//! The caption under the panes: the current talk scene's two lines, or what the current
//! walkthrough step means for this panel. Part of the view: formatted from the state, never
//! stored in it.

use super::app::{App, Mode, Step};
use super::scenes::{self, Setup};
use super::walkthrough;

/// The caption's title and text, when a talk or a walkthrough is on: the two lines of a
/// scene or step run on as one paragraph, so that wrapping leaves no short line between them.
#[must_use]
pub fn of(app: &App) -> Option<(String, [String; 2])> {
    let (title, [a, b]) = lines(app)?;
    let text = match (a.is_empty(), b.is_empty()) {
        (_, true) => a,
        (true, false) => b,
        (false, false) => format!("{a} {b}"),
    };
    Some((title, [text, String::new()]))
}

/// The title and the two lines of the current scene or step.
fn lines(app: &App) -> Option<(String, [String; 2])> {
    match app.mode {
        Mode::Explore => None,
        Mode::Demo(i) => {
            let scene = &app.scenes[i];
            let failed = app.load_error.as_deref().filter(|_| app.panel.is_none());
            let lines = if scene.setup == Setup::Hanna && app.hanna.is_none() {
                scenes::HANNA_MISSING.map(String::from)
            } else if let Some(path) = app
                .hanna
                .as_ref()
                .filter(|_| failed.is_some() && scene.setup == Setup::Hanna)
            {
                // The file given is not the HANNA panel: its numbers are nowhere on screen.
                let name = path.file_name().map_or_else(String::new, |n| {
                    crate::error::sanitize(&n.to_string_lossy())
                });
                [
                    format!(
                        "The file given for the HANNA panel, {name}, is not it: it does not read as the panel of HANNA's three raters."
                    ),
                    format!(
                        "The talk needs {} (from dig-team/hanna-benchmark-asg). Scene skipped.",
                        scenes::HANNA_FILE
                    ),
                ]
            } else {
                scene.caption.map(String::from)
            };
            let modified = if app.modified {
                " (modified · n/p to restore)"
            } else {
                ""
            };
            Some((
                format!(
                    "Talk {}/{}: {}{modified}",
                    i + 1,
                    app.scenes.len(),
                    scene.title
                ),
                lines,
            ))
        }
        Mode::Walkthrough(i) => {
            let steps = Step::all();
            let step = steps[i.min(steps.len() - 1)];
            Some((
                format!("Walkthrough {}/{}: {}", i + 1, steps.len(), step.name()),
                walkthrough::explain(app, step),
            ))
        }
    }
}
