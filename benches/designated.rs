//! The designated-clean estimate on latent scales (docs/method.md §7b) on a hanna-llm-sized
//! panel: five continuous judges, three 5-level anchors, N = 1040. Its point fit (the mixed
//! correlation matrix, then the frame) and the fit with its B = 300 item bootstrap, each
//! resample's correlations recomputed from its tally of code patterns.
//!
//! `cargo bench --bench designated`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rhoscope::bootstrap::bootstrap;
use rhoscope::estimate::{Context, Estimator};
use rhoscope::model::Discretise;
use rhoscope::panel::Panel;
use rhoscope::scenario::preset;
use rhoscope::simulate::simulate;

/// N of hanna-llm's coherence panel once its missing values are dropped.
const N: usize = 1040;

fn panel() -> Panel {
    let mut pm = preset("three-anchor").unwrap();
    pm.p = 5;
    pm.rho = vec![0.0, 0.5, 0.3];
    pm.violations.ordinal = (5..8)
        .map(|k| (k, Discretise::equal_probability(5)))
        .collect();
    simulate(&pm, N, 1).unwrap()
}

fn ctx() -> Context {
    Context {
        families: None,
        clean: Some(0),
    }
}

fn point(c: &mut Criterion) {
    let panel = panel();
    let e = Estimator::DesignatedCleanLatent;
    c.bench_function("designated-clean latent fit, p=5 m=3 Likert, N=1040", |b| {
        b.iter(|| {
            black_box(
                e.fit(black_box(&panel), &panel.covariance(), &ctx())
                    .unwrap(),
            )
        });
    });
}

fn with_bootstrap(c: &mut Criterion) {
    let panel = panel();
    let e = Estimator::DesignatedCleanLatent;
    let mut g = c.benchmark_group("designated-clean latent");
    g.sample_size(10);
    g.bench_function("fit + B=300 bootstrap, p=5 m=3 Likert, N=1040", |b| {
        b.iter(|| {
            let fit = e.fit(&panel, &panel.covariance(), &ctx()).unwrap();
            let boot = bootstrap(
                &panel,
                &[e],
                &ctx(),
                300,
                rhoscope::rng::Streams::of(1),
                &rhoscope::progress::silent,
            )
            .unwrap();
            black_box((fit, boot))
        });
    });
    g.finish();
}

criterion_group!(benches, point, with_bootstrap);
criterion_main!(benches);
