//! Speed target of `validate` (issue 13): 24 runs at N = 2000 with three five-level ordinal
//! judges, bootstrap off, ≤ 10 s on 2 cores. Measured with the default battery (40
//! matched-null draws per test in each run) and with the battery off.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rhoscope::panel::Panel;
use rhoscope::progress::silent;
use rhoscope::scenario::preset;
use rhoscope::simulate::simulate;
use rhoscope::validate::{self, Options, Texture, Thresholds};

/// Three judges of the base design rounded to codes 1..5 (skewed, like real raters).
fn texture() -> Texture {
    let pm = preset("mid").unwrap();
    let n = 431;
    let sim = simulate(&pm, n, 1).unwrap();
    let data: Vec<f64> = sim.data[..3 * n]
        .iter()
        .map(|x| (x.round() + 3.0).clamp(1.0, 5.0))
        .collect();
    let panel = Panel::new(n, data, sim.judges[..3].to_vec(), Vec::new());
    Texture::of(&panel).unwrap()
}

fn study(c: &mut Criterion) {
    let tex = texture();
    let mut g = c.benchmark_group("validate");
    g.sample_size(10);
    for null_draws in [validate::DEFAULT_NULL_DRAWS, 0] {
        let opts = Options {
            inject: validate::DEFAULT_INJECT.to_vec(),
            ns: vec![2000],
            reps: 24,
            seed: 1,
            bootstrap: 0,
            null_draws,
            thresholds: Thresholds::Own,
        };
        g.bench_function(
            format!("24 runs, N=2000, 3 ordinal judges, battery {null_draws} draws"),
            |b| b.iter(|| black_box(validate::run(&tex, &opts, &silent).unwrap())),
        );
    }
    g.finish();
}

criterion_group!(benches, study);
criterion_main!(benches);
