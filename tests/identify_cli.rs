//! `rhoscope identify`: Section 7's all-ordinal non-identification, through the binary. The
//! two equivalent parameter vectors of the JSON are turned back into the model and their latent
//! correlations recomputed here, not read from the report; a panel's point is checked against
//! `estimate`; bad input exits 2 or 65 with one line and nothing raw from a hostile name.
#![cfg(feature = "cli")]

mod common;

use common::{root, run, write};
use rhoscope::model::{Discretise, Params};
use rhoscope::ordinal::latent_correlations;
use serde_json::Value;

fn json_of(args: &[&str]) -> Value {
    let r = run(&root(), args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    serde_json::from_str(&r.stdout).expect("identify --json prints JSON")
}

fn list(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// The model's parameters from a `params` object of the report.
fn params(v: &Value) -> Params {
    Params {
        sigma_t2: v["sigma_t2"].as_f64().unwrap(),
        sigma_c2: v["sigma_c2"].as_f64().unwrap(),
        p: usize::try_from(v["p"].as_u64().unwrap()).unwrap(),
        judge_var: list(&v["judge_var"]),
        rho: list(&v["rho"]),
        sigma_a: list(&v["sigma_a"]),
        ..Params::default()
    }
}

/// The two vectors carry ρ_1 = 0.30 and 0.80, are valid, differ, and give the same latent
/// correlations to 1e-10 when recomputed from their printed values.
fn check_equivalent_pair(doc: &Value) {
    let eq = &doc["all_ordinal"]["equivalent"];
    let (low, high) = (params(&eq["low"]), params(&eq["high"]));
    low.validate().unwrap();
    high.validate().unwrap();
    assert!((low.rho[0] - 0.30).abs() < 1e-12, "{:?}", low.rho);
    assert!((high.rho[0] - 0.80).abs() < 1e-12, "{:?}", high.rho);
    let diff = (latent_correlations(&low) - latent_correlations(&high)).amax();
    assert!(diff <= 1e-10, "latent correlations differ by {diff}");
    // The parameter vectors themselves are far apart.
    assert!((low.sigma_t2 - high.sigma_t2).abs() > 0.1);
    let reported = eq["max_abs_diff"].as_f64().unwrap();
    assert!(reported <= 1e-10 && (reported - diff).abs() <= 1e-10);
}

#[test]
fn without_a_panel_the_paper_design_shows_a_three_dimensional_null_space() {
    let doc = json_of(&["identify", "--json"]);
    assert_eq!(doc["point"]["source"], "paper_design");
    assert!(doc["point"]["reason"].is_null());
    // The base design: p = 6, m = 2 (Section 4).
    let point = params(&doc["point"]["params"]);
    assert_eq!(
        point,
        Params {
            judge_var: vec![1.0; 6],
            ..Params::default()
        }
    );
    let ao = &doc["all_ordinal"];
    // θ = (σ_t², σ_c², ρ_1, ρ_2, σ_a1, σ_a2, Var(e_1..6)): 12; (6 + 2)·7/2 = 28 correlations.
    assert_eq!(ao["n_params"], 12);
    assert_eq!(ao["n_correlations"], 28);
    // The common scale, the ρ-moving rotation, and (at m = 2) one more free direction.
    assert_eq!(ao["null_dim"], 3);
    assert_eq!(ao["rank"], 9);
    assert_eq!(ao["identified"], false);
    assert_eq!(ao["tolerance"].as_f64(), Some(1e-8));
    let sv = list(&ao["singular_values"]);
    assert_eq!(sv.len(), 12);
    assert!(sv[8] > 1e-4 * sv[0] && sv[9] < 1e-10 * sv[0], "{sv:?}");
    check_equivalent_pair(&doc);
    // The contrast: ordinal judges with three continuous anchors are identified.
    let mixed = &doc["mixed_scale"];
    assert_eq!(mixed["same_point"], false);
    assert_eq!(
        params(&mixed["params"]),
        Params {
            judge_var: vec![1.0; 6],
            ..Params::three_anchor()
        }
    );
    assert_eq!(mixed["null_dim"], 0);
    assert_eq!(mixed["rank"], 14);
    assert_eq!(mixed["identified"], true);
}

#[test]
fn text_report_states_rank_tolerance_null_space_and_the_difference() {
    let r = run(&root(), &["identify"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let t = &r.stdout;
    for needle in [
        "the paper's base design",
        "Jacobian rank 9 of 12",
        "≤ 1e-8 × the largest",
        "null space dimension 3: ρ is NOT identified",
        "ρ_1 = 0.30",
        "ρ_1 = 0.80",
        "(≤ 1e-10)",
        "Jacobian rank 14 of 14",
        "null space dimension 0: ρ is locally identified",
    ] {
        assert!(t.contains(needle), "missing {needle:?} in\n{t}");
    }
}

#[test]
fn a_panel_in_range_is_its_own_point_the_estimate_of_theorem_1() {
    let doc = json_of(&["identify", "assets/three-anchor.csv", "--json"]);
    assert_eq!(doc["point"]["source"], "panel_fit");
    assert_eq!(doc["n_items"], 500);
    let est = json_of(&["estimate", "assets/three-anchor.csv", "--json"]);
    let point = &doc["point"]["params"];
    assert_eq!(point["sigma_t2"], est["estimate"]["sigma_t2"]);
    assert_eq!(point["sigma_c2"], est["estimate"]["sigma_c2"]);
    for k in 0..3 {
        assert_eq!(point["rho"][k], est["estimate"]["anchors"][k]["rho"]);
    }
    // m = 3: only the scale and the rotation are free (Section 7's two-dimensional family).
    assert_eq!(doc["all_ordinal"]["null_dim"], 2);
    assert_eq!(doc["mixed_scale"]["same_point"], true);
    assert_eq!(doc["mixed_scale"]["null_dim"], 0);
    check_equivalent_pair(&doc);
}

#[test]
fn a_panel_out_of_range_falls_back_to_the_paper_design_and_says_why() {
    let doc = json_of(&["identify", "assets/boundary.csv", "--json"]);
    assert_eq!(doc["point"]["source"], "paper_design");
    let why = doc["point"]["reason"].as_str().unwrap();
    assert!(why.contains("out of range"), "{why}");
    check_equivalent_pair(&doc);
    let r = run(&root(), &["identify", "assets/boundary.csv"]);
    assert!(
        r.stdout
            .contains("the paper's design at the panel's p = 6 and m = 2"),
        "{}",
        r.stdout
    );
}

/// An all-ordinal panel (six 5-level judges, two 5-level anchors), the case the command is for.
#[test]
fn an_all_ordinal_panel_is_shown_not_identified() {
    let mut pm = Params::default();
    pm.violations.ordinal = (0..8)
        .map(|c| (c, Discretise::equal_probability(5)))
        .collect();
    let panel = rhoscope::simulate::simulate(&pm, 400, 3).unwrap();
    let mut csv = Vec::new();
    panel.write_csv(&mut csv).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "likert.csv", &csv);
    let r = run(dir.path(), &["identify", path.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        doc["columns"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["scale"] == "ordinal")
    );
    assert_eq!(doc["all_ordinal"]["identified"], false);
    check_equivalent_pair(&doc);
}

/// Trial 43, finding 17: on a Likert panel whose codes, read as numbers, put Theorem 1 in
/// range, the point was "the estimate `rhoscope estimate` reports", which refuses the panel
/// (every column ordinal); it is worded from what it is. Judges t + c + e rounded to 1–10,
/// anchors t + (β/σ_c²)c + u rounded to 1–5, ρ = (0.6, 0, 0), as the trial's panel.
#[test]
fn a_likert_panel_in_range_is_not_called_the_estimate() {
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
    let mut z = || -> f64 { StandardNormal.sample(&mut rng) };
    let mut csv = String::from("J1,J2,J3,J4,J5,A1,A2,A3\n");
    for _ in 0..600 {
        let (t, c) = (z(), 0.8f64.sqrt() * z());
        let mut row: Vec<String> = (0..5)
            .map(|_| {
                (5.5 + 1.5 * (t + c + 0.7 * z()))
                    .round()
                    .clamp(1.0, 10.0)
                    .to_string()
            })
            .collect();
        for r in [0.6, 0.0, 0.0] {
            let beta = r * 0.7 * 0.8f64.sqrt();
            let u = (0.49 - beta * beta / 0.8).sqrt() * z();
            row.push(
                (3.0 + 0.8 * (t + beta / 0.8 * c + u))
                    .round()
                    .clamp(1.0, 5.0)
                    .to_string(),
            );
        }
        csv.push_str(&row.join(","));
        csv.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "likert.csv", csv.as_bytes());
    let path = path.to_str().unwrap();
    let doc: Value =
        serde_json::from_str(&run(dir.path(), &["identify", path, "--json"]).stdout).unwrap();
    assert_eq!(doc["point"]["source"], "panel_fit");
    assert_ne!(run(dir.path(), &["estimate", path]).code, 0);
    let text = run(dir.path(), &["identify", path]).stdout;
    assert!(text.contains("the panel's own"), "{text}");
    assert!(!text.contains("`rhoscope estimate` reports"), "{text}");
}

#[test]
fn bad_input_exits_with_one_line_and_its_code() {
    let dir = tempfile::tempdir().unwrap();
    // Panel flags without a panel, and an unknown flag: usage (2).
    for args in [
        vec!["identify", "--judges", "J1,J2"],
        vec!["identify", "--bogus"],
    ] {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    let r = run(dir.path(), &["identify", "--anchors", "A1"]);
    assert!(
        r.stderr.contains("--anchors describes a panel file"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    // A judge with one level: bad data (65), one line, no panic.
    let flat = "J1,J2,J3,A1\n1,2,3.5,0.1\n1,3,2.5,0.7\n1,1,1.5,0.2\n1,2,0.5,0.9\n";
    let path = write(dir.path(), "flat.csv", flat.as_bytes());
    let r = run(dir.path(), &["identify", path.to_str().unwrap()]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("J1") && !r.stderr.contains("panicked"));
    // A missing file: 66.
    let r = run(dir.path(), &["identify", "nope.csv"]);
    assert_eq!(r.code, 66, "{}", r.stderr);
}

#[test]
fn a_hostile_file_name_never_reaches_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let name = "p\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[2J.csv";
    let good = std::fs::read(root().join("assets/mid.csv")).unwrap();
    write(dir.path(), name, &good);
    let bad = "q\u{1b}[31m.csv";
    write(dir.path(), bad, b"J1,J2,A1\n1,2,3\n1,3,4\n");
    for args in [
        vec!["identify", name],
        vec!["identify", name, "--json"],
        vec!["identify", bad],
    ] {
        let r = run(dir.path(), &args);
        for (what, out) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
            assert!(
                !out.contains('\u{1b}') && !out.contains('\u{7}'),
                "{args:?} leaked an escape on {what}: {out:?}"
            );
        }
    }
}
