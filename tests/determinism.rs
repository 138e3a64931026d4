//! Bit-identical results at any thread count: the binary with RAYON_NUM_THREADS=1 and =2,
//! and the parallel replicate runner inside thread pools of 1 and 2 threads.

mod common;

#[cfg(feature = "cli")]
use common::{root, run_env};
use rhoscope::estimate::closed_form;
use rhoscope::model::Params;
use rhoscope::moments::{JudgePairs, Moments, covariance};
use rhoscope::simulate::{Design, replicates};

#[cfg(feature = "cli")]
#[test]
fn simulate_and_estimate_output_do_not_depend_on_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let out = |threads: &str| {
        let env = [("RAYON_NUM_THREADS", threads)];
        let sim = run_env(
            dir.path(),
            &[
                "simulate",
                "--preset",
                "three-anchor",
                "--n",
                "3000",
                "--seed",
                "5",
            ],
            &env,
        );
        assert_eq!(sim.code, 0);
        let asset = root().join("assets/families.csv");
        let est = run_env(
            dir.path(),
            &["estimate", asset.to_str().unwrap(), "--blocked", "--json"],
            &env,
        );
        assert_eq!(est.code, 0, "{}", est.stderr);
        (sim.stdout, est.stdout)
    };
    assert_eq!(out("1"), out("2"));
}

#[test]
fn parallel_replicates_are_bit_identical_across_pool_sizes() {
    let design = Design::new(&Params::default()).unwrap();
    let fit = || {
        replicates(&design, 500, 42, 64, |_, data| {
            let s = covariance(data, 500, 8, &mut Vec::new());
            let est = closed_form(&Moments::from_cov(&s, 6, JudgePairs::All).unwrap());
            est.anchors
                .iter()
                .map(|a| a.rho.unwrap().to_bits())
                .collect::<Vec<u64>>()
        })
    };
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let one = pool(1).install(fit);
    let two = pool(2).install(fit);
    assert_eq!(one, two);
    assert_ne!(one[0], one[1], "replicates differ from each other");
}
