//! Trial 45's explorer findings: an estimates pane that says no ρ̂ reads, a status line
//! that keeps its point, keys that always answer.

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
        assert!(
            rows.contains("no ρ̂ to read: weak-ID fires; A2 has no CI"),
            "{w}x{h}: {rows}"
        );
    }
}

/// Findings 18 and 25: a trust message too long for the rows under the status line takes
/// the status line's row too, so its last word is on screen at 80×24 and 100×30, and the
/// layout gives it no more rows than before (three).
#[test]
fn a_long_trust_message_keeps_its_point_in_three_rows() {
    let mut llm = llm_assigned();
    llm.cursor = llm.entries.len() + 7; // human1
    act(&mut llm, Action::TrustAnchor);
    // Two ordinal anchors: the reason is the longest of them.
    let mut two = started(Start::File(
        PathBuf::from("tests/fixtures/likert_anchors.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    act(&mut two, Action::Focus(Pane::Data));
    two.cursor = two.entries.len() + 7; // A3: anchor → —
    act(&mut two, Action::CycleRole);
    two.cursor = two.entries.len() + 5; // A1
    act(&mut two, Action::TrustAnchor);
    assert!(two.status.contains("no ρ̂ can be read"), "{}", two.status);
    for app in [&llm, &two] {
        let last = app.status.split_whitespace().last().unwrap().to_string();
        for (w, h) in [(80, 24), (100, 30)] {
            let a = ui::areas(app, ratatui::layout::Rect::new(0, 0, w, h));
            assert!(a.status.height <= 3, "{w}x{h}: {}", a.status.height);
            let rows = rows_of(&screen(app, w, h), a.status).join(" ");
            assert!(
                rows.contains(&last),
                "{w}x{h}: {last} not in {rows}\n{}",
                app.status
            );
        }
    }
}

/// A message longer than three rows ends with where to read it whole, and `?` shows it.
#[test]
fn a_message_past_three_rows_says_where_it_is_whole() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Data));
    let words: Vec<String> = (0..80).map(|i| format!("word{i}")).collect();
    app.status = words.join(" ");
    let a = ui::areas(&app, ratatui::layout::Rect::new(0, 0, 80, 24));
    let rows = rows_of(&screen(&app, 80, 24), a.status);
    assert_eq!(rows.len(), 3);
    assert!(rows[2].contains("? shows it whole"), "{rows:?}");
    act(&mut app, Action::ToggleHelp);
    let text = rows_of(
        &screen(&app, 200, 60),
        ratatui::layout::Rect::new(0, 0, 200, 60),
    )
    .join(" ");
    assert!(text.contains("word79"), "{text}");
}

/// Finding 4: trusting human1 on hanna-llm, the estimates pane names Test J as well as the
/// flags, as the core's reading gives both.
#[test]
fn a_trusted_fit_names_test_j_beside_its_flags() {
    let mut app = llm_assigned();
    app.cursor = app.entries.len() + 7;
    act(&mut app, Action::TrustAnchor);
    let rows = pane_rows(&app, Pane::Estimates, 120, 40).join(" ");
    assert!(rows.contains("latent misfit"), "{rows}");
    assert!(rows.contains("Test J fires"), "{rows}");
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

/// Finding 20: `+` on a judge says which family it is now in, never a note count.
#[test]
fn the_family_key_says_which_family() {
    let mut app = llm_assigned();
    app.cursor = app.entries.len() + 6; // chatgpt
    for _ in 0..5 {
        act(&mut app, Action::Family(1));
        assert!(app.status.contains("'chatgpt' in "), "{}", app.status);
        assert!(!app.status.starts_with("1 note"), "{}", app.status);
    }
}

/// Finding 15: a file typed by its absolute path takes the row of its relative spelling.
#[test]
fn a_file_typed_whole_is_listed_once() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Data));
    let abs = std::fs::canonicalize("assets/mid.csv").unwrap();
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, &abs.display().to_string());
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    let mids = app
        .entries
        .iter()
        .filter(|e| format!("{e:?}").contains("mid.csv"))
        .count();
    assert_eq!(mids, 1, "{:?}", app.entries);
}
