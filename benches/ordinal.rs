//! Speed targets of the ordinal issue, measured with criterion: the full mixed correlation
//! matrix (polychoric + polyserial + Pearson) for six 5-level judges and three continuous
//! anchors at N = 4000 (≤ 5 ms), the free-scale fit from that matrix (≤ 50 µs), and the fit
//! with its B = 300 item bootstrap, correlations recomputed per resample (≤ 1 s on 2 cores).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rhoscope::estimate::free_scale;
use rhoscope::model::Discretise;
use rhoscope::ordinal::correlation_matrix;
use rhoscope::scenario::preset;
use rhoscope::simulate::simulate;

fn panel() -> rhoscope::panel::Panel {
    let mut pm = preset("three-anchor").unwrap();
    pm.violations.ordinal = (0..6)
        .map(|j| (j, Discretise::equal_probability(5)))
        .collect();
    simulate(&pm, 4000, 1).unwrap()
}

fn hetcor(c: &mut Criterion) {
    let panel = panel();
    c.bench_function(
        "correlation matrix: 6 five-level judges + 3 continuous anchors, N=4000",
        |b| b.iter(|| black_box(correlation_matrix(black_box(&panel)).unwrap())),
    );
}

fn free_scale_fit(c: &mut Criterion) {
    let panel = panel();
    let corr = correlation_matrix(&panel).unwrap();
    let r = corr.r.view((0, 0), (6, 6)).into_owned();
    let rja = corr.r.view((0, 6), (6, 3)).into_owned();
    let pa = rhoscope::moments::covariance(&panel.data[6 * 4000..], 4000, 3, &mut Vec::new());
    c.bench_function("free-scale fit from correlations, p=6 m=3", |b| {
        b.iter(|| black_box(free_scale::fit(black_box(&r), &rja, &pa).unwrap()));
    });
}

fn free_scale_bootstrap(c: &mut Criterion) {
    use rhoscope::bootstrap::bootstrap;
    use rhoscope::estimate::{Context, Estimator};
    let panel = panel();
    let mut g = c.benchmark_group("free-scale");
    g.sample_size(10);
    g.bench_function("fit + B=300 bootstrap, 6 five-level judges, N=4000", |b| {
        b.iter(|| {
            let fit = free_scale::fit_panel(black_box(&panel)).unwrap();
            let boot = bootstrap(
                &panel,
                &[Estimator::FreeScale],
                &Context::default(),
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

criterion_group!(benches, hetcor, free_scale_fit, free_scale_bootstrap);
criterion_main!(benches);
