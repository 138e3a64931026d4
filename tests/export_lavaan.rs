//! `rhoscope export`: the lavaan script, run through R lavaan, gives our ML fit's ρ to 1e-4
//! (skipped with a message when `Rscript` or lavaan is missing); families become residual
//! covariances; the output file is never overwritten without `--force`; a source the script
//! cannot read (JSON, gzip, Parquet, standard input) has its data written beside it as CSV.
#![cfg(feature = "cli")]

mod common;

use std::path::Path;

use common::run;

fn lavaan_available() -> bool {
    std::process::Command::new("Rscript")
        .args(["-e", "suppressMessages(library(lavaan))"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `script` with R in `dir`, then prints every `:=` definition and the two variances
/// with 12 digits; returns (label, estimate, standard error) triples.
fn lavaan_estimates(dir: &Path, script: &str) -> Vec<(String, f64, f64)> {
    let script_path = dir.join("refit.R");
    std::fs::write(&script_path, script).unwrap();
    let out = std::process::Command::new("Rscript")
        .args([
            "-e",
            "invisible(capture.output(source('refit.R'))); stopifnot(lavInspect(fit, 'converged')); \
             keep <- pe$op == ':=' | pe$label %in% c('sigma_t2', 'sigma_c2'); \
             cat(sprintf('%s %.12f %.12f\\n', pe$label[keep], pe$est[keep], pe$se[keep]), sep = '')",
        ])
        .current_dir(dir)
        .output()
        .expect("Rscript runs");
    assert!(
        out.status.success(),
        "R failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let num = |s: &str| s.parse::<f64>().expect("a number");
            (f[0].to_string(), num(f[1]), num(f[2]))
        })
        .collect()
}

/// A simulated three-anchor panel (N = 600, seed 4) with column names that are not R
/// identifiers, and one missing cell, so that the script's renaming and complete cases are
/// exercised.
fn awkward_panel(dir: &Path) {
    let r = run(
        dir,
        &[
            "simulate",
            "--preset",
            "three-anchor",
            "--n",
            "600",
            "--seed",
            "4",
            "-o",
            "sim.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(dir.join("sim.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[0] = "gpt 4,claude-3,judge #3,4th judge,J5,J6,human a,human.b,c".into();
    let mut cells: Vec<&str> = lines[7].split(',').collect();
    cells[2] = "NA";
    lines[7] = cells.join(",");
    std::fs::write(dir.join("panel.csv"), lines.join("\n") + "\n").unwrap();
}

const ROLES: [&str; 4] = [
    "--judges",
    "gpt 4,claude-3,judge #3,4th judge,J5,J6",
    "--anchors",
    "human a,human.b,c",
];

#[test]
fn the_lavaan_script_refits_our_ml_rho_to_1e_4() {
    if !lavaan_available() {
        eprintln!(
            "skipping the_lavaan_script_refits_our_ml_rho_to_1e_4: Rscript with lavaan not found"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    awkward_panel(dir.path());
    let mut args = vec!["export", "panel.csv", "--syntax", "lavaan"];
    args.extend(ROLES);
    let script = run(dir.path(), &args);
    assert_eq!(script.code, 0, "{}", script.stderr);
    let theirs = lavaan_estimates(dir.path(), &script.stdout);
    let mut args = vec!["estimate", "panel.csv", "--method", "ml", "--json"];
    args.extend(ROLES);
    let ours = run(dir.path(), &args);
    assert_eq!(ours.code, 0, "{}", ours.stderr);
    let v: serde_json::Value = serde_json::from_str(&ours.stdout).unwrap();
    assert_eq!(v["n_items"], 599, "one item dropped for its missing cell");
    let ml = &v["ml"];
    let get = |label: &str| {
        theirs
            .iter()
            .find(|(k, _, _)| k == label)
            .unwrap_or_else(|| panic!("{label} missing from {theirs:?}"))
            .1
    };
    // The identifiers the script gives the anchors "human a", "human.b" and "c".
    for (k, id) in ["human_a", "human_b", "c_2"].iter().enumerate() {
        let a = &ml["anchors"][k];
        let rho = a["rho"].as_f64().unwrap();
        assert!(
            (get(&format!("rho_{id}")) - rho).abs() < 1e-4,
            "ρ of {id}: R {} vs {rho}",
            get(&format!("rho_{id}"))
        );
        let beta = a["beta"].as_f64().unwrap();
        assert!((get(&format!("beta_{id}")) - beta).abs() < 1e-4);
        let s2 = a["sigma_a2"].as_f64().unwrap();
        assert!((get(&format!("sigma_a2_{id}")) - s2).abs() < 1e-4);
    }
    // The N − 1 likelihood: the variances match too, not just the scale-free ρ.
    assert!((get("sigma_t2") - ml["sigma_t2"].as_f64().unwrap()).abs() < 1e-4);
    assert!((get("sigma_c2") - ml["sigma_c2"].as_f64().unwrap()).abs() < 1e-4);
}

#[test]
fn families_become_residual_covariances_that_lavaan_fits() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "simulate", "--preset", "families", "--n", "800", "--seed", "2", "-o", "fam.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let script = run(dir.path(), &["export", "fam.csv"]);
    assert_eq!(script.code, 0, "{}", script.stderr);
    // Three families of two (the sidecar): one residual covariance each, nothing across.
    for pair in ["J1 ~~ J2", "J3 ~~ J4", "J5 ~~ J6"] {
        assert!(
            script.stdout.contains(&format!("  {pair}\n")),
            "{}",
            script.stdout
        );
    }
    assert!(!script.stdout.contains("J2 ~~ J3"));
    if !lavaan_available() {
        eprintln!("skipping the lavaan fit of the family model: Rscript with lavaan not found");
        return;
    }
    let theirs = lavaan_estimates(dir.path(), &script.stdout);
    // With the family residual absorbed the model is right again: each ρ̂ lies within 4 of
    // lavaan's own standard errors of the design's ρ = (0.3, 0.7).
    for (label, truth) in [("rho_A1", 0.3), ("rho_A2", 0.7)] {
        let (_, est, se) = theirs.iter().find(|(k, _, _)| k == label).unwrap();
        assert!((est - truth).abs() < 4.0 * se, "{label} {est} ± {se}");
    }
}

#[test]
fn the_output_file_is_written_whole_and_never_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root();
    let out = dir.path().join("model.R");
    let out_s = out.to_str().unwrap();
    let panel = root.join("assets/three-anchor.csv");
    let panel_s = panel.to_str().unwrap();
    let r = run(dir.path(), &["export", panel_s, "-o", out_s]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    let first = std::fs::read_to_string(&out).unwrap();
    assert!(first.contains("rho_A3 := beta_A3 / sqrt(sigma_a2_A3*sigma_c2)"));
    let r = run(
        dir.path(),
        &["export", panel_s, "--syntax", "semopy", "-o", out_s],
    );
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("already exists") && r.stderr.contains("--force"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first, "untouched");
    let r = run(
        dir.path(),
        &[
            "export", panel_s, "--syntax", "semopy", "-o", out_s, "--force",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let py = std::fs::read_to_string(&out).unwrap();
    assert!(py.contains("model.fit(d, obj=\"MLW\")") && py.contains("rho_A3 = beta_A3"));
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["model.R"]);
    // A long table without -o is refused with the reason: its wide data goes beside a FILE.
    let r = run(dir.path(), &["export", panel_s, "--long", "a,b,c"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("-o FILE"), "{}", r.stderr);
}

#[test]
fn the_semopy_script_refits_our_ml_rho() {
    let probe = std::process::Command::new("python3")
        .args(["-c", "import semopy"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipping the_semopy_script_refits_our_ml_rho: python3 with semopy not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    awkward_panel(dir.path());
    let mut args = vec![
        "export",
        "panel.csv",
        "--syntax",
        "semopy",
        "-o",
        "refit.py",
    ];
    args.extend(ROLES);
    let r = run(dir.path(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = std::process::Command::new("python3")
        .arg("refit.py")
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut args = vec!["estimate", "panel.csv", "--method", "ml", "--json"];
    args.extend(ROLES);
    let ours = run(dir.path(), &args);
    let v: serde_json::Value = serde_json::from_str(&ours.stdout).unwrap();
    for (k, id) in ["human_a", "human_b", "c_2"].iter().enumerate() {
        let key = format!("rho_{id} = ");
        let theirs: f64 = stdout
            .split(&key)
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("{key} missing from {stdout}"))
            .parse()
            .unwrap();
        let rho = v["ml"]["anchors"][k]["rho"].as_f64().unwrap();
        // semopy's optimiser stops at a looser tolerance than lavaan's (measured: 2e-4).
        assert!(
            (theirs - rho).abs() < 1e-3,
            "ρ of {id}: semopy {theirs} vs {rho}"
        );
    }
}

/// Runs `rhoscope` in `dir` with `stdin` as its standard input.
fn run_with_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> common::Run {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A run that stops before reading its input closes the pipe early.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    common::Run::from(out)
}

/// The awkward panel's rows as JSON records (`null` for its missing cell), one per line.
fn json_lines(csv: &str) -> String {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut out = String::new();
    for l in lines {
        let cells: Vec<String> = header
            .iter()
            .zip(l.split(','))
            .map(|(h, c)| {
                let v = if c == "NA" || c.is_empty() { "null" } else { c };
                format!("{}: {v}", serde_json::Value::from(*h))
            })
            .collect();
        out.push('{');
        out.push_str(&cells.join(", "));
        out.push_str("}\n");
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// The closed-form estimate of a panel file, as its JSON text (numbers to the bit).
fn closed_form(dir: &Path, panel: &str, roles: &[&str]) -> String {
    let mut args = vec!["estimate", panel, "--json"];
    args.extend(roles);
    let r = run(dir, &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    v["estimate"].to_string()
}

/// Exports `source` (fed on stdin when it is `-`) into `refit.R`; the script reads the
/// panel's data written beside it, which is the same panel as `panel.csv`.
fn exports_its_data_beside(dir: &Path, source: &str, stdin: &[u8], lavaan: bool) {
    let mut args = vec!["export", source, "-o", "refit.R"];
    args.extend(ROLES);
    let r = run_with_stdin(dir, &args, stdin);
    assert_eq!(r.code, 0, "{source}: {}", r.stderr);
    let script = std::fs::read_to_string(dir.join("refit.R")).unwrap();
    assert!(
        script.contains("read.table(\"refit.data.csv\", header = TRUE, sep = \",\""),
        "{source}: {script}"
    );
    assert_eq!(
        closed_form(dir, "refit.data.csv", &ROLES),
        closed_form(dir, "panel.csv", &ROLES),
        "{source}: the data beside the script is the panel"
    );
    // Never overwritten without --force, the script's data no more than the script.
    std::fs::remove_file(dir.join("refit.R")).unwrap();
    let r = run_with_stdin(dir, &args, stdin);
    assert_eq!(r.code, 2, "{source}: {}", r.stderr);
    assert!(r.stderr.contains("refit.data.csv") && r.stderr.contains("--force"));
    args.push("--force");
    let r = run_with_stdin(dir, &args, stdin);
    assert_eq!(r.code, 0, "{source}: {}", r.stderr);
    if lavaan {
        let theirs = lavaan_estimates(dir, &script);
        let mut args = vec!["estimate", "panel.csv", "--method", "ml", "--json"];
        args.extend(ROLES);
        let v: serde_json::Value = serde_json::from_str(&run(dir, &args).stdout).unwrap();
        for (k, id) in ["human_a", "human_b", "c_2"].iter().enumerate() {
            let rho = v["ml"]["anchors"][k]["rho"].as_f64().unwrap();
            let label = format!("rho_{id}");
            let (_, r, _) = theirs.iter().find(|(l, _, _)| *l == label).unwrap();
            assert!((r - rho).abs() < 1e-4, "{source} ρ of {id}: R {r} vs {rho}");
        }
    }
    for f in ["refit.R", "refit.data.csv"] {
        std::fs::remove_file(dir.join(f)).unwrap();
    }
}

#[test]
fn every_source_format_gives_a_script_that_reads_its_data() {
    let lavaan = lavaan_available();
    if !lavaan {
        eprintln!(
            "every_source_format_gives_a_script_that_reads_its_data: Rscript with lavaan not found, the refits are skipped"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    awkward_panel(d);
    let csv = std::fs::read_to_string(d.join("panel.csv")).unwrap();
    let jsonl = json_lines(&csv);
    let array = format!("[{}]\n", jsonl.lines().collect::<Vec<_>>().join(",\n"));
    common::write(d, "panel.jsonl", jsonl.as_bytes());
    common::write(d, "panel.json", array.as_bytes());
    common::write(d, "panel.csv.gz", &gzip(csv.as_bytes()));
    common::write(d, "records.jsonl.gz", &gzip(jsonl.as_bytes()));
    for source in [
        "panel.jsonl",
        "panel.json",
        "panel.csv.gz",
        "records.jsonl.gz",
    ] {
        exports_its_data_beside(d, source, b"", lavaan);
    }
    exports_its_data_beside(d, "-", csv.as_bytes(), lavaan);
    // A delimited text file is still read where it is, with no data beside the script.
    let mut args = vec!["export", "panel.csv", "-o", "plain.R"];
    args.extend(ROLES);
    assert_eq!(run(d, &args).code, 0);
    assert!(!d.join("plain.data.csv").exists());
    // Without -o there is nowhere to put the data: the reason and the way out.
    let mut args = vec!["export", "panel.jsonl"];
    args.extend(ROLES);
    let r = run(d, &args);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("JSON records") && r.stderr.contains("-o FILE"));
}

#[test]
fn a_parquet_panel_exports_its_data_beside_the_script() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixtures = common::root().join("tests/fixtures");
    let pq = fixtures.join("pipeline_snappy.parquet");
    let csv = fixtures.join("pipeline.csv");
    let (pq, csv) = (pq.to_str().unwrap(), csv.to_str().unwrap());
    let r = run(d, &["export", pq, "-o", "refit.py", "--syntax", "semopy"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let script = std::fs::read_to_string(d.join("refit.py")).unwrap();
    assert!(
        script.contains("pd.read_csv(\"refit.data.csv\", sep=\",\""),
        "{script}"
    );
    assert_eq!(
        closed_form(d, "refit.data.csv", &[]),
        closed_form(d, csv, &[])
    );
}
