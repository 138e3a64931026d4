//! The estimates, battery, configuration and help panes, and drawing at every size.

use super::*;

// ---------- talks ----------

#[test]
fn the_help_overlay_swallows_keys() {
    let mut app = started(Start::Default);
    act(&mut app, Action::ToggleHelp);
    let (g, v) = (app.generation, app.scenario.sliders[0].value);
    for a in [
        Action::Fine(1),
        Action::Next,
        Action::Down,
        Action::OpenPrompt,
    ] {
        assert!(app.update(a).is_empty());
    }
    assert_eq!((app.generation, app.scenario.sliders[0].value), (g, v));
    assert_eq!((app.mode, app.prompt()), (Mode::Explore, None));
    act(&mut app, Action::CloseOverlay);
    assert!(!app.help());
}

#[test]
fn enter_on_the_battery_shows_every_verdict_whole_and_is_modal() {
    let mut app = llm_assigned();
    act(&mut app, Action::Focus(Pane::Battery));
    act(&mut app, Action::ToggleDetail);
    assert!(app.detail());
    let g = app.generation;
    act(&mut app, Action::Next);
    assert_eq!(
        (app.mode, app.generation),
        (Mode::Explore, g),
        "keys are swallowed"
    );
    act(&mut app, Action::Down);
    let t = screen(&app, 100, 30);
    let text = rows_of(&t, ratatui::layout::Rect::new(0, 0, 100, 30)).join(" ");
    assert!(text.contains("battery in full"), "{text}");
    let r = app.battery.as_ref().unwrap();
    let msg = &r.tests[TestId::A].message;
    let first_words: Vec<&str> = msg.split_whitespace().take(4).collect();
    assert!(text.contains(&first_words.join(" ")), "{text}");
    act(&mut app, Action::CloseOverlay);
    assert!(!app.detail());
}

#[test]
fn numbers_are_never_clipped_at_any_usable_size() {
    use rhoscope::tui::widgets::versus;
    let mut apps = vec![started(Start::Default)];
    let mut three = started(Start::Default);
    three.selected = three
        .scenario
        .sliders
        .iter()
        .position(|s| s.label == "m anchors")
        .unwrap();
    act(&mut three, Action::Fine(1));
    apps.push(three);
    for app in &apps {
        for w in (ui::MIN_WIDTH..=150).step_by(7) {
            for h in (ui::MIN_HEIGHT..=44).step_by(6) {
                let t = screen(app, w, h);
                let a = ui::areas(app, ratatui::layout::Rect::new(0, 0, w, h));
                // Every slider shown shows its whole value, at the end of its line.
                let sliders = rows_of(&t, a.sliders);
                for s in &app.scenario.sliders {
                    let label = format!("{} ", s.label.chars().next().unwrap());
                    if let Some(row) = sliders.iter().find(|r| r.contains(&s.label)) {
                        assert!(
                            row.trim_end()
                                .trim_end_matches('│')
                                .trim_end()
                                .ends_with(&format!(" {}", s.value_text())),
                            "{w}×{h}: slider {} shows {row:?}",
                            s.label
                        );
                    }
                    let _ = label;
                }
                let joined = sliders.join("\n");
                let sel = &app.scenario.sliders[app.selected];
                assert!(
                    joined.contains(&sel.value_text()),
                    "{w}×{h}: selected slider in view"
                );
                // Every test's statistic and threshold appear whole in the battery pane.
                let battery = rows_of(&t, a.battery).join("\n");
                let r = app.battery.as_ref().unwrap();
                for id in TestId::ALL {
                    if let (Some(x), Some(th)) = (r.tests[id].statistic, r.tests[id].threshold) {
                        let (xs, ts) = versus(x, th);
                        assert!(
                            battery.contains(&format!("{xs} vs {ts}")),
                            "{w}×{h}: Test {} shows {battery}",
                            id.name()
                        );
                    }
                }
                // Every ρ̂_k appears whole in the estimates pane.
                let est = rows_of(&t, a.estimates).join("\n");
                let e = app.fit.as_ref().unwrap().closed_form().unwrap();
                for (k, an) in e.anchors.iter().enumerate() {
                    let x = format!("ρ̂ {:.3}", an.rho.unwrap());
                    assert!(est.contains(&x), "{w}×{h}: ρ̂_{} {x} in {est}", k + 1);
                }
            }
        }
    }
}

#[test]
fn a_small_terminal_says_what_it_needs() {
    let app = started(Start::Default);
    let t = screen(&app, 60, 20);
    let text: String = rows_of(&t, ratatui::layout::Rect::new(0, 0, 60, 20)).join("");
    assert!(text.contains("terminal too small: need 72×20"), "{text}");
    let t = screen(&app, 80, 24);
    let text: String = rows_of(&t, ratatui::layout::Rect::new(0, 0, 80, 24)).join("");
    assert!(!text.contains("too small"));
}

#[test]
fn help_shows_every_key_whole_at_80x24_scrolling_where_needed() {
    let mut app = started(Start::Default);
    act(&mut app, Action::ToggleHelp);
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let mut seen = String::new();
    for _ in 0..40 {
        let t = screen(&app, 80, 24);
        seen.push_str(&rows_of(&t, area).join("\n"));
        act(&mut app, Action::Down);
    }
    assert!(app.help(), "scrolling keeps the overlay open");
    for b in rhoscope::tui::keymap::KEYMAP {
        assert!(seen.contains(b.keys), "help lacks {} at 80×24", b.keys);
        let start: String = b.help.chars().take(12).collect();
        assert!(seen.contains(&start), "help lacks '{}' at 80×24", b.help);
    }
    assert!(!seen.contains('…'), "a help line was cut at 80×24");
    // Closing and reopening starts at the top, and the panes beneath never scrolled.
    act(&mut app, Action::ToggleHelp);
    assert_eq!(app.scroll, rhoscope::tui::action::PerPane::default());
}

#[test]
fn every_state_renders_at_every_small_size() {
    for (_, app) in states() {
        for w in 1..=40 {
            for h in 1..=14 {
                let _ = screen(&app, w, h);
            }
        }
        for w in 70..=84 {
            for h in 18..=26 {
                let _ = screen(&app, w, h);
            }
        }
    }
}

#[test]
fn w_writes_the_figure_of_the_view_and_names_it() {
    use rhoscope::tui::figure::Want;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Estimates));
    act(&mut app, Action::WriteFigure(Want::View));
    let name = app
        .status
        .strip_prefix("wrote ./")
        .unwrap_or_else(|| panic!("status names the file: {}", app.status))
        .to_string();
    assert!(
        name.starts_with("rhoscope-rho")
            && std::path::Path::new(&name)
                .extension()
                .is_some_and(|e| e == "svg"),
        "{name}"
    );
    let svg = std::fs::read_to_string(dir.join(&name)).unwrap();
    assert!(
        svg.contains("truth (simulated)"),
        "a scenario draws its truth"
    );
    act(&mut app, Action::Focus(Pane::Battery));
    act(&mut app, Action::WriteFigure(Want::View));
    assert!(app.status.contains("rhoscope-battery"), "{}", app.status);
    act(&mut app, Action::WriteFigure(Want::Bootstrap));
    assert!(app.status.contains("rhoscope-bootstrap"), "{}", app.status);
    // Before the battery has answered for the data on screen, there is no figure to write.
    let effects = app.update(Action::NewSeed);
    act(&mut app, Action::WriteFigure(Want::View));
    assert!(app.status.starts_with("no figure yet"), "{}", app.status);
    settle(&mut app, effects);
}

#[test]
fn the_estimates_pane_says_how_many_votes_the_judges_are_worth() {
    let mut app = started(Start::Default);
    let area = ratatui::layout::Rect::new(0, 0, 80, 24);
    let n = &app.battery.as_ref().unwrap().n_eff;
    let (v, ci) = (n.n_eff.unwrap(), n.boot.as_ref().unwrap().ci.unwrap());
    let want = format!(
        "6 judges ≈ {v:.2} independent votes [{:.2}, {:.2}]",
        ci.lo, ci.hi
    );
    let a = ui::areas(&app, area);
    let pane = rows_of(&screen(&app, 80, 24), a.estimates).join("\n");
    assert!(pane.contains(&want), "{want} not in {pane}");
    // While a new battery runs, the old value stays without its interval.
    let _ = app.update(Action::Fine(1));
    let pane = rows_of(&screen(&app, 80, 24), a.estimates).join("\n");
    assert!(
        pane.contains(&format!("6 judges ≈ {v:.2} independent votes […]")),
        "{pane}"
    );
}

#[test]
fn esc_leaves_the_recovery_table_and_each_view_opens_at_its_top() {
    // The table and the estimates share a pane but not a scroll position.
    let mut app = llm_validated();
    assert!(app.showing_validation());
    act(&mut app, Action::Focus(Pane::Estimates));
    act(&mut app, Action::Down);
    assert!(app.update(Action::CloseOverlay).is_empty());
    assert!(!app.showing_validation());
    assert_eq!(app.scroll, rhoscope::tui::action::PerPane::default());
    act(&mut app, Action::Down);
    let _ = app.update(Action::Validate);
    assert!(app.showing_validation());
    assert_eq!(app.scroll, rhoscope::tui::action::PerPane::default());
}

#[test]
fn the_wrapping_panes_scroll_to_their_last_row_and_no_further() {
    // The estimates and configuration panes wrap long lines: scrolling counts rows, not
    // lines, so G shows the last row (a user once could not read a pane's last flags).
    for pane in [Pane::Estimates, Pane::Config] {
        for (w, h) in [(80, 24), (100, 30)] {
            let mut app = llm_assigned();
            act(&mut app, Action::Focus(pane));
            // The whole content, on a screen tall enough for it (the pane is as wide).
            let tall = pane_rows(&app, pane, w, 200);
            let full = ui::areas(&app, ratatui::layout::Rect::new(0, 0, w, 200)).of(pane);
            let short = ui::areas(&app, ratatui::layout::Rect::new(0, 0, w, h)).of(pane);
            assert_eq!(full.width, short.width, "{pane:?} {w}×{h}");
            let last = tall.iter().rev().find(|r| !r.trim().is_empty()).unwrap();
            let _ = pane_rows(&app, pane, w, h);
            act(&mut app, Action::Bottom);
            let rows = pane_rows(&app, pane, w, h);
            assert!(
                rows.iter().any(|r| r == last),
                "{pane:?} at {w}×{h}: G does not reach {last:?}: {rows:#?}"
            );
            // Held past the end, the offset stays there: one key back moves one row.
            let end = app.scroll[pane];
            assert!(end > 0, "{pane:?} at {w}×{h} needs to scroll");
            for _ in 0..5 {
                act(&mut app, Action::Down);
            }
            assert_eq!(app.scroll[pane], end);
            act(&mut app, Action::Up);
            assert_eq!(app.scroll[pane], end - 1);
        }
    }
}

/// Enter acts in the data pane and the battery pane: pressed in the configuration pane,
/// the status names both.
#[test]
fn enter_elsewhere_names_both_panes_where_it_acts() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut app = started(Start::Default);
    act(&mut app, Action::Focus(Pane::Config));
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    let a = rhoscope::tui::keymap::action_for(&enter, Pane::Config).unwrap();
    act(&mut app, a);
    assert!(
        app.status.contains("the data pane (1 focuses it)"),
        "{}",
        app.status
    );
    assert!(
        app.status.contains("the battery pane (4 focuses it)"),
        "{}",
        app.status
    );
}
