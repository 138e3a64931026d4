//! Helpers shared by the integration tests: run the built binary, write fixture files.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
#[cfg(feature = "cli")]
use std::process::{Command, Stdio};

/// What a run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// One reading of a finished process for every way a test starts the binary.
impl From<std::process::Output> for Run {
    fn from(out: std::process::Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// Runs `rhoscope ARGS` in `dir` through `sh` with the redirections `redirect` (e.g. `<&-`,
/// `>&-`); standard input is empty unless `redirect` names one.
#[cfg(feature = "cli")]
pub fn run_redirected(dir: &Path, args: &[&str], redirect: &str) -> Run {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(env!("CARGO_BIN_EXE_rhoscope"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    Run::from(out)
}

/// Runs `rhoscope` with `args` in `dir`, with extra environment variables.
#[cfg(feature = "cli")]
pub fn run_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rhoscope"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the binary runs");
    Run::from(out)
}

/// Runs `rhoscope` with `args` in `dir`.
#[cfg(feature = "cli")]
pub fn run(dir: &Path, args: &[&str]) -> Run {
    run_env(dir, args, &[])
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(bytes))
        .expect("fixture written");
    path
}

/// The repository root (for assets/).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared data folder beside the checkout. Its absence is a failure, not a skip:
/// CI always has it.
pub fn shared() -> PathBuf {
    let p = root().join("../shared/data");
    assert!(p.is_dir(), "../shared/data must be beside the checkout");
    p
}
