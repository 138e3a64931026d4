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
            let lines = if scene.setup == Setup::Hanna && app.hanna.is_none() {
                scenes::HANNA_MISSING
            } else {
                scene.caption
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
                lines.map(String::from),
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
