//! The walkthrough's answer and advice on real Likert panels, checked against what the
//! library returns and against the screen the advice leads to.

use super::*;
use rhoscope::battery::reading::{Column, Obstacle, Outcome, Reading, Remedy, Unidentified};
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

/// The panel's reading, as the battery pane shows it.
fn reading_of(app: &App) -> &Reading {
    &app.battery.as_ref().expect("a battery").reading
}

/// The file column of a panel column, by its name in the file's header.
fn file_column(app: &App, c: Column) -> usize {
    let p = app.panel.as_ref().unwrap();
    let name = match c {
        Column::Judge(j) => &p.judges[j],
        Column::Anchor(k) => &p.anchors[k],
    };
    file_state(app)
        .header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("{name} in the header"))
}

/// Space on a file column until it has `role`.
fn cycle_to(app: &mut App, col: usize, role: Role) {
    app.cursor = app.entries.len() + col;
    for _ in 0..3 {
        if file_state(app).roles[col] == role {
            return;
        }
        act(app, Action::CycleRole);
    }
    assert_eq!(file_state(app).roles[col], role, "column {col}");
}

/// The remedy taken with the explorer's keys, as its wording says (Space or `c` on the
/// columns); `false` for one that needs new data.
fn take(app: &mut App, remedy: &Remedy) -> bool {
    match remedy {
        Remedy::MarkContinuous(cs) | Remedy::MarkOrdinal(cs) => {
            let cols: Vec<usize> = cs.iter().map(|&c| file_column(app, c)).collect();
            for c in cols {
                app.cursor = app.entries.len() + c;
                act(app, Action::ToggleScale);
            }
        }
        Remedy::LeaveOutAnchors(ks) => {
            let cols: Vec<usize> = ks
                .iter()
                .map(|&k| file_column(app, Column::Anchor(k)))
                .collect();
            for c in cols {
                cycle_to(app, c, Role::Ignored);
            }
        }
        Remedy::SetJudgeAside(j) => {
            let c = file_column(app, Column::Judge(*j));
            cycle_to(app, c, Role::Ignored);
        }
        Remedy::UseAsAnchors(names) => {
            for n in names {
                let c = file_state(app).header.iter().position(|h| h == n).unwrap();
                cycle_to(app, c, Role::Anchor);
            }
        }
        _ => return false,
    }
    true
}

/// Every next step the reading offers is one the panel can take, and taking it with the keys
/// the explorer names gives what the step promised; none that leaves every ρ̂ undefined is
/// offered. Returns how many steps were taken.
fn steps_do_what_they_say(app: &App) -> usize {
    let mut taken = 0;
    for step in &reading_of(app).next {
        assert_ne!(step.outcome, Outcome::NothingReadable, "{step:?}");
        let mut after = app.clone();
        if !take(&mut after, &step.remedy) {
            continue;
        }
        taken += 1;
        let now = reading_of(&after);
        match step.outcome {
            Outcome::Reads(e) => assert_eq!(now.answer.read, Some(e), "{step:?}: {now:?}"),
            Outcome::DefinedButGuarded { estimator, .. } | Outcome::StillFlagged(estimator) => {
                let fit = after.battery.as_ref().unwrap().fit(estimator);
                assert!(
                    fit.is_some_and(|f| f.estimate.anchors.iter().any(|a| a.rho.is_some())),
                    "{step:?}: no ρ̂ from {estimator:?}"
                );
            }
            Outcome::NothingReadable | Outcome::Unchecked => {}
        }
    }
    taken
}

/// A simulated three-anchor panel written as a file, one anchor's scores cut to the codes
/// 1–5 (an ordinal anchor among continuous ones), and opened in the explorer.
fn one_ordinal_anchor(dir: &std::path::Path) -> App {
    let pm = rhoscope::scenario::preset("three-anchor").unwrap();
    let p = rhoscope::simulate::simulate(&pm, 2000, 11).unwrap();
    let cols = p.p() + p.m();
    let mut csv = String::new();
    let names: Vec<String> = (0..p.p())
        .map(|j| format!("J{}", j + 1))
        .chain((0..p.m()).map(|k| format!("A{}", k + 1)))
        .collect();
    csv.push_str(&names.join(","));
    csv.push('\n');
    let last = cols - 1;
    let (lo, hi) = p.data[last * p.n..(last + 1) * p.n]
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    for i in 0..p.n {
        let row: Vec<String> = (0..cols)
            .map(|c| {
                let x = p.data[c * p.n + i];
                if c == last {
                    format!("{}", 1.0 + ((x - lo) / (hi - lo) * 4.0).round())
                } else {
                    format!("{x:.4}")
                }
            })
            .collect();
        csv.push_str(&row.join(","));
        csv.push('\n');
    }
    let path = dir.join("one-ordinal.csv");
    std::fs::write(&path, csv).unwrap();
    let app = started(Start::File(path, rhoscope::data::PanelRequest::default()));
    let panel = app.panel.as_ref().unwrap();
    assert!(panel.scales[panel.p() + panel.m() - 1].is_ordinal());
    app
}

#[test]
fn one_likert_anchor_is_not_identified_and_no_column_is_offered() {
    // Two Likert raters judge, the third is the one anchor; the id is the only other column.
    let app = hanna_with(&[N, J, J, A]);
    let r = reading_of(&app);
    assert_eq!(
        r.answer.obstacles,
        vec![Obstacle::NotIdentified(Unidentified::TooFewAnchors {
            anchors: 1
        })]
    );
    // No spare column: no step makes one an anchor; the Likert judges need three continuous
    // anchors, which only new data give.
    assert!(
        !r.next
            .iter()
            .any(|s| matches!(s.remedy, Remedy::UseAsAnchors(_))),
        "{:?}",
        r.next
    );
    assert_eq!(r.next[0].remedy, Remedy::CollectContinuousAnchors(3));
    let text = last_step(&app);
    assert!(
        text.contains("ρ needs ≥ 2 anchors and this panel has 1"),
        "{text}"
    );
    assert!(
        text.contains("Next: collect 3 more continuous anchors"),
        "{text}"
    );
    assert!(!text.contains("Space"), "{text}");
    assert_eq!(steps_do_what_they_say(&app), 0);
}

#[test]
fn every_remedy_offered_can_be_taken_and_gives_what_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let ordinal = one_ordinal_anchor(dir.path());
    let r = reading_of(&ordinal);
    // The ordinal anchor blocks every estimate; leaving it out (two continuous anchors stay)
    // lets the closed form be read. Scoring its 1–5 codes as numbers does not: the battery
    // re-run on that panel reads nothing, so it is not offered (trial 42 finding 22).
    assert_eq!(r.answer.read, None, "{:?}", r.answer);
    let remedies: Vec<&Remedy> = r.next.iter().map(|s| &s.remedy).collect();
    assert!(
        !remedies.contains(&&Remedy::MarkContinuous(vec![Column::Anchor(2)])),
        "{remedies:?}"
    );
    assert!(
        remedies.contains(&&Remedy::LeaveOutAnchors(vec![2])),
        "{remedies:?}"
    );
    assert!(
        matches!(r.next[0].outcome, Outcome::Reads(_)),
        "{:?}",
        r.next
    );
    assert_eq!(steps_do_what_they_say(&ordinal), 1);
    // The walkthrough's last step offers the first of them, with the explorer's keys.
    let text = last_step(&ordinal);
    assert!(text.contains("Next: "), "{text}");
    assert!(text.contains("in the data pane"), "{text}");
    for app in [llm_assigned(), llm_numbers(), hanna_with(&[N, J, J, A])] {
        steps_do_what_they_say(&app);
    }
}

#[test]
fn no_judge_is_set_aside_when_that_leaves_every_rho_undefined() {
    // The human anchors as numbers: Tests A and J fire, and the free-scale fit's identified
    // set rejects the anchors (Test O is N/A with that reason). Setting chatgpt aside passes
    // Test J, but the free-scale fit still rejects the anchors: nothing reads.
    let app = llm_numbers();
    let r = reading_of(&app);
    for t in [TestId::A, TestId::J] {
        assert_eq!(r.evidence.tests[t], Verdict::Fires, "Test {}", t.name());
    }
    assert_eq!(r.evidence.tests[TestId::O], Verdict::NotApplicable);
    assert!(
        !r.next
            .iter()
            .any(|s| matches!(s.remedy, Remedy::SetJudgeAside(_))),
        "{:?}",
        r.next
    );
    let mut aside = app.clone();
    set_roles(&mut aside, &[N, N, J, J, J, J, N, A, A, A]);
    let now = reading_of(&aside);
    assert_eq!(aside.panel.as_ref().unwrap().p(), 4);
    assert_eq!(now.evidence.tests[TestId::J], Verdict::Pass);
    assert_eq!(now.answer.read, None, "{:?}", now.answer);
    let fs = aside
        .fit
        .as_ref()
        .unwrap()
        .estimate(Estimator::FreeScale)
        .unwrap();
    assert!(fs.rho().iter().all(Option::is_none));
    // No step is offered, and the last step says why none is, not nothing.
    assert!(r.next.is_empty(), "{:?}", r.next);
    let text = last_step(&app);
    assert!(
        text.contains("Next: none found: Tests A and J fire"),
        "{text}"
    );
}

#[test]
fn no_step_reads_a_free_scale_estimate_the_library_leaves_undefined() {
    // With the anchors ordinal, or read as numbers, the free-scale ρ̂ of HANNA-LLM are
    // undefined or not computed: no step may promise them.
    let numbers = llm_numbers();
    let fs = numbers
        .fit
        .as_ref()
        .and_then(|f| f.estimate(Estimator::FreeScale))
        .expect("the free-scale fit runs on continuous anchors");
    assert!(fs.rho().iter().all(Option::is_none));
    for app in [llm_assigned(), numbers] {
        let r = reading_of(&app);
        assert_ne!(r.answer.read, Some(Estimator::FreeScale));
        for s in &r.next {
            assert_ne!(s.outcome, Outcome::Reads(Estimator::FreeScale), "{s:?}");
        }
        // Tests A and J fire on the judges alone: a change to the anchors is no step.
        assert!(
            !r.next.iter().any(|s| matches!(
                s.remedy,
                Remedy::CollectContinuousAnchors(_)
                    | Remedy::MarkContinuous(_)
                    | Remedy::LeaveOutAnchors(_)
            )),
            "{:?}",
            r.next
        );
    }
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
    // Tall enough for the whole pane: at 120×40 the reason is one `j` below, under "↓ more".
    let text = pane_rows(&app, Pane::Config, 120, 56).join(" ");
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
fn the_last_step_agrees_with_the_estimate_it_reads() {
    // Tests C and J fire on this panel, and the reading reads the family-blocked estimate.
    let app = started(Start::File(
        PathBuf::from("assets/families.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    let r = reading_of(&app);
    assert_eq!(r.answer.read, Some(Estimator::Blocked));
    // Families are given and block: no step asks for them.
    assert!(
        !r.next.iter().any(|s| s.remedy == Remedy::GiveFamilies),
        "{:?}",
        r.next
    );
    let text = last_step(&app);
    assert!(text.contains("Test C and Test J fire"), "{text}");
    assert!(
        text.contains("Answer (read the family-blocked estimate)"),
        "{text}"
    );
    assert!(!text.contains("can be read from this panel"), "{text}");
    steps_do_what_they_say(&app);
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

/// Issue 38: on HANNA-LLM coherence (LLM judges, three Likert human anchors) no ρ̂ reads and
/// Test J fires, so no trusted anchor's fit could read: the reading offers none, and the
/// walkthrough's last step says why. Pressed anyway (`t` on human1), the estimates pane says
/// why no ρ̂ reads, Test J among the reasons — never silence.
#[test]
fn coherence_offers_no_trust_that_cannot_read_and_t_says_why() {
    let app = llm_assigned();
    let r = app.battery.as_deref().unwrap();
    assert_eq!(r.reading.answer.read, None);
    assert!(
        !r.reading
            .next
            .iter()
            .any(|s| matches!(s.remedy, Remedy::TrustAnchor(_))),
        "{:?}",
        r.reading.next
    );
    let panel = app.panel.as_deref().unwrap();
    let next = rhoscope::tui::reading::next_steps(&r.reading, panel).unwrap();
    assert!(next.contains("no trusted fit can be read"), "{next}");
    let mut taken = app.clone();
    act(&mut taken, Action::Focus(Pane::Data));
    taken.cursor = taken.entries.len() + 7;
    act(&mut taken, Action::TrustAnchor);
    assert_eq!(taken.designated(), Some(0));
    let t = taken.battery.as_deref().unwrap();
    assert_eq!(t.reading.answer.read, None);
    assert!(
        t.reading.answer.obstacles.iter().any(|o| matches!(
            o,
            Obstacle::Guarded {
                test: TestId::J,
                ..
            }
        )),
        "{:?}",
        t.reading.answer.obstacles
    );
    let est = pane_rows(&taken, Pane::Estimates, 100, 30).join("\n");
    assert!(est.contains("trusting"), "{est}");
}

/// Issue 36: the worker sends the battery's verdicts first, its role-changing next steps
/// still being checked (none shown as advice), then the same report with them settled as
/// the library's battery on that panel and seed gives them.
#[test]
fn the_verdicts_arrive_before_the_steps_are_rechecked() {
    use rhoscope::battery::{Conventions, Options};
    let dir = tempfile::tempdir().unwrap();
    let mut app = one_ordinal_anchor(dir.path());
    let job = app
        .update(Action::Rerun)
        .into_iter()
        .find_map(|e| match e {
            Effect::Battery(j) => Some(j),
            _ => None,
        })
        .expect("a battery job");
    let (tx, rx) = mpsc::channel();
    let w = worker::Worker::start(tx, |m| m);
    w.battery(job.clone());
    let next = || rx.recv_timeout(Duration::from_mins(2)).expect("a result");
    let (first, second) = (next(), next());
    drop(w);
    let opts = Options {
        seed: job.seed,
        ..Options::default()
    };
    let conventions = Conventions {
        designated_clean: job.designated,
        ..Conventions::default()
    };
    let want = rhoscope::battery::run_with(&job.panel, &job.null, &opts, conventions, &silent)
        .expect("a report");
    let leave_out = Remedy::LeaveOutAnchors(vec![2]);
    assert!(want.reading.next.iter().any(|s| s.remedy == leave_out));
    let WorkerMsg::Battery { report: early, .. } = &first else {
        panic!("the verdicts first, got {first:?}");
    };
    assert!(early.reading.checking);
    assert_eq!(format!("{:?}", early.tests), format!("{:?}", want.tests));
    assert_eq!(early.reading.answer, want.reading.answer);
    assert!(!early.reading.next.iter().any(|s| s.remedy == leave_out));
    let WorkerMsg::Battery { report: late, .. } = &second else {
        panic!("the checked steps second, got {second:?}");
    };
    assert_eq!(format!("{late:?}"), format!("{want:?}"));
    // On screen: the verdicts stand (nothing recomputing), the step not yet offered.
    let panel = job.panel.as_ref();
    let offered = rhoscope::tui::reading::step(&want.reading.next[0], panel);
    let _ = app.update(Action::Worker(first));
    assert!(!app.battery_stale());
    let text = last_step(&app);
    assert!(text.contains("still being checked"), "{text}");
    assert!(!text.contains(&offered), "{text}");
    let _ = app.update(Action::Worker(second));
    let text = last_step(&app);
    assert!(!text.contains("still being checked"), "{text}");
    assert!(text.contains(&offered), "{text}");
}
