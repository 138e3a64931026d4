//! `t` on an anchor: trust it as clean, and the battery reads the designated-clean estimate
//! on latent scales, or the estimates pane says why not; the sliders pane moves along the
//! family of ρ the data allow (docs/explorer.md "Trusting one anchor", docs/method.md §7b).
//!
//! The fixture `tests/fixtures/likert_anchors.csv` is
//! `rhoscope simulate --preset three-anchor --set p=5 --set ordinal=anchors:5
//! --set rho=0,0.5,0.3 --n 1000 --seed 38`: five continuous judges, three 5-level anchors.
//! `tests/fixtures/likert_all.csv` is the same with `--set ordinal=judges:7 --n 600`: every
//! column ordinal, so the explorer fits no closed form of its own.

use super::*;

/// The Likert fixture with anchor `k` trusted (the loader reads its roles from the names).
fn likert_trusted(k: usize) -> App {
    trusted("tests/fixtures/likert_anchors.csv", k)
}

/// A fixture of five judges and three anchors with anchor `k` trusted.
fn trusted(path: &str, k: usize) -> App {
    let mut app = started(Start::File(
        PathBuf::from(path),
        rhoscope::data::PanelRequest::default(),
    ));
    act(&mut app, Action::Focus(Pane::Data));
    app.cursor = app.entries.len() + 5 + k;
    act(&mut app, Action::TrustAnchor);
    app
}

fn text(app: &App, pane: Pane, w: u16, h: u16) -> String {
    pane_rows(app, pane, w, h).join("\n")
}

#[test]
fn trusting_a_likert_anchor_reads_the_others_with_intervals() {
    let app = likert_trusted(0);
    assert_eq!(app.designated(), Some(0));
    let r = app.battery.as_deref().unwrap();
    assert_eq!(
        r.reading.answer.read,
        Some(Estimator::DesignatedCleanLatent)
    );
    let est = text(&app, Pane::Estimates, 120, 40);
    assert!(est.contains("designated clean A1 (latent)"), "{est}");
    assert!(est.contains("untestable"), "{est}");
    // A2's interval is on the marker row (the simulation's ρ_2 is 0.5).
    let i = r.reading.answer.anchors[1].interval.unwrap();
    assert!(i.lo < 0.5 && 0.5 < i.hi, "{i:?}");
    assert!(est.contains(&format!("{:.2}", i.lo)), "{est}");
    // `t` again trusts none: no designated estimate is read.
    let mut again = app.clone();
    act(&mut again, Action::TrustAnchor);
    assert_eq!(again.designated(), None);
    assert_eq!(again.battery.as_deref().unwrap().reading.answer.read, None);
}

/// On an all-Likert panel the explorer fits no closed form; trusting an anchor still puts the
/// reading's estimate on the estimates pane, with its intervals, at 80×24 without scrolling.
#[test]
fn trusting_an_anchor_of_an_all_likert_panel_shows_the_reading() {
    let app = trusted("tests/fixtures/likert_all.csv", 0);
    let r = app.battery.as_deref().unwrap();
    assert_eq!(
        r.reading.answer.read,
        Some(Estimator::DesignatedCleanLatent)
    );
    let est = text(&app, Pane::Estimates, 80, 24);
    assert!(est.contains("read: designated clean A1 (latent)"), "{est}");
    assert!(!est.contains("not identified"), "{est}");
    for k in 1..3 {
        let i = r.reading.answer.anchors[k].interval.unwrap();
        assert!(
            est.contains(&format!("[{:.2}, {:.2}]", i.lo, i.hi)),
            "{est}"
        );
    }
    // The simulation's ρ_2 = 0.5 lies in A2's interval.
    let i = r.reading.answer.anchors[1].interval.unwrap();
    assert!(i.lo < 0.5 && 0.5 < i.hi, "{i:?}");
}

#[test]
fn the_slider_moves_every_anchor_along_the_family() {
    let mut app = likert_trusted(0);
    let at0 = text(&app, Pane::Sliders, 200, 80);
    assert!(at0.contains("assumed ρ of A1"), "{at0}");
    // At ρ_A1 = 0 the family's world is the designated one: A2 near the simulation's 0.5.
    assert!(at0.contains("0.00") && at0.contains("range ["), "{at0}");
    for _ in 0..3 {
        act(&mut app, Action::Coarse(1));
    }
    let moved = text(&app, Pane::Sliders, 200, 80);
    assert!(moved.contains("0.30"), "{moved}");
    assert_ne!(at0, moved);
    // Every anchor's ρ rose with A1's (the family moves them together).
    let rho = |t: &str, name: &str| -> f64 {
        let line = t
            .lines()
            .find(|l| l.contains(&format!(" {name} ")) && l.contains("range"))
            .unwrap();
        let after = line.split(" ρ ").nth(1).unwrap().trim_start();
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(rho(&moved, "A2") > rho(&at0, "A2"), "{at0}\n{moved}");
    assert!(rho(&moved, "A3") > rho(&at0, "A3"), "{at0}\n{moved}");
}

#[test]
fn on_hanna_llm_the_pane_says_why_no_rho_can_be_read() {
    let mut app = llm_assigned();
    app.cursor = app.entries.len() + 7;
    act(&mut app, Action::TrustAnchor);
    assert_eq!(app.designated(), Some(0));
    let est = text(&app, Pane::Estimates, 120, 40);
    assert!(
        est.contains("trusting human1 as clean, no ρ̂ to read"),
        "{est}"
    );
    assert!(est.contains("latent_misfit"), "{est}");
    let sliders = text(&app, Pane::Sliders, 200, 80).replace('\n', " ");
    assert!(sliders.contains("no admissible world"), "{sliders}");
}

#[test]
fn only_an_anchor_can_be_trusted() {
    let mut app = llm_assigned();
    app.cursor = app.entries.len() + 2; // a judge
    act(&mut app, Action::TrustAnchor);
    assert_eq!(app.designated(), None);
    assert!(app.status.contains("only an anchor"), "{}", app.status);
}

#[test]
fn snapshots_of_a_trusted_anchor_at_three_sizes() {
    let mut likert = likert_trusted(0);
    act(&mut likert, Action::Focus(Pane::Estimates));
    let mut llm = llm_assigned();
    llm.cursor = llm.entries.len() + 7;
    act(&mut llm, Action::TrustAnchor);
    for (name, app) in [("trust_likert", likert), ("trust_llm", llm)] {
        for (w, h) in SIZES {
            insta::with_settings!({ snapshot_path => "../snapshots" }, {
                insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(&app, w, h).backend());
            });
        }
    }
}
