//! Trial 45's explorer findings: an estimates pane that says no ρ̂ reads, keys that always
//! answer, a hidden slider that says where it moved, and a family `+` that says what it did.

use super::*;

/// Finding 21: the boundary preset's raw fit is drawn, but the pane words the reading's
/// answer (no ρ̂ to read, and why) right under its rows.
#[test]
fn the_boundary_presets_estimates_say_no_rho_reads() {
    let app = super::trial33::preset("boundary");
    let r = app.battery.as_ref().unwrap();
    assert!(r.reading.answer.read.is_none(), "{:?}", r.reading.answer);
    for (w, h) in SIZES {
        let rows = pane_rows(&app, Pane::Estimates, w, h).join(" ");
        assert!(rows.contains("No ρ̂ to read"), "{w}x{h}: {rows}");
    }
}

/// Finding 17: a key bound nowhere replaces the last key's message rather than inherit it.
#[test]
fn an_unbound_key_says_so_on_the_status_line() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Data));
    let key = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('x'),
        crossterm::event::KeyModifiers::NONE,
    );
    let action = rhoscope::tui::keymap::action_for(&key, Pane::Data).expect("an action");
    app.status = "an earlier key's message".into();
    act(&mut app, action);
    assert!(
        app.status.starts_with("x does nothing here"),
        "{}",
        app.status
    );
}

/// Finding 19: in the presentation layout the trusted anchor's hidden slider says where it
/// moved.
#[test]
fn the_hidden_assumed_rho_slider_names_its_move() {
    let mut app = super::trust::likert_trusted(0);
    act(&mut app, Action::Focus(Pane::Sliders));
    act(&mut app, Action::TogglePresent);
    assert!(app.present);
    act(&mut app, Action::Coarse(1));
    assert!(
        app.status.contains("assumed ρ of A1 = 0.10") && app.status.contains("v shows"),
        "{}",
        app.status
    );
}
