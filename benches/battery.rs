//! Speed targets of the battery: the full battery on a panel with p = 6, m = 3 and families
//! (three of two judges), B = 300 bootstrap resamples and 1000 null draws for each applicable
//! test: ≤ 15 ms at N = 2000 and ≤ 8 ms at N = 500 on this 2-core machine; and at scale, the
//! `families` preset (p = 6, m = 2) and `three-anchor` with p = 20 at N = 20 000, and the
//! bootstrap alone at N = 20 000 for p = 6 and p = 20 (the cost of a resample must not grow
//! with p beyond the features pass), and with the free-scale refit, whose second moments make
//! a resample O(N·q²). Beside them the Likert path ([`likert`]).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rhoscope::battery::{NullSpec, Options, run};
use rhoscope::bootstrap::bootstrap;
use rhoscope::estimate::{Context, Estimator};
use rhoscope::model::{Discretise, Families};
use rhoscope::progress::silent;
use rhoscope::rng::Streams;
use rhoscope::scenario::preset;
use rhoscope::simulate::simulate;

fn battery(c: &mut Criterion) {
    let mut pm = preset("three-anchor").unwrap();
    pm.violations.families = Families::Blocks(3);
    pm.violations.sigma_f = 0.3;
    let opts = Options::default();
    for n in [500, 2000] {
        let panel = simulate(&pm, n, 1).unwrap();
        c.bench_function(
            &format!("battery: N={n} p=6 m=3 families, B=300, 1000 null draws"),
            |b| {
                b.iter(|| black_box(run(black_box(&panel), &NullSpec::Matched, &opts, &silent)));
            },
        );
    }
    let mut fam = preset("families").unwrap();
    fam.violations.sigma_f = 0.5;
    let mut wide = preset("three-anchor").unwrap();
    wide.p = 20;
    for (name, pm) in [("families p=6 m=2", fam), ("three-anchor p=20 m=3", wide)] {
        let panel = simulate(&pm, 20_000, 1).unwrap();
        c.bench_function(&format!("battery: N=20000 {name}"), |b| {
            b.iter(|| black_box(run(black_box(&panel), &NullSpec::Matched, &opts, &silent)));
        });
        let ctx = Context {
            families: panel.judge_families(),
            clean: None,
        };
        c.bench_function(&format!("bootstrap B=300: N=20000 {name}"), |b| {
            b.iter(|| {
                black_box(bootstrap(
                    black_box(&panel),
                    &[Estimator::ClosedForm],
                    &ctx,
                    300,
                    Streams::of(1),
                    &silent,
                ))
            });
        });
    }
    // The closed form's resample cost against p (the issue asks for its slope): O(N·p) features
    // pass, then count-weighted sums of p + 2 + 2m + m(m+1)/2 numbers per item.
    for p in [3, 6, 20, 50] {
        let mut pm = preset("three-anchor").unwrap();
        pm.p = p;
        let panel = simulate(&pm, 20_000, 1).unwrap();
        c.bench_function(&format!("bootstrap slope: B=300 N=20000 m=3 p={p}"), |b| {
            b.iter(|| {
                black_box(bootstrap(
                    black_box(&panel),
                    &[Estimator::ClosedForm],
                    &Context::default(),
                    300,
                    Streams::of(1),
                    &silent,
                ))
            });
        });
    }
    // The free-scale refit on every resample: from count-weighted second moments, so O(N·q²)
    // per resample where the closed form's is O(N·p).
    let mut wide = preset("three-anchor").unwrap();
    wide.p = 20;
    let panel = simulate(&wide, 20_000, 1).unwrap();
    c.bench_function("bootstrap B=300 with free-scale: N=20000 p=20 m=3", |b| {
        b.iter(|| {
            black_box(bootstrap(
                black_box(&panel),
                &[Estimator::ClosedForm, Estimator::FreeScale],
                &Context::default(),
                300,
                Streams::of(1),
                &silent,
            ))
        });
    });
}

/// The same panel with continuous judges and with six 5-level Likert judges.
fn panels(n: usize) -> [(&'static str, rhoscope::panel::Panel); 2] {
    let continuous = preset("three-anchor").unwrap();
    let mut likert = continuous.clone();
    likert.violations.ordinal = (0..6)
        .map(|j| (j, Discretise::equal_probability(5)))
        .collect();
    [
        ("continuous", simulate(&continuous, n, 1).unwrap()),
        ("likert", simulate(&likert, n, 1).unwrap()),
    ]
}

/// The Likert path beside the continuous one (issue 36): the whole battery (B = 300, 1000 null
/// draws) on six 5-level judges and three continuous anchors and on the same panel with
/// continuous judges, at N = 2·10³, 2·10⁴ and 10⁵, and the Likert panel's item bootstrap alone
/// (the free-scale refit from each resample's tally). Targets: Likert ≤ 10× continuous at
/// N = 2000 and ≤ 8× at N = 100 000. Short by default (ten samples, two seconds a case).
fn likert(c: &mut Criterion) {
    let opts = Options::default();
    let mut g = c.benchmark_group("likert");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for n in [2000, 20_000, 100_000] {
        for (name, panel) in panels(n) {
            g.bench_function(format!("battery {name} judges: N={n} p=6 m=3"), |b| {
                b.iter(|| black_box(run(black_box(&panel), &NullSpec::Matched, &opts, &silent)));
            });
            if name == "likert" {
                g.bench_function(format!("bootstrap B=300 free-scale, likert: N={n}"), |b| {
                    b.iter(|| {
                        black_box(bootstrap(
                            black_box(&panel),
                            &[Estimator::FreeScale],
                            &Context::default(),
                            300,
                            Streams::of(1),
                            &silent,
                        ))
                    });
                });
            }
        }
    }
    g.finish();
}

criterion_group!(benches, battery, likert);
criterion_main!(benches);
