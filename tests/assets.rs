//! Every demo panel in assets/ is reproduced byte for byte by the command listed for it in
//! assets/commands.txt (and so is its families sidecar, where it has one).
#![cfg(feature = "cli")]

mod common;

use common::{root, run};

#[test]
fn every_asset_is_regenerated_byte_for_byte() {
    let list = std::fs::read_to_string(root().join("assets/commands.txt")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for line in list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], "rhoscope", "{line}");
        let o = words.iter().position(|w| *w == "-o").expect("-o FILE");
        let target = root().join(words[o + 1]);
        let fresh = dir.path().join(target.file_name().unwrap());
        let mut args: Vec<&str> = words[1..].to_vec();
        let fresh_str = fresh.to_str().unwrap().to_string();
        args[o] = &fresh_str;
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 0, "{line}: {}", r.stderr);
        assert!(
            std::fs::read(&target).unwrap() == std::fs::read(&fresh).unwrap(),
            "{} differs from a fresh run of: {line}",
            target.display()
        );
        let side = rhoscope::data::families_sidecar(&target);
        let fresh_side = rhoscope::data::families_sidecar(&fresh);
        assert_eq!(side.exists(), fresh_side.exists(), "{line}: sidecar");
        if side.exists() {
            assert_eq!(
                std::fs::read(side).unwrap(),
                std::fs::read(fresh_side).unwrap()
            );
        }
        checked += 1;
    }
    assert_eq!(
        checked,
        rhoscope::scenario::PRESETS.len(),
        "one asset per preset"
    );
}
