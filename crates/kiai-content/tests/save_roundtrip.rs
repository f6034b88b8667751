//! Load -> save -> load is the identity for every content file in the
//! repository (and for the format-1 copy under tests/data, which saves as
//! format 2).

use std::path::{Path, PathBuf};

use kiai_content::{Content, save, to_ron};

fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ron_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ron")
            && !p.to_string_lossy().ends_with(".events.ron")
        {
            // Events files (`*.events.ron`) are RON but not content.
            out.push(p);
        }
    }
}

#[test]
fn load_save_load_is_identity() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    ron_files(&root.join("content"), &mut files);
    files.push(root.join("tests/data/village_v1.ron"));
    assert!(files.len() >= 3, "{files:?}");
    let dir = tempfile::tempdir()?;
    for (i, file) in files.iter().enumerate() {
        let first = Content::load(file)?.into_def();
        // A new file each time: saved in the readable layout.
        let saved = dir.path().join(format!("saved-{i}.ron"));
        save(&saved, &first)?;
        // Parse the saved text as if it stood where the original does, so
        // relative script paths still resolve.
        let second = Content::from_str(
            &std::fs::read_to_string(&saved)?,
            &file.display().to_string(),
        )?;
        assert_eq!(Some(&first), second.def(), "{}", file.display());
        assert!(second.migrated_from.is_none());
        // Saving is stable: the same definitions give the same text.
        assert_eq!(to_ron(&first)?, std::fs::read_to_string(&saved)?);
    }
    Ok(())
}

/// Packs encode some content types with postcard, which needs every field:
/// those types must not skip defaults when serialising (the text writer
/// leaves them out itself). Every demo's pack decodes to the same pack.
#[test]
fn every_demo_pack_decodes_to_itself() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    ron_files(&root.join("content"), &mut files);
    for file in files {
        let pack = Content::load(&file)?.to_pack()?;
        let back = kiai_content::Pack::decode(&pack.encode()?)?;
        assert_eq!(back, pack, "{}", file.display());
    }
    Ok(())
}
