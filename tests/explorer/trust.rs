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
pub(super) fn likert_trusted(k: usize) -> App {
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
    // The sliders pane marks the trusted anchor, as docs/explorer.md says.
    let sliders = text(&app, Pane::Sliders, 80, 24);
    assert!(sliders.contains("A1 ρ  0.00 trusted"), "{sliders}");
}

#[test]
fn the_slider_moves_every_anchor_along_the_family() {
    let mut app = likert_trusted(0);
    let at0 = text(&app, Pane::Sliders, 200, 80);
    assert!(at0.contains("assumed ρ of A1"), "{at0}");
    // At ρ_A1 = 0 the family's world is the designated one: A2 near the simulation's 0.5.
    assert!(at0.contains("0.00") && at0.contains("range over"), "{at0}");
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
            .find(|l| l.trim_start().starts_with(&format!("{name} ρ ")))
            .unwrap();
        let after = line.split(" ρ ").nth(1).unwrap().trim_start();
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(rho(&moved, "A2") > rho(&at0, "A2"), "{at0}\n{moved}");
    assert!(rho(&moved, "A3") > rho(&at0, "A3"), "{at0}\n{moved}");
}

/// The sliders pane's rows of `app` at `w` × `h` with its bottom border (where "↓ more" sits).
fn sliders_with_border(app: &App, w: u16, h: u16) -> (Vec<String>, String) {
    let t = screen(app, w, h);
    let r = ui::areas(app, ratatui::layout::Rect::new(0, 0, w, h)).of(Pane::Sliders);
    let rows = rows_of(&t, r);
    let border = rows.last().cloned().unwrap_or_default();
    let inner = rows[1..rows.len() - 1]
        .iter()
        .map(|l| l.trim_matches('│').trim_end().to_string())
        .collect();
    (inner, border)
}

/// At every layout size every anchor's ρ is in view, no number is split across lines, and
/// what does not fit is marked and reached with j (the pane's last line is its keys).
#[test]
fn the_family_pane_shows_every_rho_and_scrolls_to_its_end() {
    for path in [
        "tests/fixtures/likert_all.csv",
        "tests/fixtures/likert_anchors.csv",
    ] {
        let mut app = trusted(path, 0);
        act(&mut app, Action::Focus(Pane::Sliders));
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let (rows, border) = sliders_with_border(&app, w, h);
            for name in ["A1", "A2", "A3"] {
                assert!(
                    rows.iter()
                        .any(|l| l.trim_start().starts_with(&format!("{name} ρ"))),
                    "{path} {w}×{h}: {rows:#?}"
                );
            }
            assert!(rows[1].contains("trusted"), "{rows:#?}");
            for l in &rows {
                assert!(!l.trim_end().ends_with(&['[', ',', '-'][..]), "{rows:#?}");
            }
            let said = |rows: &[String]| {
                rows.join(" ")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let whole = said(&rows).ends_with("j/k: scroll");
            assert_eq!(
                !whole,
                border.contains("↓ more"),
                "{w}×{h}: {rows:#?} {border}"
            );
            // j scrolls to the end, never to "sliders drive simulated scenarios".
            let mut scrolled = app.clone();
            for _ in 0..40 {
                act(&mut scrolled, Action::Down);
            }
            assert!(
                !scrolled.status.contains("simulated"),
                "{}",
                scrolled.status
            );
            let (rows, border) = sliders_with_border(&scrolled, w, h);
            assert!(said(&rows).ends_with("j/k: scroll"), "{w}×{h}: {rows:#?}");
            assert!(!border.contains("↓ more"), "{border}");
        }
    }
}

/// Each anchor's range is the family's (both arcs, as `rhoscope identify` gives them), not
/// the one arc the slider moves on.
#[test]
fn the_family_pane_gives_each_range_over_both_arcs() {
    let app = trusted("tests/fixtures/likert_all.csv", 0);
    let panel = app.panel.as_deref().unwrap();
    let (_, family) = rhoscope::estimate::latent::family::Family::on_panel(panel).unwrap();
    let sliders: String = rhoscope::tui::trust::family_lines(&app, 200)
        .unwrap()
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    for (k, name) in ["A1", "A2", "A3"].iter().enumerate() {
        let (lo, hi) = family.range(k).unwrap();
        let want = format!("{name}: {lo:.2} to {hi:.2}");
        assert!(sliders.contains(&want), "{want}\n{sliders}");
        if family.arcs.len() > 1 {
            let arc = family.arcs[1].rho[k];
            assert!(
                sliders.contains(&format!("{:.2} to {:.2}", arc.0, arc.1)),
                "{sliders}"
            );
        }
    }
}

/// The trusted anchor carries a mark on its data-pane row; a role edit that suspends or
/// restores the trust says so.
#[test]
fn the_trusted_anchor_is_marked_and_role_edits_say_what_they_do_to_it() {
    let mut app = likert_trusted(0);
    let data = text(&app, Pane::Data, 120, 40);
    let row = data.lines().find(|l| l.contains("A1 ")).unwrap();
    assert!(row.contains("trust✓"), "{data}");
    assert!(
        !data
            .lines()
            .any(|l| l.contains("A2 ") && l.contains("trust✓")),
        "{data}"
    );
    act(&mut app, Action::CycleRole); // anchor → —
    assert!(app.status.contains("suspended"), "{}", app.status);
    assert!(!text(&app, Pane::Data, 120, 40).contains("trust✓"));
    act(&mut app, Action::CycleRole); // — → judge
    act(&mut app, Action::CycleRole); // judge → anchor
    assert!(
        app.status.contains("trusted as clean again"),
        "{}",
        app.status
    );
    assert!(text(&app, Pane::Data, 120, 40).contains("trust✓"));
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
    assert!(est.replace('\n', " ").contains("latent misfit"), "{est}");
    let sliders = text(&app, Pane::Sliders, 200, 80).replace('\n', " ");
    assert!(sliders.contains("no admissible world"), "{sliders}");
    // No world to move along, but the trusted anchor is still named as trusted.
    assert!(sliders.contains("human1 trusted"), "{sliders}");
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

/// Once the battery answers a `t`, the status line says what the estimates pane shows, from
/// the core's one wording: on hanna-llm with human3 set aside (2 ordinal anchors) that is
/// the reason no ρ̂ can be read, not a promise of one (trial 42 finding 13).
#[test]
fn the_status_after_t_says_what_the_pane_shows() {
    let mut app = llm_assigned();
    app.cursor = app.entries.len() + 9; // human3: anchor → —
    act(&mut app, Action::CycleRole);
    app.cursor = app.entries.len() + 7; // human1
    act(&mut app, Action::TrustAnchor);
    assert_eq!(app.designated(), Some(0));
    let r = app.battery.as_deref().unwrap();
    assert_eq!(r.reading.answer.read, None);
    assert!(app.status.contains("no ρ̂ can be read"), "{}", app.status);
    assert!(
        !app.status.contains("read relative to it"),
        "{}",
        app.status
    );
    // The reason in a few words, whole at 80 columns (trial 45, #25); the pane gives it in
    // full, and the short words name the same estimate.
    let est = text(&app, Pane::Estimates, 200, 60).replace('\n', " ");
    let why = app.status.split("can be read: ").nth(1).unwrap();
    assert!(
        why.starts_with("designated-clean estimate on latent scales does not run"),
        "{why}"
    );
    assert!(why.ends_with("(the estimates pane says why)"), "{why}");
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        squash(&est).contains("at least 3 anchors (the panel has 2)")
            && squash(&est).contains("designated-clean estimate on latent scales does not run"),
        "{est}"
    );

    // Where the trust gives a reading, the status says so once the battery has read it.
    let likert = likert_trusted(0);
    assert!(
        likert
            .status
            .contains("'A1' trusted as clean: the others' ρ is read relative to it"),
        "{}",
        likert.status
    );
}

/// At every size the battery's read row keeps its hint whole or drops it: never a lone "(".
#[test]
fn the_read_row_drops_its_hint_rather_than_cut_it() {
    let app = likert_trusted(1);
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let rows = pane_rows(&app, Pane::Battery, w, h);
        let read = rows
            .iter()
            .find(|r| r.contains("read the designated clean"))
            .unwrap_or_else(|| panic!("{w}×{h}: {rows:#?}"));
        assert!(
            read.trim_end().ends_with("(latent)") || read.trim_end().ends_with("(Enter: why)"),
            "{w}×{h}: {read}"
        );
    }
}

/// Trial 44, finding 14: moved off 0, the slider's world is a what-if: the trusted anchor's row
/// does not say "trusted" beside a ρ other than the estimates pane's 0, and the pane says
/// which world the estimates read.
#[test]
fn the_trusted_anchor_off_zero_is_a_what_if_not_trusted() {
    let mut app = likert_trusted(0);
    act(&mut app, Action::Focus(Pane::Sliders));
    let at0 = text(&app, Pane::Sliders, 80, 24);
    assert!(at0.contains("A1 ρ  0.00 trusted"), "{at0}");
    for _ in 0..2 {
        act(&mut app, Action::Coarse(1));
    }
    let moved: String = rhoscope::tui::trust::family_lines(&app, 60)
        .unwrap()
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    let row = moved
        .lines()
        .find(|l| l.contains("A1 ρ "))
        .unwrap_or_else(|| panic!("{moved}"));
    assert!(row.contains("0.20"), "{moved}");
    assert!(!row.contains("trusted"), "{row}");
    assert!(row.trim_end().ends_with("what-if"), "{row}");
    let said = moved.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains("trusted as clean (ρ 0) is the world the estimates pane reads"),
        "{moved}"
    );
    let est = text(&app, Pane::Estimates, 120, 40);
    assert!(
        est.contains("ρ = 0 (assumed)"),
        "the estimates pane keeps the trusted reading: {est}"
    );
}

/// Trial 44, findings 13, 15 and 16: the `w` figures of a piped panel with A2 trusted name the
/// trusted anchor (not "A1"), call the source "standard input" (not "-"), and print each
/// p-value as the battery pane does.
#[test]
fn figures_name_the_trusted_anchor_the_source_and_the_panes_p_values() {
    use rhoscope::plot::Figure;
    use rhoscope::tui::figure::{Source as FigSource, View, Want, of_view};
    let app = likert_trusted(1);
    assert_eq!(app.designated(), Some(1));
    let view = |focus| View {
        report: app.battery.as_deref(),
        panel: app.panel.as_deref(),
        source: FigSource::File(PathBuf::from("-")),
        focus,
    };
    let (Figure::Rho(rho), _) = of_view(&view(Pane::Estimates), Want::View).unwrap() else {
        panic!("the estimates' figure is the ρ̂ figure");
    };
    assert!(rho.title.ends_with(": standard input"), "{}", rho.title);
    let labels: Vec<&str> = rho.series.iter().map(|s| s.label.as_str()).collect();
    assert!(
        labels.iter().any(|l| l.contains("designated clean A2")),
        "{labels:?}"
    );
    assert!(!labels.iter().any(|l| l.contains("clean A1")), "{labels:?}");
    let (fig, _) = of_view(&view(Pane::Battery), Want::View).unwrap();
    let Figure::Battery(b) = &fig else {
        panic!("the battery's figure");
    };
    assert!(b.title.ends_with(": standard input"), "{}", b.title);
    let svg = fig.svg().unwrap();
    let pane = text(&app, Pane::Battery, 120, 40);
    let mut seen = 0;
    for t in &b.tests {
        let Some(p) = t.p_value else { continue };
        let shown = rhoscope::tui::panes::battery::p_text(p);
        assert!(pane.contains(&format!("p {shown}")), "{shown}: {pane}");
        assert!(
            svg.contains(&format!("p = {shown}")),
            "p = {shown} not in the figure"
        );
        seen += 1;
    }
    assert!(seen > 0, "a test with a p-value");
}

/// Issue 38: where the free-scale fit slides along its equal-β ridge (Likert judges,
/// continuous anchors: `tests/fixtures/likert_judges_ridge.csv` is `rhoscope simulate
/// --preset three-anchor --set ordinal=judges:5 --n 800 --seed 3`), the sliders pane moves
/// along the core's ridge family: "assumed ρ of A1" at the value the keys set, and every
/// anchor's ρ of that world, all 0 together at 0.
#[test]
fn the_slider_moves_along_the_free_scale_ridge() {
    let mut app = started(Start::File(
        PathBuf::from("tests/fixtures/likert_judges_ridge.csv"),
        rhoscope::data::PanelRequest::default(),
    ));
    let panel = app.panel.clone().unwrap();
    let (mom, family) = rhoscope::identify::ridge_of(&panel).expect("the fit is on its ridge");
    let lines = |app: &App| -> String {
        rhoscope::tui::trust::family_lines(app, 200)
            .unwrap()
            .iter()
            .map(|l| l.to_string() + "\n")
            .collect()
    };
    let at0 = lines(&app);
    assert!(at0.contains("assumed ρ of A1"), "{at0}");
    assert!(at0.contains("equal-β ridge"), "{at0}");
    // The pane on screen has the slider and every anchor's ρ.
    let shown = text(&app, Pane::Sliders, 80, 24);
    assert!(
        shown.contains("assumed ρ of A1") && shown.contains("A3 ρ"),
        "{shown}"
    );
    for name in ["A1", "A2", "A3"] {
        assert!(at0.contains(&format!("{name} ρ  0.00")), "{at0}");
    }
    act(&mut app, Action::Focus(Pane::Sliders));
    for _ in 0..3 {
        act(&mut app, Action::Coarse(1));
    }
    let moved = lines(&app);
    assert!(moved.contains("A1 ρ  0.30"), "{moved}");
    let (arc, _, at) = family.slider(0, Some(0.3)).unwrap();
    let world = rhoscope::estimate::latent::ridge::at_assumed(&mom, arc, 0, at);
    for (k, name) in ["A2", "A3"].iter().enumerate() {
        let want = format!("{name} ρ {:>5.2}", world[k + 1]);
        assert!(moved.contains(&want), "{want}\n{moved}");
        assert!(world[k + 1].abs() > 0.05, "{world:?}");
    }
}
