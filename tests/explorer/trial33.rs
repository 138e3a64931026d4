//! A new user's trial of the explorer (issue 33): no key is silent, no screen is a dead end,
//! nothing a reader needs is cut.

use super::*;
use rhoscope::tui::sliders::Knob;

/// `assets/mid.csv` opened from the command line, cursor on its first column (J1).
fn mid_file() -> App {
    started(Start::File(
        PathBuf::from("assets/mid.csv"),
        rhoscope::data::PanelRequest::default(),
    ))
}

/// The data cursor on the column named `name`.
fn on_column(app: &mut App, name: &str) {
    let c = file_state(app)
        .header
        .iter()
        .position(|h| h == name)
        .expect("the column");
    app.cursor = app.entries.len() + c;
}

#[test]
fn p_judges_at_two_is_a_valid_design_with_a_panel_not_stuck_recomputing() {
    let mut app = started(Start::Default);
    app.selected = app
        .scenario
        .sliders
        .iter()
        .position(|s| s.knob == Knob::P)
        .unwrap();
    for _ in 0..12 {
        act(&mut app, Action::Fine(-1));
    }
    assert_eq!(app.scenario.get(Knob::P), 2.0);
    assert!(!app.status.contains("invalid design"), "{}", app.status);
    assert_eq!(app.panel.as_ref().unwrap().p(), 2);
    assert!(!app.computing(), "a battery for p = 2 came back");
    let t = screen(&app, 80, 24);
    let all = rows_of(&t, ratatui::layout::Rect::new(0, 0, 80, 24)).join("\n");
    assert!(!all.contains("recomputing"), "{all}");
}

#[test]
fn family_keys_on_an_anchor_or_a_judge_without_family_say_why() {
    let mut app = mid_file();
    on_column(&mut app, "A2");
    for d in [1, -1] {
        act(&mut app, Action::Family(d));
        assert!(
            app.status.contains("'A2' is not a judge"),
            "{d}: {}",
            app.status
        );
    }
    on_column(&mut app, "J2");
    act(&mut app, Action::Family(-1));
    assert!(app.status.contains("has no family"), "{}", app.status);
    act(&mut app, Action::Family(1));
    // A label no other judge has is named as a new family (trial 45, #20: "F1" from nowhere).
    assert!(
        app.status.contains("'J2' in a new family F1 of its own"),
        "{}",
        app.status
    );
    act(&mut app, Action::Family(-1));
    assert!(app.status.contains("'J2' in no family"), "{}", app.status);
}

#[test]
fn enter_on_a_column_row_says_what_enter_and_space_do() {
    let mut app = mid_file();
    on_column(&mut app, "A1");
    act(&mut app, Action::Activate);
    assert!(
        app.status.contains("Enter opens a file or preset")
            && app.status.contains("Space sets this column's role"),
        "{}",
        app.status
    );
}

#[test]
fn p_on_the_first_step_or_scene_says_it_is_the_first() {
    let mut app = mid_file();
    act(&mut app, Action::Next);
    act(&mut app, Action::Prev);
    assert!(app.status.contains("first step"), "{}", app.status);
    let mut talk = started(Start::Demo);
    act(&mut talk, Action::Prev);
    assert!(talk.status.contains("first scene"), "{}", talk.status);
}

#[test]
fn the_presentation_layout_edits_nothing_it_hides() {
    let mut app = mid_file();
    act(&mut app, Action::Focus(Pane::Data));
    let roles = file_state(&app).roles.clone();
    act(&mut app, Action::TogglePresent);
    assert_ne!(app.focus, Pane::Data, "focus left the hidden pane");
    for a in [Action::Focus(Pane::Data), Action::Focus(Pane::Sliders)] {
        act(&mut app, a);
        assert!(app.status.contains("v shows it"), "{}", app.status);
    }
    // Space as the key map sends it from the focused pane.
    let key = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char(' '),
        crossterm::event::KeyModifiers::NONE,
    );
    let space = rhoscope::tui::keymap::action_for(&key, app.focus).unwrap();
    act(&mut app, space);
    assert_eq!(file_state(&app).roles, roles, "no role changed unseen");
    assert!(app.status.contains("v shows it"), "{}", app.status);
}

#[cfg(feature = "cli")]
#[test]
fn a_mistyped_file_is_named_missing_not_an_unknown_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    for arg in ["nosuch.csv", "weird/longnames.csv"] {
        let r = common::run(dir.path(), &[arg]);
        assert_eq!(r.code, 66, "{arg}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("{arg}: no such file")) && r.stderr.contains("explorer"),
            "{arg}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("subcommand"), "{}", r.stderr);
    }
    // A word that is no file name stays a usage error about the subcommand.
    let r = common::run(dir.path(), &["estimat"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[cfg(feature = "cli")]
#[test]
fn demo_refuses_a_scene_past_the_last_with_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let r = common::run(dir.path(), &["demo", "--scene", "12"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let last = rhoscope::tui::scenes::scenes().len();
    assert!(r.stderr.contains(&format!("1 to {last}")), "{}", r.stderr);
}

#[test]
fn tab_lists_what_each_candidate_adds_so_both_fit_at_80x24() {
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    let typed = format!("{}/h", common::shared().join("hanna-llm").display());
    type_text(&mut app, &typed);
    let (text, choices) = rhoscope::tui::complete(&typed);
    assert_eq!(choices.len(), 2, "{choices:?}");
    act(
        &mut app,
        Action::Prompt(PromptEdit::Completed { text, choices }),
    );
    let t = screen(&app, 80, 24);
    let last = rows_of(&t, ratatui::layout::Rect::new(0, 23, 80, 1)).join("");
    assert!(
        last.contains("coherence.csv") && last.contains("scores.csv"),
        "{last}"
    );
}

/// The preset `name` opened from the data pane, its battery settled.
pub(super) fn preset(name: &str) -> App {
    let mut app = started(Start::Default);
    app.cursor = app
        .entries
        .iter()
        .position(|e| *e == rhoscope::tui::app::Entry::Preset(leak(name)))
        .unwrap();
    act(&mut app, Action::Activate);
    app
}

fn leak(s: &str) -> &'static str {
    rhoscope::scenario::PRESETS
        .iter()
        .map(|(n, _)| *n)
        .find(|n| *n == s)
        .unwrap()
}

/// Every row of the screen at `w` × `h`, joined.
fn all_rows(app: &App, w: u16, h: u16) -> Vec<String> {
    let t = screen(app, w, h);
    rows_of(&t, ratatui::layout::Rect::new(0, 0, w, h))
}

#[test]
fn the_free_scale_line_words_its_flags_and_gives_no_interval_to_an_undefined_rho() {
    let mut app = preset("three-anchor");
    act(&mut app, Action::Focus(Pane::Estimates));
    let text = pane_rows(&app, Pane::Estimates, 120, 60).join(" ");
    let fs = text
        .split("free-scale (judge scales free): ")
        .nth(1)
        .expect("a free-scale line");
    assert!(!fs.contains("undef ["), "{fs}");
    assert!(!fs.contains("; FLAG"), "{fs}");
    if fs.contains("undef") {
        assert!(text.contains("free-scale FLAG "), "{text}");
        assert!(
            text.contains("free-scale FLAG ridge: the identified set"),
            "{text}"
        );
    }
}

#[test]
fn the_marker_rows_share_one_axis_when_an_anchor_has_no_interval() {
    let app = preset("boundary");
    let boot = app.battery.as_ref().unwrap().boot().unwrap();
    assert!(
        boot.rho.iter().any(Option::is_none) && boot.rho.iter().any(Option::is_some),
        "the boundary preset has one anchor without an interval: {:?}",
        boot.rho
    );
    for (w, h) in SIZES {
        let rows = pane_rows(&app, Pane::Estimates, w, h);
        let zeros: Vec<usize> = rows
            .iter()
            .filter(|r| r.starts_with("A1 ") || r.starts_with("A2 "))
            .map(|r| r.chars().position(|c| c == '┊').expect("a zero mark"))
            .collect();
        assert_eq!(zeros.len(), 2, "{w}x{h}: {rows:?}");
        assert_eq!(zeros[0], zeros[1], "{w}x{h}: {rows:?}");
    }
}

#[test]
fn a_pane_cut_at_its_edge_says_there_is_more_below() {
    let mut app = preset("three-anchor");
    let rows = all_rows(&app, 80, 24).join("\n");
    assert!(rows.contains("↓ more"), "{rows}");
    act(&mut app, Action::Focus(Pane::Estimates));
    for _ in 0..40 {
        act(&mut app, Action::Down);
        let _ = screen(&app, 80, 24);
    }
    let r = ui::areas(&app, ratatui::layout::Rect::new(0, 0, 80, 24)).estimates;
    let t = screen(&app, 80, 24);
    let border = rows_of(
        &t,
        ratatui::layout::Rect::new(r.x, r.bottom() - 1, r.width, 1),
    );
    assert!(!border[0].contains("↓ more"), "at the end: {border:?}");
}

#[test]
fn a_frozen_talk_hints_no_key_it_refuses_and_scrolls_the_focused_pane() {
    let mut app = started(Start::Scene(1));
    assert!(app.frozen);
    let rows = all_rows(&app, 80, 24).join("\n");
    assert!(!rows.contains("Enter: why"), "{rows}");
    assert!(!rows.contains("j/k scroll"), "{rows}");
    let focus = app.focus;
    let before = app.scroll[focus];
    let _ = screen(&app, 80, 24);
    act(&mut app, Action::Down);
    assert_eq!(app.status, "", "j acts while frozen");
    assert!(app.scroll[focus] > before || app.scroll_end[focus].get() == 0);
}

#[test]
fn long_names_stay_apart_in_the_estimates_rows_the_lambda_line_and_the_data_pane() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from(
        "judge_gpt4o_2024_08_06_temperature0,judge_gpt4o_2024_08_06_temperature1,judge_gpt4o_2024_08_06_temperature2,anchor_expert_annotator_number_one_senior,anchor_expert_annotator_number_two_junior,anchor_crowd_majority_vote_of_five_workers\n",
    );
    let pm = rhoscope::scenario::preset("three-anchor").unwrap();
    let p = rhoscope::simulate::simulate(&pm, 300, 5).unwrap();
    let pick = [0, 1, 2, p.p(), p.p() + 1, p.p() + 2];
    for i in 0..p.n {
        let row: Vec<String> = pick
            .iter()
            .map(|&c| format!("{:.4}", p.data[c * p.n + i]))
            .collect();
        csv.push_str(&(row.join(",") + "\n"));
    }
    let path = dir.path().join("longnames.csv");
    std::fs::write(&path, csv).unwrap();
    let mut app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    act(&mut app, Action::Focus(Pane::Data));
    for (w, h) in SIZES {
        let rows = pane_rows(&app, Pane::Estimates, w, h);
        let anchors: Vec<&str> = rows
            .iter()
            .filter(|r| r.contains("ρ̂ ") && r.contains('['))
            .map(|r| {
                r.split(" ρ̂")
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .next()
                    .unwrap()
            })
            .collect();
        assert!(anchors.len() >= 3, "{w}x{h}: {rows:?}");
        assert!(
            anchors[..3].iter().any(|a| a.contains("one"))
                && anchors[..3].iter().any(|a| a.contains("two")),
            "{w}x{h}: {anchors:?}"
        );
        let starts: Vec<usize> = rows
            .iter()
            // The marker rows: an anchor's name, then its ρ̂ and interval (not the comparisons).
            .filter(|r| r.starts_with("anchor_") && r.contains("ρ̂ ") && r.contains('['))
            .map(|r| r.find(" ρ̂").unwrap())
            .collect();
        assert!(starts.windows(2).all(|p| p[0] == p[1]), "{w}x{h}: {rows:?}");
        let data = pane_rows(&app, Pane::Data, w, h);
        let names: Vec<String> = data
            .iter()
            .filter(|l| l.contains(" judge ") || l.contains(" anchor "))
            .map(|l| {
                l.trim_start_matches('▸')
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(names.len(), 6, "{w}x{h}: {data:?}");
        for (i, a) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(a), "{w}x{h}: {names:?}");
        }
    }
    let lambda = pane_rows(&app, Pane::Estimates, 80, 24)
        .into_iter()
        .find(|r| r.starts_with("λ lowest"))
        .expect("a λ line at 80×24");
    let names: Vec<&str> = lambda
        .split(['λ', ','])
        .filter_map(|part| {
            part.split_whitespace()
                .find(|w| w.contains("temperature") || w.contains('…'))
        })
        .collect();
    assert_eq!(names.len(), 2, "{lambda}");
    assert_ne!(names[0], names[1], "{lambda}");
}

#[test]
fn hanna_llm_score_judges_read_apart_in_the_data_pane_at_80x24() {
    let path = common::shared().join("hanna-llm/hanna_llm_scores.csv");
    let judges = ["coherence.beluga_13b.p2", "coherence.orca_platypus_13b.p2"];
    let app = started(Start::File(
        path,
        rhoscope::data::PanelRequest {
            judges: Some(judges.iter().map(|j| (*j).into()).collect()),
            ..rhoscope::data::PanelRequest::default()
        },
    ));
    let rows = pane_rows(&app, Pane::Data, 80, 24);
    let mut app2 = app.clone();
    let mut shown = Vec::new();
    for j in judges {
        on_column(&mut app2, j);
        let r = pane_rows(&app2, Pane::Data, 80, 24);
        let line = r.iter().find(|l| l.starts_with('▸')).unwrap().clone();
        shown.push(
            line.trim_start_matches('▸')
                .split_whitespace()
                .next()
                .unwrap()
                .to_string(),
        );
    }
    assert_ne!(shown[0], shown[1], "{rows:?}");
}

#[test]
fn a_preset_clears_the_last_files_load_error() {
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, "assets/commands.txt");
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    assert!(app.load_error.is_some());
    let app2 = {
        let mut a = app.clone();
        a.cursor = 1;
        act(&mut a, Action::Activate);
        a
    };
    assert_eq!(app2.load_error, None);
    let data = pane_rows(&app2, Pane::Data, 80, 24).join("\n");
    assert!(!data.contains("commands.txt"), "{data}");
}

#[test]
fn a_typo_path_is_neither_listed_nor_the_source_and_the_panel_stays() {
    let mut app = mid_file();
    let entries = app.entries.len();
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, "/no/such/dir/c");
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    assert_eq!(app.entries.len(), entries, "{:?}", app.entries);
    assert_eq!(file_state(&app).path, PathBuf::from("assets/mid.csv"));
    let err = app.load_error.clone().unwrap();
    assert!(
        err.contains("your panel stays open") && err.contains("no such file"),
        "{err}"
    );
    assert!(app.panel.is_some());
    let status = all_rows(&app, 80, 24)[23].clone();
    assert!(!status.contains("/no/such"), "{status}");
    // Without a panel (a file whose roles are still to set), the file on screen stays too.
    let mut raw = llm_unassigned();
    let before = file_state(&raw).path.clone();
    act(&mut raw, Action::OpenPrompt);
    type_text(&mut raw, "/no/such/dir/c");
    act(&mut raw, Action::Prompt(PromptEdit::Submit));
    assert_eq!(file_state(&raw).path, before);
}

#[test]
fn a_wrong_families_file_keeps_the_panel_and_says_what_is_wrong_with_it() {
    let fam = common::shared().join("hanna-llm/families.csv");
    let app = started(Start::File(
        PathBuf::from("assets/mid.csv"),
        rhoscope::data::PanelRequest {
            families: Some(rhoscope::data::Families::File(fam)),
            ..rhoscope::data::PanelRequest::default()
        },
    ));
    assert!(app.panel.is_some(), "{:?}", app.load_error);
    let notes = file_state(&app).notes.join(" ");
    assert!(
        notes.contains("families file") && notes.contains("not used"),
        "{notes}"
    );
    let rows = all_rows(&app, 120, 40).join("\n");
    assert!(!rows.contains("not a panel"), "{rows}");
}

#[test]
fn a_text_column_made_a_judge_is_refused_and_the_panel_stays() {
    let mut app = llm_assigned();
    let roles = file_state(&app).roles.clone();
    let shown = app.panel.clone();
    on_column(&mut app, "generator");
    act(&mut app, Action::CycleRole);
    assert_eq!(file_state(&app).roles, roles, "the edit is undone");
    assert_eq!(app.panel, shown, "the panel stays");
    assert!(!app.battery_stale());
    let err = app.load_error.clone().unwrap();
    assert!(
        err.contains("'generator'") && err.contains("stays open"),
        "{err}"
    );
    let rows = all_rows(&app, 80, 24).join("\n");
    assert!(!rows.contains("at least 2 judges"), "{rows}");
}

#[test]
fn an_all_missing_column_is_named_and_the_battery_does_not_ask_for_judges_already_set() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("J1,J2,J3,A1,A2\n");
    for i in 0..200 {
        let x = f64::from(i % 7);
        let (j2, a1, a2) = (x + 1.0, x * 0.5, f64::from(i % 3));
        let _ = writeln!(csv, "{x},{j2},NA,{a1},{a2}");
    }
    let path = dir.path().join("allna.csv");
    std::fs::write(&path, csv).unwrap();
    let mut app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    let err = app.load_error.clone().unwrap();
    assert!(err.contains("column 'J3'"), "{err}");
    // The roles the names give stay on screen, not all "—".
    assert_eq!(
        file_state(&app).roles,
        [
            Role::Judge,
            Role::Judge,
            Role::Judge,
            Role::Anchor,
            Role::Anchor
        ]
    );
    for c in ["J1", "J2", "J3"] {
        on_column(&mut app, c);
        if file_state(&app).roles[app.cursor - app.entries.len()] != Role::Judge {
            act(&mut app, Action::CycleRole);
        }
    }
    let rows = all_rows(&app, 80, 24).join("\n");
    assert!(!rows.contains("at least 2 judges"), "{rows}");
    assert!(
        app.load_error.clone().unwrap().contains("J3"),
        "{:?}",
        app.load_error
    );
}

#[test]
fn a_long_file_lists_its_raters_and_a_role_edit_keeps_the_layout() {
    let path = common::shared().join("hanna/hanna_ratings_with_workers.csv");
    let long = rhoscope::data::LongColumns {
        item: "Story ID".into(),
        rater: "Worker ID".into(),
        score: "Coherence".into(),
    };
    let mut app = started(Start::File(
        path,
        rhoscope::data::PanelRequest {
            long: Some(long.clone()),
            judges: Some(
                rhoscope::tui::scenes::HANNA_RATERS
                    .iter()
                    .map(|r| (*r).into())
                    .collect(),
            ),
            ..rhoscope::data::PanelRequest::default()
        },
    ));
    assert!(app.panel.is_some(), "{:?}", app.load_error);
    let header = file_state(&app).header.clone();
    assert!(header.len() > 3, "{header:?}");
    for r in rhoscope::tui::scenes::HANNA_RATERS {
        assert!(header.iter().any(|h| h == r), "{header:?}");
    }
    assert!(!header.iter().any(|h| h == "Coherence"), "{header:?}");
    let other = header
        .iter()
        .find(|h| !rhoscope::tui::scenes::HANNA_RATERS.contains(&h.as_str()))
        .unwrap()
        .clone();
    on_column(&mut app, &other);
    act(&mut app, Action::CycleRole);
    assert_eq!(file_state(&app).long.as_deref(), Some(&long));
    assert_eq!(
        file_state(&app).header,
        header,
        "the raters stay the columns"
    );
}

#[cfg(feature = "cli")]
#[test]
fn demo_with_a_wrong_hanna_path_says_the_path_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let r = common::run(
        dir.path(),
        &["demo", "--scene", "9", "--hanna", "/nonexistent.csv"],
    );
    assert_eq!(r.code, 66, "{}", r.stderr);
    assert!(
        r.stderr.contains("/nonexistent.csv") && r.stderr.contains("no such file"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("pass --hanna"), "{}", r.stderr);
}

#[test]
fn a_wrong_hanna_file_gets_a_caption_that_says_so_over_its_empty_panes() {
    let wrong = common::shared().join("hanna-llm/hanna_llm_coherence.csv");
    let (mut app, effects) = App::new(Settings {
        start: Start::Scene(rhoscope::tui::scenes::scenes().len() - 1),
        color: false,
        files: Vec::new(),
        hanna: Some(wrong),
    });
    settle(&mut app, effects);
    assert!(app.panel.is_none());
    let (_, lines) = caption::of(&app).unwrap();
    let text = lines.join(" ");
    assert!(text.contains("is not it"), "{text}");
    assert!(!text.contains("0.589"), "{text}");
    let rows = all_rows(&app, 80, 24).join("\n");
    assert!(!rows.contains("data pane"), "{rows}");
}

#[test]
fn slider_and_role_keys_on_the_battery_pane_of_a_file_say_why() {
    let mut app = mid_file();
    act(&mut app, Action::Focus(Pane::Battery));
    for a in [
        Action::ResetSlider,
        Action::SelectSlider(-1),
        Action::SelectSlider(1),
    ] {
        act(&mut app, a.clone());
        assert!(
            app.status.contains("sliders drive"),
            "{a:?}: {}",
            app.status
        );
    }
    let key = crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char(' '),
        crossterm::event::KeyModifiers::NONE,
    );
    let space = rhoscope::tui::keymap::action_for(&key, app.focus).unwrap();
    act(&mut app, space);
    assert!(app.status.contains("data pane"), "{}", app.status);
}
