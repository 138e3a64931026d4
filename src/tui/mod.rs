//! The explorer: an interactive terminal UI over the estimator and the battery.
//!
//! Architecture (ARCHITECTURE.md, "The explorer"): an [`app::App`] model updated by actions and returning effects,
//! a pure [`ui::render`], one keymap table, a background [`worker::Worker`] with
//! latest-wins slots and generation tags, and a `TerminalGuard` that restores the terminal
//! on quit, on error and on panic.

pub mod action;
pub mod app;
pub mod caption;
pub mod figure;
mod file_list;
pub mod keymap;
pub mod panes;
pub mod reading;
pub mod readout;
pub mod scenes;
pub mod sliders;
pub mod text;
pub mod theme;
pub mod trust;
pub mod ui;
pub mod walkthrough;
pub mod widgets;
pub mod worker;

use std::io::{IsTerminal, stdout};
use std::path::PathBuf;
use std::sync::mpsc;

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event as TermEvent, MouseButton, MouseEventKind,
};
use crossterm::execute;

use action::{Action, Effect, PromptEdit, WorkerMsg};
use app::{App, Settings, Start};
pub use file_list::is_panel_file;
use file_list::scan_files;
use worker::Worker;

use crate::error::Error;

/// One event for the loop: terminal input, a worker result, or a signal.
#[derive(Debug)]
pub enum Event {
    Input(TermEvent),
    Worker(WorkerMsg),
    /// A terminating signal (end, restoring the terminal), SIGTSTP (restore, then stop) or
    /// SIGCONT (take the terminal back).
    Signal(i32),
}

/// The signals the explorer handles itself: every catchable one that would end the process
/// (USR1, ALRM, … as well as TERM, INT, HUP) and the stop and continue pair; each would
/// otherwise leave the terminal on the alternate screen, in raw mode, with mouse reporting
/// on and the cursor hidden.
fn signals() -> impl Iterator<Item = i32> {
    crate::progress::TERMINATING_SIGNALS
        .into_iter()
        .chain([signal_hook::consts::SIGTSTP, signal_hook::consts::SIGCONT])
}

/// Gives the terminal back to the shell (raw mode off, main screen, mouse off, cursor on).
fn release_terminal(mouse: bool) {
    if mouse {
        let _ = execute!(stdout(), DisableMouseCapture);
    }
    ratatui::restore();
    let _ = execute!(stdout(), crossterm::cursor::Show);
}

/// Takes the terminal again after a stop: raw mode, alternate screen, mouse, a full redraw.
fn reclaim_terminal(terminal: &mut ratatui::DefaultTerminal, mouse: bool) -> Result<(), Error> {
    crossterm::terminal::enable_raw_mode().map_err(|e| term_error(&e))?;
    execute!(stdout(), crossterm::terminal::EnterAlternateScreen).map_err(|e| term_error(&e))?;
    if mouse {
        execute!(stdout(), EnableMouseCapture).map_err(|e| term_error(&e))?;
    }
    // A fresh alternate screen is blank: draw a blank frame so ratatui's diff knows it, and
    // the next frame is drawn in full. (`Terminal::clear` would query the cursor position,
    // whose answer the input thread reads.)
    execute!(
        stdout(),
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )
    .map_err(|e| term_error(&e))?;
    terminal
        .draw(|f| f.render_widget(ratatui::widgets::Clear, f.area()))
        .map(|_| ())
        .map_err(|e| term_error(&e))
}

/// How the explorer was asked to start.
#[derive(Debug, Clone)]
pub struct Options {
    pub start: Start,
    pub mouse: bool,
    /// `--hanna PATH` (file or folder); otherwise ../shared/data/hanna if present.
    pub hanna: Option<PathBuf>,
    /// Told `true` when the explorer takes the terminating signals over, `false` when it gives
    /// them back, so the caller's own handler stands aside meanwhile.
    pub own_signals: fn(bool),
}

/// Restores the terminal when dropped (unless unwinding, when the panic hook already did).
struct TerminalGuard {
    mouse: bool,
}

impl TerminalGuard {
    fn new(mouse: bool) -> Result<(TerminalGuard, ratatui::DefaultTerminal), Error> {
        // Our hook first: ratatui's chains after it and restores raw mode and the screen.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(stdout(), DisableMouseCapture);
            previous(info);
        }));
        let terminal = ratatui::try_init().map_err(|e| term_error(&e))?;
        let guard = TerminalGuard { mouse };
        if mouse {
            execute!(stdout(), EnableMouseCapture).map_err(|e| term_error(&e))?;
        }
        Ok((guard, terminal))
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        if self.mouse {
            let _ = execute!(stdout(), DisableMouseCapture);
        }
        ratatui::restore();
    }
}

fn term_error(e: &std::io::Error) -> Error {
    Error::Output {
        path: None,
        reason: format!("terminal: {e}"),
    }
}

/// Keeps only the newest job of each kind from a burst of effects (drain, then submit):
/// holding a key down costs one rerun, not forty.
#[must_use]
pub fn coalesce(effects: Vec<Effect>) -> Vec<Effect> {
    let mut out: Vec<Effect> = Vec::new();
    for e in effects {
        let same = |o: &Effect| {
            std::mem::discriminant(o) == std::mem::discriminant(&e) && !matches!(e, Effect::Quit)
        };
        out.retain(|o| !same(o));
        out.push(e);
    }
    out
}

/// The action of a terminal event on a screen of `area`, given the state. Mouse events are
/// hit-tested here, against the same layout the view draws, so the model never sees cells.
#[must_use]
pub fn action_of(ev: &TermEvent, app: &App, area: ratatui::layout::Rect) -> Option<Action> {
    match ev {
        TermEvent::Key(k) if app.prompt().is_some() => prompt_key(k, app),
        TermEvent::Key(k) => keymap::action_for(k, app.focus),
        TermEvent::Mouse(_) if app.overlay != app::Overlay::None => None,
        TermEvent::Mouse(m) => {
            let (pane, item) = ui::item_at(app, area, m.column, m.row)?;
            match m.kind {
                MouseEventKind::Down(MouseButton::Left) => Some(Action::Click { pane, item }),
                MouseEventKind::ScrollUp => Some(Action::Wheel { pane, up: true }),
                MouseEventKind::ScrollDown => Some(Action::Wheel { pane, up: false }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A Ctrl (`ctrl`) or Alt chord in a prompt: the line editor's Ctrl-H (Backspace on `stty
/// erase ^H` terminals), Ctrl-U and Ctrl-W; any other chord types nothing.
fn chord(ctrl: bool, c: char) -> Option<PromptEdit> {
    match (ctrl, c.to_ascii_lowercase()) {
        (true, 'h') => Some(PromptEdit::Backspace),
        (true, 'u') => Some(PromptEdit::ClearLine),
        (true, 'w') => Some(PromptEdit::DeleteWord),
        _ => None,
    }
}

/// Keys while the open-path prompt is up: text editing, `Tab` completion (which reads the
/// folder here, in the loop, not in the model), `Enter`, `Esc`; `Ctrl-c` still quits.
fn prompt_key(k: &event::KeyEvent, app: &App) -> Option<Action> {
    use crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let text = app.prompt().unwrap_or("");
    let path = matches!(
        app.overlay.prompt().map(|p| &p.kind),
        Some(app::PromptKind::Path)
    );
    let edit = match k.code {
        KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {
            return Some(Action::Quit);
        }
        KeyCode::Char('z') if k.modifiers.contains(KeyModifiers::CONTROL) => {
            return Some(Action::Suspend);
        }
        // The line editor's chords (Ctrl-H is Backspace on `stty erase ^H` terminals); any
        // other Ctrl or Alt chord types nothing.
        KeyCode::Char(c)
            if k.modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            chord(k.modifiers.contains(KeyModifiers::CONTROL), c)?
        }
        KeyCode::Char(c) => PromptEdit::Insert(c),
        KeyCode::Backspace => PromptEdit::Backspace,
        KeyCode::Tab if !path => return None,
        KeyCode::Tab => {
            let (text, choices) = complete(text);
            PromptEdit::Completed { text, choices }
        }
        KeyCode::Enter => PromptEdit::Submit,
        KeyCode::Esc => PromptEdit::Cancel,
        _ => return None,
    };
    Some(Action::Prompt(edit))
}

/// The entries of a path's folder that start with its last part, sorted (folders with a
/// trailing `/`; hidden ones only when the part starts with a dot).
#[must_use]
fn choices(text: &str) -> Vec<String> {
    let (dir, stem) = split_path(text);
    let Ok(rd) = std::fs::read_dir(if dir.is_empty() { "." } else { dir }) else {
        return Vec::new();
    };
    let mut names: Vec<String> = rd
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            (name.starts_with(stem) && (stem.starts_with('.') || !name.starts_with('.')))
                .then(|| if is_dir { format!("{name}/") } else { name })
        })
        .collect();
    names.sort();
    names
}

/// A path's folder (with its `/`) and its last part.
fn split_path(text: &str) -> (&str, &str) {
    match text.rfind('/') {
        Some(i) => (&text[..=i], &text[i + 1..]),
        None => ("", text),
    }
}

/// Tab on a path: its completion, the longest common prefix of its `choices`, and those
/// choices (one read of the folder).
#[must_use]
pub fn complete(text: &str) -> (String, Vec<String>) {
    let (dir, _) = split_path(text);
    let names = choices(text);
    let Some(first) = names.first() else {
        return (text.to_string(), names);
    };
    let mut common: String = first.clone();
    for n in &names[1..] {
        let len = common
            .chars()
            .zip(n.chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a.len_utf8())
            .sum();
        common.truncate(len);
    }
    // A name that is not UTF-8 shows its bytes as U+FFFD: completing past one would type a
    // path that does not exist, so completion stops there (the Data pane's list opens it).
    if let Some(i) = common.find('\u{FFFD}') {
        common.truncate(i);
    }
    (format!("{dir}{common}"), names)
}

/// Writes the figures the app asked for (fast: a few milliseconds of SVG) into the working
/// directory, tells the app the file name, and returns the other effects.
fn write_figures(app: &mut App, effects: Vec<Effect>) -> Vec<Effect> {
    let (figures, rest): (Vec<Effect>, Vec<Effect>) = effects
        .into_iter()
        .partition(|e| matches!(e, Effect::Figure { .. }));
    for e in figures {
        if let Effect::Figure { figure, stem } = e {
            let dir = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
            let written = figure::write_new(&dir, &stem, &figure);
            app.update(Action::FigureWritten(written));
        }
    }
    rest
}

fn submit(worker: &Worker, effects: Vec<Effect>) {
    for e in coalesce(effects) {
        match e {
            Effect::Battery(j) => worker.battery(j),
            Effect::Power(j) => worker.power(j),
            Effect::Plan(j) => worker.plan(j),
            Effect::Load(j) => worker.load(j),
            Effect::Validate(j) => worker.validate(j),
            Effect::CancelValidate => worker.cancel_validate(),
            Effect::Quit | Effect::Figure { .. } => {}
        }
    }
}

/// Whether keys can be read from a terminal: standard input, or else the controlling
/// terminal (`cat panel.csv | rhoscope explore -` reads the panel from the pipe; crossterm
/// then reads its events and sets raw mode on /dev/tty).
fn keys_from_a_terminal() -> bool {
    std::io::stdin().is_terminal()
        || std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .is_ok_and(|tty| tty.is_terminal())
}

/// Runs the explorer until the user quits.
///
/// # Errors
/// No interactive terminal, a terminal failure, or a crash of the worker.
pub fn run(opts: Options) -> Result<(), Error> {
    if !stdout().is_terminal() || !keys_from_a_terminal() {
        return Err(Error::Usage(
            "the explorer needs an interactive terminal; for scripts use `rhoscope estimate` or `rhoscope battery`".into(),
        ));
    }
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let settings = Settings {
        start: opts.start,
        color,
        files: scan_files(),
        hanna: scenes::find_hanna(opts.hanna.as_deref()),
    };
    let (mut app, effects) = App::new(settings);
    let (guard, mut terminal) = TerminalGuard::new(opts.mouse)?;
    let (tx, rx) = mpsc::channel::<Event>();
    let input_tx = tx.clone();
    std::thread::Builder::new()
        .name("rhoscope-input".into())
        .spawn(move || {
            // Blocks in read(): an idle explorer uses no CPU.
            while let Ok(ev) = event::read() {
                if input_tx.send(Event::Input(ev)).is_err() {
                    break;
                }
            }
        })
        .map_err(|e| term_error(&e))?;
    // The command line's own handler (temporary files, exit 128 + signal) stands aside.
    (opts.own_signals)(true);
    let mut signals = signal_hook::iterator::Signals::new(signals()).map_err(|e| term_error(&e))?;
    let handle = signals.handle();
    let signal_tx = tx.clone();
    std::thread::Builder::new()
        .name("rhoscope-signals".into())
        .spawn(move || {
            for s in signals.forever() {
                if signal_tx.send(Event::Signal(s)).is_err() {
                    break;
                }
            }
        })
        .map_err(|e| term_error(&e))?;
    let worker = Worker::start(tx, Event::Worker);
    submit(&worker, effects);
    let result = event_loop(&mut app, &mut terminal, &rx, &worker, guard.mouse);
    // Restore first: a job still running (a slow load, a FIFO) must never hold the terminal.
    drop(guard);
    handle.close();
    (opts.own_signals)(false);
    drop(worker);
    result
}

fn event_loop(
    app: &mut App,
    terminal: &mut ratatui::DefaultTerminal,
    rx: &mpsc::Receiver<Event>,
    worker: &Worker,
    mouse: bool,
) -> Result<(), Error> {
    terminal
        .draw(|f| ui::render(f, app))
        .map_err(|e| term_error(&e))?;
    while let Ok(first) = rx.recv() {
        let mut effects = Vec::new();
        let area = terminal.size().map_or_else(
            |_| ratatui::layout::Rect::default(),
            |s| ratatui::layout::Rect::new(0, 0, s.width, s.height),
        );
        for ev in std::iter::once(first).chain(rx.try_iter()) {
            let action = match ev {
                Event::Input(t) => action_of(&t, app, area),
                Event::Worker(WorkerMsg::Crashed) => {
                    return Err(Error::Output {
                        path: None,
                        reason: "the background worker crashed".into(),
                    });
                }
                Event::Worker(m) => Some(Action::Worker(m)),
                Event::Signal(s) if s == signal_hook::consts::SIGTSTP => {
                    release_terminal(mouse);
                    let _ = signal_hook::low_level::emulate_default_handler(s);
                    // Stopped here until `fg`; then the terminal is ours again.
                    reclaim_terminal(terminal, mouse)?;
                    None
                }
                Event::Signal(s) if s == signal_hook::consts::SIGCONT => {
                    reclaim_terminal(terminal, mouse)?;
                    None
                }
                Event::Signal(s) => return Err(Error::Signal(s)),
            };
            if action == Some(Action::Suspend) {
                // Raw mode turns Ctrl-z into a key: stop as the shell's Ctrl-z would, through
                // the SIGTSTP handling above (terminal restored, then re-entered on `fg`).
                let _ = signal_hook::low_level::raise(signal_hook::consts::SIGTSTP);
                continue;
            }
            if let Some(a) = action {
                effects.extend(app.update(a));
            }
        }
        if app.quit {
            return Ok(());
        }
        let effects = write_figures(app, effects);
        submit(worker, effects);
        terminal
            .draw(|f| ui::render(f, app))
            .map_err(|e| term_error(&e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_chords_edit_the_line_and_never_type_their_letter() {
        assert_eq!(chord(true, 'h'), Some(PromptEdit::Backspace));
        assert_eq!(chord(true, 'u'), Some(PromptEdit::ClearLine));
        assert_eq!(chord(true, 'w'), Some(PromptEdit::DeleteWord));
        assert_eq!(chord(true, 'a'), None);
        assert_eq!(chord(false, 'w'), None);
    }
}
