//! The caption under the panes: the current talk scene's two lines, or what the current
//! walkthrough step means for this panel. Part of the view: formatted from the state, never
//! stored in it.

use super::app::{App, Mode, Step};
use super::scenes::{self, Setup};
use super::walkthrough;

/// The caption's title and two lines, when a talk or a walkthrough is on.
#[must_use]
pub fn of(app: &App) -> Option<(String, [String; 2])> {
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
