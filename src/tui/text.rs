//! Plain-text helpers below every view: they know nothing of panes, themes or state.

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

/// A library sentence as the explorer says it: the command line's ways out named by the keys
/// that do the same here (the data pane's Space and `c`).
#[must_use]
pub fn in_explorer(s: &str) -> String {
    const KEYS: [(&str, &str); 4] = [
        (
            "name the others with --anchors",
            "Space on it in the data pane makes it —",
        ),
        (
            "say so with --continuous NAME",
            "press c on it in the data pane",
        ),
        ("mark it --continuous", "press c on it in the data pane"),
        (
            "leave it out of the anchors",
            "leave it out of the anchors (Space in the data pane)",
        ),
    ];
    KEYS.iter()
        .fold(s.to_string(), |acc, (cli, keys)| acc.replace(cli, keys))
}

#[cfg(test)]
mod tests {
    #[test]
    fn command_line_ways_out_become_keys() {
        let s = super::in_explorer(
            "Leave the ordinal anchor out (name the others with --anchors), or mark it --continuous if its codes are interval-scaled.",
        );
        assert!(!s.contains("--"), "{s}");
        assert!(s.contains("press c on it in the data pane"), "{s}");
    }
}
