//! The one key table: it drives dispatch, the `?` help overlay and the key table of docs/explorer.md.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::Want;
use super::action::{Action, Pane};

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Everywhere (unless an overlay takes the key).
    Global,
    /// Only with this pane focused.
    Pane(Pane),
}

/// One key binding.
#[derive(Debug, Clone)]
pub struct Binding {
    /// The keys as shown in help.
    pub keys: &'static str,
    pub codes: &'static [KeyCode],
    pub ctrl: bool,
    pub context: Context,
    pub action: Action,
    pub help: &'static str,
}

const fn bind(
    keys: &'static str,
    codes: &'static [KeyCode],
    context: Context,
    action: Action,
    help: &'static str,
) -> Binding {
    Binding {
        keys,
        codes,
        ctrl: false,
        context,
        action,
        help,
    }
}

use Context::Global;
use KeyCode::{BackTab, Char, Down, End, Enter, Esc, Home, Left, Right, Tab, Up};

/// Every binding, in the order help shows them.
pub static KEYMAP: &[Binding] = &[
    bind(
        "q",
        &[Char('q')],
        Global,
        Action::CloseOrQuit,
        "close the overlay, else quit (asks when frozen)",
    ),
    Binding {
        keys: "Ctrl-c",
        codes: &[Char('c')],
        ctrl: true,
        context: Global,
        action: Action::Quit,
        help: "quit from anywhere",
    },
    Binding {
        keys: "Ctrl-z",
        codes: &[Char('z')],
        ctrl: true,
        context: Global,
        action: Action::Suspend,
        help: "suspend to the shell (fg resumes)",
    },
    bind(
        "Esc",
        &[Esc],
        Global,
        Action::CloseOverlay,
        "close the overlay, else leave talk/walkthrough",
    ),
    bind("?", &[Char('?')], Global, Action::ToggleHelp, "this help"),
    bind("Tab", &[Tab], Global, Action::FocusNext, "next pane"),
    bind(
        "Shift-Tab",
        &[BackTab],
        Global,
        Action::FocusPrev,
        "previous pane",
    ),
    bind(
        "1",
        &[Char('1')],
        Global,
        Action::Focus(Pane::Data),
        "focus the data pane",
    ),
    bind(
        "2",
        &[Char('2')],
        Global,
        Action::Focus(Pane::Sliders),
        "focus the sliders",
    ),
    bind(
        "3",
        &[Char('3')],
        Global,
        Action::Focus(Pane::Estimates),
        "focus the estimates",
    ),
    bind(
        "4",
        &[Char('4')],
        Global,
        Action::Focus(Pane::Battery),
        "focus the battery",
    ),
    bind(
        "5",
        &[Char('5')],
        Global,
        Action::Focus(Pane::Config),
        "focus the configuration",
    ),
    bind(
        "j / ↓",
        &[Char('j'), Down],
        Global,
        Action::Down,
        "selection down / scroll the pane",
    ),
    bind(
        "k / ↑",
        &[Char('k'), Up],
        Global,
        Action::Up,
        "selection up / scroll the pane",
    ),
    bind(
        "g / Home",
        &[Char('g'), Home],
        Global,
        Action::Top,
        "first item (data pane: first column, again: top)",
    ),
    bind(
        "G / End",
        &[Char('G'), End],
        Global,
        Action::Bottom,
        "last item",
    ),
    bind(
        "h / ←",
        &[Char('h'), Left],
        Global,
        Action::Fine(-1),
        "selected slider down (fine)",
    ),
    bind(
        "l / →",
        &[Char('l'), Right],
        Global,
        Action::Fine(1),
        "selected slider up (fine)",
    ),
    bind(
        "H",
        &[Char('H')],
        Global,
        Action::Coarse(-1),
        "selected slider down (coarse)",
    ),
    bind(
        "L",
        &[Char('L')],
        Global,
        Action::Coarse(1),
        "selected slider up (coarse)",
    ),
    bind(
        "[",
        &[Char('[')],
        Global,
        Action::SelectSlider(-1),
        "previous slider",
    ),
    bind(
        "]",
        &[Char(']')],
        Global,
        Action::SelectSlider(1),
        "next slider",
    ),
    bind(
        "0",
        &[Char('0')],
        Global,
        Action::ResetSlider,
        "reset the selected slider",
    ),
    bind(
        "r",
        &[Char('r')],
        Global,
        Action::Rerun,
        "rerun the battery now",
    ),
    bind(
        "s",
        &[Char('s')],
        Global,
        Action::NewSeed,
        "new simulated panel (new seed)",
    ),
    bind(
        "f",
        &[Char('f')],
        Global,
        Action::Freeze,
        "freeze / unfreeze (frozen: only f, q, Ctrl-c, talk n/p, Esc, j/k)",
    ),
    Binding {
        keys: "Ctrl-r",
        codes: &[Char('r')],
        ctrl: true,
        context: Global,
        action: Action::ResetAll,
        help: "reset every slider and the seed (a file stays as it is)",
    },
    bind(
        "n",
        &[Char('n')],
        Global,
        Action::Next,
        "next scene/step; starts talk or walkthrough",
    ),
    bind(
        "p",
        &[Char('p')],
        Global,
        Action::Prev,
        "previous scene / step",
    ),
    bind(
        "Enter",
        &[Enter],
        Context::Pane(Pane::Data),
        Action::Activate,
        "open the selected file or preset",
    ),
    bind(
        "Enter",
        &[Enter],
        Context::Pane(Pane::Battery),
        Action::ToggleDetail,
        "every verdict whole: meaning, what to do",
    ),
    bind(
        "o",
        &[Char('o')],
        Global,
        Action::OpenPrompt,
        "open a file by path (Tab completes)",
    ),
    bind(
        "v",
        &[Char('v')],
        Global,
        Action::TogglePresent,
        "presentation layout on / off",
    ),
    bind(
        "w",
        &[Char('w')],
        Global,
        Action::WriteFigure(Want::View),
        "write this view's figure (SVG, working dir)",
    ),
    bind(
        "W",
        &[Char('W')],
        Global,
        Action::WriteFigure(Want::Bootstrap),
        "write the bootstrap distributions (SVG)",
    ),
    bind(
        "V",
        &[Char('V')],
        Global,
        Action::Validate,
        "validate on the file's textures; again: cancel/hide",
    ),
    bind(
        "Space",
        &[Char(' ')],
        Context::Pane(Pane::Data),
        Action::CycleRole,
        "column role: judge, anchor, —",
    ),
    bind(
        "+ / -",
        &[Char('+'), Char('-')],
        Context::Pane(Pane::Data),
        Action::Family(1),
        "change the judge's family",
    ),
    bind(
        "F",
        &[Char('F')],
        Context::Pane(Pane::Data),
        Action::TypeFamily,
        "type the judge's family by name",
    ),
    bind(
        "c",
        &[Char('c')],
        Context::Pane(Pane::Data),
        Action::ToggleScale,
        "column scale: ordinal ↔ continuous",
    ),
    bind(
        "t",
        &[Char('t')],
        Context::Pane(Pane::Data),
        Action::TrustAnchor,
        "trust this anchor as clean (untestable); again: none",
    ),
];

/// The action of a key press, given the focused pane. Key releases and repeats of
/// non-repeatable keys are ignored by the caller.
#[must_use]
pub fn action_for(key: &KeyEvent, focus: Pane) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let matches = |b: &&Binding| b.ctrl == ctrl && b.codes.contains(&key.code);
    let Some(pane_first) = KEYMAP
        .iter()
        .filter(|b| b.context == Context::Pane(focus))
        .find(matches)
        .or_else(|| KEYMAP.iter().filter(|b| b.context == Global).find(matches))
    else {
        // A key of another pane: say where it acts rather than nothing.
        return match KEYMAP.iter().find(matches).map(|b| b.context) {
            Some(Context::Pane(pane)) => {
                let b = KEYMAP.iter().find(matches)?;
                Some(Action::Elsewhere { keys: b.keys, pane })
            }
            Some(Global) => None,
            None => match key.code {
                Char(c) if !ctrl && !c.is_control() => Some(Action::Unbound(c)),
                _ => None,
            },
        };
    };
    Some(match (&pane_first.action, key.code) {
        (Action::Family(_), Char('-')) => Action::Family(-1),
        (a, _) => a.clone(),
    })
}

/// The keys bound to `action`, as help shows them, from this one table: what any screen
/// names when it tells the user which key does something.
#[must_use]
pub fn keys(action: &Action) -> &'static str {
    KEYMAP
        .iter()
        .find(|b| b.action == *action)
        .map_or("?", |b| b.keys)
}

/// Every pane where the binding of `keys` acts (Enter acts in two), in the table's order:
/// a key pressed elsewhere names them all.
#[must_use]
pub fn panes_of(keys: &str) -> Vec<Pane> {
    KEYMAP
        .iter()
        .filter(|b| b.keys == keys)
        .filter_map(|b| match b.context {
            Context::Pane(p) => Some(p),
            Global => None,
        })
        .collect()
}

/// The help text: one line per binding, `keys — help`, with pane-only keys marked.
#[must_use]
pub fn help_lines() -> Vec<(String, String)> {
    KEYMAP
        .iter()
        .map(|b| {
            let help = match b.context {
                Global => b.help.to_string(),
                Context::Pane(p) => format!("{} (in {})", b.help, &p.title()[2..]),
            };
            (b.keys.to_string(), help)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn dispatch_prefers_pane_bindings_and_honours_ctrl() {
        assert_eq!(
            action_for(&key(Char('q'), KeyModifiers::NONE), Pane::Data),
            Some(Action::CloseOrQuit)
        );
        assert_eq!(
            action_for(&key(Char('c'), KeyModifiers::CONTROL), Pane::Data),
            Some(Action::Quit)
        );
        assert_eq!(
            action_for(&key(Char('c'), KeyModifiers::NONE), Pane::Sliders),
            Some(Action::Elsewhere {
                keys: "c",
                pane: Pane::Data
            })
        );
        assert_eq!(
            action_for(&key(Char('x'), KeyModifiers::NONE), Pane::Sliders),
            Some(Action::Unbound('x'))
        );
        assert_eq!(
            action_for(&key(Char('c'), KeyModifiers::NONE), Pane::Data),
            Some(Action::ToggleScale)
        );
        assert_eq!(
            action_for(&key(Char('r'), KeyModifiers::CONTROL), Pane::Data),
            Some(Action::ResetAll)
        );
        assert_eq!(
            action_for(&key(Enter, KeyModifiers::NONE), Pane::Data),
            Some(Action::Activate)
        );
        assert_eq!(
            action_for(&key(Enter, KeyModifiers::NONE), Pane::Sliders),
            Some(Action::Elsewhere {
                keys: "Enter",
                pane: Pane::Data
            })
        );
        assert_eq!(
            action_for(&key(Char('-'), KeyModifiers::NONE), Pane::Data),
            Some(Action::Family(-1))
        );
        assert_eq!(
            action_for(&key(Char('L'), KeyModifiers::SHIFT), Pane::Sliders),
            Some(Action::Coarse(1))
        );
    }

    #[test]
    fn keys_come_from_the_table() {
        assert_eq!(keys(&Action::CycleRole), "Space");
        assert_eq!(keys(&Action::ToggleScale), "c");
        assert_eq!(keys(&Action::Family(1)), "+ / -");
        assert_eq!(keys(&Action::ResetAll), "Ctrl-r");
    }

    #[test]
    fn esc_never_quits() {
        assert_eq!(
            action_for(&key(Esc, KeyModifiers::NONE), Pane::Data),
            Some(Action::CloseOverlay)
        );
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for (i, a) in KEYMAP.iter().enumerate() {
            for b in &KEYMAP[i + 1..] {
                let clash = a.context == b.context
                    && a.ctrl == b.ctrl
                    && a.codes.iter().any(|c| b.codes.contains(c));
                assert!(!clash, "{} and {} clash", a.keys, b.keys);
            }
        }
    }
}
