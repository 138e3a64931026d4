//! The explorer without a terminal: actions in, state and effects out. Shared helpers and the
//! snapshots of every state at three sizes live here; the tests are split by pane: the data
//! pane, the other panes, talk mode, and the background worker.

#![cfg(feature = "tui")]

#[path = "../common/mod.rs"]
mod common;

mod advice;
mod background;
mod data_pane;
mod panes;
mod reading;
mod suspend;
mod talk;
mod trial33;
mod trial44;
mod trial45;
mod trust;
mod usability;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use rhoscope::battery::{TestId, Verdict};
use rhoscope::estimate::Estimator;
use rhoscope::progress::silent;
use rhoscope::tui::action::{Action, Effect, Pane, PromptEdit, WorkerMsg};
use rhoscope::tui::app::{App, Mode, Role, Settings, Source, Start};
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
            Effect::Validate(j) => worker::run_validate(&j, &silent),
            Effect::Figure { figure, stem } => {
                let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
                let written = rhoscope::tui::figure::write_new(dir, &stem, &figure);
                effects.extend(app.update(Action::FigureWritten(written)));
                None
            }
            // The planner is the worker's lowest priority: left pending here (one test runs it).
            Effect::Quit | Effect::CancelValidate | Effect::Plan(_) => None,
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

/// Types `text` into the open prompt, a key at a time.
fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        act(app, Action::Prompt(PromptEdit::Insert(c)));
    }
}

/// The caption names every test that fires on its scene.
fn caption_names_every_firing_test(app: &App, r: &rhoscope::battery::BatteryReport, title: &str) {
    let (_, lines) = caption::of(app).unwrap();
    let text = lines.join(" ");
    for t in TestId::ALL {
        if r.tests[t].verdict != Verdict::Fires {
            continue;
        }
        let n = t.name();
        assert!(
            text.contains(&format!("Test {n}"))
                || (text.contains("Tests ") && text.contains(&format!(" {n} "))),
            "{title}: the caption does not mention Test {n}: {text}"
        );
    }
}

/// Scene 7's claim checked against the numbers printed on screen: the naive ρ̂_2 and the
/// blocked one, as shown in the presentation layout at 100×30, sit on their population
/// values, and the naive one is visibly off the truth.
fn scene_7_screen_agrees(app: &App, title: &str, naive: f64, blocked: f64) {
    for (w, h) in [(100, 30), (80, 24)] {
        scene_7_screen_agrees_at(app, &format!("{title} at {w}×{h}"), naive, blocked, w, h);
    }
}

/// Scene 7's estimates pane at one size: the caption cites the closed form's line, so it is
/// on screen.
fn scene_7_screen_agrees_at(app: &App, title: &str, naive: f64, blocked: f64, w: u16, h: u16) {
    let t = screen(app, w, h);
    let a = ui::areas(app, ratatui::layout::Rect::new(0, 0, w, h));
    let shown = rows_of(&t, a.estimates).join("\n");
    // The pane leads with the blocked estimate the reading names; the closed form's tuple
    // sits below it.
    let naive_text = format!("{naive:.3})");
    let blocked_text = format!("ρ̂ {blocked:.3}");
    assert!(
        shown.contains(&naive_text),
        "{title}: {naive_text} in {shown}"
    );
    assert!(
        shown.contains(&blocked_text),
        "{title}: {blocked_text} in {shown}"
    );
    let on_screen = |s: &str| -> f64 {
        s.trim_start_matches("ρ̂ ")
            .trim_end_matches(')')
            .parse()
            .unwrap()
    };
    assert!((on_screen(&naive_text) - 0.654).abs() < 0.01, "{title}");
    assert!((on_screen(&blocked_text) - 0.700).abs() < 0.01, "{title}");
    assert!(
        (on_screen(&naive_text) - 0.700).abs() > 0.03,
        "{title}: visibly off"
    );
}

// ---------- real files ----------

/// The HANNA-LLM coherence panel, as a new user opens it from inside the explorer: the loader
/// cannot guess roles from model names, so the header is listed with role "—".
fn llm_unassigned() -> App {
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    // Relative to the package root, so that snapshots do not depend on the machine.
    let path = "../shared/data/hanna-llm/hanna_llm_coherence.csv";
    let full = common::shared().join("hanna-llm/hanna_llm_coherence.csv");
    let path = if PathBuf::from(path).is_file() {
        path.to_string()
    } else {
        full.display().to_string()
    };
    type_text(&mut app, &path);
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    app
}

/// …and assigns the five LLM columns as judges and the three human columns as anchors.
fn llm_assigned() -> App {
    let mut app = llm_unassigned();
    assign_llm_roles(&mut app);
    app
}

/// Space on the HANNA-LLM columns: the five LLMs judges, the three humans anchors.
fn assign_llm_roles(app: &mut App) {
    let base = app.entries.len();
    for c in 2..7 {
        app.cursor = base + c;
        act(app, Action::CycleRole);
    }
    for c in 7..10 {
        app.cursor = base + c;
        act(app, Action::CycleRole);
        act(app, Action::CycleRole);
    }
}

fn file_state(app: &App) -> &rhoscope::tui::app::FileState {
    match &app.source {
        Source::File(f) => f,
        Source::Scenario => panic!("a file source"),
    }
}

// ---------- rendering ----------

/// The text of a rectangle of a rendered screen, one string per row.
fn rows_of(t: &Terminal<TestBackend>, r: ratatui::layout::Rect) -> Vec<String> {
    let buf = t.backend().buffer();
    (r.y..r.bottom())
        .map(|y| {
            (r.x..r.right())
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

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
        rhoscope::data::PanelRequest::default(),
    ));
    act(&mut file, Action::Focus(Pane::Data));
    let mut walk = file.clone();
    act(&mut walk, Action::Next);
    act(&mut walk, Action::Next);
    let mut error = started(Start::File(
        PathBuf::from("assets/commands.txt"),
        rhoscope::data::PanelRequest::default(),
    ));
    act(&mut error, Action::Focus(Pane::Data));
    let (loading, _) = App::new(settings(Start::Default));
    let mut frozen = results.clone();
    act(&mut frozen, Action::Freeze);
    let llm_raw = llm_unassigned();
    let llm = llm_assigned();
    let mut llm_walk = llm.clone();
    act(&mut llm_walk, Action::Next);
    let mut llm_verdict = llm_walk.clone();
    for _ in 0..6 {
        act(&mut llm_verdict, Action::Next);
    }
    let mut explore_demo = demo.clone();
    // A talk starts frozen: `f`, then `v` shows the panes.
    act(&mut explore_demo, Action::Freeze);
    act(&mut explore_demo, Action::TogglePresent);
    let mut detail = llm.clone();
    act(&mut detail, Action::Focus(Pane::Battery));
    act(&mut detail, Action::ToggleDetail);
    let mut notes = started(Start::File(
        PathBuf::from("tests/fixtures/notes.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    act(&mut notes, Action::Focus(Pane::Data));
    let validated = llm_validated();
    let mut prompt = results.clone();
    act(&mut prompt, Action::OpenPrompt);
    for c in "../shared/da".chars() {
        act(&mut prompt, Action::Prompt(PromptEdit::Insert(c)));
    }
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
        ("llm_unassigned", llm_raw),
        ("llm_assigned", llm),
        ("llm_walkthrough", llm_walk),
        ("llm_overall", llm_verdict),
        ("demo_panes", explore_demo),
        ("prompt", prompt),
        ("detail", detail),
        ("notes", notes),
        ("llm_validated", validated),
    ]
}

/// The sizes people use: a default terminal, a common laptop split, a large window.
const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

#[test]
fn snapshots_of_every_state_at_three_sizes() {
    for (name, app) in states() {
        for (w, h) in SIZES {
            // The snapshots stay in tests/snapshots, beside the other tests'.
            insta::with_settings!({ snapshot_path => "../snapshots" }, {
                insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(&app, w, h).backend());
            });
        }
    }
}

/// The key table of docs/explorer.md, generated from the keymap.
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
    // The table lives in the explorer's own page where there is one, else in the README.
    let page = ["docs/explorer.md", "README.md"]
        .into_iter()
        .map(|f| common::root().join(f))
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("| keys | action |")))
        .expect("a page with the key table");
    let text = std::fs::read_to_string(&page).unwrap();
    let table = key_table();
    assert!(
        text.contains(&table),
        "{}'s key table differs from the keymap; expected:\n{table}",
        page.display()
    );
}

/// The LLM panel after `V`, with a small study (6 runs, 30 resamples each) standing in for
/// the explorer's 24 × 200 so the suite stays fast; returns the app and the job it queued.
fn llm_validated() -> App {
    let mut app = llm_assigned();
    let effects = app.update(Action::Validate);
    let [Effect::Validate(job)] = effects.as_slice() else {
        panic!("V queues one validation job: {effects:?}");
    };
    let mut job = job.clone();
    job.options.reps = 6;
    job.options.bootstrap = 30;
    let msg = worker::run_validate(&job, &silent).expect("not cancelled");
    act(&mut app, Action::Worker(msg));
    act(&mut app, Action::Focus(Pane::Estimates));
    app
}

/// The rows of `pane`'s content (inside its border) after drawing `app` at `w` × `h`, the
/// app itself (not a clone) so that the draw tells it how far the pane scrolls.
fn pane_rows(app: &App, pane: Pane, w: u16, h: u16) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::render(f, app)).unwrap();
    let r = ui::areas(app, ratatui::layout::Rect::new(0, 0, w, h)).of(pane);
    let inner = ratatui::layout::Rect::new(r.x + 1, r.y + 1, r.width - 2, r.height - 2);
    rows_of(&t, inner)
        .into_iter()
        .map(|s| s.trim_end().to_string())
        .collect()
}

/// A copy of the HANNA-LLM panel opened through the prompt, roles set, in `dir`.
fn llm_copy_assigned(dir: &std::path::Path) -> App {
    let src = common::shared().join("hanna-llm/hanna_llm_coherence.csv");
    let copy = dir.join("copy.csv");
    std::fs::copy(&src, &copy).unwrap();
    let mut app = started(Start::Default);
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, &copy.display().to_string());
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    assign_llm_roles(&mut app);
    app
}

/// The decimal numbers written in `text` ("0.589", "-0.001" as "0.001").
fn decimals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (c == '.' && !cur.is_empty() && !cur.contains('.')) {
            cur.push(c);
        } else {
            if cur.contains('.') && !cur.ends_with('.') {
                out.push(cur.clone());
            }
            cur.clear();
        }
    }
    out
}
