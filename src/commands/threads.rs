//! How many rayon workers a run gets: `--threads`, else `RAYON_NUM_THREADS`, checked
//! against the machine. The binary builds its global pool once; in-process callers (the
//! Python API) get a pool of their own per call, since the global one can be built only once.

use crate::error::Error;

/// The workers asked for by `--threads` (checked by its parser) or, without it,
/// `RAYON_NUM_THREADS`, held to the same rule; `None` when neither says (an empty variable
/// says nothing, as in rayon).
///
/// # Errors
/// A variable that is no whole number from 1 to [`crate::data::limits::max_threads`]: a usage error
/// worded as `--threads`' (rayon would quietly use every core).
fn asked(threads: Option<u16>) -> Result<Option<usize>, Error> {
    if let Some(t) = threads {
        // Checked again for in-process callers (the Python API), which bypass the parser.
        return check(&t.to_string(), "--threads").map(Some);
    }
    let Some(raw) = std::env::var_os("RAYON_NUM_THREADS") else {
        return Ok(None);
    };
    // Bytes that are not UTF-8 are shown escaped (`\xFF`), as in every refused value.
    let text = crate::location::escape_bytes(raw.as_encoded_bytes());
    if text.trim().is_empty() {
        return Ok(None);
    }
    check(&text, "RAYON_NUM_THREADS").map(Some)
}

/// `text` held to `--threads`' rule, a refusal naming `source`.
fn check(text: &str, source: &str) -> Result<usize, Error> {
    crate::cli::values::threads()
        .check(text)
        .map(|t| usize::try_from(t).unwrap_or(usize::MAX))
        .map_err(|why| Error::Usage(format!("{source}: {why}").into()))
}

fn cannot_start(threads: usize, e: &rayon::ThreadPoolBuildError) -> Error {
    let s = if threads == 1 { "" } else { "s" };
    Error::System(format!("cannot start {threads} worker thread{s}: {e}"))
}

/// Builds the process's global pool (the binary, which runs one command) as asked, else one
/// worker a core, now: a pool the OS will not start (a memory limit, too many processes) is
/// exit 71 with one line, never rayon's panic in the first parallel call. Unasked, a pool
/// already built (a host that ran rayon first) is used as it is.
pub(super) fn start_global(threads: Option<u16>) -> Result<(), Error> {
    let asked = asked(threads)?;
    let t = asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    match rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build_global()
    {
        // Only the OS's refusal has a source; "already built" has none.
        Err(e) if asked.is_some() || std::error::Error::source(&e).is_some() => {
            Err(cannot_start(t, &e))
        }
        _ => Ok(()),
    }
}

/// Runs `work` on a pool of its own when threads are asked for, else on the global pool;
/// results are the same at any thread count (every random stream is seeded per unit).
///
/// # Errors
/// A refused thread count, a pool the OS will not start, or `work`'s error.
pub fn scoped<T: Send>(
    threads: Option<u16>,
    work: impl FnOnce() -> Result<T, Error> + Send,
) -> Result<T, Error> {
    let Some(t) = asked(threads)? else {
        return work();
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .map_err(|e| cannot_start(t, &e))?
        .install(work)
}
