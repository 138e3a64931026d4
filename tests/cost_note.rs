//! The battery's cost note charges the work that runs: on panels whose nulls are Wishart draws
//! (ordinal anchors, continuous judges) or whose fits are undefined it predicts within 2× of
//! the measured run, where charging row-simulating nulls for any ordinal column predicted
//! 10–200× too much.

mod common;

use rhoscope::battery::calibration::plan;
use rhoscope::battery::{NullSpec, null::NullDraw};
use rhoscope::cost::{BatteryShape, battery_seconds};
use rhoscope::data::{ColumnRef, PanelRequest, load};
use rhoscope::panel::Panel;

fn columns(v: &[&str]) -> Vec<ColumnRef> {
    v.iter()
        .map(|s| ColumnRef::NameOrPosition((*s).to_string()))
        .collect()
}

fn panel(path: &std::path::Path, judges: &[&str], anchors: &[&str]) -> Panel {
    let opts = PanelRequest {
        judges: Some(columns(judges)),
        anchors: Some(columns(anchors)),
        ..PanelRequest::default()
    };
    load(path, &opts).unwrap().panel
}

fn seconds(p: &Panel, resamples: usize, null_draws: usize) -> (f64, BatteryShape) {
    let plan = plan(p, &NullSpec::Matched, None);
    let shape = BatteryShape {
        n: p.n,
        judges: p.p(),
        anchors: p.m(),
        resamples,
        null_draws,
        resample_polychorics: plan.resample_polychorics,
        nulls: plan.nulls,
        resample_fits: plan.resample_fits,
        draw_fits: plan.draw_fits,
        resample_fits_capped: plan.resample_fits_capped,
    };
    (battery_seconds(&shape), shape)
}

fn within_2x(p: &Panel, (b, d): (usize, usize), measured: f64) -> BatteryShape {
    let (e, shape) = seconds(p, b, d);
    eprintln!("{shape:?}: {e} s");
    assert!(
        e >= measured / 2.0 && e <= measured * 2.0,
        "{shape:?}: predicted {e} s for {measured} s"
    );
    shape
}

#[test]
fn hanna_llm_with_ordinal_anchors_is_charged_wishart_draws() {
    let p = panel(
        &common::shared().join("hanna-llm/hanna_llm_coherence.csv"),
        &[
            "beluga_13b",
            "orca_platypus_13b",
            "mistral_7b",
            "llama2_13b_chat",
            "chatgpt",
        ],
        &["human1", "human2", "human3"],
    );
    // `battery … --null-draws 20000 --bootstrap 5000`: 0.18 CPU s (release; the note said 28 s);
    // 0.27 CPU s with `--threads 1` under a load average of 15.
    let shape = within_2x(&p, (5000, 20_000), 0.27);
    assert!(shape.nulls.iter().all(|n| n.draw == NullDraw::Wishart));
    assert!(!shape.nulls.is_empty());
}

#[test]
fn a_ten_item_all_ordinal_panel_is_not_charged_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::write(
        dir.path(),
        "k10.csv",
        b"J1,J2,J3,J4,J5,J6,A1,A2\n3,4,5,3,4,4,4,5\n5,4,5,5,5,5,4,3\n5,4,3,5,4,4,5,5\n\
3,3,5,3,4,5,5,5\n1,2,1,4,1,1,1,1\n2,1,4,3,2,1,3,4\n5,5,4,5,3,4,3,5\n1,1,2,2,1,2,1,1\n\
3,3,2,4,2,2,3,2\n3,4,2,3,5,2,1,3\n",
    );
    let p = panel(&path, &["J1", "J2", "J3", "J4", "J5", "J6"], &["A1", "A2"]);
    // `battery … --null-draws 5000 --bootstrap 1000`: 0.11 CPU s (release; the note said 8.3 s).
    within_2x(&p, (1000, 5000), 0.11);
}

#[test]
fn a_likert_panel_on_the_asymptotic_null_is_charged_its_pilots() {
    let mut pm = rhoscope::model::Params::three_anchor();
    pm.violations.ordinal = (0..6)
        .map(|j| (j, rhoscope::model::Discretise::equal_probability(5)))
        .collect();
    // Six 5-level judges, three continuous anchors: `battery --seed 1` takes 0.72 CPU s at
    // N = 2000 and 4.27 at N = 100 000 (release, 2 cores, load about 15, whole process).
    for (n, measured) in [(2000, 0.72), (100_000, 4.27)] {
        let p = rhoscope::simulate::simulate(&pm, n, 1).unwrap();
        let shape = within_2x(&p, (300, 1000), measured);
        assert_eq!(shape.nulls.len(), 2, "{shape:?}");
        assert!(
            shape
                .nulls
                .iter()
                .all(|n| n.draw == NullDraw::Asymptotic && n.pilot.is_some())
        );
    }
}

#[test]
fn a_continuous_panel_is_charged_its_free_scale_refits() {
    // Six continuous judges, three anchors, 300 items: the closed form out of range
    // (σ̂_a² < 0), the free-scale fit refitted on every resample and on every draw of Test O's
    // and Test J's nulls. `--threads 1 battery … --bootstrap 20000 --null-draws 100`: 1.07 CPU
    // s; `--bootstrap 100 --null-draws 20000`: 1.08 s (the note said nothing: 0.2 s).
    let p = panel(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/free_scale_out_of_range.csv"),
        &["J1", "J2", "J3", "J4", "J5", "J6"],
        &["A1", "A2", "A3"],
    );
    let shape = within_2x(&p, (20_000, 100), 1.07);
    assert_eq!(shape.resample_fits, vec![9]);
    let shape = within_2x(&p, (100, 20_000), 1.08);
    assert_eq!(shape.draw_fits, vec![9, 6]);
}

/// `validate`'s prediction for `assets/mid.csv`'s six judges (or its first `items` rows).
fn validate_seconds(items: usize, ns: &[usize], reps: usize, boot: usize, draws: usize) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mid.csv"),
    )
    .unwrap();
    let head: Vec<&str> = text.lines().take(items + 1).collect();
    let path = common::write(dir.path(), "m.csv", (head.join("\n") + "\n").as_bytes());
    let p = panel(&path, &["J1", "J2", "J3", "J4", "J5", "J6"], &["A1", "A2"]);
    let tex = rhoscope::validate::Texture::of(&p).unwrap();
    let mut opts = rhoscope::validate::Options {
        inject: vec![0.0, 0.4, 0.7],
        ns: vec![p.n],
        reps,
        seed: 1,
        bootstrap: boot,
        null_draws: draws,
        thresholds: rhoscope::validate::Thresholds::Own,
    };
    opts.ns.extend(ns.iter().filter(|&&n| n != p.n));
    let e = rhoscope::validate::seconds(&tex, &opts);
    eprintln!(
        "{items} items, N {:?}, R {reps}, B {boot}, D {draws}: {e} s",
        opts.ns
    );
    e
}

#[test]
fn validate_is_charged_its_items_bootstrap_and_battery() {
    // `validate assets/mid.csv …` (optimised dev build, 2 cores under a load average of about
    // 8, CPU seconds); the note said 0.25 s for the 10⁶ run, 16 s for the 1000 small replicates.
    let cases = [
        ((50, &[][..], 1000, 0, 0), 0.38),
        ((500, &[1_000_000][..], 2, 0, 0), 2.54),
        ((500, &[200_000][..], 2, 0, 0), 0.44),
        ((500, &[][..], 24, 0, 200), 2.15),
        ((50, &[][..], 24, 0, 200), 3.30),
        ((500, &[][..], 24, 200, 0), 1.27),
        ((50, &[][..], 24, 200, 0), 2.58),
    ];
    let off: Vec<String> = cases
        .iter()
        .filter_map(|&((items, ns, reps, boot, draws), measured)| {
            let e = validate_seconds(items, ns, reps, boot, draws);
            (e < measured / 2.0 || e > measured * 2.0).then(|| {
                format!("{items} items, N {ns:?}, D {draws}, B {boot}: {e} s for {measured} s")
            })
        })
        .collect();
    assert!(off.is_empty(), "{off:#?}");
}

#[test]
fn a_latent_fit_that_runs_out_of_iterations_is_charged_its_cap_on_every_resample() {
    // HANNA-LLM coherence's five LLM judges, human1..3 read as continuous anchors, complete
    // rows: the free-scale fit does not converge, and neither does any resample's refit.
    let path = common::shared().join("hanna-llm/hanna_llm_coherence.csv");
    let opts = PanelRequest {
        judges: Some(columns(&[
            "beluga_13b",
            "orca_platypus_13b",
            "mistral_7b",
            "llama2_13b_chat",
            "chatgpt",
        ])),
        anchors: Some(columns(&["human1", "human2", "human3"])),
        continuous: Some(rhoscope::data::Columns::Listed(columns(&[
            "human1", "human2", "human3",
        ]))),
        ..PanelRequest::default()
    };
    let p = load(&path, &opts).unwrap().panel;
    // `battery hl.csv … --bootstrap 30000 --null-draws 20 --threads 1` (release, 2 cores,
    // load average about 10, CPU seconds; the folder's families.csv adopted): 25.4 s; the note said 1.5 s.
    let shape = within_2x(&p, (30_000, 20), 25.4);
    assert!(shape.resample_fits_capped, "{shape:?}");
}
