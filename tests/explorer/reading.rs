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
    // Trial 43, finding 2: the range check the battery pane shows FIRES is counted too.
    if r.reading.evidence.range.verdict() == Verdict::Fires {
        assert!(battery.contains("range FIRES"), "{battery}");
        assert!(last.contains("range check fires"), "{last}");
    }
    // Finding 1: the configuration pane tells the row's list from what reads here.
    let config = pane_rows(&app, Pane::Config, 100, 30).join(" ");
    assert!(!config.contains("available:"), "{config}");
    assert!(config.contains("on this panel"), "{config}");
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

/// The weak-ID and range verdicts share a row without a dot between them: the only dots are
/// the N/A badges' own.
#[test]
fn the_weak_id_and_range_row_has_no_stray_dot() {
    for app in [llm_assigned(), started(Start::Default)] {
        for (w, h) in SIZES {
            let rows = pane_rows(&app, Pane::Battery, w, h);
            let row = rows
                .iter()
                .find(|r| r.contains("weak-ID"))
                .unwrap_or_else(|| panic!("{w}x{h}: {rows:?}"));
            let joined = if row.contains("range") {
                row.clone()
            } else {
                let i = rows.iter().position(|r| r == row).unwrap();
                format!("{row} {}", rows[i + 1])
            };
            assert_eq!(
                joined.matches('·').count(),
                joined.matches("N/A").count(),
                "{w}x{h}: {joined}"
            );
        }
    }
}

/// A panel of five Likert judges (codes 1–5) and three continuous anchors, written as a file
/// from the model and opened in the explorer.
fn likert_judges(dir: &std::path::Path) -> App {
    let mut pm = rhoscope::scenario::preset("three-anchor").unwrap();
    rhoscope::scenario::apply_set(&mut pm, "ordinal=judges:5").unwrap();
    let p = rhoscope::simulate::simulate(&pm, 4000, 3).unwrap();
    let cols = p.p() + p.m();
    let names: Vec<String> = (0..p.p())
        .map(|j| format!("J{}", j + 1))
        .chain((0..p.m()).map(|k| format!("A{}", k + 1)))
        .collect();
    let mut csv = names.join(",") + "\n";
    for i in 0..p.n {
        let row: Vec<String> = (0..cols)
            .map(|c| {
                let x = p.data[c * p.n + i];
                if p.scales[c].is_ordinal() {
                    format!("{x}")
                } else {
                    format!("{x:.4}")
                }
            })
            .collect();
        csv.push_str(&(row.join(",") + "\n"));
    }
    let path = dir.join("likert.csv");
    std::fs::write(&path, csv).unwrap();
    let app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    assert!(app.panel.as_ref().unwrap().scales[0].is_ordinal());
    app
}

/// On Likert judges the estimates pane leads with the free-scale estimate the reading
/// names, with its intervals and its own moments (not the closed form's), at 80×24.
#[test]
fn the_free_scale_lead_shows_its_own_moments() {
    let dir = tempfile::tempdir().unwrap();
    let app = likert_judges(dir.path());
    let r = app.battery.as_deref().unwrap();
    assert_eq!(r.reading.answer.read, Some(Estimator::FreeScale));
    let fits = app.fit.as_ref().unwrap();
    let fs = fits.estimate(Estimator::FreeScale).unwrap();
    let cf = fits.closed_form().unwrap();
    let (fs_t, cf_t) = (
        format!("σ̂_t² {:.3}", fs.sigma_t2),
        format!("σ̂_t² {:.3}", cf.sigma_t2),
    );
    assert_ne!(fs_t, cf_t, "the two fits differ on this panel");
    let rows = pane_rows(&app, Pane::Estimates, 80, 24);
    let text = rows.join("\n");
    assert!(rows[0].starts_with("read: free-scale"), "{text}");
    assert!(rows[1].contains("ρ̂ ") && rows[1].contains(", "), "{text}");
    assert!(text.contains(&fs_t), "{text}");
    assert!(!text.contains(&cf_t), "{text}");
}

/// Step 1 at 80×24: the configuration pane shows this panel's row whole, "N ≳ 10⁴" and all.
#[test]
fn the_configuration_row_fits_at_80x24() {
    let mut app = llm_assigned();
    act(&mut app, Action::Next);
    let rows = pane_rows(&app, Pane::Config, 80, 24);
    assert!(rows[0].starts_with('▸'), "{rows:?}");
    assert!(rows[0].contains("N ≳10⁴"), "{rows:?}");
}

/// The data pane lists only files that can be panels: a one-line list of names, or a JSON
/// report (one object), is not one.
#[test]
fn a_file_that_cannot_be_a_panel_is_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let names = write("judges.txt", "beluga_13b,orca_platypus_13b,mistral_7b\n");
    let report = write(
        "b2.json",
        "{\"schema_version\": 3, \"source\": \"x.csv\", \"n_items\": 40,\n \"judges\": [\"a\", \"b\"]}\n",
    );
    let panel = write("p.csv", "J1,J2,A1\n1,2,3\n2,3,4\n");
    let records = write(
        "r.json",
        "[{\"J1\": 1, \"J2\": 2, \"A1\": 3}, {\"J1\": 2, \"J2\": 3, \"A1\": 4}]",
    );
    assert!(!rhoscope::tui::is_panel_file(&names));
    assert!(!rhoscope::tui::is_panel_file(&report));
    assert!(rhoscope::tui::is_panel_file(&panel));
    assert!(rhoscope::tui::is_panel_file(&records));
}

/// Trial findings on one screen each: no shell command in the estimates pane, the null named
/// once in the full view, step 1 claims nothing the panel cannot give, flags in words.
#[test]
fn screens_word_the_panel_not_the_machinery() {
    // Five judges and no anchor: the estimates pane says why, without a command to run.
    let mut app = llm_unassigned();
    set_roles_of(&mut app, &[2, 3, 4, 5, 6]);
    assert_eq!(app.panel.as_ref().unwrap().m(), 0);
    let rows = pane_rows(&app, Pane::Estimates, 80, 24).join(" ");
    assert!(rows.contains("not identified"), "{rows}");
    assert!(!rows.contains("rhoscope"), "{rows}");
    // The scenario null is named once.
    let app = started(Start::Default);
    let lines = rhoscope::tui::panes::detail::lines(&app, ratatui_theme(), 200);
    let first: String = lines[0].spans.iter().map(|s| s.content.as_ref()).collect();
    assert_eq!(first.matches("scenario null").count(), 1, "{first}");
    // Ordinal human anchors: step 1 says what reads here — no estimate, and each test whose
    // later step gives a verdict, none other (trial 42 findings 2, 15, 20) — and step 3 names
    // the flags in words.
    let steps = walk(&llm_assigned());
    assert!(
        steps[0].1.contains("no estimate can be read"),
        "{}",
        steps[0].1
    );
    assert!(!steps[0].1.contains("none of them reads"), "{}", steps[0].1);
    for (_, text) in &steps[3..] {
        let Some(t) = text.strip_prefix("Test ").and_then(|t| t.get(..1)) else {
            continue;
        };
        let verdict = text.contains(") fires:") || text.contains(") passes:");
        assert_eq!(
            steps[0].1.contains(&format!("Test {t}")),
            verdict,
            "step 1: {} / {text}",
            steps[0].1
        );
    }
    assert!(steps[2].1.contains("σ̂_c² ≤ 0"), "{}", steps[2].1);
    for (title, text) in &steps {
        assert!(!text.contains("sigma_c2_nonpositive"), "{title}: {text}");
    }
}

/// Space on each of `cols` once (— → judge).
fn set_roles_of(app: &mut App, cols: &[usize]) {
    let base = app.entries.len();
    for &c in cols {
        app.cursor = base + c;
        act(app, Action::CycleRole);
    }
}

/// Frozen, the status line offers only keys that act: not `?` nor `v`, which a freeze
/// refuses.
#[test]
fn a_frozen_status_line_offers_only_keys_that_act() {
    let mut talk = started(Start::Demo);
    assert!(talk.frozen);
    act(&mut talk, Action::Next);
    let mut frozen = started(Start::Default);
    act(&mut frozen, Action::Freeze);
    for app in [talk, frozen] {
        let t = screen(&app, 120, 40);
        let status = rows_of(&t, ratatui::layout::Rect::new(0, 39, 120, 1)).join("");
        assert!(status.contains("FROZEN"), "{status}");
        assert!(status.contains("f unfreezes"), "{status}");
        assert!(!status.contains("? help"), "{status}");
        assert!(!status.contains("v layout"), "{status}");
        for key in [Action::ToggleHelp, Action::TogglePresent] {
            let mut a = app.clone();
            act(&mut a, key);
            assert_eq!(a.status, "frozen: f to unfreeze");
        }
    }
}

/// Marked settings never reach a screen: every pane, caption and the full view word them.
#[test]
fn no_screen_shows_a_marked_setting() {
    let dir = tempfile::tempdir().unwrap();
    let likert = likert_judges(dir.path());
    // The HANNA raters as three Likert judges: Test A's N/A reason names codes-as-numbers.
    let path = common::shared().join("hanna/hanna_coherence_panel.csv");
    let mut hanna = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    set_roles_of(&mut hanna, &[1, 2, 3]);
    for app in [likert, hanna, llm_assigned()] {
        let mut shown = Vec::new();
        for (w, h) in SIZES {
            shown.push(format!("{:?}", screen(&app, w, h).backend()));
        }
        shown.extend(walk(&app).into_iter().map(|(_, t)| t));
        for l in rhoscope::tui::panes::detail::lines(&app, ratatui_theme(), 100) {
            shown.push(l.spans.iter().map(|s| s.content.as_ref()).collect());
        }
        for s in &shown {
            assert!(!s.contains('\u{e000}'), "{s}");
        }
    }
}

/// Nothing fires but the closed form's range flags: the last step says so, not "nothing
/// fires" beside a FIRES badge.
#[test]
fn the_last_step_names_the_range_flags_it_does_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let app = likert_judges(dir.path());
    let r = app.battery.as_deref().unwrap();
    assert_eq!(r.reading.evidence.range.verdict(), Verdict::Fires);
    let (_, last) = walk(&app).pop().unwrap();
    assert!(!last.contains("nothing fires"), "{last}");
    if r.reading.answer.alarms.is_empty() {
        // Likert judges read as numbers are a scale flag, not a range one (trial 45 finding 3).
        assert!(
            last.contains("the closed form reads a column on a scale it cannot use (Likert codes read as numbers on the judges)"),
            "{last}"
        );
    }
}
