//! The walkthrough's answer and advice on real Likert panels, checked against what the
//! library returns and against the screen the advice leads to.

use super::*;
use rhoscope::tui::app::Step;

/// The HANNA panel opened as a file, its columns given `roles` (—, judge or anchor).
fn hanna_with(roles: &[Role]) -> App {
    let path = common::shared().join("hanna/hanna_coherence_panel.csv");
    let mut app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    set_roles(&mut app, roles);
    app
}

/// Space on each column until it has its role.
fn set_roles(app: &mut App, roles: &[Role]) {
    let base = app.entries.len();
    for (c, want) in roles.iter().enumerate() {
        app.cursor = base + c;
        for _ in 0..3 {
            if file_state(app).roles[c] == *want {
                break;
            }
            act(app, Action::CycleRole);
        }
    }
}

/// Every walkthrough caption of `app`, from the first step to the last.
fn captions(app: &App) -> Vec<(String, String)> {
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

fn last_step(app: &App) -> String {
    let all = captions(app);
    let (title, text) = all.last().unwrap();
    assert!(title.contains("overall"), "{title}");
    text.clone()
}

/// The HANNA-LLM panel with its anchors scored as numbers (`c` on each).
fn llm_numbers() -> App {
    let mut app = llm_assigned();
    let base = app.entries.len();
    for c in 7..10 {
        app.cursor = base + c;
        act(&mut app, Action::ToggleScale);
    }
    assert!(
        app.panel.as_ref().unwrap().scales[5..]
            .iter()
            .all(|s| !s.is_ordinal())
    );
    app
}

const J: Role = Role::Judge;
const A: Role = Role::Anchor;
const N: Role = Role::Ignored;

#[test]
#[ignore = "the next step is the reading's first remedy: needs h-33a's typed remedies"]
fn one_anchor_ends_in_not_identified_and_a_second_anchor() {
    let app = hanna_with(&[N, J, J, A]);
    let text = last_step(&app);
    assert!(text.contains("not identified"), "{text}");
    assert!(text.contains("add a second anchor"), "{text}");
    for wrong in [
        "Nothing fired",
        "third anchor",
        "guarded by a test that fires",
    ] {
        assert!(!text.contains(wrong), "{wrong:?} in {text}");
    }
    // The first step says the same.
    let first = &captions(&app)[0].1;
    assert!(first.contains("not identified"), "{first}");
}

#[test]
#[ignore = "the next step is the reading's first remedy: needs h-33a's typed remedies"]
fn the_advice_to_identify_rho_is_what_the_decision_table_accepts() {
    // Two ordinal judges and one ordinal anchor: a second anchor alone, or anchors read as
    // numbers alone, leave ρ unidentified; the advice names both changes.
    let text = last_step(&hanna_with(&[N, J, J, A]));
    assert!(text.contains("c on each judge and anchor"), "{text}");
}

#[test]
#[ignore = "the next step is the reading's first remedy: needs h-33a's typed remedies"]
fn the_judge_advice_names_the_judge_and_the_checks_that_confirm_it() {
    let app = llm_numbers();
    let text = last_step(&app);
    assert!(text.contains("llama2_13b_chat"), "{text}");
    assert!(text.contains("check that Test J then passes"), "{text}");
    assert!(text.contains("Test C still passes"), "{text}");
    assert!(!text.contains("misfit points at"), "{text}");
    // Following it: Test C fires on the next screen, which the advice said to check.
    let mut aside = app.clone();
    set_roles(&mut aside, &[N, N, J, J, J, N, J, A, A, A]);
    let r = aside.battery.as_ref().unwrap();
    assert_eq!(aside.panel.as_ref().unwrap().p(), 4);
    assert_eq!(r.tests[TestId::C].verdict, Verdict::Fires);
    // With four judges left, setting one more aside cannot be checked by Test J.
    let text = last_step(&aside);
    assert!(text.contains("too few for Test J"), "{text}");
}

#[test]
#[ignore = "the next step is the reading's first remedy: needs h-33a's typed remedies"]
fn no_step_recommends_a_free_scale_estimate_the_library_leaves_undefined() {
    // With the anchors read as numbers the free-scale ρ̂ of HANNA-LLM are undefined.
    let numbers = llm_numbers();
    let fs = numbers
        .fit
        .as_ref()
        .and_then(|f| f.estimate(Estimator::FreeScale))
        .expect("the free-scale fit runs on continuous anchors");
    assert!(fs.rho().iter().all(Option::is_none));
    for app in [llm_assigned(), numbers] {
        for (title, text) in captions(&app) {
            assert!(
                !text.contains("or read the free-scale estimate"),
                "{title}: {text}"
            );
            assert!(
                !text.contains("to run the free-scale estimate"),
                "{title}: {text}"
            );
        }
    }
    let step_a = &captions(&llm_assigned())[3];
    assert!(step_a.0.contains("Test A"), "{step_a:?}");
    assert!(step_a.1.contains("gives no ρ̂ here either"), "{step_a:?}");
}

#[test]
fn the_last_step_never_points_at_a_planner_the_screen_lacks() {
    let mut apps = vec![llm_assigned(), llm_numbers(), hanna_with(&[N, J, J, A])];
    for f in [
        "assets/families.csv",
        "assets/three-anchor.csv",
        "assets/mid.csv",
    ] {
        apps.push(started(Start::File(
            PathBuf::from(f),
            rhoscope::data::PanelRequest::default(),
        )));
    }
    for app in &apps {
        let text = last_step(app);
        assert!(!text.contains("configuration pane says how many"), "{text}");
        // A `rhoscope plan` line is one the planner accepts.
        if let Some(cmd) = text
            .split('`')
            .nth(1)
            .filter(|c| c.starts_with("rhoscope plan"))
        {
            let mut pm = rhoscope::model::Params::default();
            for set in cmd.split(" --set ").skip(1) {
                let set = set.split(" --").next().unwrap();
                rhoscope::scenario::apply_set(&mut pm, set).unwrap();
            }
            pm.validate().unwrap();
        }
    }
}

#[test]
fn the_configuration_pane_gives_the_batterys_own_reason_for_test_b() {
    let app = llm_assigned();
    assert_eq!(app.panel.as_ref().unwrap().m(), 3);
    let text = pane_rows(&app, Pane::Config, 120, 40).join(" ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!text.contains("< 3 anchors"), "{text}");
    assert!(text.contains("no Test B:"), "{text}");
    assert!(text.contains("ordinal anchors"), "{text}");
}

#[test]
fn the_hanna_scene_counts_its_anchors_alike_in_every_pane() {
    let mut app = started(Start::Demo);
    let last = app.scenes.len() - 1;
    let effects = app.show_scene(last);
    settle(&mut app, effects);
    if app.hanna.is_none() {
        return;
    }
    assert_eq!(app.panel.as_ref().unwrap().m(), 0);
    for (w, h) in SIZES {
        let t = screen(&app, w, h);
        let a = ui::areas(&app, ratatui::layout::Rect::new(0, 0, w, h));
        let config = rows_of(&t, a.config).join(" ");
        assert!(config.contains("0 anchor(s)"), "{w}x{h}: {config}");
    }
}

#[test]
fn the_loadings_line_names_the_judges_at_every_size() {
    let app = llm_assigned();
    for (w, h) in SIZES {
        let rows = pane_rows(&app, Pane::Estimates, w, h);
        let line = rows
            .iter()
            .find(|r| r.contains('λ'))
            .unwrap_or_else(|| panic!("{w}x{h}: {rows:?}"));
        // The lowest loading and the highest, by name (clipped alike where narrow).
        assert!(line.contains("lla"), "{w}x{h}: {line}");
        assert!(line.contains("orc"), "{w}x{h}: {line}");
        assert!(
            line.contains("0.58") && line.contains("0.90"),
            "{w}x{h}: {line}"
        );
    }
}

#[test]
fn roles_being_set_are_guidance_not_an_error() {
    let app = hanna_with(&[N, J, N, N]);
    let shown = app.load_error.clone().unwrap_or_default();
    assert!(shown.starts_with("roles needed"), "{shown}");
    assert!(shown.contains("1 more judge"), "{shown}");
    assert!(!shown.contains("error"), "{shown}");
}

#[test]
fn a_caption_runs_on_as_one_paragraph() {
    let mut app = llm_assigned();
    act(&mut app, Action::Next);
    let (_, lines) = caption::of(&app).unwrap();
    assert!(lines[1].is_empty(), "{lines:?}");
    let t = screen(&app, 80, 24);
    let a = ui::areas(&app, ratatui::layout::Rect::new(0, 0, 80, 24));
    let rows = rows_of(&t, a.caption);
    // Every wrapped row but the last is filled to within a word of the width.
    let body: Vec<&String> = rows
        .iter()
        .skip(1)
        .filter(|r| !r.trim().is_empty())
        .collect();
    for r in &body[..body.len() - 1] {
        assert!(r.trim_end().chars().count() > 60, "ragged: {rows:?}");
    }
}

#[test]
fn a_talk_starts_frozen_and_says_how_to_unfreeze() {
    let mut app = started(Start::Demo);
    assert!(app.frozen);
    assert!(app.status.contains("f unfreezes"), "{}", app.status);
    let before = app.scenario.clone();
    act(&mut app, Action::Fine(1));
    assert_eq!(app.scenario, before, "a stray key changes nothing");
    assert!(app.status.contains("f to unfreeze"), "{}", app.status);
    act(&mut app, Action::CloseOrQuit);
    assert!(!app.quit, "q asks first in a frozen talk");
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Demo(1), "n still steps the scenes");
}

#[test]
#[ignore = "the next step is the reading's first remedy: needs h-33a's typed remedies"]
fn the_last_step_agrees_with_the_estimate_it_reads() {
    // Tests C and J fire on this panel, and the route reads the family-blocked estimate.
    let app = started(Start::File(
        PathBuf::from("assets/families.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    let r = app.battery.as_ref().unwrap();
    assert_eq!(r.route.read, Some(Estimator::Blocked));
    let text = last_step(&app);
    assert!(text.contains("Answer (read blocked"), "{text}");
    assert!(!text.contains("should not be trusted"), "{text}");
    assert!(!text.contains("no ρ̂ can be read"), "{text}");
}

/// Roles that make no panel (one judge left) leave no "recomputing…" behind: the old panel's
/// numbers go, nothing is computing, and the data pane says what is missing.
#[test]
fn roles_that_make_no_panel_leave_nothing_recomputing() {
    let mut app = llm_assigned();
    assert!(app.panel.is_some() && !app.computing());
    let base = app.entries.len();
    // Four of the five judges become anchors, then "—" (two presses each: anchor, then —).
    for c in 2..6 {
        app.cursor = base + c;
        act(&mut app, Action::CycleRole);
        act(&mut app, Action::CycleRole);
    }
    assert!(app.panel.is_none(), "no panel for one judge");
    assert!(!app.computing(), "nothing is recomputing");
    let t = screen(&app, 80, 24);
    let text = format!("{:?}", t.backend());
    assert!(!text.contains("recomputing"), "{text}");
    assert!(text.contains("roles needed"), "{text}");
}
