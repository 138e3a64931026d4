//! A fuzz smoke run in the default suite: the fuzz target's own check (`fuzz/check.rs`) on
//! every asset and fixture panel and on seeded mutations of them (bytes flipped, cut, doubled,
//! spliced), so the target keeps compiling and its property keeps holding between real fuzz
//! runs, which need a nightly toolchain (CONTRIBUTING.md).

#[path = "../fuzz/check.rs"]
mod check;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// The seed corpus: the CSV assets and fixtures the project ships.
fn corpus() -> Vec<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["assets", "tests/fixtures"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("the folder exists")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "csv"))
            .collect();
        paths.sort();
        out.extend(paths.iter().map(|p| std::fs::read(p).expect("readable")));
    }
    out
}

/// One mutation of `input`, of the kinds libFuzzer makes most: flip, insert, cut, splice.
fn mutate(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    let special = [
        b',', b'\n', b'"', b'-', b'.', b'e', b'0', b'9', 0xff, b'\r', b' ', 0,
    ];
    for _ in 0..rng.random_range(1..6) {
        if v.is_empty() {
            v.push(b'1');
        }
        let at = rng.random_range(0..v.len());
        match rng.random_range(0..5) {
            0 => v[at] = special[rng.random_range(0..special.len())],
            1 => v.insert(at, special[rng.random_range(0..special.len())]),
            2 => v.truncate(at),
            3 => {
                let end = (at + rng.random_range(1..200)).min(v.len());
                let copy = v[at..end].to_vec();
                v.splice(at..at, copy);
            }
            _ => {
                let from = rng.random_range(0..other.len().max(1));
                let tail = other.get(from..).unwrap_or(&[]).to_vec();
                v.truncate(at);
                v.extend(tail);
            }
        }
    }
    v
}

#[test]
fn the_fuzz_property_holds_on_a_seeded_corpus() {
    let corpus = corpus();
    assert!(corpus.len() >= 5, "the seed corpus is missing");
    for input in &corpus {
        check::check(input);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_127);
    for _ in 0..400 {
        let a = &corpus[rng.random_range(0..corpus.len())];
        let b = &corpus[rng.random_range(0..corpus.len())];
        check::check(&mutate(&mut rng, a, b));
    }
}
