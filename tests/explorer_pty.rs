//! End to end: the real binary in a pseudo-terminal. It moves a slider, waits for a
//! verdict, opens help, quits, and checks the exit code and that the terminal was restored.
//! Waiting is event-driven: each chunk of output from the reader thread wakes the test.

#![cfg(feature = "tui")]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

struct Screen {
    parser: vt100::Parser,
    raw: Vec<u8>,
    rx: mpsc::Receiver<Vec<u8>>,
}

impl Screen {
    /// Waits until the screen satisfies `ok`, feeding output as it arrives.
    fn wait_for(&mut self, what: &str, ok: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_mins(1);
        loop {
            let text = self.parser.screen().contents();
            if ok(&text) {
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(bytes) => {
                    self.parser.process(&bytes);
                    self.raw.extend(bytes);
                }
                Err(e) => panic!("no {what} ({e}); screen:\n{text}"),
            }
        }
    }

    fn drain(&mut self) {
        while let Ok(bytes) = self.rx.recv_timeout(Duration::from_secs(5)) {
            self.parser.process(&bytes);
            self.raw.extend(bytes);
        }
    }
}

#[test]
fn explorer_in_a_pseudo_terminal_moves_a_slider_shows_help_and_restores_on_quit() {
    let (mut child, mut writer, mut screen) = spawn(&["explore".as_ref(), "--no-mouse".as_ref()]);
    let verdict =
        |t: &str| (t.contains("PASS ✓") || t.contains("FIRES ✗")) && !t.contains("recomputing");
    screen.wait_for("the first verdicts", verdict);
    assert!(screen.parser.screen().contents().contains("ρ_1"));
    writer.write_all(b"l").unwrap();
    writer.flush().unwrap();
    screen.wait_for("ρ_1 moved to 0.31", |t| t.contains("0.31"));
    screen.wait_for("the verdicts for the new panel", verdict);
    writer.write_all(b"?").unwrap();
    writer.flush().unwrap();
    screen.wait_for("the help overlay", |t| t.contains("q or Esc closes)"));
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    screen.wait_for("help to close", |t| !t.contains("q or Esc closes)"));
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    let status = child.wait().expect("the explorer exits");
    assert!(status.success(), "exit status {status:?}");
    screen.drain();
    let raw = String::from_utf8_lossy(&screen.raw);
    let entered = raw
        .find("\x1b[?1049h")
        .expect("entered the alternate screen");
    let left = raw
        .rfind("\x1b[?1049l")
        .expect("left the alternate screen on quit");
    assert!(left > entered);
    assert!(
        raw[left..].contains("\x1b[?25h") || raw[..left].rfind("\x1b[?25h").is_some(),
        "cursor shown again"
    );
    assert!(
        !screen.parser.screen().alternate_screen(),
        "back on the main screen"
    );
}

#[test]
fn without_a_terminal_the_explorer_says_so_and_exits_2() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs an interactive terminal"), "{err}");
    assert!(out.stdout.is_empty());
    // `rhoscope FILE` is `rhoscope explore FILE`; a path that does not exist stays an error.
    let run = |arg: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
            .arg(arg)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let out = run("assets/mid.csv");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs an interactive terminal"), "{err}");
    // …named as a missing file, not as an unknown subcommand.
    let out = run("assets/no-such-file.csv");
    assert_eq!(out.status.code(), Some(66));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-file.csv: no such file"), "{err}");
}

/// The bare command takes the explorer's `--no-mouse` as `explore` does (with or without a
/// file); before another subcommand it is refused with the reason.
#[test]
fn the_bare_command_takes_no_mouse() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    for args in [
        &["--no-mouse"][..],
        &["--no-mouse", "assets/mid.csv"],
        &["--no-mouse", "explore"],
        &["--no-mouse", "demo"],
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("needs an interactive terminal"),
            "{args:?}: {err}"
        );
    }
    let out = run(&["--no-mouse", "estimate", "assets/mid.csv"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--no-mouse is the explorer's"), "{err}");
}

/// The issue's "done when", end to end at 100×30: open the HANNA-LLM panel from inside the
/// explorer, assign judges and anchors with Space (families come from families.csv), step
/// through the walkthrough, leave it with Esc, then give the talk and quit from a frozen
/// screen (q asks first).
#[test]
fn a_new_user_opens_a_real_file_walks_through_it_and_gives_the_talk() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/hanna-llm/hanna_llm_coherence.csv");
    if !data.is_file() {
        eprintln!("skipped: {} is not at hand", data.display());
        return;
    }
    let (mut child, mut writer, mut screen) = spawn(&["explore".as_ref(), "--no-mouse".as_ref()]);
    let mut keys = |bytes: &[u8]| {
        writer.write_all(bytes).unwrap();
        writer.flush().unwrap();
    };
    screen.wait_for("the first verdicts", |t| t.contains("PASS ✓"));
    keys(b"o");
    screen.wait_for("the open prompt", |t| t.contains("open:"));
    // Tab completion finishes the folder name.
    keys(b"../shared/data/hanna-l\t");
    screen.wait_for("completion", |t| t.contains("hanna-llm/"));
    keys(b"hanna_llm_coherence.csv\r");
    screen.wait_for("the header listed", |t| {
        t.contains("story_id") && t.contains("human3") && t.contains("roles needed")
    });
    // The cursor is on story_id: skip two, five judges, then three anchors.
    keys(b"jj");
    for _ in 0..5 {
        keys(b" j");
    }
    for _ in 0..3 {
        keys(b"  j");
    }
    screen.wait_for("the battery of the assigned panel", |t| {
        t.contains("Test A FIRES") && t.contains("Test J FIRES") && !t.contains("recomputing")
    });
    let text = screen.parser.screen().contents();
    assert!(
        text.contains("mistral") && text.contains("openai"),
        "families: {text}"
    );
    keys(b"n");
    screen.wait_for("the walkthrough", |t| t.contains("Walkthrough 1/9"));
    for _ in 0..8 {
        keys(b"n");
    }
    screen.wait_for("the overall verdict", |t| t.contains("Walkthrough 9/9"));
    keys(b"\x1b");
    screen.wait_for("explore mode again", |t| !t.contains("Walkthrough"));
    // Ctrl-r on a file keeps the file and its roles (it resets a scenario's sliders only).
    keys(b"\x12");
    screen.wait_for("the file kept", |t| {
        t.contains("hanna_llm_coherence.csv") && t.contains("anchor ord")
    });
    keys(b"q");
    let status = child.wait().expect("the explorer exits");
    assert!(status.success(), "exit status {status:?}");
}

/// The explorer started with `args` at 100×30 in a pseudo-terminal: the child, its keyboard,
/// and the screen its output feeds.
fn spawn(
    args: &[&std::ffi::OsStr],
) -> (
    Box<dyn portable_pty::Child + Send + Sync>,
    Box<dyn Write + Send>,
    Screen,
) {
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_rhoscope"));
    cmd.args(args);
    spawn_command(cmd)
}

/// `cmd` started at 100×30 in a pseudo-terminal (its controlling terminal), as [`spawn`].
fn spawn_command(
    mut cmd: CommandBuilder,
) -> (
    Box<dyn portable_pty::Child + Send + Sync>,
    Box<dyn Write + Send>,
    Screen,
) {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pseudo-terminal");
    cmd.cwd(env!("CARGO_MANIFEST_DIR"));
    cmd.env("TERM", "xterm-256color");
    cmd.env("NO_COLOR", "1");
    let child = pty.slave.spawn_command(cmd).expect("spawn");
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let writer = pty.master.take_writer().unwrap();
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
    let screen = Screen {
        parser: vt100::Parser::new(
            NonZeroU16::new(30).unwrap(),
            NonZeroU16::new(100).unwrap(),
            0,
        ),
        raw: Vec::new(),
        rx,
    };
    (child, writer, screen)
}

/// The explorer on its default scenario, once its first verdicts are on screen.
fn started_in_a_pty() -> (
    Box<dyn portable_pty::Child + Send + Sync>,
    Box<dyn Write + Send>,
    Screen,
) {
    let (child, writer, mut screen) = spawn(&["explore".as_ref()]);
    screen.wait_for("the first verdicts", |t| {
        (t.contains("PASS ✓") || t.contains("FIRES ✗")) && !t.contains("recomputing")
    });
    (child, writer, screen)
}

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

fn kill(pid: u32, signal: &str) {
    let ok = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal} {pid}");
}

/// `cat panel.csv | rhoscope explore -` in a terminal: the panel comes from the pipe, the
/// keys from the terminal (/dev/tty); q quits and the terminal is restored.
#[test]
fn a_panel_piped_to_explore_dash_reads_keys_from_the_terminal() {
    let mut cmd = CommandBuilder::new("sh");
    cmd.args([
        "-c",
        "cat assets/mid.csv | exec \"$0\" explore - --no-mouse",
        env!("CARGO_BIN_EXE_rhoscope"),
    ]);
    let (mut child, mut writer, mut screen) = spawn_command(cmd);
    screen.wait_for("the piped panel's verdicts", |t| {
        (t.contains("PASS ✓") || t.contains("FIRES ✗"))
            && !t.contains("recomputing")
            && t.contains("1 Data · file")
            && t.contains("A2     anchor")
    });
    writer.write_all(b"?").unwrap();
    writer.flush().unwrap();
    screen.wait_for("the help overlay, from a key", |t| {
        t.contains("q or Esc closes)")
    });
    writer.write_all(b"qq").unwrap();
    writer.flush().unwrap();
    let status = child.wait().expect("the explorer exits");
    assert!(status.success(), "exit status {status:?}");
    screen.drain();
    let raw = String::from_utf8_lossy(&screen.raw);
    assert!(
        raw.rfind("\x1b[?1049l") > raw.rfind("\x1b[?1049h"),
        "restored"
    );
}

/// Everything a restored terminal needs after the last time the alternate screen was entered:
/// the main screen back, the cursor shown, mouse reporting off.
fn restored_after_last_entry(raw: &str) -> bool {
    let entered = raw.rfind("\x1b[?1049h").unwrap_or(0);
    let tail = &raw[entered..];
    tail.contains("\x1b[?1049l") && tail.contains("\x1b[?25h") && tail.contains("\x1b[?1000l")
}

#[test]
fn every_ending_signal_restores_the_terminal_and_exits_128_plus_the_signal() {
    for (signal, number) in [
        ("TERM", 15),
        ("INT", 2),
        ("HUP", 1),
        ("QUIT", 3),
        ("USR1", 10),
        ("USR2", 12),
        ("ALRM", 14),
    ] {
        let (mut child, _writer, mut screen) = started_in_a_pty();
        kill(child.process_id().unwrap(), signal);
        let status = child.wait().expect("the explorer exits");
        assert_eq!(status.exit_code(), 128 + number, "SIG{signal}: {status:?}");
        screen.drain();
        let raw = String::from_utf8_lossy(&screen.raw);
        assert!(
            restored_after_last_entry(&raw),
            "SIG{signal} left the terminal as it was"
        );
    }
}

#[test]
fn a_stop_restores_the_terminal_and_fg_takes_it_back_in_raw_mode() {
    let (mut child, mut writer, mut screen) = started_in_a_pty();
    let pid = child.process_id().unwrap();
    kill(pid, "TSTP");
    screen.wait_for("the main screen after the stop", |_| true);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !restored_after_last_entry(&String::from_utf8_lossy(&screen.raw)) {
        assert!(
            Instant::now() < deadline,
            "the stop did not restore the terminal: {:?}",
            String::from_utf8_lossy(&screen.raw[screen.raw.len().saturating_sub(300)..])
        );
        if let Ok(bytes) = screen.rx.recv_timeout(Duration::from_millis(200)) {
            screen.parser.process(&bytes);
            screen.raw.extend(bytes);
        }
    }
    // Wait until the process has really stopped itself (state T), as a shell's `fg` would.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !stopped(pid) {
        assert!(Instant::now() < deadline, "the explorer did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = screen.raw.len();
    kill(pid, "CONT");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !String::from_utf8_lossy(&screen.raw[before..]).contains("\x1b[?1049h") {
        assert!(
            Instant::now() < deadline,
            "fg did not take the alternate screen back"
        );
        if let Ok(bytes) = screen.rx.recv_timeout(Duration::from_millis(200)) {
            screen.parser.process(&bytes);
            screen.raw.extend(bytes);
        }
    }
    // Raw mode again: a single `q` (no Enter) quits.
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    let status = child.wait().expect("the explorer exits");
    screen.drain();
    assert!(
        status.success(),
        "exit status {status:?}: {:?}",
        String::from_utf8_lossy(&screen.raw[screen.raw.len().saturating_sub(400)..])
    );
}

#[test]
fn a_fifo_is_refused_at_once_and_q_quits() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("panel.csv");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success();
    assert!(made, "mkfifo");
    let (mut child, mut writer, mut screen) = spawn(&["explore".as_ref(), fifo.as_os_str()]);
    // Reading a FIFO waits for a writer (and the explorer rereads its file after each edit):
    // it is refused before any read, saying why, and the explorer stays usable.
    screen.wait_for("the FIFO refused", |t| t.contains("is a FIFO"));
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    // Nobody ever writes to the FIFO: nothing may be left waiting on it when quitting.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status:?}");
            break;
        }
        assert!(Instant::now() < deadline, "q waited on the blocked load");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A new user on a Likert panel, from `rhoscope FILE` to an answer with a next step: roles
/// with Space, the human anchors scored continuous with `c` (the free-scale estimate then
/// runs), and the walkthrough's last step.
#[test]
fn a_likert_panel_reaches_the_free_scale_estimate_and_test_o_from_the_data_pane() {
    let rel = "../shared/data/hanna-llm/hanna_llm_coherence.csv";
    if !std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .is_file()
    {
        eprintln!("skipped: {rel} is not at hand");
        return;
    }
    let (mut child, mut writer, mut screen) = spawn(&[rel.as_ref()]);
    let mut keys = |bytes: &[u8]| {
        writer.write_all(bytes).unwrap();
        writer.flush().unwrap();
    };
    screen.wait_for("the header listed", |t| {
        t.contains("roles needed") && t.contains("story_id")
    });
    keys(b"n");
    // The battery pane already says it; `n` says it again on the status line.
    screen.wait_for("roles asked for first", |t| {
        t.matches("at least 2 judges").count() >= 2
    });
    // The cursor starts on story_id: skip two, five judges, then three anchors.
    keys(b"jj");
    for _ in 0..5 {
        keys(b" j");
    }
    for _ in 0..3 {
        keys(b"  j");
    }
    screen.wait_for("the battery of the assigned panel", |t| {
        t.contains("Test J FIRES") && t.contains("anchor ord") && !t.contains("recomputing")
    });
    assert!(screen.parser.screen().contents().contains("Tests B, O N/A"));
    // The cursor is on human3: score the three anchors continuous.
    keys(b"ckckc");
    // Test O then runs on the free-scale fit, whose identified set rejects these anchors: it
    // is N/A naming anchors_misfit (data_pane.rs checks that wording); here, the rerun.
    screen.wait_for("the battery on the continuous anchors", |t| {
        t.contains("Test J FIRES") && !t.contains("anchor ord") && !t.contains("recomputing")
    });
    keys(b"3G");
    screen.wait_for("the free-scale estimate", |t| t.contains("free-scale"));
    keys(b"n");
    screen.wait_for("the walkthrough", |t| t.contains("Walkthrough 1/9"));
    for _ in 0..8 {
        keys(b"n");
    }
    // The answer, with a next step only where one could make a ρ̂ readable.
    screen.wait_for("the answer", |t| {
        t.contains("Walkthrough 9/9") && t.contains("Answer:")
    });
    keys(b"\x03");
    let status = child.wait().expect("the explorer exits");
    assert!(status.success(), "exit status {status:?}");
}

/// A battery interrupted while its progress bars are drawn ends their line before it exits,
/// so the shell's prompt starts on a line of its own.
#[test]
fn an_interrupted_battery_finishes_its_progress_line() {
    let (mut child, _writer, mut screen) = spawn(&[
        "battery".as_ref(),
        "assets/mid.csv".as_ref(),
        "--null-draws".as_ref(),
        "10000000".as_ref(),
    ]);
    screen.wait_for("the progress bars", |t| t.contains("null (A/B/C)"));
    kill(child.process_id().unwrap(), "INT");
    let status = child.wait().expect("the battery exits");
    assert_eq!(status.exit_code(), 128 + 2, "{status:?}");
    screen.drain();
    assert_eq!(
        screen.raw.last(),
        Some(&b'\n'),
        "the bar's line is left open"
    );
}
