//! Plain-text helpers below every view: they know nothing of panes, themes or state; and
//! the explorer's wording of settings, from its key table.

use std::borrow::Cow;

use super::action::Action;
use super::keymap::KEYMAP;
use crate::wording::{Setting, Wording};

/// The parts of `hints` (split at " · ") that fit `room` whole, in order, so that a key
/// hint is never cut in two; empty when none fits.
#[must_use]
pub fn whole_parts(hints: &str, room: usize) -> String {
    let mut shown = String::new();
    for part in hints.split(" · ") {
        let next = if shown.is_empty() {
            part.to_string()
        } else {
            format!("{shown} · {part}")
        };
        if next.chars().count() > room {
            break;
        }
        shown = next;
    }
    shown
}

/// The explorer's names for settings: the keys of its one key table that change them, so
/// a library sentence asks for what a key here does, never for a command-line flag.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keys;

impl Wording for Keys {
    fn setting(&self, setting: Setting) -> Cow<'static, str> {
        let data_pane = |action: Action, what: &str| {
            Cow::Owned(format!("{} on {what} in the data pane", key_of(&action)))
        };
        match setting {
            Setting::Judges | Setting::Anchors | Setting::SetAside | Setting::Id => {
                data_pane(Action::CycleRole, "a column")
            }
            Setting::Families => Cow::Owned(format!(
                "{} or {} on a judge in the data pane",
                key_of(&Action::Family(1)),
                key_of(&Action::TypeFamily)
            )),
            Setting::Continuous | Setting::Ordinal => data_pane(Action::ToggleScale, "the column"),
            // `c` reads codes as numbers but calibrates Test A as continuous scores, a null of
            // its own: the paper's convention (codes cut at their own thresholds) is not run
            // here, and the sentence says so rather than naming a flag.
            Setting::CodesAsNumbers => Cow::Borrowed(
                "c on each judge reads the codes as continuous scores here, with a null of its own; only the command line",
            ),
            Setting::FreeScale => Cow::Borrowed("the free-scale estimate on the estimates pane"),
            Setting::Long => Cow::Borrowed(
                "the long layout, opened with `rhoscope explore FILE --long ITEM,RATER,SCORE`",
            ),
            Setting::DesignatedClean => Cow::Borrowed(
                "a designated clean anchor, with `rhoscope estimate FILE --designated-clean NAME`",
            ),
            Setting::FailOnDiagnostic => Cow::Borrowed(
                "an exit code on alarms, with `rhoscope battery FILE --fail-on-diagnostic`",
            ),
            Setting::BiasCorrect => Cow::Borrowed(
                "the bias correction, with `rhoscope estimate FILE --method free-scale --bias-correct`",
            ),
            Setting::Target => Cow::Borrowed("the target, with `rhoscope plan --target TARGET`"),
            Setting::Inject => {
                Cow::Borrowed("the injected ρ, with `rhoscope validate FILE --inject RHO_LIST`")
            }
            Setting::Force => Cow::Borrowed("replacing the file, with `rhoscope … --force`"),
            Setting::Scenario => Cow::Borrowed("the scenario, chosen in the data pane"),
        }
    }
}

/// The keys of `action` as the key table shows them.
fn key_of(action: &Action) -> &'static str {
    KEYMAP
        .iter()
        .find(|b| b.action == *action)
        .map_or("?", |b| b.keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_named_by_the_key_table() {
        for s in Setting::ALL {
            let w = Keys.setting(s);
            assert!(!w.contains('?'), "{s:?}: {w}");
            // A flag only inside a whole command line offered to copy.
            if let Some(i) = w.find("--") {
                assert!(w[..i].contains("`rhoscope "), "{s:?}: {w}");
            }
        }
        assert_eq!(
            Keys.setting(Setting::Anchors),
            "Space on a column in the data pane"
        );
        assert_eq!(
            Keys.setting(Setting::Continuous),
            "c on the column in the data pane"
        );
    }
}
