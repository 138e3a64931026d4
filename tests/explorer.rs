//! The explorer without a terminal: actions in, state and effects out; every talk scene's
//! claim checked against the battery; snapshots of every pane state at 120×40 and 60×20;
//! rendering at every small size; and the worker's latest-wins behaviour.

#![cfg(feature = "tui")]

mod common;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use rhoscope::battery::{TestId, Verdict};
use rhoscope::estimate::Estimator;
use rhoscope::progress::silent;
use rhoscope::tui::action::{Action, Effect, Pane, WorkerMsg};
use rhoscope::tui::app::{App, Mode, Settings, Source, Start};
use rhoscope::tui::scenes::{Setup, find_hanna};
use rhoscope::tui::{action_of, caption, coalesce, ui, worker};

fn settings(start: Start) -> Settings {
    Settings {
        start,
        color: false,
        files: vec![PathBuf::from("assets/mid.csv")],
        hanna: find_hanna(Some(&common::shared().join("hanna"))),
    }
}

/// Runs every effect synchronously (as the worker would) and feeds the results back.
fn settle(app: &mut App, mut effects: Vec<Effect>) {
    while let Some(e) = effects.pop() {
        let msg = match e {
            Effect::Battery(j) => worker::run_battery(&j, &silent),
            Effect::Power(j) => worker::run_power(&j, &silent),
            Effect::Load(j) => Some(worker::run_load(&j)),
            Effect::Quit => None,
        };
        if let Some(m) = msg {
            effects.extend(app.update(Action::Worker(m)));
        }
    }
}

fn started(start: Start) -> App {
    let (mut app, effects) = App::new(settings(start));
    settle(&mut app, effects);
    app
}

fn act(app: &mut App, a: Action) {
    let effects = app.update(a);
    settle(app, effects);
}

#[test]
fn default_start_fits_at_once_and_queues_battery_and_power() {
    let (app, effects) = App::new(settings(Start::Default));
    assert_eq!(app.generation, 1);
    assert!(
        app.fit.is_some(),
        "the estimate is there before any worker result"
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Battery(j) if j.generation == 1))
    );
    assert!(effects.iter().any(|e| matches!(e, Effect::Power(_))));
    assert!(app.battery_stale());
}

#[test]
fn a_slider_move_regenerates_and_stale_results_are_dropped() {
    let mut app = started(Start::Default);
    assert!(!app.battery_stale());
    let before = app.fit.clone();
    let effects = app.update(Action::Fine(1));
    assert_eq!(app.generation, 2);
    assert_ne!(app.fit, before);
    let Some(Effect::Battery(old_job)) = effects
        .into_iter()
        .find(|e| matches!(e, Effect::Battery(_)))
    else {
        panic!("a slider move queues the battery");
    };
    assert!(app.battery_stale(), "the old verdicts stay, marked stale");
    // Another move before the result: the result for generation 2 is now stale.
    let _ = app.update(Action::Fine(1));
    let msg = worker::run_battery(&old_job, &silent).unwrap();
    let _ = app.update(Action::Worker(msg));
    assert_eq!(
        app.battery_generation, 1,
        "a result for an old generation is dropped"
    );
    assert!(app.battery_stale());
}

#[test]
fn holding_a_key_down_costs_one_rerun() {
    let mut app = started(Start::Default);
    let mut effects = Vec::new();
    for _ in 0..40 {
        effects.extend(app.update(Action::Fine(1)));
    }
    let jobs = coalesce(effects);
    let batteries: Vec<u64> = jobs
        .iter()
        .filter_map(|e| match e {
            Effect::Battery(j) => Some(j.generation),
            _ => None,
        })
        .collect();
    assert_eq!(
        batteries,
        vec![app.generation],
        "only the newest battery job survives"
    );
    assert!(
        jobs.iter()
            .filter(|e| matches!(e, Effect::Power(_)))
            .count()
            <= 1
    );
}

#[test]
fn keys_quit_close_and_freeze_as_documented() {
    let mut app = started(Start::Default);
    act(&mut app, Action::ToggleHelp);
    assert!(app.help);
    assert!(
        app.update(Action::CloseOrQuit).is_empty(),
        "q closes the overlay first"
    );
    assert!(!app.help && !app.quit);
    assert!(app.update(Action::CloseOverlay).is_empty());
    assert!(!app.quit, "Esc never quits");
    act(&mut app, Action::Freeze);
    let g = app.generation;
    act(&mut app, Action::Fine(1));
    assert_eq!(app.generation, g, "a frozen screen ignores slider moves");
    act(&mut app, Action::Freeze);
    act(&mut app, Action::Focus(Pane::Battery));
    assert_eq!(app.focus, Pane::Battery);
    act(&mut app, Action::FocusNext);
    assert_eq!(app.focus, Pane::Config);
    assert!(matches!(
        app.update(Action::CloseOrQuit).as_slice(),
        [Effect::Quit]
    ));
    assert!(app.quit);
}

#[test]
fn m_and_p_sliders_change_the_design() {
    let mut app = started(Start::Default);
    let m_index = app
        .scenario
        .sliders
        .iter()
        .position(|s| s.label == "m anchors")
        .unwrap();
    app.selected = m_index;
    act(&mut app, Action::Fine(1));
    assert_eq!(app.panel.as_ref().unwrap().m(), 3);
    assert!(app.battery.as_ref().unwrap().tests[TestId::B].applicable);
    act(&mut app, Action::ResetSlider);
    assert_eq!(app.panel.as_ref().unwrap().m(), 2);
}

#[test]
fn every_talk_scene_shows_what_its_caption_claims() {
    let mut app = started(Start::Demo);
    let n_scenes = app.scenes.len();
    for i in 0..n_scenes {
        if i > 0 {
            act(&mut app, Action::Next);
        }
        assert_eq!(app.mode, Mode::Demo(i));
        let title = app.scenes[i].title;
        let r = app
            .battery
            .clone()
            .unwrap_or_else(|| panic!("{title}: no battery"));
        let fit = app.fit.clone();
        let closed = |f: &Option<rhoscope::estimate::Fits>| {
            f.as_ref().unwrap().closed_form().unwrap().clone()
        };
        let rho = |k: usize| closed(&fit).anchors[k].rho;
        let fires = |t: TestId| r.tests[t].verdict == Verdict::Fires;
        match i {
            0 => {
                assert!(TestId::ALL.iter().all(|t| !fires(*t)), "{title}");
                let boot = r.boot().unwrap();
                assert!(boot.rho[0].unwrap().contains(0.3) && boot.rho[1].unwrap().contains(0.7));
            }
            1 => assert!(r.weak_id.unwrap().flag, "{title}"),
            2 => {
                assert!(TestId::ALL.iter().all(|t| !fires(*t)), "{title}");
                assert!((rho(1).unwrap() - 0.7).abs() < 0.1, "{title}: {:?}", rho(1));
                let st2 = closed(&fit).sigma_t2;
                assert!(st2 > 1.2, "{title}: σ_t² absorbs g² (got {st2})");
            }
            3 => assert!(fires(TestId::B), "{title}"),
            4 => assert!(fires(TestId::A), "{title}"),
            5 => {
                assert!(!fires(TestId::A) && !fires(TestId::B), "{title}");
                assert!(
                    rho(1).unwrap() < 0.66,
                    "{title}: ρ̂_2 {:?} drifts toward clean",
                    rho(1)
                );
            }
            6 => {
                assert!(fires(TestId::C), "{title}");
                // The blocked estimate removes the family residual's pull: in the population
                // ρ̂_2 moves from 0.654 (naive) to 0.700. Sampling error (~0.03 at N = 4000) is
                // shared by both fits, so their difference tracks the population shift closely.
                let blocked = fit
                    .as_ref()
                    .unwrap()
                    .estimate(Estimator::Blocked)
                    .unwrap()
                    .anchors[1]
                    .rho
                    .unwrap();
                let shift = blocked - rho(1).unwrap();
                assert!(
                    (shift - (0.700 - 0.654)).abs() < 0.02,
                    "{title}: shift {shift}"
                );
                let boot = &r.fit(Estimator::Blocked).unwrap().boot;
                assert!(
                    boot.rho[1].unwrap().contains(0.7),
                    "{title}: blocked CI covers 0.7"
                );
            }
            7 => {
                let clean = fit
                    .as_ref()
                    .unwrap()
                    .estimate(Estimator::DesignatedClean)
                    .unwrap()
                    .anchors[1]
                    .rho
                    .unwrap();
                assert!(clean.abs() < 0.1, "{title}: designated clean gives {clean}");
                assert!((rho(1).unwrap() - 0.5).abs() < 0.1, "{title}");
            }
            8 => {
                assert_eq!(app.scenes[i].setup, Setup::Hanna);
                assert!(matches!(app.source, Source::File(_)));
                assert!(fires(TestId::A), "{title}");
                let a = r.tests[TestId::A].statistic.unwrap();
                assert!((a - 0.5888).abs() < 1e-4);
            }
            _ => panic!("a scene without a check: {title}"),
        }
    }
    // Deterministic: a scene shows the same numbers every time.
    let again = started(Start::Demo);
    act(&mut app, Action::Prev);
    for _ in 0..n_scenes {
        act(&mut app, Action::Prev);
    }
    assert_eq!(app.mode, Mode::Demo(0));
    // Compared as text: the designated-clean fit has a NaN denominator, and NaN ≠ NaN.
    assert_eq!(format!("{:?}", app.fit), format!("{:?}", again.fit));
    assert_eq!(format!("{:?}", app.battery), format!("{:?}", again.battery));
}

#[test]
fn without_hanna_the_last_scene_says_where_to_get_it() {
    let (mut app, effects) = App::new(Settings {
        hanna: None,
        ..settings(Start::Demo)
    });
    settle(&mut app, effects);
    let last = app.scenes.len() - 1;
    let effects = app.show_scene(last);
    assert!(effects.is_empty());
    let (_, lines) = caption::of(&app).unwrap();
    assert!(lines[0].contains("--hanna PATH"));
}

#[test]
fn files_load_in_place_roles_are_editable_and_the_walkthrough_steps() {
    let mut app = started(Start::File(
        common::root().join("assets/three-anchor.csv"),
        rhoscope::data::LoadOptions::default(),
    ));
    let Source::File(f) = &app.source else {
        panic!("a file source")
    };
    assert_eq!(f.header.len(), 9);
    assert_eq!(app.panel.as_ref().unwrap().m(), 3);
    // Walk through the diagnostics.
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Walkthrough(0));
    assert_eq!(app.focus, Pane::Config);
    for step in 1..7 {
        act(&mut app, Action::Next);
        assert_eq!(app.mode, Mode::Walkthrough(step));
        let (_, lines) = caption::of(&app).unwrap();
        assert!(!lines[0].is_empty());
    }
    // Make A3 (column 9) a judge: Space on it cycles anchor → ignored.
    act(&mut app, Action::Focus(Pane::Data));
    app.cursor = app.entries.len() + 8;
    act(&mut app, Action::CycleRole);
    assert_eq!(app.panel.as_ref().unwrap().m(), 2, "A3 is now ignored");
    // A bad file shows its error in place.
    let bad = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(bad.path(), "J1,J2,A1,A2\n1,2,x,4\n").unwrap();
    let effects = app.update(Action::Worker(WorkerMsg::Crashed));
    assert!(matches!(effects.as_slice(), [Effect::Quit]));
    let mut app = started(Start::File(
        bad.path().to_path_buf(),
        rhoscope::data::LoadOptions::default(),
    ));
    assert!(
        app.load_error
            .as_ref()
            .unwrap()
            .contains("row 2, column 'A1'")
    );
    act(&mut app, Action::Fine(1));
    assert!(app.status.contains("sliders drive simulated scenarios"));
}

// ---------- rendering ----------

fn screen(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let app = app.clone();
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::render(f, &app)).unwrap();
    t
}

fn states() -> Vec<(&'static str, App)> {
    let results = started(Start::Default);
    let mut stale = results.clone();
    let _ = stale.update(Action::Fine(1));
    let mut help = results.clone();
    act(&mut help, Action::ToggleHelp);
    let mut demo = started(Start::Demo);
    act(&mut demo, Action::Next);
    // Relative paths (tests run from the package root) keep snapshots machine-independent.
    let mut file = started(Start::File(
        PathBuf::from("assets/families.csv"),
        rhoscope::data::LoadOptions::default(),
    ));
    act(&mut file, Action::Focus(Pane::Data));
    let mut walk = file.clone();
    act(&mut walk, Action::Next);
    act(&mut walk, Action::Next);
    let mut error = started(Start::File(
        PathBuf::from("assets/commands.txt"),
        rhoscope::data::LoadOptions::default(),
    ));
    act(&mut error, Action::Focus(Pane::Data));
    let (loading, _) = App::new(settings(Start::Default));
    let mut frozen = results.clone();
    act(&mut frozen, Action::Freeze);
    vec![
        ("results", results),
        ("stale", stale),
        ("help", help),
        ("demo", demo),
        ("file", file),
        ("walkthrough", walk),
        ("error", error),
        ("loading", loading),
        ("frozen", frozen),
    ]
}

#[test]
fn snapshots_of_every_state_at_two_sizes() {
    for (name, app) in states() {
        for (w, h) in [(120, 40), (60, 20)] {
            insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(&app, w, h).backend());
        }
    }
}

#[test]
fn every_state_renders_at_every_small_size() {
    for (_, app) in states() {
        for w in 1..=40 {
            for h in 1..=14 {
                let _ = screen(&app, w, h);
            }
        }
    }
}

#[test]
fn clicks_focus_panes_and_the_wheel_moves_a_slider() {
    use crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut app = started(Start::Default);
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let a = ui::areas(area, false);
    let mouse = |kind, x: u16, y: u16| {
        Event::Mouse(MouseEvent {
            kind,
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        })
    };
    let click = mouse(
        MouseEventKind::Down(MouseButton::Left),
        a.battery.x + 2,
        a.battery.y + 2,
    );
    let action = action_of(&click, &app, area).unwrap();
    assert_eq!(
        action,
        Action::Click {
            pane: Pane::Battery
        }
    );
    act(&mut app, action);
    assert_eq!(app.focus, Pane::Battery);
    let before = app.scenario.sliders[0].value;
    let wheel = mouse(MouseEventKind::ScrollUp, a.sliders.x + 2, a.sliders.y + 2);
    let action = action_of(&wheel, &app, area).unwrap();
    act(&mut app, action);
    assert!(app.scenario.sliders[0].value > before);
}

// ---------- worker ----------

#[test]
fn worker_runs_the_newest_job_and_cancels_superseded_ones() {
    let (tx, rx) = mpsc::channel();
    let w = worker::Worker::start(tx, |m| m);
    let mut app = started(Start::Default);
    // A slow job (a large panel) immediately superseded by a fast one.
    let n_index = app
        .scenario
        .sliders
        .iter()
        .position(|s| s.label == "N items")
        .unwrap();
    app.selected = n_index;
    let _ = app.update(Action::Coarse(40));
    let slow = app.update(Action::Coarse(0));
    let _ = slow;
    let jobs = app.update(Action::Fine(-1));
    let fresh = jobs.iter().find_map(|e| match e {
        Effect::Battery(j) => Some(j.clone()),
        _ => None,
    });
    let fresh = fresh.unwrap();
    let mut stale_job = fresh.clone();
    stale_job.generation = fresh.generation - 1;
    w.battery(stale_job);
    w.battery(fresh.clone());
    // Only the newest generation's result arrives; the older one was replaced or cancelled.
    let msg = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("a result arrives");
    match msg {
        WorkerMsg::Battery { generation, .. } => assert_eq!(generation, fresh.generation),
        other => panic!("unexpected {other:?}"),
    }
    drop(w);
    assert!(rx.try_iter().all(
        |m| !matches!(m, WorkerMsg::Battery { generation, .. } if generation != fresh.generation)
    ));
}

/// The README's key table, generated from the keymap.
fn key_table() -> String {
    let mut out = String::from("| keys | action |\n|---|---|\n");
    for b in rhoscope::tui::keymap::KEYMAP {
        let keys: Vec<String> = b.keys.split(" / ").map(|k| format!("`{k}`")).collect();
        let help = match b.context {
            rhoscope::tui::keymap::Context::Global => b.help.to_string(),
            rhoscope::tui::keymap::Context::Pane(p) => format!(
                "{} (in the {} pane)",
                b.help,
                &p.title()[2..].to_lowercase()
            ),
        };
        let _ = writeln!(out, "| {} | {help} |", keys.join(" / "));
    }
    out
}

#[test]
fn readme_key_table_is_the_keymap() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let table = key_table();
    assert!(
        readme.contains(&table),
        "README's key table differs from the keymap; expected:\n{table}"
    );
}

// ---------- defects fixed with the registry refactor ----------

#[test]
fn the_status_line_survives_worker_results_and_clears_on_input() {
    let mut app = started(Start::Default);
    let job = app.update(Action::Rerun);
    act(&mut app, Action::Freeze);
    act(&mut app, Action::Fine(1));
    assert_eq!(app.status, "frozen: f to unfreeze");
    // A result landing leaves the message alone…
    settle(&mut app, job);
    assert_eq!(app.status, "frozen: f to unfreeze");
    // …and the next key press clears it.
    act(&mut app, Action::FocusNext);
    assert!(app.status.is_empty());
}

#[test]
fn the_data_pane_keeps_its_cursor_in_view() {
    let mut app = started(Start::File(
        common::root().join("assets/three-anchor.csv"),
        rhoscope::data::LoadOptions::default(),
    ));
    act(&mut app, Action::Focus(Pane::Data));
    act(&mut app, Action::Bottom);
    let s = format!("{:?}", screen(&app, 100, 30).backend());
    assert!(s.contains("▸ A3"), "the last column is on screen:\n{s}");
}

#[test]
fn histories_are_capped_ring_buffers() {
    let mut app = started(Start::Default);
    for i in 0..(rhoscope::tui::app::HISTORY + 5) {
        act(&mut app, Action::Fine(if i % 2 == 0 { 1 } else { -1 }));
    }
    assert_eq!(app.history.rho[0].len(), rhoscope::tui::app::HISTORY);
}
