//! Trial 44's explorer findings: family keys that cycle and confirm, slider keys that say
//! when they are at a bound, and every data row's missing count.

use super::*;
use rhoscope::tui::sliders::Knob;

fn mid_file() -> App {
    started(Start::File(
        PathBuf::from("assets/mid.csv"),
        rhoscope::data::PanelRequest::default(),
    ))
}

fn on_column(app: &mut App, name: &str) {
    let c = file_state(app)
        .header
        .iter()
        .position(|h| h == name)
        .expect("the column");
    app.cursor = app.entries.len() + c;
}

fn family_of(app: &App, name: &str) -> Option<String> {
    let f = file_state(app);
    let c = f.header.iter().position(|h| h == name).unwrap();
    f.families[c].clone()
}

/// Finding 9: `+` steps a judge through none, the other judges' families and one new label,
/// and comes back to none; it never flips between two fresh names.
#[test]
fn plus_cycles_through_existing_families_a_new_one_and_none() {
    let mut app = mid_file();
    act(&mut app, Action::Focus(Pane::Data));
    on_column(&mut app, "J1");
    act(&mut app, Action::Family(1));
    let j1 = family_of(&app, "J1").expect("J1 in a family");
    on_column(&mut app, "J2");
    let mut seen = Vec::new();
    for _ in 0..3 {
        act(&mut app, Action::Family(1));
        seen.push(family_of(&app, "J2"));
    }
    assert_eq!(seen[0].as_deref(), Some(j1.as_str()), "{seen:?}");
    assert!(
        seen[1].is_some() && seen[1] != seen[0],
        "a new family: {seen:?}"
    );
    assert_eq!(seen[2], None, "back to no family: {seen:?}");
    // From none the cycle starts again at J1's family.
    act(&mut app, Action::Family(1));
    assert_eq!(family_of(&app, "J2").as_deref(), Some(j1.as_str()));
}

/// Finding 10: `F`, a name and Enter say on the status line what `+` says.
#[test]
fn typing_a_family_confirms_it_on_the_status_line() {
    let mut app = mid_file();
    act(&mut app, Action::Focus(Pane::Data));
    on_column(&mut app, "J3");
    act(&mut app, Action::TypeFamily);
    type_text(&mut app, "llama");
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    assert_eq!(family_of(&app, "J3").as_deref(), Some("llama"));
    assert!(
        app.status.contains("'J3' in family llama"),
        "{}",
        app.status
    );
}

/// Finding 18: a slider key at a bound says so, with the range, on the status line.
#[test]
fn a_slider_key_at_its_bound_says_so() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Sliders));
    let m = app
        .scenario
        .sliders
        .iter()
        .position(|s| s.knob == Knob::M)
        .unwrap();
    app.selected = m;
    act(&mut app, Action::Fine(-1));
    assert_eq!(app.scenario.get(Knob::M), 2.0);
    assert!(app.status.contains("at its bound"), "{}", app.status);
    assert!(app.status.contains("2 … "), "{}", app.status);
    app.selected = 0;
    app.scenario.sliders[0].value = 0.99;
    act(&mut app, Action::Coarse(1));
    assert!(app.status.contains("ρ_1 at its bound"), "{}", app.status);
}

/// Hostile 44, finding 15: while a file is read at start, the status line says "loading…" and
/// the estimates pane makes no claim about judges; a size refusal is headed "too large", not
/// "roles needed".
#[test]
fn a_file_being_read_says_loading_and_a_size_refusal_is_not_about_roles() {
    let (mut app, effects) = App::new(settings(Start::File(
        PathBuf::from("assets/mid.csv"),
        rhoscope::data::PanelRequest::default(),
    )));
    let generation = effects
        .iter()
        .find_map(|e| match e {
            Effect::Load(j) => Some(j.generation),
            _ => None,
        })
        .expect("the file is read in the background");
    for (w, h) in [(80, 24), (100, 30)] {
        let t = screen(&app, w, h);
        let rows = rows_of(&t, ratatui::layout::Rect::new(0, 0, w, h));
        let status = rows.last().unwrap();
        assert!(status.contains("loading…"), "{w}×{h}: {status}");
        let est = pane_rows(&app, Pane::Estimates, w, h).join(" ");
        assert!(!est.contains("needs ≥ 2 judges"), "{w}×{h}: {est}");
    }
    let message = format!(
        "big.csv: more than 8388608 rows × 8 judge and anchor columns {} 67108864 cells",
        rhoscope::data::limits::OVER_LIMIT
    );
    act(
        &mut app,
        Action::Worker(WorkerMsg::Loaded {
            generation,
            result: Err(rhoscope::tui::action::LoadFailure {
                message,
                header: (1..=8).map(|i| format!("c{i}")).collect(),
                family_file: Vec::new(),
                fixable_by_roles: true,
                column: None,
            }),
        }),
    );
    let said = app.load_error.clone().unwrap_or_default();
    assert!(said.starts_with("too large: "), "{said}");
    assert!(!said.contains("roles needed"), "{said}");
}

/// The Likert fixture (five continuous judges, three 5-level anchors) with A1 trusted.
fn likert_a1_trusted() -> App {
    let mut app = started(Start::File(
        PathBuf::from("tests/fixtures/likert_anchors.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    act(&mut app, Action::Focus(Pane::Data));
    app.cursor = app.entries.len() + 5;
    act(&mut app, Action::TrustAnchor);
    assert_eq!(app.designated(), Some(0));
    app
}

/// The walkthrough's captions, from step 1 to the last.
fn captions(app: &App) -> Vec<String> {
    let mut app = app.clone();
    act(&mut app, Action::Next);
    let mut out = Vec::new();
    for _ in 0..rhoscope::tui::app::Step::all().len() {
        let (_, lines) = caption::of(&app).unwrap();
        out.push(lines.join(" "));
        act(&mut app, Action::Next);
    }
    out
}

/// The battery overlay's text, one string.
fn overlay(app: &App) -> String {
    rhoscope::tui::panes::detail::lines(app, rhoscope::tui::theme::Theme { color: false }, 300)
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Finding 1: on hanna-llm's ordinal anchors, where Test J fires, Test A's step and the
/// overlay offer no free-scale route; what to do is the reading's, which offers none.
#[test]
fn test_a_offers_no_route_the_panel_cannot_take() {
    let app = llm_assigned();
    let r = app.battery.as_deref().unwrap();
    assert_eq!(r.tests[TestId::A].verdict, Verdict::Fires);
    assert_eq!(r.tests[TestId::J].verdict, Verdict::Fires);
    // Test J fires, so trusting a human anchor would read nothing either: none is offered.
    assert!(r.reading.next.is_empty(), "{:?}", r.reading.next);
    let steps = captions(&app);
    let a = steps.iter().find(|s| s.starts_with("Test A")).unwrap();
    assert!(!a.contains("free-scale estimate, which"), "{a}");
    assert!(!a.contains("Fix the panel"), "{a}");
    let full = overlay(&app);
    assert!(!full.contains("Fix the panel"), "{full}");
}

/// Findings 6 and 3: the walkthrough's last step gives every next step `battery` gives (the
/// families too), and the overlay ends with the same "Next steps".
#[test]
fn every_next_step_is_in_the_last_step_and_the_overlay() {
    let app = likert_a1_trusted();
    let r = app.battery.as_deref().unwrap();
    let panel = app.panel.as_deref().unwrap();
    assert!(r.reading.next.len() >= 2, "{:?}", r.reading.next);
    assert!(
        r.reading
            .next
            .iter()
            .any(|s| s.remedy == rhoscope::battery::reading::Remedy::GiveFamilies)
    );
    let last = captions(&app).pop().unwrap();
    let full = overlay(&app);
    let tail = full.split("Next steps").nth(1).expect("a Next steps block");
    for s in &r.reading.next {
        let words = rhoscope::tui::reading::step(s, panel);
        assert!(last.contains(&words), "{words}: {last}");
        assert!(tail.replace('\n', " ").contains(&words), "{words}: {tail}");
    }
    assert!(last.contains("families"), "{last}");
    // Where nothing reads and no step is offered, the overlay says why, as the last step does,
    // trusting an anchor included (Test J fires, so no trusted fit can be read).
    let llm = llm_assigned();
    let full = overlay(&llm);
    let tail = full.split("Next steps").nth(1).expect("a Next steps block");
    let tail = tail.replace('\n', " ");
    let last = captions(&llm).pop().unwrap();
    for text in [&tail, &last] {
        assert!(text.contains("none found"), "{text}");
        assert!(text.contains("no trusted fit can be read"), "{text}");
        assert!(!text.contains("no ρ̂ can be read even then"), "{text}");
    }
}

/// The trusted anchor's row on the estimates pane at 100×30: assumed, with no interval and
/// no verdict of its own.
#[test]
fn the_trusted_anchors_row_says_assumed_with_no_interval() {
    let app = likert_a1_trusted();
    let rows = pane_rows(&app, Pane::Estimates, 100, 30);
    let a1: Vec<&String> = rows
        .iter()
        .filter(|r| r.contains("A1") && !r.contains("read:") && !r.contains("designated clean A1"))
        .collect();
    assert!(!a1.is_empty(), "{}", rows.join("\n"));
    let row = a1[0];
    assert!(row.contains("ρ = 0 (assumed)"), "{row}");
    assert!(!row.contains('['), "{row}");
    for verdict in ["contaminated", "not distinguishable", "clean)"] {
        assert!(!row.contains(verdict), "{row}");
    }
    let all = rows.join("\n");
    assert!(!all.contains("[0.00, 0.00]"), "{all}");
}

/// Trial 44 finding 20: with roles set and the panel refused, `n`, `V` and the battery
/// overlay each gave another reason ("set roles first", "this panel has 0 judges", "no
/// battery yet"). They now word the one fact the battery pane words: these roles make no
/// panel, and the data pane says why.
#[test]
fn a_refused_panel_gives_one_reason_to_every_key() {
    let mut app = llm_assigned();
    act(&mut app, Action::Focus(Pane::Data));
    // The state a refused load leaves: every role set, no panel and no battery.
    app.panel = None;
    app.battery = None;
    let why = rhoscope::tui::reading::why_no_panel(&app);
    assert!(why.contains("these roles make none"), "{why}");
    let mut n = app.clone();
    act(&mut n, Action::Next);
    assert_eq!(n.status, why);
    let mut v = app.clone();
    act(&mut v, Action::Validate);
    assert_eq!(v.status, why);
    let overlay =
        rhoscope::tui::panes::detail::lines(&app, rhoscope::tui::theme::Theme { color: false }, 80);
    let text: String = overlay.iter().map(ToString::to_string).collect();
    assert_eq!(text, why);
    let pane = pane_rows(&app, Pane::Battery, 100, 30).join(" ");
    assert!(pane.contains("these roles make none"), "{pane}");
}

/// The overlay's range screen says what it caught by the flags' kinds: on hanna-llm's Likert
/// anchors the closed form reads codes as numbers (a scale flag), which is no admissible-range
/// violation, and the heading does not call it one.
#[test]
fn the_range_screen_words_its_flags_by_kind() {
    let llm = llm_assigned();
    let r = llm.battery.as_deref().unwrap();
    let rhoscope::battery::reading::RangeVerdict::OutOfRange(codes) = &r.reading.evidence.range
    else {
        panic!("{:?}", r.reading.evidence.range)
    };
    let kinds: Vec<_> = codes.iter().map(|c| c.kind()).collect();
    assert!(
        kinds.contains(&rhoscope::estimate::FlagKind::Scale),
        "{kinds:?}"
    );
    let full = overlay(&llm);
    let guard = full
        .split("\nrange ")
        .nth(1)
        .and_then(|t| t.lines().find(|l| l.starts_with("guards against:")))
        .unwrap_or_else(|| panic!("{full}"))
        .to_string();
    assert!(guard.contains("a scale it cannot use"), "{guard}");
    assert!(!guard.contains("outside the admissible range"), "{guard}");
}
