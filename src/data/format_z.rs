//! A throwaway format, compiled only for the crate's tests: delimited text behind a `RHOZ`
//! signature line. It is one file plus one entry in [`super::format::Format`], and
//! `src/throwaway.rs` watches it reach `estimate`, `export` and the explorer's file list.

use std::io::{BufRead, BufReader, Read};

use super::records::Opened;

/// The line that marks the format, whatever the file's name.
pub(super) const SIGNATURE: &[u8] = b"RHOZ\n";

/// The extensions that name it.
pub(super) const EXTENSIONS: &[&str] = &["rhoz"];

/// What it is, in one line.
pub(super) const ABOUT: &str = "a throwaway test format (delimited text behind a RHOZ line)";

/// The input past its signature line, read as delimited text.
pub(super) fn open(mut buf: BufReader<Box<dyn Read + Send>>) -> Opened {
    buf.consume(SIGNATURE.len().min(buf.buffer().len()));
    Opened::Text {
        buf,
        regular: false,
    }
}

/// The first bytes past the signature line, as the header is told from them.
pub(super) fn head(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.drain(..SIGNATURE.len().min(bytes.len()));
    bytes
}
