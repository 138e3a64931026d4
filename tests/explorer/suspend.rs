//! `Ctrl-z` in the real binary: raw mode makes it a key, and the explorer stops itself as
//! the shell's `Ctrl-z` would, the terminal restored, and takes the terminal back on `fg`.

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// Whether process `pid` is stopped (state `T` in /proc).
fn stopped(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit(')')
                .next()
                .map(|rest| rest.trim_start().starts_with('T'))
        })
        .unwrap_or(false)
}

/// Feeds output into `raw` until `ok` holds of what arrived from byte `from` on (or fails
/// after a minute).
fn wait(
    rx: &mpsc::Receiver<Vec<u8>>,
    raw: &mut Vec<u8>,
    from: usize,
    what: &str,
    ok: impl Fn(&str) -> bool,
) {
    let deadline = Instant::now() + Duration::from_mins(1);
    while !ok(&String::from_utf8_lossy(&raw[from..])) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(bytes) => raw.extend(bytes),
            Err(e) => panic!("no {what} ({e})"),
        }
    }
}

#[test]
fn ctrl_z_stops_the_explorer_with_the_terminal_restored_and_fg_resumes_it() {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pseudo-terminal");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_rhoscope"));
    cmd.arg("explore");
    cmd.cwd(env!("CARGO_MANIFEST_DIR"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("NO_COLOR", "1");
    let mut child = pty.slave.spawn_command(cmd).expect("spawn");
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let mut writer = pty.master.take_writer().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _master = pty.master;
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut raw = Vec::new();
    wait(&rx, &mut raw, 0, "the first verdicts", |t| {
        t.contains("PASS ✓") || t.contains("FIRES ✗")
    });
    let pid = child.process_id().unwrap();
    let from = raw.len();
    writer.write_all(b"\x1a").unwrap();
    writer.flush().unwrap();
    wait(&rx, &mut raw, from, "the main screen after Ctrl-z", |t| {
        t.contains("\x1b[?1049l")
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while !stopped(pid) {
        assert!(
            Instant::now() < deadline,
            "Ctrl-z did not stop the explorer"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = raw.len();
    let ok = std::process::Command::new("kill")
        .args(["-CONT".to_string(), pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -CONT");
    wait(&rx, &mut raw, before, "the alternate screen again", |t| {
        t.contains("\x1b[?1049h")
    });
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    let status = child.wait().expect("the explorer exits");
    assert!(status.success(), "{status:?}");
}
