//! The fuzzer's pack seeds stay valid packs of this version: a stale seed
//! would only exercise the header check.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;

use kiai_content::pack::PACK_VERSION;
use kiai_content::{Content, Pack};

#[test]
fn every_pack_seed_decodes_and_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fuzz-corpus/pack");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        assert_eq!(
            version,
            PACK_VERSION,
            "{}: a seed of an older version; re-export it with `kiai export`",
            path.display()
        );
        Pack::decode(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}; re-export it with `kiai export`", path.display()));
        Content::from_pack_bytes(&bytes, &path.display().to_string())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        seen += 1;
    }
    assert!(seen >= 3, "only {seen} pack seeds");
}
