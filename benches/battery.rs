//! Speed target of the battery issue: the full battery on a panel with p = 6, m = 3 and
//! families (three of two judges), B = 300 bootstrap resamples and 1000 null draws for each
//! applicable test: ≤ 15 ms at N = 2000 and ≤ 8 ms at N = 500 on this 2-core machine.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rhoscope::battery::{NullSpec, Options, run};
use rhoscope::model::Families;
use rhoscope::progress::silent;
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
}

criterion_group!(benches, battery);
criterion_main!(benches);
