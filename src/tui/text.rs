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
