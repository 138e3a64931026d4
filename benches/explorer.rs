//! Speed targets of the explorer issue: from a slider key to the redrawn estimate ≤ 16 ms
//! at N ≤ 2000; verdicts refreshed ≤ 100 ms after the last key (the battery job the key
//! queues, which the worker starts at once); and a held key (40 presses in one burst)
//! costing one job and one frame, not forty.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use rhoscope::progress::silent;
use rhoscope::tui::action::{Action, Effect};
use rhoscope::tui::app::{App, Settings, Start};
use rhoscope::tui::sliders::Knob;
use rhoscope::tui::{coalesce, ui, worker};

fn app_at(n: f64) -> App {
    let (mut app, _) = App::new(Settings {
        start: Start::Default,
        color: true,
        files: Vec::new(),
        hanna: None,
    });
    app.scenario.set(Knob::N, n);
    let _ = app.update(Action::Fine(1));
    app
}

fn explorer(c: &mut Criterion) {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    for n in [500.0, 2000.0] {
        let mut app = app_at(n);
        let mut dir = 1;
        c.bench_function(&format!("slider key → redrawn estimate, N={n}"), |b| {
            b.iter(|| {
                dir = -dir;
                let effects = app.update(Action::Fine(dir));
                terminal.draw(|f| ui::render(f, &app)).unwrap();
                black_box(effects)
            });
        });
    }
    for n in [2000.0, 20_000.0] {
        let mut app = app_at(n);
        let job = app
            .update(Action::Fine(1))
            .into_iter()
            .find_map(|e| match e {
                Effect::Battery(j) => Some(j),
                _ => None,
            })
            .unwrap();
        c.bench_function(
            &format!("last key → verdicts (battery job), N={n}"),
            |b| {
                b.iter(|| black_box(worker::run_battery(&job, &silent)));
            },
        );
    }
    let mut app = app_at(2000.0);
    c.bench_function(
        "held key: 40 presses → one job and one frame, N=2000",
        |b| {
            b.iter(|| {
                let mut effects = Vec::new();
                for i in 0..40 {
                    effects.extend(app.update(Action::Fine(if i % 2 == 0 { 1 } else { -1 })));
                }
                let jobs = coalesce(effects);
                terminal.draw(|f| ui::render(f, &app)).unwrap();
                black_box(jobs)
            });
        },
    );
}

criterion_group!(benches, explorer);
criterion_main!(benches);
