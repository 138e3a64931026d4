//! The battery labels every progress step with its stage, and each stage takes exactly the
//! steps a progress bar is told to expect (B resamples, D draws per null), so a bar reaches
//! 100 % when its stage ends, not when the first of two nulls does.

use std::collections::HashMap;
use std::sync::Mutex;

use rhoscope::battery::{self, NullSpec, Options};
use rhoscope::progress::{Flow, Progress, Stage};
use rhoscope::scenario;

fn counts(sets: &[&str]) -> HashMap<Option<Stage>, usize> {
    let mut pm = scenario::preset("three-anchor").unwrap();
    for s in sets {
        scenario::apply_set(&mut pm, s).unwrap();
    }
    let panel = rhoscope::simulate::simulate(&pm, 400, 2).unwrap();
    let seen: Mutex<HashMap<Option<Stage>, usize>> = Mutex::new(HashMap::new());
    let tick = |p: Progress| {
        let stage = match p {
            Progress::StageStep(s) => Some(s),
            Progress::Step => None,
        };
        *seen.lock().unwrap().entry(stage).or_default() += 1;
        Flow::Continue
    };
    let opts = Options {
        resamples: 30,
        null_draws: 40,
        seed: 1,
    };
    battery::run(&panel, &NullSpec::Matched, &opts, &tick).unwrap();
    seen.into_inner().unwrap()
}

#[test]
fn an_ordinal_panel_counts_its_latent_null_by_stage() {
    // Likert judges: Tests A and B are N/A, so only the latent (free-scale) null runs, and
    // every stage that runs counts exactly its total.
    let seen = counts(&["ordinal=judges:5"]);
    assert_eq!(
        seen.get(&None),
        None,
        "every step names its stage: {seen:?}"
    );
    assert_eq!(seen[&Some(Stage::Bootstrap)], 30, "{seen:?}");
    assert!(
        matches!(seen.get(&Some(Stage::Null)), None | Some(40)),
        "{seen:?}"
    );
    assert_eq!(
        seen[&Some(Stage::FreeScaleNull)],
        40,
        "the latent null: {seen:?}"
    );
}

#[test]
fn a_continuous_panel_counts_its_stages_too() {
    let seen = counts(&[]);
    assert_eq!(seen.get(&None), None, "{seen:?}");
    assert_eq!(seen[&Some(Stage::Bootstrap)], 30, "{seen:?}");
    assert_eq!(seen[&Some(Stage::Null)], 40, "{seen:?}");
    assert!(
        matches!(seen.get(&Some(Stage::FreeScaleNull)), None | Some(40)),
        "{seen:?}"
    );
}
