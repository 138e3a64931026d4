//! Speed targets of the core issue, measured with criterion:
//! moments + closed form at N = 2000, p = 6, m = 3 (≤ 15 µs); simulating a 2000 × 9 panel
//! (≤ 200 µs); an ML fit at N = 2000, p = 6, m = 2 (≤ 1 ms); loading a 1,000,000-row numeric
//! CSV of 8 or 9 columns in a fraction of a second (the parallel byte reader, docs/method.md §6), beside
//! the same file through the `csv` crate reference reader (a quoted header sends it there).
//! Whole-process time and peak memory of `estimate` on such a file are measured separately with
//! `/usr/bin/time -v` (see the README).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rhoscope::data::{PanelRequest, load};
use rhoscope::estimate::closed_form;
use rhoscope::moments::{JudgePairs, Moments};
use rhoscope::scenario::preset;
use rhoscope::simulate::{Design, replicate_rng, simulate};

fn fit(c: &mut Criterion) {
    let pm = preset("three-anchor").unwrap();
    let panel = simulate(&pm, 2000, 1).unwrap();
    let mut scratch = Vec::new();
    c.bench_function("fit: moments + closed form, N=2000 p=6 m=3", |b| {
        b.iter(|| {
            let mom = Moments::from_data(
                black_box(&panel.data),
                2000,
                6,
                JudgePairs::All,
                &mut scratch,
            )
            .unwrap();
            black_box(closed_form(&mom))
        });
    });
}

fn ml_fit(c: &mut Criterion) {
    let pm = preset("mid").unwrap();
    let panel = simulate(&pm, 2000, 1).unwrap();
    let s = panel.covariance();
    c.bench_function(
        "ML fit (Fisher scoring from the closed form), N=2000 p=6 m=2",
        |b| {
            b.iter(|| black_box(rhoscope::estimate::ml::fit(black_box(&s), 6, 2000).unwrap()));
        },
    );
}

fn simulate_panel(c: &mut Criterion) {
    let design = Design::new(&preset("three-anchor").unwrap()).unwrap();
    let mut out = Vec::new();
    let mut r = 0u64;
    c.bench_function("simulate: 2000 x 9 panel", |b| {
        b.iter(|| {
            r += 1;
            design.draw_into(2000, &mut replicate_rng(7, r), &mut out);
            black_box(&out);
        });
    });
}

fn load_csv(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let opts = PanelRequest {
        min_anchors: 2,
        ..PanelRequest::default()
    };
    let mut g = c.benchmark_group("load");
    g.sample_size(10);
    for (preset, label) in [
        ("three-anchor", "1,000,000 x 9"),
        ("families", "1,000,000 x 8"),
    ] {
        let path = dir.path().join(format!("{preset}.csv"));
        let panel = simulate(&preset_params(preset), 1_000_000, 3).unwrap();
        panel
            .write_csv(&mut std::fs::File::create(&path).unwrap())
            .unwrap();
        drop(panel);
        g.bench_function(format!("load: {label} CSV"), |b| {
            b.iter(|| black_box(load(&path, &opts).unwrap()));
        });
        if preset == "families" {
            let text = std::fs::read_to_string(&path).unwrap();
            let quoted = dir.path().join("quoted.csv");
            std::fs::write(&quoted, text.replacen("J1,", "\"J1\",", 1)).unwrap();
            drop(text);
            g.bench_function(format!("load: {label} CSV, csv-crate reader"), |b| {
                b.iter(|| black_box(load(&quoted, &opts).unwrap()));
            });
        }
    }
    g.finish();
}

fn preset_params(name: &str) -> rhoscope::model::Params {
    preset(name).unwrap()
}

criterion_group!(benches, fit, ml_fit, simulate_panel, load_csv);
criterion_main!(benches);
