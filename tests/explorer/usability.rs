//! What a new user meets at every size: sparklines and their legend, whole numbers and
//! messages, keys that say why they do nothing, and the screens that must agree.

use super::*;

use rhoscope::tui::panes::battery::p_text;

const BARS: &str = "▁▂▃▄▅▆▇█";

/// The LLM panel with its three human anchors scored continuous: Tests J and O run.
fn llm_continuous() -> App {
    let mut app = llm_assigned();
    let base = app.entries.len();
    for c in 7..10 {
        app.cursor = base + c;
        act(&mut app, Action::ToggleScale);
    }
    app
}

/// The battery pane's row of test `t` (its name first, "Test X" or "X").
fn test_row(rows: &[String], t: TestId) -> Option<String> {
    let long = format!("Test {} ", t.name());
    let short = format!("{} ", t.name());
    rows.iter()
        .find(|r| r.starts_with(&long) || r.starts_with(&short))
        .cloned()
}

#[test]
fn every_test_with_a_null_shows_its_sparkline_and_legend_at_every_size() {
    let mut fired = started(Start::Default);
    let spread = fired
        .scenario
        .sliders
        .iter()
        .position(|s| s.label == "judge spread")
        .unwrap();
    fired.selected = spread;
    act(&mut fired, Action::Coarse(3));
    for (name, app) in [
        ("default", started(Start::Default)),
        ("spread", fired),
        ("llm", llm_assigned()),
        ("llm continuous", llm_continuous()),
    ] {
        let r = app.battery.clone().unwrap();
        for (w, h) in SIZES {
            let t = screen(&app, w, h);
            let area = ui::areas(&app, ratatui::layout::Rect::new(0, 0, w, h)).battery;
            let all = rows_of(&t, area);
            assert!(
                all[0].contains("▄ = threshold"),
                "{name} {w}×{h}: the sparklines' legend: {}",
                all[0]
            );
            let rows = pane_rows(&app, Pane::Battery, w, h);
            for tid in TestId::ALL {
                let res = &r.tests[tid];
                if res.statistic.is_none() || res.threshold.is_none() {
                    continue;
                }
                let row = test_row(&rows, tid)
                    .unwrap_or_else(|| panic!("{name} {w}×{h}: row of Test {}", tid.name()));
                assert!(
                    row.chars().any(|c| BARS.contains(c)),
                    "{name} {w}×{h}: Test {} has no sparkline: {row}",
                    tid.name()
                );
                if let Some(p) = res.p_value {
                    let whole = format!("p {} ", p_text(p));
                    assert!(
                        format!("{row} ").contains(&whole),
                        "{name} {w}×{h}: the p-value is whole: {row}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_small_p_value_takes_the_digits_it_has() {
    assert_eq!(p_text(0.001), "0.001");
    assert_eq!(p_text(0.006), "0.006");
    assert_eq!(p_text(0.0381), "0.038");
    assert_eq!(p_text(0.8), "0.80");
}

#[test]
fn the_full_verdict_view_has_the_weak_id_and_range_rows() {
    let mut app = llm_assigned();
    act(&mut app, Action::Focus(Pane::Battery));
    act(&mut app, Action::ToggleDetail);
    let lines =
        rhoscope::tui::panes::detail::lines(&app, rhoscope::tui::theme::Theme { color: false }, 76);
    let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|l| l.starts_with("weak-ID ")), "{text:?}");
    assert!(text.iter().any(|l| l.starts_with("range ")), "{text:?}");
}

#[test]
fn the_sliders_say_why_factor_g_and_the_shared_residual_both_exist() {
    let mut app = started(Start::Default);
    for (label, says) in [
        ("factor g (judges)", "at h = 0 it is s"),
        ("shared residual s", "factor g at h = 0"),
    ] {
        app.selected = app
            .scenario
            .sliders
            .iter()
            .position(|s| s.label == label)
            .unwrap();
        let rows = pane_rows(&app, Pane::Sliders, 120, 40).join(" ");
        let rows = rows.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(rows.contains(says), "{label}: {rows}");
    }
}

#[test]
fn the_sliders_notes_are_whole_or_absent() {
    let app = started(Start::Default);
    for (w, h) in SIZES {
        let rows = pane_rows(&app, Pane::Sliders, w, h).join(" ");
        let rows = rows.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            rows.contains("(s: new)") || !rows.contains("fixed:"),
            "{w}×{h}: {rows}"
        );
    }
}

#[test]
fn a_long_status_message_is_shown_whole_with_the_seed() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Data));
    act(&mut app, Action::CycleRole);
    assert!(!app.status.is_empty(), "Space on a preset says why not");
    let t = screen(&app, 80, 24);
    let all = rows_of(&t, ratatui::layout::Rect::new(0, 0, 80, 24));
    let bottom = all[all.len() - 3..].join(" ");
    let squeezed = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squeezed(&bottom).contains(&squeezed(&app.status)),
        "{bottom}"
    );
    assert!(bottom.contains("seed"), "{bottom}");
    // The quit prompt of a frozen screen keeps the panel's size and seed too.
    let mut frozen = started(Start::Default);
    act(&mut frozen, Action::Freeze);
    act(&mut frozen, Action::CloseOrQuit);
    assert!(frozen.confirm_quit && !frozen.quit);
    let t = screen(&frozen, 80, 24);
    let all = rows_of(&t, ratatui::layout::Rect::new(0, 0, 80, 24));
    let bottom = squeezed(&all[all.len() - 3..].join(" "));
    assert!(
        bottom.contains("seed") && bottom.contains("q again quits"),
        "{bottom}"
    );
}

#[test]
fn keys_that_cannot_act_say_why() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Prev);
    assert!(app.status.contains("talk or walkthrough"), "{}", app.status);
    app.cursor = 0;
    act(&mut app, Action::Focus(Pane::Data));
    act(&mut app, Action::CycleRole);
    assert!(app.status.contains("open a file"), "{}", app.status);
    let mut file = llm_assigned();
    file.cursor = 0;
    act(&mut file, Action::CycleRole);
    assert!(file.status.contains("move down"), "{}", file.status);
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, "no-such-thing-here");
    act(
        &mut app,
        Action::Prompt(PromptEdit::Completed {
            text: "no-such-thing-here".into(),
            choices: Vec::new(),
        }),
    );
    let t = screen(&app, 80, 24);
    let all = rows_of(&t, ratatui::layout::Rect::new(0, 0, 80, 24));
    assert!(all[23].contains("no match"), "{}", all[23]);
    act(&mut app, Action::Prompt(PromptEdit::Insert('x')));
    let t = screen(&app, 80, 24);
    let all = rows_of(&t, ratatui::layout::Rect::new(0, 0, 80, 24));
    assert!(!all[23].contains("no match"), "{}", all[23]);
}

#[test]
fn a_slider_key_in_the_presentation_layout_names_what_it_moved() {
    let mut app = started(Start::Default);
    act(&mut app, Action::TogglePresent);
    app.selected = 0;
    act(&mut app, Action::Fine(1));
    let s = &app.scenario.sliders[0];
    assert!(
        app.status.contains(&s.label) && app.status.contains("v shows the sliders"),
        "{}",
        app.status
    );
    let t = screen(&app, 80, 24);
    let text = rows_of(&t, ratatui::layout::Rect::new(0, 0, 80, 24)).join(" ");
    assert!(text.contains(&s.label), "{text}");
}

#[test]
fn a_new_configuration_scrolls_the_configuration_pane_to_its_power_lines() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Config));
    for _ in 0..5 {
        act(&mut app, Action::Down);
    }
    let _ = pane_rows(&app, Pane::Config, 80, 24);
    act(&mut app, Action::Down);
    let i = Pane::Config;
    assert!(app.scroll[i] > 0, "scrolled");
    act(&mut app, Action::Fine(1));
    assert_eq!(app.scroll[i], 0);
}

#[test]
fn ctrl_z_suspends_and_is_in_the_help() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
    assert_eq!(
        rhoscope::tui::keymap::action_for(&key, Pane::Sliders),
        Some(Action::Suspend)
    );
    assert!(
        rhoscope::tui::keymap::help_lines()
            .iter()
            .any(|(k, h)| k == "Ctrl-z" && h.contains("fg"))
    );
    let mut app = started(Start::Default);
    let g = app.generation;
    assert!(app.update(Action::Suspend).is_empty());
    assert_eq!(app.generation, g, "the state waits for `fg` untouched");
}

#[test]
fn frozen_only_f_q_ctrl_c_and_talk_steps_act_as_the_help_says() {
    let help = rhoscope::tui::keymap::help_lines();
    let f = help.iter().find(|(k, _)| k == "f").unwrap();
    assert!(f.1.contains("only f, q, Ctrl-c, talk n/p"), "{}", f.1);
    let mut app = started(Start::Default);
    act(&mut app, Action::Freeze);
    act(&mut app, Action::Next);
    assert_eq!(
        app.mode,
        Mode::Explore,
        "n does not start a talk while frozen"
    );
    let mut talk = started(Start::Demo);
    assert!(talk.frozen, "a talk starts frozen");
    act(&mut talk, Action::Next);
    assert_eq!(talk.mode, Mode::Demo(1), "n steps a frozen talk");
    act(&mut talk, Action::TogglePresent);
    assert!(talk.present, "v does nothing while frozen");
}

#[test]
fn g_in_the_data_pane_goes_to_the_first_column_then_the_top() {
    let mut app = llm_assigned();
    act(&mut app, Action::Focus(Pane::Data));
    app.cursor = app.entries.len() + 5;
    act(&mut app, Action::Top);
    assert_eq!(app.cursor, app.entries.len());
    act(&mut app, Action::Top);
    assert_eq!(app.cursor, 0);
}

#[test]
fn the_missing_count_is_under_its_heading_or_absent_with_families() {
    let mut app = llm_assigned();
    act(&mut app, Action::Focus(Pane::Data));
    let base = app.entries.len();
    for c in 2..7 {
        app.cursor = base + c;
        act(&mut app, Action::Family(1));
    }
    for (w, h) in SIZES {
        let rows = pane_rows(&app, Pane::Data, w, h);
        let Some(head) = rows
            .iter()
            .position(|r| r.contains("column") && r.contains("role"))
        else {
            continue;
        };
        let has = rows[head].ends_with("missing") || rows[head].ends_with("NA");
        // Columns in the panel (judges and anchors) have a count; the others none.
        let in_panel = |r: &&String| r.contains(" judge ") || r.contains(" anchor ");
        for r in rows.iter().skip(head + 1).filter(in_panel) {
            let last = r.split_whitespace().last().unwrap_or("");
            let count = last.chars().all(|c| c.is_ascii_digit());
            assert_eq!(
                count, has,
                "{w}×{h}: a count goes with its heading:\n{}\n{r}",
                rows[head]
            );
        }
    }
}

/// The status line says each key once (a frozen talk's message already names n/p and f), and
/// a walkthrough on a long path keeps its stepping keys at 80×24.
#[test]
fn the_status_line_says_each_key_once_and_keeps_the_stepping_keys() {
    let talk = started(Start::Demo);
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let t = screen(&talk, w, h);
        let bottom = rows_of(&t, ratatui::layout::Rect::new(0, h - 3, w, 3)).join(" ");
        assert!(bottom.matches("n/p").count() <= 1, "{w}×{h}: {bottom}");
        assert!(
            bottom.matches("unfreezes").count() <= 1,
            "{w}×{h}: {bottom}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let deep = dir
        .path()
        .join("a_rather_long_folder_name_for_panels")
        .join("and_another_one_below_it");
    std::fs::create_dir_all(&deep).unwrap();
    let path = deep.join("hanna_llm_coherence_with_likert_anchors.csv");
    std::fs::copy("tests/fixtures/likert_anchors.csv", &path).unwrap();
    let mut app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    act(&mut app, Action::Next);
    let t = screen(&app, 80, 24);
    let rows = rows_of(&t, ratatui::layout::Rect::new(0, 21, 80, 3));
    let last = rows.iter().find(|r| r.starts_with(" rhoscope ")).unwrap();
    assert!(last.contains("n/p steps"), "{last}");
    assert!(last.contains("…"), "the path gives way: {last}");
}
