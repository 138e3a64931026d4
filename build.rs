//! Links `src/start/streams.c` into the rhoscope program (not the library): a C constructor
//! that notes which standard streams were closed at start, before Rust's runtime reopens them
//! on /dev/null, so a closed standard output is a failed write (exit 74), not a silent success.

fn main() {
    println!("cargo:rerun-if-changed=src/start/streams.c");
    if std::env::var_os("CARGO_CFG_UNIX").is_none() {
        return;
    }
    let objects = cc::Build::new()
        .file("src/start/streams.c")
        .warnings(true)
        .compile_intermediates();
    for object in objects {
        println!("cargo:rustc-link-arg-bins={}", object.display());
    }
}
