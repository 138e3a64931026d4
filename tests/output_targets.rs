//! Nothing the user owns is lost: every writer refuses an existing file without --force,
//! writes through FIFOs, devices and links, and never renames over a non-regular file.

#![cfg(all(feature = "cli", unix))]

mod common;

use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::Path;
use std::process::Command;

use common::run;

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success());
}

#[test]
fn simulate_refuses_an_existing_output_without_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.csv"), "precious\n").unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "x.csv"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("x.csv already exists"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("x.csv")).unwrap(),
        "precious\n"
    );
    let r = run(
        dir.path(),
        &[
            "simulate", "--n", "5", "--seed", "1", "-o", "x.csv", "--force",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        std::fs::read_to_string(dir.path().join("x.csv"))
            .unwrap()
            .starts_with("J1,")
    );
}

#[test]
fn a_read_only_file_is_refused_too() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("ro.csv");
    std::fs::write(&p, "keep\n").unwrap();
    let mut perm = std::fs::metadata(&p).unwrap().permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&p, perm).unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "ro.csv"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "keep\n");
}

#[test]
fn a_symlink_is_written_through_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("real.csv"), "old\n").unwrap();
    symlink("real.csv", dir.path().join("link.csv")).unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "link.csv"],
    );
    assert_eq!(r.code, 2, "an existing target needs --force: {}", r.stderr);
    let r = run(
        dir.path(),
        &[
            "simulate", "--n", "5", "--seed", "1", "-o", "link.csv", "--force",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let link = std::fs::symlink_metadata(dir.path().join("link.csv")).unwrap();
    assert!(link.file_type().is_symlink(), "the link itself survives");
    assert!(
        std::fs::read_to_string(dir.path().join("real.csv"))
            .unwrap()
            .starts_with("J1,")
    );
}

#[test]
fn a_dangling_symlink_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    symlink("nowhere/x.csv", dir.path().join("dead.csv")).unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "dead.csv"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("symbolic link"), "{}", r.stderr);
    assert!(
        std::fs::symlink_metadata(dir.path().join("dead.csv"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.csv");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "out.csv"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got = reader.join().unwrap();
    assert!(got.starts_with("J1,"), "{got}");
    assert_eq!(got.lines().count(), 6);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

/// Runs `args` in `dir` while a thread reads the FIFO `name`; what the reader got.
fn through_fifo(dir: &Path, name: &str, args: &[&str]) -> String {
    let fifo = dir.join(name);
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let r = run(dir, args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Checked before joining: a FIFO renamed over would leave the reader waiting.
    let ft = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(ft.is_fifo(), "{name} is still a FIFO, not renamed over");
    reader.join().unwrap()
}

#[test]
fn export_and_plot_with_force_write_through_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let base = common::root().join("assets/three-anchor.csv");
    let base = base.to_str().unwrap();
    let got = through_fifo(
        dir.path(),
        "refit.R",
        &["export", base, "-o", "refit.R", "--force"],
    );
    assert!(got.contains("library(lavaan)"), "{got}");
    let got = through_fifo(
        dir.path(),
        "fig.svg",
        &[
            "plot",
            "rho",
            "--n",
            "60",
            "--bootstrap",
            "100",
            "-o",
            "fig.svg",
            "--force",
        ],
    );
    assert!(got.starts_with("<svg") || got.contains("<svg"), "{got}");
}

#[test]
fn dev_stdout_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "/dev/stdout"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("J1,"), "{}", r.stdout);
}

#[test]
fn a_folder_is_refused_as_an_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d.csv")).unwrap();
    let r = run(
        dir.path(),
        &[
            "simulate", "--n", "5", "--seed", "1", "-o", "d.csv", "--force",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("folder"), "{}", r.stderr);
    assert!(dir.path().join("d.csv").is_dir());
}

#[test]
fn reproduce_out_keeps_existing_files_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let rep = dir.path().join("rep");
    std::fs::create_dir(&rep).unwrap();
    std::fs::write(rep.join("report.md"), "notes\n").unwrap();
    std::fs::write(dir.path().join("mine.json"), "{}\n").unwrap();
    symlink("../mine.json", rep.join("results.json")).unwrap();
    let args = [
        "reproduce",
        "--quick",
        "--table",
        "asymmetry",
        "--out",
        "rep",
    ];
    let r = run(dir.path(), &args);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("report.md already exists"),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(rep.join("report.md")).unwrap(),
        "notes\n"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    let r = run(dir.path(), &forced);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_ne!(
        std::fs::read_to_string(rep.join("report.md")).unwrap(),
        "notes\n"
    );
    let link = std::fs::symlink_metadata(rep.join("results.json")).unwrap();
    assert!(
        link.file_type().is_symlink(),
        "results.json is written through its link"
    );
    let through = std::fs::read_to_string(dir.path().join("mine.json")).unwrap();
    assert!(
        through.len() > 10 && through.contains("asymmetry"),
        "{through}"
    );
}

#[test]
fn a_link_loop_and_a_file_as_out_folder_are_one_line_refusals() {
    let dir = tempfile::tempdir().unwrap();
    symlink("loop2", dir.path().join("loop1")).unwrap();
    symlink("loop1", dir.path().join("loop2")).unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "loop1"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("leads nowhere"), "{}", r.stderr);
    std::fs::write(dir.path().join("afile"), "mine\n").unwrap();
    let args = [
        "reproduce",
        "--quick",
        "--table",
        "asymmetry",
        "--out",
        "afile",
    ];
    let r = run(dir.path(), &args);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--out names a folder"), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("afile")).unwrap(),
        "mine\n"
    );
}

/// A failed write to standard output (`> /dev/full`) is a failed write for every writer to
/// it (a report, help, version, completions, `-o -`): exit 74 with one line, and with standard
/// error closed too the exit code still says it, with no panic. (A standard output closed
/// before start, `>&-`, is reopened on /dev/null by Rust's runtime: docs/commands.md.)
#[test]
fn a_failed_write_to_standard_output_is_74_for_every_writer() {
    let dir = tempfile::tempdir().unwrap();
    let mid = common::root().join("assets/mid.csv");
    let mid = mid.to_str().unwrap();
    let cases: [&[&str]; 9] = [
        &["estimate", mid],
        &["estimate", mid, "--json"],
        &["--help"],
        &["estimate", "--help"],
        &["--version"],
        &["simulate", "--n", "20", "--seed", "1", "-o", "-"],
        &["export", mid, "--syntax", "lavaan", "-o", "-"],
        &["plot", "power", "-o", "-"],
        &["completions", "bash"],
    ];
    for args in cases {
        // A closed standard output (`>&-`) is a failed write too, though Rust's runtime
        // reopens it on /dev/null before main; `> /dev/null` stays a success.
        let r = common::run_redirected(dir.path(), args, ">&-");
        assert_eq!(r.code, 74, "{args:?} with stdout closed: {}", r.stderr);
        assert!(
            r.stderr.contains("standard output is closed"),
            "{args:?}: {}",
            r.stderr
        );
        let r = common::run_redirected(dir.path(), args, ">&- 2>&-");
        assert_eq!(r.code, 74, "{args:?} with stdout and stderr closed");
        let r = common::run_redirected(dir.path(), args, ">/dev/null");
        assert_eq!(r.code, 0, "{args:?} to /dev/null: {}", r.stderr);
        let r = common::run_redirected(dir.path(), args, ">/dev/full");
        assert_eq!(r.code, 74, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("cannot write"), "{args:?}: {}", r.stderr);
        let r = common::run_redirected(dir.path(), args, ">/dev/full 2>&-");
        assert_eq!(r.code, 74, "{args:?} with stderr closed");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no file is written in place of standard output"
    );
}

/// A closed standard output is not taken over by a file the command opens later: the
/// output file gets exactly what `-o` asked for.
#[test]
fn a_closed_standard_output_leaves_an_output_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["simulate", "--n", "20", "--seed", "1", "-o", "x.csv"];
    let r = common::run_redirected(dir.path(), &args, ">&-");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let closed = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "20", "--seed", "1", "-o", "-"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(closed, r.stdout);
}

/// `reproduce --out` names a folder for two files; `-` (standard output) cannot be one, and
/// the tables are on standard output already: refused like `--out /dev/stdout`, no folder `-`.
#[test]
fn reproduce_out_dash_is_refused_without_a_folder_named_dash() {
    let dir = tempfile::tempdir().unwrap();
    for out in ["-", "/dev/stdout"] {
        let args = ["reproduce", "--quick", "--table", "asymmetry", "--out", out];
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "--out {out}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains("--out names a folder"), "{}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    assert!(!dir.path().join("-").exists(), "no folder named -");
}

/// Starts a large simulate into `out`, waits until its temporary file exists, then sends
/// SIGTERM: the temporary file goes, the target is untouched, and the exit is 128 + 15.
fn terminated_mid_write(dir: &Path, force: bool) {
    signalled_mid_write(dir, force, "TERM", 15);
}

/// As [`terminated_mid_write`], with signal `signal` (number `number`).
fn signalled_mid_write(dir: &Path, force: bool, signal: &str, number: i32) {
    let mut args = vec![
        "simulate", "--preset", "mid", "--n", "3000000", "--seed", "1", "-o", "huge.csv",
    ];
    if force {
        args.push("--force");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .args(&args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let temps = || {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count()
    };
    let start = std::time::Instant::now();
    while temps() == 0 && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(temps(), 1, "the write never started");
    let ok = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + number), "SIG{signal}: {status:?}");
    assert_eq!(temps(), 0, "a temporary file was left behind");
}

#[test]
fn a_signal_mid_write_removes_the_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    terminated_mid_write(dir.path(), false);
    assert!(!dir.path().join("huge.csv").exists());
}

#[test]
fn a_signal_mid_write_with_force_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("huge.csv"), "old\n").unwrap();
    terminated_mid_write(dir.path(), true);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("huge.csv")).unwrap(),
        "old\n"
    );
}

/// Every catchable signal that would end the process removes the temporary file, not only
/// TERM, INT and HUP.
#[test]
fn every_ending_signal_mid_write_removes_the_temporary_file() {
    for (signal, number) in [
        ("INT", 2),
        ("HUP", 1),
        ("USR1", 10),
        ("USR2", 12),
        ("ALRM", 14),
    ] {
        let dir = tempfile::tempdir().unwrap();
        signalled_mid_write(dir.path(), false, signal, number);
        assert!(!dir.path().join("huge.csv").exists(), "SIG{signal}");
    }
}

/// A file past `ulimit -f` is a failed write (74, one line, no temporary file left), not a
/// death by SIGXFSZ (153).
#[test]
fn a_file_size_limit_is_a_failed_write() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 16 && exec \"$0\" simulate --n 100000 --seed 1 -o big.csv")
        .arg(env!("CARGO_BIN_EXE_rhoscope"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(74), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("big.csv"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "a file was left"
    );
}

/// `export` of a panel the script cannot read writes the script and its data together: a
/// signal while they are written leaves both or neither, and no temporary file.
#[test]
fn a_signal_while_export_writes_its_pair_leaves_neither() {
    let dir = tempfile::tempdir().unwrap();
    let sim = run(
        dir.path(),
        &["simulate", "--n", "2000000", "--seed", "1", "-o", "p.csv"],
    );
    assert_eq!(sim.code, 0, "{}", sim.stderr);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" export - --syntax lavaan -o out/refit.R < p.csv")
        .arg(env!("CARGO_BIN_EXE_rhoscope"))
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_dir(&out).unwrap().count() == 0 && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    if status.code() == Some(0) {
        assert_eq!(left.len(), 2, "{left:?}");
    } else {
        assert_eq!(status.code(), Some(128 + 15), "{status:?}");
        // The signal may land after both were put in place: both or neither, never one, never
        // a temporary file.
        let mut left = left;
        left.sort();
        assert!(
            left.is_empty() || left == ["refit.R", "refit.data.csv"],
            "half a pair or a temporary file: {left:?}"
        );
    }
}

/// `-o` naming the panel being read (directly, by another spelling, through a link) is
/// refused with or without --force, and the panel is left as it was (hostile34 #8).
#[test]
fn the_input_panel_is_never_an_output() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let panel = std::fs::read(common::root().join("assets/three-anchor.csv")).unwrap();
    std::fs::write(dir.path().join("e.csv"), &panel).unwrap();
    std::fs::write(dir.path().join("g.csv"), &panel).unwrap();
    symlink("g.csv", dir.path().join("glink.svg")).unwrap();
    let top = dir.path();
    let cases: [(&Path, &[&str]); 5] = [
        (top, &["export", "e.csv", "-o", "e.csv", "--force"]),
        (top, &["export", "e.csv", "-o", "./e.csv"]),
        (
            &sub,
            &["export", "../e.csv", "-o", "../sub/../e.csv", "--force"],
        ),
        (top, &["plot", "rho", "g.csv", "-o", "glink.svg", "--force"]),
        (top, &["plot", "rho", "g.csv", "-o", "glink.svg"]),
    ];
    for (cwd, args) in cases {
        let r = run(cwd, args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("is the input"), "{args:?}: {}", r.stderr);
    }
    assert_eq!(std::fs::read(dir.path().join("e.csv")).unwrap(), panel);
    assert_eq!(std::fs::read(dir.path().join("g.csv")).unwrap(), panel);
}

/// `-o` into a folder that does not exist, or a name ending in `/`, is a usage error naming
/// the folder (exit 2, as for any bad output path), not the OS's "(os error 2)".
#[test]
fn an_output_in_a_missing_folder_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for (out, needle) in [
        ("newdir/x.csv", "the folder newdir does not exist"),
        ("newdir/", "names a folder"),
        ("a/b/c.csv", "the folder a/b does not exist"),
    ] {
        let r = run(
            dir.path(),
            &["simulate", "--n", "5", "--seed", "1", "-o", out],
        );
        assert_eq!(r.code, 2, "{out}: {}", r.stderr);
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(needle), "{out}: {}", r.stderr);
        assert!(!r.stderr.contains("os error"), "{}", r.stderr);
    }
    assert!(!dir.path().join("newdir").exists());
}

/// `export` of a panel whose path is not UTF-8 is refused: a lossy name in the script would
/// read another file.
#[test]
fn export_refuses_a_panel_path_the_script_cannot_name() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "200", "--seed", "1", "-o", "s.csv"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let odd = std::ffi::OsStr::from_bytes(b"\xff.csv");
    std::fs::copy(dir.path().join("s.csv"), dir.path().join(odd)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .args([
            std::ffi::OsStr::new("export"),
            odd,
            "-o".as_ref(),
            "ff.R".as_ref(),
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("not valid UTF-8"), "{err}");
    assert!(!dir.path().join("ff.R").exists());
}

#[test]
fn a_sidecar_that_is_not_a_file_is_refused_before_the_panel_is_written() {
    // A folder where simulate would write or delete FILE.families.csv: refused up front,
    // with or without --force and with or without a families design, and nothing written
    // (the panel used to be written, then the run failed with 74).
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("z.families.csv")).unwrap();
    for extra in [
        &[][..],
        &["--force"],
        &["--set", "families=3"],
        &["--set", "families=3", "--force"],
    ] {
        let mut args = vec!["simulate", "--n", "30", "--seed", "1", "-o", "z.csv"];
        args.extend(extra);
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains("z.families.csv"), "{}", r.stderr);
        assert!(
            !dir.path().join("z.csv").exists(),
            "{args:?}: the panel was written"
        );
        assert!(dir.path().join("z.families.csv").is_dir());
    }
}

#[test]
fn a_descriptor_path_is_written_where_it_points_even_to_a_log_file() {
    // `-o /dev/fd/N` and `-o /dev/stderr` on a descriptor opened `N>>log`: the log keeps its
    // inode and its earlier lines, the panel is appended (it used to be "already exists:
    // remove it", and with --force renamed over the log).
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    for (i, (path, redirect)) in [
        ("/dev/fd/2", "2>>{}"),
        ("/dev/stderr", "2>>{}"),
        ("/dev/fd/3", "3>>{}"),
        ("/proc/self/fd/3", "3>>{}"),
    ]
    .into_iter()
    .enumerate()
    {
        for force in [false, true] {
            let log = format!("log{i}{force}.txt");
            std::fs::write(dir.path().join(&log), "pre\n").unwrap();
            let inode = std::fs::metadata(dir.path().join(&log)).unwrap().ino();
            let mut args = vec!["simulate", "--n", "5", "--seed", "1", "-o", path];
            if force {
                args.push("--force");
            }
            let r = common::run_redirected(dir.path(), &args, &redirect.replace("{}", &log));
            assert_eq!(r.code, 0, "{path} {force}");
            let text = std::fs::read_to_string(dir.path().join(&log)).unwrap();
            assert!(text.starts_with("pre\nJ1,"), "{path} {force}: {text}");
            assert_eq!(
                std::fs::metadata(dir.path().join(&log)).unwrap().ino(),
                inode
            );
        }
    }
    // A descriptor that is not open is named as such.
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "1", "-o", "/dev/fd/7"],
    );
    assert_eq!(r.code, 74, "{}", r.stderr);
    assert!(
        r.stderr.contains("descriptor 7 is not open"),
        "{}",
        r.stderr
    );
}

#[test]
fn reproduce_out_makes_its_folder_only_when_it_writes_into_it() {
    // A refused run leaves no new folder, a nested path is not made level by level, and a
    // device is not called a file.
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &["reproduce", "--out", "nd3", "--table", "nosuch"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        !dir.path().join("nd3").exists(),
        "a refused run made its folder"
    );
    let r = run(
        dir.path(),
        &[
            "reproduce",
            "--out",
            "a/b/c",
            "--table",
            "asymmetry",
            "--quick",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("the folder a/b does not exist"),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join("a").exists());
    let r = run(
        dir.path(),
        &["reproduce", "--out", "/dev/full", "--table", "asymmetry"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("is not a folder"), "{}", r.stderr);
    assert!(!r.stderr.contains("is a file"), "{}", r.stderr);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn reproduce_help_names_every_table() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), &["reproduce", "--help"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let unwrapped = r.stdout.replace('\n', " ");
    for (name, _) in rhoscope::reproduce::TABLES {
        assert!(
            unwrapped.contains(&format!(" {name},")) || unwrapped.contains(&format!(" {name}.")),
            "{name} missing: {}",
            r.stdout
        );
    }
}
