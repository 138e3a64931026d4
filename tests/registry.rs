//! Every registered diagnostic reaches every output that lists tests: the battery's text and
//! JSON, the power study's JSON and design names, the decision table, and (with the explorer)
//! the walkthrough, the battery and configuration panes and the sparkline histories. A new
//! test added to the registry fails here if some output leaves it out. Likewise every
//! registered estimator reaches `--method`, the estimate report's text and JSON, the explorer
//! and the battery with its bootstrap (the crate's own tests register a throwaway estimator
//! and watch it appear in each).

use rhoscope::battery::decision::{Configuration, decide};
use rhoscope::battery::{self, NullSpec, Options, TestId};
use rhoscope::estimate::{BATTERY, Context, EXPLORER, Estimator, Fits};
use rhoscope::model::{Families, Params};
use rhoscope::power::{PowerDesign, PowerOptions, operating_characteristics};
use rhoscope::progress::silent;
use rhoscope::report;

/// Three anchors and three families: a panel on which every test applies.
fn full_params() -> Params {
    let mut pm = Params::three_anchor();
    pm.violations.families = Families::Blocks(3);
    pm
}

#[test]
fn every_test_is_applicable_on_the_full_design_and_offered_by_the_decision_table() {
    let panel = rhoscope::simulate::simulate(&full_params(), 400, 3).unwrap();
    let config = Configuration::of(&panel);
    let d = decide(&config);
    for t in TestId::ALL {
        assert!(t.applicable(&config.layout).is_ok(), "Test {}", t.name());
        let offered = format!("Test {} ({})", t.name(), t.spec().title);
        assert!(
            d.available.contains(&offered),
            "{offered} in {:?}",
            d.available
        );
    }
}

#[test]
fn every_test_appears_in_the_battery_text_and_json() {
    let pm = full_params();
    let panel = rhoscope::simulate::simulate(&pm, 400, 3).unwrap();
    let opts = Options {
        resamples: 20,
        null_draws: 60,
        seed: 1,
    };
    let r = battery::run(&panel, &NullSpec::Scenario(Box::new(pm)), &opts, &silent).unwrap();
    let text = report::battery::text("sim", &panel, None, &r);
    let json = report::battery::json("sim", &panel, None, &r);
    for t in TestId::ALL {
        let row = format!("{} {}", t.name(), t.guards());
        assert!(text.contains(&row), "battery text lists {row}");
        assert!(text.contains(&format!("  {}: ", t.name())), "its meaning");
        let obj = &json["tests"][t.name()];
        assert!(
            obj["verdict"].is_string(),
            "battery JSON has test {}",
            t.name()
        );
        assert!(r.tests[t].applicable, "Test {} ran", t.name());
    }
}

#[test]
fn every_test_has_a_power_design_and_a_rate_in_the_power_json() {
    let designs = PowerDesign::all();
    let opts = PowerOptions::rates(vec![200], vec![0.5], 4, 20, 5);
    for t in TestId::ALL {
        let d = PowerDesign::Test(t);
        assert!(designs.contains(&d));
        assert_eq!(PowerDesign::named(d.name()), Some(d));
        assert_eq!(d.target(), t);
    }
    let d = PowerDesign::Test(TestId::ALL[0]);
    let cells = operating_characteristics(d, &opts, &silent)
        .unwrap()
        .unwrap();
    let json = report::power::json(d, &opts, &cells);
    for t in TestId::ALL {
        assert!(
            json["cells"][0]["rates"].get(t.name()).is_some(),
            "power JSON rates name test {}",
            t.name()
        );
    }
}

#[test]
fn every_estimator_appears_in_the_explorer_and_battery_lists_it_asks_for() {
    for e in Estimator::ALL {
        let shown = &e.entry().shown;
        assert_eq!(EXPLORER.contains(&e), shown.explorer, "{}", e.key());
        assert_eq!(BATTERY.contains(&e), shown.battery, "{}", e.key());
        assert_eq!(
            battery::ESTIMATORS.contains(&e),
            shown.battery,
            "{}",
            e.key()
        );
    }
    let panel = rhoscope::simulate::simulate(&full_params(), 400, 3).unwrap();
    let fits = Fits::explorer(&panel).unwrap();
    for e in EXPLORER {
        assert!(fits.estimate(e).is_some(), "the explorer fits {}", e.key());
    }
}

#[cfg(feature = "cli")]
#[test]
fn every_estimator_appears_in_method_values_and_the_estimate_text_and_json() {
    use clap::ValueEnum;
    use rhoscope::cli::Method;
    for e in Estimator::ALL {
        if let Some(m) = e.method() {
            assert_eq!(Method::from_str(m.name, false), Ok(Method::Only(e)));
            assert!(Method::All.estimators(&[]).contains(&e), "--method all");
        }
    }
    let panel = rhoscope::simulate::simulate(&full_params(), 400, 3).unwrap();
    let ctx = Context {
        families: panel.judge_families(),
        clean: Some(0),
    };
    let flagged: Vec<Estimator> = Estimator::ALL
        .into_iter()
        .filter(|e| e.method().is_none())
        .collect();
    let which = Method::All.estimators(&flagged);
    assert_eq!(which, Estimator::ALL, "every estimator can be asked for");
    let fits = Fits::of(&panel, &panel.covariance(), &ctx, &which);
    assert!(fits.refused.is_empty(), "{:?}", fits.refused);
    let r = report::estimate::EstimateReport {
        source: "sim",
        panel: &panel,
        families_source: None,
        fits: &fits,
        ctx: &ctx,
        closed: true,
        bias: None,
        intervals: None,
    };
    let text = report::estimate::text(&r);
    let json = report::estimate::json(&r);
    for e in Estimator::ALL {
        let title = e.title(&ctx, &panel.anchors);
        assert!(text.contains(&title), "estimate text shows {title}");
        assert!(json[e.key()].is_object(), "estimate JSON has {}", e.key());
    }
}

#[test]
fn every_battery_estimator_is_fitted_bootstrapped_and_reported() {
    let pm = full_params();
    let panel = rhoscope::simulate::simulate(&pm, 400, 3).unwrap();
    let opts = Options {
        resamples: 20,
        null_draws: 40,
        seed: 1,
    };
    let r = battery::run(&panel, &NullSpec::Scenario(Box::new(pm)), &opts, &silent).unwrap();
    let text = report::battery::text("sim", &panel, None, &r);
    let json = report::battery::json("sim", &panel, None, &r);
    for e in BATTERY {
        let fit = r
            .fit(e)
            .unwrap_or_else(|| panic!("the battery fits {}", e.key()));
        if e.bootstrappable() {
            assert_eq!(fit.boot.resamples, 20, "{} is bootstrapped", e.key());
            assert!(json[e.key()]["sigma_t2_ci"].is_array(), "{}", e.key());
        }
        let title = e.title(&Context::default(), &panel.anchors);
        assert!(
            text.contains(&format!("{title} (")),
            "battery text shows {title}"
        );
        assert!(json[e.key()].is_object(), "battery JSON has {}", e.key());
    }
}

#[cfg(feature = "tui")]
mod explorer {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use rhoscope::battery::TestId;
    use rhoscope::progress::silent;
    use rhoscope::tui::action::{Action, Effect};
    use rhoscope::tui::app::{App, Mode, Settings, Start, Step};
    use rhoscope::tui::{caption, ui, worker};

    fn settle(app: &mut App, mut effects: Vec<Effect>) {
        while let Some(e) = effects.pop() {
            let msg = match e {
                Effect::Battery(j) => worker::run_battery(&j, &silent),
                Effect::Power(j) => worker::run_power(&j, &silent),
                Effect::Load(j) => Some(worker::run_load(&j)),
                Effect::Validate(j) => worker::run_validate(&j, &silent),
                Effect::Quit | Effect::Figure { .. } | Effect::CancelValidate | Effect::Plan(_) => {
                    None
                }
            };
            if let Some(m) = msg {
                effects.extend(app.update(Action::Worker(m)));
            }
        }
    }

    fn screen(app: &App) -> String {
        let mut t = Terminal::new(TestBackend::new(160, 50)).unwrap();
        t.draw(|f| ui::render(f, app)).unwrap();
        format!("{:?}", t.backend())
    }

    #[test]
    fn every_test_appears_in_the_panes_the_walkthrough_and_the_histories() {
        let (mut app, effects) = App::new(Settings {
            start: Start::Default,
            color: false,
            files: Vec::new(),
            hanna: None,
        });
        settle(&mut app, effects);
        assert!(app.power_summary().is_some(), "the power study ran");
        let s = screen(&app);
        for t in TestId::ALL {
            // Its own row, or its letter in the one row of tests that cannot run.
            let na_row = s.split('│').any(|cell| {
                cell.starts_with("Tests ")
                    && cell.contains(" N/A")
                    && cell[..cell.find(" N/A").unwrap()]
                        .split([' ', ','])
                        .any(|w| w == t.name())
            });
            assert!(
                s.contains(&format!("Test {} ", t.name())) || na_row,
                "battery pane row for Test {}: {s}",
                t.name()
            );
            assert!(
                s.contains(&format!(" {} n/a", t.name()))
                    || s.contains(&format!(" {} 0.", t.name()))
                    || s.contains(&format!(" {} 1.", t.name())),
                "configuration pane power for Test {}",
                t.name()
            );
            assert_eq!(app.history.stats[t].len(), 1, "sparkline history");
        }
        let steps = Step::all();
        for t in TestId::ALL {
            let i = steps.iter().position(|s| *s == Step::Test(t)).unwrap();
            app.mode = Mode::Walkthrough(i);
            let (title, _) = caption::of(&app).unwrap();
            assert!(title.ends_with(&format!("Test {}", t.name())), "{title}");
        }
    }
}
