//! The background worker and the validation study: latest-wins jobs, progress, cancelling.

use super::*;

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
        .recv_timeout(Duration::from_mins(1))
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
    // …and the next key press replaces it.
    act(&mut app, Action::Freeze);
    assert_eq!(app.status, "live again");
    act(&mut app, Action::FocusNext);
    assert!(app.status.is_empty());
}

/// The validation job: a small study of a loaded panel comes back tagged with its generation;
/// a progress callback that says stop (Esc, another file) ends it with nothing to send.
#[test]
fn validation_job_runs_and_cancels() {
    use rhoscope::tui::action::ValidateJob;
    use std::sync::Arc;
    let pm = rhoscope::scenario::preset("mid").unwrap();
    let panel = Arc::new(rhoscope::simulate::simulate(&pm, 200, 3).unwrap());
    let job = ValidateJob {
        generation: 7,
        panel,
        options: rhoscope::validate::Options {
            inject: rhoscope::validate::DEFAULT_INJECT.to_vec(),
            ns: vec![200],
            reps: 4,
            seed: 1,
            bootstrap: 0,
            null_draws: 0,
            thresholds: rhoscope::validate::Thresholds::Own,
        },
    };
    match worker::run_validate(&job, &silent) {
        Some(WorkerMsg::Validated {
            generation: 7,
            result: Ok(study),
        }) => assert_eq!(study.cells[0].reps, 4),
        other => panic!("unexpected {other:?}"),
    }
    let stop = |_: rhoscope::progress::Progress| rhoscope::progress::Flow::Stop;
    assert!(worker::run_validate(&job, &stop).is_none());
    // Unusable options are a one-line message, not a panic.
    let mut bad = job.clone();
    bad.options.reps = 0;
    match worker::run_validate(&bad, &silent) {
        Some(WorkerMsg::Validated { result: Err(e), .. }) => assert!(!e.contains('\n')),
        other => panic!("unexpected {other:?}"),
    }
}

/// `V`: on a simulated scenario it says it needs a file; on a file it queues the study for
/// the data on screen, counts its replicates on the status line, cancels on a second `V`, on
/// `Esc` and when the data change, drops a study of older data, and shows the finished table
/// in the estimates pane until `V` is pressed again.
#[test]
fn v_validates_the_file_in_the_background_and_shows_the_recovery_table() {
    let mut sim = started(Start::Default);
    assert!(sim.update(Action::Validate).is_empty());
    assert!(sim.status.contains("o opens one"), "{}", sim.status);
    let status = rows_of(
        &screen(&sim, 80, 24),
        ratatui::layout::Rect::new(0, 23, 80, 1),
    );
    assert!(
        status[0].contains("V works on a file's own textures: o opens one"),
        "{status:?}"
    );

    let mut app = llm_assigned();
    let generation = app.generation;
    let effects = app.update(Action::Validate);
    let [Effect::Validate(job)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(job.generation, generation);
    assert_eq!(job.options.ns, vec![app.panel.as_ref().unwrap().n]);
    assert_eq!(job.options.reps, 24);
    // Progress reaches the status line whole, at the smallest common size.
    let _ = app.update(Action::Worker(WorkerMsg::Validating {
        generation,
        done: 5,
        total: 24,
    }));
    let status = rows_of(
        &screen(&app, 80, 24),
        ratatui::layout::Rect::new(0, 23, 80, 1),
    );
    assert!(
        status[0].contains("validating 5/24 (V stops)"),
        "{status:?}"
    );
    // A second V cancels; so does Esc; so does a change of the data.
    assert!(matches!(
        app.update(Action::Validate).as_slice(),
        [Effect::CancelValidate]
    ));
    assert!(app.validating.is_none());
    let _ = app.update(Action::Validate);
    assert!(matches!(
        app.update(Action::CloseOverlay).as_slice(),
        [Effect::CancelValidate]
    ));
    let _ = app.update(Action::Validate);
    app.cursor = app.entries.len() + 9;
    let effects = app.update(Action::CycleRole);
    assert!(
        effects.iter().any(|e| matches!(e, Effect::CancelValidate)),
        "{effects:?}"
    );
    assert!(app.validating.is_none());
    assert!(app.status.contains("the data changed"), "{}", app.status);
    // A result for the old data is dropped.
    let mut old = job.clone();
    old.options.reps = 2;
    old.options.bootstrap = 0;
    let msg = worker::run_validate(&old, &silent).unwrap();
    let _ = app.update(Action::Worker(msg));
    assert!(app.study_of_screen().is_none());

    // The finished study fills the estimates pane, every mean ± SD whole, at each size.
    let mut app = llm_validated();
    assert!(app.showing_validation());
    let study = app.study_of_screen().unwrap().clone();
    let cell = &study.cells[0];
    assert_eq!(cell.reps, 6);
    for (w, h) in SIZES {
        let t = screen(&app, w, h);
        let a = ui::areas(&app, ratatui::layout::Rect::new(0, 0, w, h));
        let mut text = rows_of(&t, a.estimates).join("\n");
        // Scroll through the pane: what is below its fold must be reachable.
        for _ in 0..30 {
            act(&mut app, Action::Down);
            text.push_str(&rows_of(&screen(&app, w, h), a.estimates).join("\n"));
        }
        act(&mut app, Action::Top);
        for r in &cell.estimators {
            for x in &r.anchors {
                let m = format!("{:.2}±{:.2}", x.mean.unwrap(), x.sd.unwrap());
                assert!(text.contains(&m), "{w}×{h}: {m} in {text}");
                let cov = format!("{:.2}", x.coverage.unwrap());
                assert!(text.contains(&cov), "{w}×{h}: coverage {cov}");
            }
            assert!(
                text.contains(&format!("ordered in {}/6 runs", r.ordered)),
                "{w}×{h}: {text}"
            );
        }
        assert!(text.contains("false alarms"), "{w}×{h}: {text}");
    }
    // V goes back to the estimates, and again to the table, without rerunning.
    assert!(app.update(Action::Validate).is_empty());
    assert!(!app.showing_validation());
    let t = screen(&app, 80, 24);
    let a = ui::areas(&app, ratatui::layout::Rect::new(0, 0, 80, 24));
    assert!(rows_of(&t, a.estimates).join("").contains("ρ̂ "));
    assert!(app.update(Action::Validate).is_empty());
    assert!(app.showing_validation());
}

/// The worker's validation slot: progress messages count replicates up to the total, a
/// cancelled study sends no result, and a study submitted after it runs to the end.
#[test]
fn the_worker_reports_validation_progress_and_cancels_it() {
    use rhoscope::tui::action::ValidateJob;
    let (tx, rx) = mpsc::channel();
    let w = worker::Worker::start(tx, |m| m);
    let pm = rhoscope::scenario::preset("mid").unwrap();
    let panel = std::sync::Arc::new(rhoscope::simulate::simulate(&pm, 300, 3).unwrap());
    let options = rhoscope::validate::Options {
        inject: rhoscope::validate::DEFAULT_INJECT.to_vec(),
        ns: vec![300],
        reps: 4000,
        seed: 1,
        bootstrap: 0,
        null_draws: 0,
        thresholds: rhoscope::validate::Thresholds::Own,
    };
    let long = ValidateJob {
        generation: 1,
        panel: std::sync::Arc::clone(&panel),
        options: options.clone(),
    };
    w.validate(long);
    // Wait for the first progress message, then cancel.
    loop {
        match rx.recv_timeout(Duration::from_mins(1)).expect("progress") {
            WorkerMsg::Validating { done, total, .. } => {
                assert_eq!(total, 4000);
                assert!(done >= 1);
                break;
            }
            WorkerMsg::Battery { .. } | WorkerMsg::Power { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    w.cancel_validate();
    let short = ValidateJob {
        generation: 2,
        panel,
        options: rhoscope::validate::Options { reps: 3, ..options },
    };
    w.validate(short);
    let mut last = 0;
    loop {
        match rx.recv_timeout(Duration::from_mins(2)).expect("a result") {
            WorkerMsg::Validating {
                generation: 2,
                done,
                total,
            } => {
                assert_eq!(total, 3);
                last = done;
            }
            WorkerMsg::Validating { generation: 1, .. } => {}
            WorkerMsg::Validated { generation, result } => {
                // The cancelled study never reports; the new one finishes whole.
                assert_eq!(generation, 2);
                assert_eq!(result.unwrap().cells[0].reps, 3);
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(last, 3);
}

/// The configuration pane shows the planner's N for the scenario on screen: pending while the
/// worker computes it, then the smallest N found (reached there, not reached 5 % below), as
/// `rhoscope plan --target ci-width=0.2` would give for this configuration; a slider move asks
/// again and moving back finds the answer kept.
#[test]
fn the_configuration_pane_shows_the_planners_n_for_the_scenario() {
    let (mut app, effects) = App::new(settings(Start::Default));
    let job = effects
        .iter()
        .find_map(|e| match e {
            Effect::Plan(j) => Some(j.clone()),
            _ => None,
        })
        .expect("the start queues the planner");
    settle(&mut app, effects);
    assert_eq!(job.design, app.scenario.params());
    let config = |app: &App| {
        let t = screen(app, 120, 40);
        let a = ui::areas(app, ratatui::layout::Rect::new(0, 0, 120, 40));
        rows_of(&t, a.config).join("\n")
    };
    assert!(
        config(&app).contains("N for every 95% CI ≤ 0.2 wide: computing…"),
        "{}",
        config(&app)
    );
    let Some(WorkerMsg::Planned { design, plan }) = worker::run_plan(&job, &silent) else {
        panic!("the planner answers");
    };
    assert_eq!(*design, job.design);
    let plan = plan.expect("a plan");
    let n = plan.n.expect("reached below the search's limit");
    let at = plan.evaluations.iter().find(|e| e.n == n).unwrap();
    assert!(at.reached && at.value.unwrap() <= 0.2, "{at:?}");
    assert!(
        plan.evaluations
            .iter()
            .any(|e| !e.reached && e.n < n && e.n as f64 >= 0.95 * n as f64 - 1.0),
        "a failing N within 5 % below: {plan:?}"
    );
    act(
        &mut app,
        Action::Worker(WorkerMsg::Planned {
            design,
            plan: Ok(plan),
        }),
    );
    let shown = format!("N for every 95% CI ≤ 0.2 wide: N ≈ {n}");
    assert!(config(&app).contains(&shown), "{}", config(&app));
    // A new configuration asks again; the old one's answer is kept for when it comes back.
    let effects = app.update(Action::Fine(1));
    assert!(effects.iter().any(|e| matches!(e, Effect::Plan(_))));
    settle(&mut app, effects);
    assert!(config(&app).contains("computing…"));
    let effects = app.update(Action::Fine(-1));
    assert!(!effects.iter().any(|e| matches!(e, Effect::Plan(_))));
    settle(&mut app, effects);
    assert!(config(&app).contains(&shown), "{}", config(&app));
}

/// A background job of seconds (the planner) yields to a battery submitted while it runs,
/// whose verdicts arrive first; the planner is queued again and then finishes.
#[test]
fn the_planner_yields_to_the_battery_and_then_resumes() {
    use rhoscope::tui::action::PlanJob;
    let (tx, rx) = mpsc::channel();
    let w = worker::Worker::start(tx, |m| m);
    let mut app = started(Start::Default);
    w.plan(PlanJob {
        design: app.scenario.params(),
    });
    std::thread::sleep(Duration::from_millis(100));
    let job = app
        .update(Action::Fine(1))
        .into_iter()
        .find_map(|e| match e {
            Effect::Battery(j) => Some(j),
            _ => None,
        })
        .unwrap();
    w.battery(job.clone());
    match rx.recv_timeout(Duration::from_mins(2)).expect("a result") {
        WorkerMsg::Battery { generation, .. } => assert_eq!(generation, job.generation),
        other => panic!("the battery first, got {other:?}"),
    }
    // The same run's next steps, checked, may come before the plan.
    let mut msg = rx.recv_timeout(Duration::from_mins(10)).expect("the plan");
    if matches!(msg, WorkerMsg::Battery { generation, .. } if generation == job.generation) {
        msg = rx.recv_timeout(Duration::from_mins(10)).expect("the plan");
    }
    match msg {
        WorkerMsg::Planned { plan, .. } => assert!(plan.is_ok()),
        other => panic!("unexpected {other:?}"),
    }
}

/// A study that cannot run says why in the estimates pane, whole (a status line is too short
/// for the reason), and `V` goes back to the estimates.
#[test]
fn a_validation_that_cannot_run_says_why_in_the_estimates_pane() {
    let mut app = llm_assigned();
    let generation = app.generation;
    let _ = app.update(Action::Validate);
    let why =
        "validate needs at least 3 judges (the free-scale estimator's p ≥ 3); the panel has 2";
    let _ = app.update(Action::Worker(WorkerMsg::Validated {
        generation,
        result: Err(why.into()),
    }));
    assert!(app.validating.is_none());
    let t = screen(&app, 80, 24);
    let status = rows_of(&t, ratatui::layout::Rect::new(0, 23, 80, 1)).join("");
    assert!(
        status.contains("cannot validate: the estimates pane says why (V: back)"),
        "{status}"
    );
    let a = ui::areas(&app, ratatui::layout::Rect::new(0, 0, 80, 24));
    let pane: String = rows_of(&t, a.estimates)
        .iter()
        .map(|r| r.trim_matches('│').trim().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(pane.contains("the panel has 2"), "{pane}");
    assert!(app.update(Action::Validate).is_empty());
    let t = screen(&app, 80, 24);
    assert!(rows_of(&t, a.estimates).join("").contains("ρ̂ "));
}

/// The shared-residual preset plans its own design, residual and all, as
/// `rhoscope plan --preset shared-residual` does, not the violation-free base (trial 36).
#[test]
fn a_presets_planner_line_plans_the_design_on_screen() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Data));
    app.cursor = app
        .entries
        .iter()
        .position(|e| *e == rhoscope::tui::app::Entry::Preset("shared-residual"))
        .unwrap();
    let effects = app.update(Action::Activate);
    let job = effects
        .iter()
        .find_map(|e| match e {
            Effect::Plan(j) => Some(j.clone()),
            _ => None,
        })
        .expect("a new design asks the planner");
    let want = rhoscope::scenario::preset("shared-residual").unwrap();
    assert_eq!(job.design.violations.shared_residual, 0.6);
    assert_eq!(job.design.rho, want.rho);
    assert_eq!(job.design.sigma_a, want.sigma_a);
}
