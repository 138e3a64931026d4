//! The fast reader of wide files (see the module docs).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use rayon::prelude::*;

use super::DataError;
use super::{Wide, cell_value, check_cells, limits::MAX_ROW_BYTES, ragged};
use crate::location::Location;

/// Bytes read per block: small enough to stay in cache between the read and the parse.
const BLOCK: usize = 1 << 20;
/// Bytes per parallel task within a block.
const CHUNK: usize = 256 << 10;

/// The matrix (column-major, `stride` rows), its stride and each row's line (0 = blank),
/// or `None` when the body needs the `csv` reader.
pub(super) type Matrix = (Vec<f64>, usize, Vec<u64>);

pub(super) fn read(w: &Wide, offset: u64) -> Result<Option<Matrix>, DataError> {
    let io = |e: std::io::Error| DataError::NoInput {
        path: w.path.to_path_buf(),
        reason: super::io_reason(&e),
    };
    let mut file = File::open(w.path).map_err(io)?;
    file.seek(SeekFrom::Start(offset)).map_err(io)?;
    // One buffer for both passes.
    let mut buf: Vec<u8> = vec![0u8; BLOCK];
    let Some(rows) = count_lines(w, &mut file, &mut buf)? else {
        return Ok(None);
    };
    let q = w.selected.len();
    check_cells(w.path, rows, q, "rows")?;
    // Zeroed memory is mapped lazily; every item row is written below.
    let mut data = vec![0.0; rows * q];
    let mut lines = vec![0u64; rows];
    file.seek(SeekFrom::Start(offset)).map_err(io)?;
    let used = parse_body(w, &mut file, buf, &mut data, rows, &mut lines)?;
    lines.truncate(used);
    Ok(Some((data, rows, lines)))
}

/// Reads until `buf` is full or the file ends; the count of bytes read.
fn fill(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Pass 1: the number of rows of the body (blank lines are no rows, as on standard input), or
/// `None` when it holds a quote or a carriage return that does not end a line (the `csv`
/// reader handles both).
fn count_lines(w: &Wide, file: &mut File, buf: &mut [u8]) -> Result<Option<usize>, DataError> {
    let io = |e: std::io::Error| DataError::NoInput {
        path: w.path.to_path_buf(),
        reason: super::io_reason(&e),
    };
    let (mut lines, mut last, mut prev_cr, mut since) = (0usize, b'\n', false, 0usize);
    // Rows so far, and whether the current line is blank so far.
    let (mut rows, mut blank) = (0usize, true);
    loop {
        let k = fill(file, buf).map_err(io)?;
        if k == 0 {
            break;
        }
        let b = &buf[..k];
        if memchr::memchr(b'"', b).is_some() || (prev_cr && b[0] != b'\n') {
            return Ok(None);
        }
        if memchr::memchr_iter(b'\r', b).any(|i| i + 1 < k && b[i + 1] != b'\n') {
            return Ok(None);
        }
        // A row over the limit is refused when its bytes pass it, not at the end of the file.
        let first = memchr::memchr(b'\n', b).unwrap_or(k);
        if since + first > MAX_ROW_BYTES {
            return Err(too_long(w, lines as u64 + 2));
        }
        since = memchr::memrchr(b'\n', b).map_or(since + k, |i| k - i - 1);
        prev_cr = b[k - 1] == b'\r';
        last = b[k - 1];
        let mut start = 0;
        for i in memchr::memchr_iter(b'\n', b) {
            if !(blank && is_blank(w, &b[start..i])) {
                rows += 1;
            }
            (blank, start, lines) = (true, i + 1, lines + 1);
        }
        blank = blank && is_blank(w, &b[start..]);
    }
    if prev_cr {
        return Ok(None);
    }
    if last != b'\n' && !blank {
        rows += 1;
    }
    Ok(Some(rows))
}

/// A line (or its part) that holds only whitespace and no delimiter: no row, as the `csv`
/// reader skips it.
fn is_blank(w: &Wide, line: &[u8]) -> bool {
    line.iter()
        .all(|&b| b.is_ascii_whitespace() && b != w.delimiter)
}

fn too_long(w: &Wide, row: u64) -> DataError {
    DataError::data_at(
        w.path,
        Location {
            row: Some(row),
            ..Location::default()
        },
        format!("a row longer than {} MiB", MAX_ROW_BYTES >> 20),
    )
}

/// One parallel task: a run of whole lines, where its lines start, and how many rows (blank
/// lines are none) and lines it holds.
struct Chunk {
    start: usize,
    end: usize,
    rows: usize,
    line0: usize,
    lines: usize,
}

/// Splits `text` (whole lines; the last may lack its newline only at the end of the file)
/// into chunks of about [`CHUNK`] bytes at line ends.
fn chunks(w: &Wide, text: &[u8], at_eof: bool) -> Vec<Chunk> {
    let mut out = Vec::new();
    let (mut start, mut line0) = (0, 0);
    while start < text.len() {
        let target = (start + CHUNK).min(text.len());
        let end = if target == text.len() {
            text.len()
        } else {
            memchr::memchr(b'\n', &text[target..]).map_or(text.len(), |i| target + i + 1)
        };
        let piece = &text[start..end];
        let (mut rows, mut lines, mut from) = (0, 0, 0);
        for i in memchr::memchr_iter(b'\n', piece) {
            rows += usize::from(!is_blank(w, &piece[from..i]));
            (lines, from) = (lines + 1, i + 1);
        }
        if end == text.len() && at_eof && from < piece.len() {
            lines += 1;
            rows += usize::from(!is_blank(w, &piece[from..]));
        }
        out.push(Chunk {
            start,
            end,
            rows,
            line0,
            lines,
        });
        line0 += lines;
        start = end;
    }
    out
}

/// Pass 2: parses every row into `data` (column-major, `stride` rows) and `lines`; the
/// number of rows read. Errors come back in file order.
fn parse_body(
    w: &Wide,
    file: &mut File,
    mut buf: Vec<u8>,
    data: &mut [f64],
    stride: usize,
    lines: &mut [u64],
) -> Result<usize, DataError> {
    let io = |e: std::io::Error| DataError::NoInput {
        path: w.path.to_path_buf(),
        reason: super::io_reason(&e),
    };
    let changed = || DataError::NoInput {
        path: w.path.to_path_buf(),
        reason: "the file changed while it was read".into(),
    };
    // `buf[..carry]` holds the unfinished last line of the previous block; each read
    // lands straight after it (no second copy of the block).
    let mut carry = 0usize;
    let (mut row0, mut first_line) = (0usize, 2u64);
    loop {
        if buf.len() < carry + BLOCK {
            buf.resize(carry + BLOCK, 0);
        }
        let k = fill(file, &mut buf[carry..carry + BLOCK]).map_err(io)?;
        let len = carry + k;
        let at_eof = k == 0;
        let end = if at_eof {
            len
        } else if let Some(i) = memchr::memrchr(b'\n', &buf[..len]) {
            i + 1
        } else if len > MAX_ROW_BYTES {
            return Err(too_long(w, first_line));
        } else {
            carry = len;
            continue;
        };
        let parts = chunks(w, &buf[..end], at_eof);
        let rows: usize = parts.iter().map(|c| c.rows).sum();
        let block_lines: usize = parts.iter().map(|c| c.lines).sum();
        if row0 + rows > stride {
            return Err(changed());
        }
        if rows > 0 {
            parse_block(
                w,
                &buf[..end],
                &parts,
                first_line,
                data,
                stride,
                &mut lines[row0..row0 + rows],
                row0,
            )?;
        }
        row0 += rows;
        first_line += block_lines as u64;
        buf.copy_within(end..len, 0);
        carry = len - end;
        if at_eof {
            return Ok(row0);
        }
    }
}

#[expect(clippy::too_many_arguments, reason = "one block's views, passed once")]
fn parse_block(
    w: &Wide,
    text: &[u8],
    parts: &[Chunk],
    first_line: u64,
    data: &mut [f64],
    stride: usize,
    lines: &mut [u64],
    row0: usize,
) -> Result<(), DataError> {
    let rows: usize = parts.iter().map(|c| c.rows).sum();
    let mut cols: Vec<Vec<&mut [f64]>> = parts
        .iter()
        .map(|_| Vec::with_capacity(w.selected.len()))
        .collect();
    for col in data.chunks_mut(stride) {
        let mut rest = &mut col[row0..row0 + rows];
        for (k, c) in parts.iter().enumerate() {
            let (a, b) = std::mem::take(&mut rest).split_at_mut(c.rows);
            cols[k].push(a);
            rest = b;
        }
    }
    let mut line_parts: Vec<&mut [u64]> = Vec::with_capacity(parts.len());
    let mut rest = lines;
    for c in parts {
        let (a, b) = std::mem::take(&mut rest).split_at_mut(c.rows);
        line_parts.push(a);
        rest = b;
    }
    let results: Vec<Result<(), DataError>> = parts
        .par_iter()
        .zip(cols.into_par_iter())
        .zip(line_parts.into_par_iter())
        .map(|((c, mut cols), lines)| {
            parse_chunk(
                w,
                &text[c.start..c.end],
                first_line + c.line0 as u64,
                &mut cols,
                lines,
            )
        })
        .collect();
    results.into_iter().collect()
}

/// Parses the rows of one chunk in a single scan for delimiters and line ends. A blank
/// (or all-whitespace) line is no row and takes no slot, as the `csv` reader skips it.
fn parse_chunk(
    w: &Wide,
    text: &[u8],
    first_line: u64,
    cols: &mut [&mut [f64]],
    lines: &mut [u64],
) -> Result<(), DataError> {
    let mut seps: Vec<usize> = Vec::with_capacity(w.names.len());
    let (mut start, mut r, mut line) = (0, 0, first_line);
    for i in memchr::memchr2_iter(w.delimiter, b'\n', text) {
        if text[i] == b'\n' {
            r += usize::from(parse_row(w, &text[start..i], &seps, line, r, cols, lines)?);
            seps.clear();
            start = i + 1;
            line += 1;
        } else {
            seps.push(i - start);
        }
    }
    if start < text.len() {
        parse_row(w, &text[start..], &seps, line, r, cols, lines)?;
    }
    Ok(())
}

/// One row into slot `r`, whether it was one (a blank line is not): `seps` are the delimiter
/// offsets within `line` (which has no newline), `line_no` its line in the file.
fn parse_row(
    w: &Wide,
    line: &[u8],
    seps: &[usize],
    line_no: u64,
    r: usize,
    cols: &mut [&mut [f64]],
    lines: &mut [u64],
) -> Result<bool, DataError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if seps.is_empty() && line.trim_ascii().is_empty() {
        return Ok(false);
    }
    let width = w.names.len();
    if seps.len() + 1 != width {
        return Err(ragged(
            w.path,
            line_no,
            (seps.len() + 1, width),
            w.delimiter,
        ));
    }
    for (slot, &c) in w.selected.iter().enumerate() {
        let s = if c == 0 { 0 } else { seps[c - 1] + 1 };
        let e = seps.get(c).copied().unwrap_or(line.len());
        let field = line[s..e].trim_ascii();
        cols[slot][r] = cell_value(w.path, field, line_no, &w.names[c])?;
    }
    lines[r] = line_no;
    Ok(true)
}
