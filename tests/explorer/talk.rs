//! Talk mode and its keys: scenes, captions against the screen, freezing, stepping.

use super::*;

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
    assert!(app.help());
    assert!(
        app.update(Action::CloseOrQuit).is_empty(),
        "q closes the overlay first"
    );
    assert!(!app.help() && !app.quit);
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
        caption_names_every_firing_test(&app, &r, title);
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
            4 => {
                assert!(fires(TestId::A) && fires(TestId::C), "{title}");
                assert!(!fires(TestId::B), "{title}");
            }
            5 => {
                assert!(!fires(TestId::A) && !fires(TestId::B), "{title}");
                assert!(
                    rho(1).unwrap() < 0.66,
                    "{title}: ρ̂_2 {:?} drifts toward clean",
                    rho(1)
                );
            }
            6 => {
                // Test A reads the cross-family pairs, which the family residual does not
                // reach: equal loadings pass it, so the answer reads the blocked estimate.
                assert!(fires(TestId::C) && !fires(TestId::A), "{title}");
                assert!(!fires(TestId::B), "{title}");
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
                scene_7_screen_agrees(&app, title, rho(1).unwrap(), blocked);
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
            8 => two_worlds_scene_shows_the_family(&app, title),
            9 => {
                assert_eq!(app.scenes[i].setup, Setup::Hanna);
                assert!(matches!(app.source, Source::File(_)));
                // The scene reads the 1–5 codes as numbers (the paper's convention), so Test A
                // runs there and fires with the paper's statistic.
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
    // Trial 45, finding 23: the slide says how in the explorer (o), naming no flag.
    let said = lines.join(" ");
    assert!(said.contains("press o") && !said.contains("--"), "{said}");
    assert!(
        app.panel.is_none() && app.battery.is_none(),
        "no numbers of the last scene stay under the HANNA title"
    );
}

/// Without the HANNA file, the scene offers the explorer's own `o`: frozen as the talk is, the
/// path typed there loads the panel into the scene; a path without it leaves the scene empty.
#[test]
fn without_hanna_o_on_the_last_scene_opens_the_panel() {
    let (mut app, effects) = App::new(Settings {
        hanna: None,
        ..settings(Start::Demo)
    });
    settle(&mut app, effects);
    let last = app.scenes.len() - 1;
    let effects = app.show_scene(last);
    settle(&mut app, effects);
    assert!(app.frozen);
    let (_, lines) = caption::of(&app).unwrap();
    assert!(lines[0].contains("press o"), "{}", lines[0]);
    act(&mut app, Action::OpenPrompt);
    type_text(&mut app, "/nonexistent/h-b");
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    assert_eq!(app.mode, Mode::Demo(last));
    assert!(app.panel.is_none(), "{}", app.status);
    assert!(
        app.status.contains("no hanna_coherence_panel.csv"),
        "{}",
        app.status
    );
    act(&mut app, Action::OpenPrompt);
    type_text(
        &mut app,
        &common::shared().join("hanna").display().to_string(),
    );
    act(&mut app, Action::Prompt(PromptEdit::Submit));
    assert_eq!(app.mode, Mode::Demo(last), "the talk goes on");
    assert!(app.frozen);
    assert!(matches!(app.source, Source::File(_)));
    let r = app.battery.as_ref().expect("the HANNA battery");
    let a = r.tests[TestId::A].statistic.unwrap();
    assert!((a - 0.5888).abs() < 1e-4, "{a}");
}

#[test]
fn talk_status_says_esc_leaves_frozen_or_not() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Next);
    assert!(matches!(app.mode, Mode::Demo(0)) && app.frozen);
    assert!(app.status.contains("Esc, frozen or not,"), "{}", app.status);
    act(&mut app, Action::CloseOverlay);
    assert_eq!(app.mode, Mode::Explore, "Esc left the frozen talk");
}

#[test]
fn q_asks_first_when_frozen_and_ctrl_c_does_not() {
    // A talk starts frozen.
    let mut app = started(Start::Demo);
    assert!(app.frozen);
    assert!(
        app.update(Action::CloseOrQuit).is_empty(),
        "the first q asks"
    );
    assert!(!app.quit && app.status.contains("q again"));
    act(&mut app, Action::Next);
    assert!(
        app.update(Action::CloseOrQuit).is_empty(),
        "another key cancels the question"
    );
    assert!(matches!(
        app.update(Action::CloseOrQuit).as_slice(),
        [Effect::Quit]
    ));
    let mut app = started(Start::Demo);
    assert!(matches!(
        app.update(Action::Quit).as_slice(),
        [Effect::Quit]
    ));
}

#[test]
fn n_starts_the_talk_and_esc_restores_the_users_sliders() {
    let mut app = started(Start::Default);
    app.selected = 0;
    act(&mut app, Action::Coarse(2));
    act(&mut app, Action::NewSeed);
    let (values, seed) = (
        app.scenario
            .sliders
            .iter()
            .map(|s| s.value)
            .collect::<Vec<_>>(),
        app.seed,
    );
    let rho = format!("{:?}", app.fit);
    act(&mut app, Action::Prev);
    assert_eq!(app.mode, Mode::Explore, "p in explore mode does nothing");
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Demo(0));
    assert!(app.present, "a talk uses the presentation layout");
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Demo(1));
    // Esc ends the talk, frozen or not, as its last scene says.
    act(&mut app, Action::CloseOverlay);
    assert_eq!(app.mode, Mode::Explore);
    assert!(!app.present);
    let now: Vec<f64> = app.scenario.sliders.iter().map(|s| s.value).collect();
    assert_eq!(
        (now, app.seed),
        (values, seed),
        "Esc brings the sliders back"
    );
    assert_eq!(format!("{:?}", app.fit), rho);
    assert!(!app.battery_stale(), "the restored battery is current");
    // A talk started by `rhoscope demo` leaves for the default scenario, not an empty screen;
    // Esc ends it frozen or not.
    let mut app = started(Start::Demo);
    act(&mut app, Action::CloseOverlay);
    assert_eq!(app.mode, Mode::Explore);
    assert!(app.panel.is_some() && app.battery.is_some() && !app.battery_stale());
    // A walkthrough on a file: Esc leaves it too.
    let mut app = llm_assigned();
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Walkthrough(0));
    act(&mut app, Action::CloseOverlay);
    assert_eq!((app.mode, app.focus), (Mode::Explore, Pane::Data));
}

#[test]
fn a_moved_slider_marks_the_scene_and_n_restores_it() {
    let mut app = started(Start::Scene(2));
    assert_eq!(app.mode, Mode::Demo(2), "demo --scene 3");
    // Unfrozen, so the sliders move.
    act(&mut app, Action::Freeze);
    let shown = format!("{:?}", app.fit);
    app.selected = 0;
    act(&mut app, Action::Coarse(3));
    let (title, _) = caption::of(&app).unwrap();
    assert!(title.contains("(modified · n/p to restore)"), "{title}");
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Demo(2), "n first restores the scene");
    assert_eq!(format!("{:?}", app.fit), shown);
    assert!(!caption::of(&app).unwrap().0.contains("modified"));
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Demo(3));
    assert_eq!(
        started(Start::Scene(99)).mode,
        Mode::Demo(rhoscope::tui::scenes::scenes().len() - 1),
        "clamped to the last"
    );
}

#[test]
fn sparklines_store_stat_over_threshold_and_reset_with_the_source() {
    let mut app = started(Start::Default);
    app.selected = app
        .scenario
        .sliders
        .iter()
        .position(|s| s.label == "N items")
        .unwrap();
    act(&mut app, Action::Coarse(4));
    let r = app.battery.as_ref().unwrap();
    let a = &r.tests[TestId::A];
    let last = *app.history.stats[TestId::A].back().unwrap();
    assert!((last - a.statistic.unwrap() / a.threshold.unwrap()).abs() < 1e-12);
    assert_eq!(app.history.stats[TestId::A].len(), 2);
    act(&mut app, Action::Next);
    assert_eq!(
        app.history.stats[TestId::A].len(),
        1,
        "a new scene starts a new history"
    );
}

#[test]
fn captions_are_shown_whole_at_80x24() {
    let mut app = started(Start::Demo);
    for i in 0..app.scenes.len() {
        if i > 0 {
            act(&mut app, Action::Next);
        }
        let t = screen(&app, 80, 24);
        let a = ui::areas(&app, ratatui::layout::Rect::new(0, 0, 80, 24));
        let shown: String = rows_of(&t, a.caption)
            .iter()
            .skip(1)
            .map(|r| r.trim().to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let (_, lines) = caption::of(&app).unwrap();
        for l in lines.iter().filter(|l| !l.is_empty()) {
            let words: Vec<&str> = l.split_whitespace().collect();
            let text = words.join(" ");
            assert!(
                shown.contains(&text),
                "scene {}: {text:?} not whole in {shown:?}",
                i + 1
            );
        }
    }
}

#[test]
fn clicks_focus_panes_and_the_wheel_moves_a_slider() {
    use crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut app = started(Start::Default);
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let a = ui::areas(&app, area);
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
            pane: Pane::Battery,
            item: None
        }
    );
    act(&mut app, action);
    assert_eq!(app.focus, Pane::Battery);
    // A click on the third slider's row selects it; the wheel then steps that slider.
    let click = mouse(
        MouseEventKind::Down(MouseButton::Left),
        a.sliders.x + 3,
        a.sliders.y + 3,
    );
    let action = action_of(&click, &app, area).unwrap();
    assert_eq!(
        action,
        Action::Click {
            pane: Pane::Sliders,
            item: Some(2)
        }
    );
    act(&mut app, action);
    assert_eq!((app.focus, app.selected), (Pane::Sliders, 2));
    let before = app.scenario.sliders[2].value;
    let wheel = mouse(MouseEventKind::ScrollUp, a.sliders.x + 2, a.sliders.y + 2);
    let action = action_of(&wheel, &app, area).unwrap();
    act(&mut app, action);
    assert!(app.scenario.sliders[2].value > before);
    // A click on a data-pane entry selects it (line 0 is the "open" hint, line 1 entry 0).
    let click = mouse(
        MouseEventKind::Down(MouseButton::Left),
        a.data.x + 3,
        a.data.y + 3,
    );
    let action = action_of(&click, &app, area).unwrap();
    assert_eq!(
        action,
        Action::Click {
            pane: Pane::Data,
            item: Some(1)
        }
    );
    act(&mut app, action);
    assert_eq!((app.focus, app.cursor), (Pane::Data, 1));
    // The wheel over the data list moves its cursor; over the battery it scrolls the pane.
    let wheel = mouse(MouseEventKind::ScrollDown, a.data.x + 2, a.data.y + 2);
    let action = action_of(&wheel, &app, area).unwrap();
    act(&mut app, action);
    assert_eq!(app.cursor, 2);
    let wheel = mouse(MouseEventKind::ScrollDown, a.battery.x + 2, a.battery.y + 2);
    let action = action_of(&wheel, &app, area).unwrap();
    act(&mut app, action);
    assert_eq!(app.scroll[Pane::Battery], 1);
    assert_eq!(app.focus, Pane::Data, "the wheel does not move the focus");
    // Under the help overlay the mouse does nothing.
    act(&mut app, Action::ToggleHelp);
    assert_eq!(action_of(&click, &app, area), None);
}

#[test]
fn histories_are_capped_ring_buffers() {
    let mut app = started(Start::Default);
    for i in 0..(rhoscope::tui::app::HISTORY + 5) {
        act(&mut app, Action::Fine(if i % 2 == 0 { 1 } else { -1 }));
    }
    assert_eq!(app.history.rho[0].len(), rhoscope::tui::app::HISTORY);
}

#[test]
fn the_battery_caption_wraps_between_its_parts_in_a_narrow_pane() {
    // At 80×24 the battery pane is about 50 columns wide: the caption under the verdicts
    // once ran off its edge ("weak-ID flags T" without "< 4").
    let app = started(Start::Default);
    let theme = rhoscope::tui::theme::Theme { color: false };
    let lines: Vec<String> = rhoscope::tui::panes::battery::lines(&app, theme, 48)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    assert!(lines.iter().all(|l| l.chars().count() <= 48), "{lines:#?}");
    for part in [
        "scenario null, 1000 draws",
        "weak-ID flags T < 4",
        "sparks: stat/threshold (▄ = 1)",
    ] {
        assert!(
            lines.iter().any(|l| l.contains(part)),
            "{part:?} in {lines:#?}"
        );
    }
}

#[test]
fn each_talk_scene_opens_with_its_panes_at_their_tops() {
    let mut app = started(Start::Default);
    act(&mut app, Action::Next);
    assert!(matches!(app.mode, Mode::Demo(0)));
    app.scroll = rhoscope::tui::action::PerPane::from_fn(|_| 4);
    act(&mut app, Action::Next);
    assert!(matches!(app.mode, Mode::Demo(1)));
    assert_eq!(app.scroll, rhoscope::tui::action::PerPane::default());
}

/// With `f` on only `f`, `q` and stepping through a talk act: `v`, `Tab`, `Enter`, `?` and
/// the data keys change nothing.
#[test]
fn a_freeze_freezes_every_key_but_unfreeze_quit_and_talk_steps() {
    // A talk starts frozen.
    let mut app = started(Start::Demo);
    assert!(app.frozen);
    let before = (app.present, app.focus, app.overlay.clone(), app.generation);
    for a in [
        Action::TogglePresent,
        Action::FocusNext,
        Action::ToggleDetail,
        Action::ToggleHelp,
        Action::OpenPrompt,
        Action::Focus(Pane::Data),
        Action::Fine(1),
        Action::Validate,
    ] {
        act(&mut app, a.clone());
        assert_eq!(
            (app.present, app.focus, app.overlay.clone(), app.generation),
            before,
            "{a:?} acted while frozen"
        );
        assert_eq!(app.status, "frozen: f to unfreeze");
    }
    act(&mut app, Action::Next);
    assert_eq!(app.mode, Mode::Demo(1), "talk steps go through");
    assert!(app.frozen);
    act(&mut app, Action::Freeze);
    act(&mut app, Action::TogglePresent);
    assert_ne!(app.present, before.0);
}

/// Every talk scene at 80×24 and 100×30: each decimal its caption states is a number on the
/// screen (the same digits, perhaps with more after them), so the caption speaks of what is
/// shown; a caption that says no anchor is trusted sits over no designated-clean fit.
#[test]
fn every_scene_caption_states_numbers_the_screen_shows_at_80x24() {
    let scenes = rhoscope::tui::scenes::scenes();
    let mut wrong = Vec::new();
    for (i, (w, h)) in (0..scenes.len()).flat_map(|i| [(i, (80, 24)), (i, (100, 30))]) {
        let app = started(Start::Scene(i));
        let t = screen(&app, w, h);
        let rows = rows_of(&t, ratatui::layout::Rect::new(0, 0, w, h));
        let (caption, panes): (Vec<&String>, Vec<&String>) = {
            let at = rows
                .iter()
                .position(|r| r.contains("Talk "))
                .unwrap_or(rows.len());
            (rows[at..].iter().collect(), rows[..at].iter().collect())
        };
        let caption: String = caption
            .iter()
            .map(|r| r.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let shown: Vec<String> = panes.iter().flat_map(|r| decimals(r)).collect();
        for n in decimals(&caption) {
            if !shown.iter().any(|s| s.starts_with(&n)) {
                wrong.push(format!("scene {} {w}×{h}: {n} not on screen", i + 1));
            }
        }
        let trusting = panes.iter().any(|r| r.contains("designated clean"));
        if trusting && caption.contains("neither trusted") {
            wrong.push(format!(
                "scene {} {w}×{h}: \"neither trusted\" over a designated-clean fit",
                i + 1
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A caption that names `t` ("trusting one anchor, t, picks the world") names a key that acts
/// in its scene: pressed there, unfrozen and with every pane tried, `t` is not refused.
#[test]
fn no_caption_invites_a_key_its_scene_refuses() {
    let scenes = rhoscope::tui::scenes::scenes();
    for (i, scene) in scenes.iter().enumerate() {
        let caption = scene.caption.join(" ");
        if !(caption.contains(", t,") || caption.contains("(t)") || caption.contains("`t`")) {
            continue;
        }
        let mut app = started(Start::Scene(i));
        act(&mut app, Action::Freeze);
        let acts = [Pane::Data, Pane::Sliders, Pane::Estimates]
            .iter()
            .any(|p| {
                let mut tried = app.clone();
                act(&mut tried, Action::Focus(*p));
                act(&mut tried, Action::TrustAnchor);
                tried.generation != app.generation
            });
        assert!(
            acts,
            "scene {}: {caption:?} invites t, which cannot act",
            i + 1
        );
    }
}

/// The two-worlds scene: the worlds on screen are the core family's, differ in ρ, each lies
/// inside every anchor's range, and the world where A1 is clean is the simulation's truth.
fn two_worlds_scene_shows_the_family(app: &App, title: &str) {
    let panel = app.panel.as_deref().unwrap();
    let (_, family) = rhoscope::estimate::latent::family::Family::on_panel(panel).unwrap();
    let first = family.if_clean(0).expect("A1 can be clean");
    let (k, second) = (1..panel.m())
        .find_map(|k| family.if_clean(k).map(|w| (k, w)))
        .expect("a second anchor can be clean");
    assert_eq!(k, 1, "{title}: the caption names A2's world");
    for (a, b) in [(0.0, first[0]), (0.5, first[1]), (0.3, first[2])] {
        assert!((a - b).abs() < 0.1, "{title}: {first:?}");
    }
    assert!(
        first.iter().zip(second).any(|(a, b)| (a - b).abs() > 0.2),
        "{title}: {first:?} vs {second:?}"
    );
    for w in [first, second] {
        for (j, r) in w.iter().enumerate() {
            let (lo, hi) = family.range(j).unwrap();
            assert!(
                lo - 1e-9 <= *r && *r <= hi + 1e-9,
                "{title}: {r} in [{lo}, {hi}]"
            );
        }
    }
    let shown = |w: &[f64]| {
        let r: Vec<String> = w
            .iter()
            .map(|r| format!("{:.2}", if r.abs() < 0.005 { 0.0 } else { *r }))
            .collect();
        format!("ρ = ({})", r.join(", "))
    };
    for (w, h) in [(80, 24), (100, 30)] {
        let est = pane_rows(app, Pane::Estimates, w, h).join(" ");
        assert!(
            est.contains(&format!("world 1: A1 clean, {}", shown(first))),
            "{title} {w}×{h}: {est}"
        );
        assert!(
            est.contains(&format!("world 2: A{} clean, {}", k + 1, shown(second))),
            "{title} {w}×{h}: {est}"
        );
    }
}

/// Trial 44, finding 2: at 80×24 on the talk's last scene, `n` once more says "last scene: Esc
/// ends the talk" and the status line still names the HANNA file whole, not "…e_panel.csv".
#[test]
fn the_status_line_keeps_the_file_name_whole_on_the_last_scene() {
    let mut app = started(Start::Demo);
    let last = app.scenes.len() - 1;
    for _ in 0..=last {
        act(&mut app, Action::Next);
    }
    assert_eq!(app.mode, Mode::Demo(last));
    assert!(matches!(app.source, Source::File(_)), "HANNA at hand");
    for (w, h) in [(80, 24), (100, 30)] {
        let t = screen(&app, w, h);
        let rows = rows_of(&t, ratatui::layout::Rect::new(0, 0, w, h)).join("\n");
        assert!(rows.contains("last scene"), "{rows}");
        assert!(
            rows.contains(rhoscope::tui::scenes::HANNA_FILE),
            "{w}×{h}: {rows}"
        );
    }
}
