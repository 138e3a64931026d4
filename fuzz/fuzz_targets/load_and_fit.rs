//! Arbitrary bytes as a panel file: the loader, every estimator and the battery's reports
//! must return a value or a located error, never panic, and never print an escape byte.
//! Run with `cargo +nightly fuzz run load_and_fit` from `fuzz/` (CONTRIBUTING.md); the same
//! check runs on a seeded corpus in the default suite (`tests/fuzz_smoke.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../check.rs"]
mod check;

fuzz_target!(|bytes: &[u8]| check::check(bytes));
