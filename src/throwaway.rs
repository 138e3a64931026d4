//! The registries' own proof, compiled only for the crate's tests: a throwaway estimator
//! (`estimate/throwaway.rs`), a throwaway Test Z (`battery/test_z.rs`) and a throwaway file
//! format (`data/format_z.rs`), each one file plus one registry line, reach every output that
//! lists estimators, tests or formats.

use crate::battery::decision::{Configuration, decide};
use crate::battery::{self, BatteryReport, NullSpec, Options, TestId};
use crate::estimate::{EXPLORER, Estimator, Fits};
use crate::model::Params;
use crate::panel::Panel;
use crate::power::{PowerDesign, PowerOptions, operating_characteristics};
use crate::progress::silent;

/// A three-anchor panel and its battery (a few draws: only what is listed matters here).
fn battery_of(pm: &Params) -> (Panel, BatteryReport) {
    let panel = crate::simulate::simulate(pm, 300, 7).unwrap();
    let opts = Options {
        resamples: 20,
        null_draws: 40,
        seed: 1,
    };
    let spec = NullSpec::Scenario(Box::new(pm.clone()));
    let r = battery::run(&panel, &spec, &opts, &silent).unwrap();
    (panel, r)
}

#[test]
fn a_throwaway_estimator_reaches_every_output() {
    let e = Estimator::Throwaway;
    let title = "Throwaway (a test's own estimator";
    let pm = Params::three_anchor();
    let (panel, r) = battery_of(&pm);

    assert!(EXPLORER.contains(&e), "explorer list");
    let explorer = Fits::explorer(&panel).unwrap();
    assert!(explorer.estimate(e).is_some(), "explorer fits");
    assert!(battery::ESTIMATORS.contains(&e), "battery list");

    #[cfg(feature = "cli")]
    {
        use clap::ValueEnum;
        let method = crate::cli::Method::from_str("throwaway", false).unwrap();
        assert_eq!(method, crate::cli::Method::Only(e));
        assert!(crate::cli::Method::All.estimators(&[]).contains(&e));
        let ctx = crate::estimate::Context::default();
        let fits = Fits::of(&panel, &panel.covariance(), &ctx, &method.estimators(&[]));
        let r = crate::report::estimate::EstimateReport {
            source: "sim",
            panel: &panel,
            families_source: None,
            fits: &fits,
            ctx: &ctx,
            closed: true,
            bias: None,
            intervals: None,
        };
        let text = crate::report::estimate::text(&r);
        assert!(text.contains(title), "estimate text");
        let json = crate::report::estimate::json(&r);
        assert!(json["throwaway"]["anchors"].is_array(), "estimate JSON");
    }

    let fit = r.fit(e).expect("the battery fits it");
    assert_eq!(fit.boot.resamples, 20, "bootstrapped");
    assert!(fit.boot.rho.iter().all(Option::is_some), "intervals");
    let text = crate::report::battery::text("sim", &panel, None, &r);
    assert!(text.contains(title), "battery text");
    let json = crate::report::battery::json("sim", &panel, None, &r);
    assert!(json["throwaway"]["sigma_t2_ci"].is_array(), "battery JSON");
}

#[test]
fn a_throwaway_test_reaches_every_output() {
    let z = TestId::Z;
    let pm = Params::three_anchor();
    let (panel, r) = battery_of(&pm);

    assert!(r.tests[z].applicable, "the battery runs it");
    let text = crate::report::battery::text("sim", &panel, None, &r);
    assert!(text.contains("Z a throwaway test (nothing)"), "battery row");
    assert!(text.contains("  Z: Test Z "), "its meaning");
    let json = crate::report::battery::json("sim", &panel, None, &r);
    assert!(json["tests"]["Z"]["verdict"].is_string(), "battery JSON");

    let d = decide(&Configuration::of(&panel));
    assert!(
        d.available
            .contains(&"Test Z (a throwaway test)".to_string()),
        "decision table: {:?}",
        d.available
    );

    let design = PowerDesign::named("test-z").expect("a power design");
    assert_eq!(design.target(), z);
    let opts = PowerOptions::rates(vec![100], vec![0.5], 2, 20, 5);
    let cells = operating_characteristics(design, &opts, &silent)
        .unwrap()
        .unwrap();
    let json = crate::report::power::json(design, &opts, &cells);
    assert!(json["cells"][0]["rates"].get("Z").is_some(), "power JSON");

    #[cfg(feature = "cli")]
    {
        use clap::CommandFactory;
        let mut cli = crate::cli::Cli::command();
        let power = cli.find_subcommand_mut("power").unwrap();
        let help = power.render_help().to_string();
        assert!(help.contains("test-z"), "power --help lists its design");
    }
}

#[cfg(feature = "tui")]
#[test]
fn a_throwaway_test_reaches_the_explorer() {
    use crate::tui::action::{Action, Effect};
    use crate::tui::app::{App, Mode, Settings, Start, Step};
    use crate::tui::{caption, ui, worker};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    let (mut app, mut effects) = App::new(Settings {
        start: Start::Default,
        color: false,
        files: Vec::new(),
        hanna: None,
    });
    while let Some(e) = effects.pop() {
        let msg = match e {
            Effect::Battery(j) => worker::run_battery(&j, &silent),
            Effect::Power(j) => worker::run_power(&j, &silent),
            Effect::Load(j) => Some(worker::run_load(&j)),
            _ => None,
        };
        if let Some(m) = msg {
            effects.extend(app.update(Action::Worker(m)));
        }
    }
    let mut t = Terminal::new(TestBackend::new(160, 50)).unwrap();
    t.draw(|f| ui::render(f, &app)).unwrap();
    let screen = format!("{:?}", t.backend());
    assert!(screen.contains("Test Z "), "battery pane row");
    assert_eq!(app.history.stats[TestId::Z].len(), 1, "sparkline history");
    let i = Step::all()
        .iter()
        .position(|s| *s == Step::Test(TestId::Z))
        .expect("a walkthrough step");
    app.mode = Mode::Walkthrough(i);
    let (title, _) = caption::of(&app).unwrap();
    assert!(title.ends_with("Test Z"), "{title}");
}

#[test]
fn a_throwaway_format_reaches_estimate_export_and_the_file_list() {
    use crate::data::{Format, PanelRequest};
    use crate::estimate::Context;

    let dir = tempfile::tempdir().unwrap();
    let panel = crate::simulate::simulate(&Params::three_anchor(), 200, 3).unwrap();
    let csv = crate::export::data_csv(&panel, &panel.names());
    let (plain, z) = (dir.path().join("p.csv"), dir.path().join("p.rhoz"));
    std::fs::write(&plain, &csv).unwrap();
    std::fs::write(&z, [b"RHOZ\n".as_slice(), csv.as_bytes()].concat()).unwrap();

    assert!(Format::ALL.contains(&Format::Z), "the list");
    assert!(!Format::Z.about().is_empty(), "--help's line");
    assert_eq!(Format::of_extension("RHOZ"), Some(Format::Z));
    let (a, b) = (
        crate::data::load(&plain, &PanelRequest::default()).unwrap(),
        crate::data::load(&z, &PanelRequest::default()).unwrap(),
    );
    assert_eq!(b.header, a.header, "read past its signature");
    let fit = |p: &Panel| {
        let f = Estimator::ClosedForm.fit(p, &p.covariance(), &Context::default());
        f.unwrap().estimate.rho()
    };
    assert_eq!(fit(&b.panel), fit(&a.panel), "estimate");

    #[cfg(feature = "cli")]
    {
        let unread = crate::commands::export_unreadable(&z);
        assert_eq!(
            unread,
            Format::Z.unscripted(),
            "export writes its data as CSV"
        );
        assert_eq!(crate::commands::export_unreadable(&plain), None);
    }
    #[cfg(feature = "tui")]
    assert!(crate::tui::is_panel_file(&z), "the explorer's file list");
}
