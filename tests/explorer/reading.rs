//! The explorer words the core's reading: no step contradicts a pane, Ctrl-r keeps a file,
//! and keys that cannot act say why.

use super::*;
use rhoscope::battery::reading::WeakIdVerdict;
use rhoscope::tui::app::{Mode, Step};

/// Every walkthrough caption of `app`, title and text.
fn walk(app: &App) -> Vec<(String, String)> {
    let mut app = app.clone();
    act(&mut app, Action::Next);
    let mut out = Vec::new();
    for _ in 0..Step::all().len() {
        let (title, lines) = caption::of(&app).unwrap();
        out.push((title, lines.join(" ")));
        act(&mut app, Action::Next);
    }
    out
}

#[test]
fn no_walkthrough_step_contradicts_the_battery_pane() {
    let app = llm_assigned();
    let r = app.battery.as_deref().unwrap();
    // The weak-ID screen gives no verdict on this out-of-range fit: no step may call it an alarm.
    assert!(matches!(
        r.reading.evidence.weak_id,
        WeakIdVerdict::OutOfRange { .. }
    ));
    let battery = pane_rows(&app, Pane::Battery, 80, 24).join("\n");
    assert!(battery.contains("weak-ID N/A"), "{battery}");
    let steps = walk(&app);
    for (title, text) in &steps {
        assert!(!text.contains("weak-ID screen raised"), "{title}: {text}");
        assert!(!text.contains("does not fit this panel"), "{title}: {text}");
        assert!(
            !text.contains("llama2_13b_chat, the judge"),
            "{title}: {text}"
        );
    }
    let (_, weak) = &steps[2];
    assert!(weak.starts_with("No weak-ID verdict"), "{weak}");
    // Every anchor is ordinal: leaving the ordinal one out is advice the panel cannot take.
    let (_, last) = steps.last().unwrap();
    assert!(last.contains("Test A and Test J fire"), "{last}");
    assert!(!last.contains("Leave the ordinal anchor out"), "{last}");
}

#[test]
fn ctrl_r_on_a_file_keeps_the_file_and_its_roles() {
    let mut app = llm_assigned();
    let roles = file_state(&app).roles.clone();
    act(&mut app, Action::ResetAll);
    assert!(matches!(app.source, Source::File(_)));
    assert_eq!(file_state(&app).roles, roles);
    assert!(
        app.status.contains("this file and its roles stay"),
        "{}",
        app.status
    );
    let help = rhoscope::tui::keymap::help_lines();
    assert!(
        help.iter()
            .any(|(k, h)| k == "Ctrl-r" && h.contains("a file stays")),
        "{help:?}"
    );
}

#[test]
fn slider_keys_on_a_file_say_why_they_do_nothing() {
    let mut app = llm_assigned();
    for a in [
        Action::ResetSlider,
        Action::SelectSlider(1),
        Action::SelectSlider(-1),
    ] {
        act(&mut app, a.clone());
        assert!(
            app.status.contains("sliders drive simulated"),
            "{a:?}: {}",
            app.status
        );
    }
    app.focus = Pane::Battery;
    let space = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char(' '),
        crossterm::event::KeyModifiers::NONE,
    );
    let a = rhoscope::tui::keymap::action_for(&space, Pane::Battery).unwrap();
    act(&mut app, a);
    assert!(
        app.status.contains("Space acts in the data pane"),
        "{}",
        app.status
    );
}

#[test]
fn sparklines_forget_the_role_states_passed_on_the_way() {
    let mut app = llm_assigned();
    // A judge set aside and back: two other role states on the way.
    let base = app.entries.len();
    app.cursor = base + 2;
    for _ in 0..3 {
        act(&mut app, Action::CycleRole);
    }
    let points = app
        .history
        .stats
        .values()
        .map(std::collections::VecDeque::len)
        .max()
        .unwrap();
    assert_eq!(points, 1, "{:?}", app.history.stats);
    assert!(
        app.history.rho.iter().all(|h| h.len() == 1),
        "{:?}",
        app.history.rho
    );
}

#[test]
fn esc_ends_a_frozen_talk_as_the_last_scene_says() {
    let mut app = started(Start::Demo);
    assert!(app.frozen);
    act(&mut app, Action::CloseOverlay);
    assert_eq!(app.mode, Mode::Explore);
    assert!(!app.frozen);
    assert!(!app.status.contains("frozen"), "{}", app.status);
}

#[test]
fn a_scene_without_its_panel_points_at_no_data_pane() {
    let (mut app, effects) = App::new(Settings {
        hanna: None,
        ..settings(Start::Demo)
    });
    settle(&mut app, effects);
    let last = app.scenes.len() - 1;
    let effects = app.show_scene(last);
    settle(&mut app, effects);
    assert!(app.panel.is_none());
    let text = rows_of(
        &screen(&app, 80, 24),
        ratatui::layout::Rect::new(0, 0, 80, 24),
    )
    .join("\n");
    assert!(!text.contains("in the data pane"), "{text}");
    assert!(!text.contains("simulated · N"), "{text}");
}

#[test]
fn the_full_view_prints_p_values_as_the_pane_does() {
    let mut app = llm_assigned();
    act(&mut app, Action::Focus(Pane::Battery));
    act(&mut app, Action::ToggleDetail);
    let lines = rhoscope::tui::panes::detail::lines(&app, ratatui_theme(), 200);
    let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
    let text = text.join("\n");
    assert!(text.contains("p 0.001"), "{text}");
    assert!(!text.contains("p 0.0010"), "{text}");
}

fn ratatui_theme() -> rhoscope::tui::theme::Theme {
    rhoscope::tui::theme::Theme { color: false }
}
