//! Saving content files: the file's own text kept, written atomically.
//!
//! [`save`] keeps what the file already says: comments, order and layout
//! stay as they are and only the values that changed are rewritten (see
//! [`crate::write`]). It never leaves a half-written file: it writes a temporary file in
//! the same directory, flushes it to disk (`fsync`), keeps the previous
//! version as `FILE.bak` (a hard link, or a copy where links are not
//! supported), and renames the temporary file over `FILE`, which is atomic
//! on one file system. A crash or kill at any point leaves `FILE` either
//! entirely old or entirely new (at worst a stray `.FILE.tmp-*` remains).

use std::io::Write;
use std::path::{Path, PathBuf};

use ron::ser::PrettyConfig;

use crate::format::def::ContentDef;
use crate::format::limits::MAX_FILE_BYTES;
use crate::pack::{PACK_MAGIC, Pack};
use crate::write::{Written, to_ron_preserving};

mod migrate;

pub use migrate::{TextMigration, migrate_text};

/// A pack as pretty RON, for people to read (`kiai export --format ron`).
pub fn pack_to_ron(pack: &Pack) -> Result<String, ron::Error> {
    let mut text = ron::ser::to_string_pretty(pack, pretty())?;
    text.push('\n');
    Ok(text)
}

fn pretty() -> PrettyConfig {
    PrettyConfig::new()
        .depth_limit(2)
        .indentor("    ".to_owned())
        .struct_names(false)
}

/// Saves `def` as RON at `path` atomically, keeping the previous file (if
/// any) as `path` + `.bak`. The file's current text is the base: its
/// comments and layout are kept and only what changed is rewritten; a new
/// file (or one that does not read as content) is written in the readable
/// layout of [`crate::to_ron`].
pub fn save(path: &Path, def: &ContentDef) -> std::io::Result<()> {
    save_preserving(path, None, def).map(|_| ())
}

/// Saves `def` at `path` like [`save`], keeping the text of `original`
/// (`None`: the file's current text, if any). Save-as passes the text of
/// the file the content came from, so a copy keeps its comments too.
/// Returns what was written.
pub fn save_preserving(
    path: &Path,
    original: Option<&str>,
    def: &ContentDef,
) -> std::io::Result<Written> {
    let current;
    let original = match original {
        Some(text) => text,
        None => {
            current = current_text(path);
            current.as_deref().unwrap_or("")
        }
    };
    let written = to_ron_preserving(original, def).map_err(std::io::Error::other)?;
    write_atomic(path, written.text.as_bytes(), true)?;
    Ok(written)
}

/// The text of the content file at `path`, if there is one to keep (not a
/// pack, not larger than content files may be, UTF-8).
fn current_text(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    if bytes.starts_with(&PACK_MAGIC) {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// `path` with `.bak` appended (`level.ron` -> `level.ron.bak`).
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename),
/// keeping the previous file as `path.bak` when `backup` is set.
pub fn write_atomic(path: &Path, bytes: &[u8], backup: bool) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other(format!("{} names no file", path.display())))?
        .to_string_lossy()
        .into_owned();
    let temp = |what: &str| dir.join(format!(".{name}.{what}-{}", std::process::id()));
    let tmp = temp("tmp");
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        if backup && path.exists() {
            // The backup also appears atomically: link (or copy) to a
            // temporary name, then rename over the old backup.
            let bak_tmp = temp("bak");
            let _ = std::fs::remove_file(&bak_tmp);
            if std::fs::hard_link(path, &bak_tmp).is_err() {
                std::fs::copy(path, &bak_tmp)?;
                std::fs::File::open(&bak_tmp)?.sync_all()?;
            }
            std::fs::rename(&bak_tmp, backup_path(path))?;
        }
        std::fs::rename(&tmp, path)?;
        // Make the renames durable; not every platform can open a directory.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_keeps_a_backup_and_writes_whole_files() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("level.ron");
        let def = crate::read::parse::parse("(format: 2, name: \"one\")", "t")?;
        save(&path, &def)?;
        assert!(!backup_path(&path).exists());
        let mut two = def.clone();
        two.name = "two".to_owned();
        save(&path, &two)?;
        assert_eq!(crate::load::Content::load(&path)?.into_def(), two);
        assert_eq!(
            crate::load::Content::load(&backup_path(&path))?.into_def(),
            def
        );
        let leftovers = std::fs::read_dir(dir.path())?.count();
        assert_eq!(leftovers, 2, "only the file and its backup");
        Ok(())
    }
}
