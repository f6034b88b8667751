//! Writing content: pretty RON in a stable order, saved atomically.
//!
//! [`save`] never leaves a half-written file: it writes a temporary file in
//! the same directory, flushes it to disk (`fsync`), keeps the previous
//! version as `FILE.bak` (a hard link, or a copy where links are not
//! supported), and renames the temporary file over `FILE`, which is atomic
//! on one file system. A crash or kill at any point leaves `FILE` either
//! entirely old or entirely new (at worst a stray `.FILE.tmp-*` remains).

use std::io::Write;
use std::path::{Path, PathBuf};

use ron::ser::PrettyConfig;

use crate::def::ContentDef;
use crate::pack::Pack;

/// Content as pretty RON: fields in declaration order, maps in file order,
/// fields that hold their default value left out, one list element per
/// line. Parsing the result gives back the same [`ContentDef`].
pub fn to_ron(def: &ContentDef) -> Result<String, ron::Error> {
    let mut text = ron::ser::to_string_pretty(def, pretty())?;
    text.push('\n');
    Ok(text)
}

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
/// any) as `path` + `.bak`.
pub fn save(path: &Path, def: &ContentDef) -> std::io::Result<()> {
    let text = to_ron(def).map_err(std::io::Error::other)?;
    write_atomic(path, text.as_bytes(), true)
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
        let def = crate::parse("(format: 2, name: \"one\")", "t")?;
        save(&path, &def)?;
        assert!(!backup_path(&path).exists());
        let mut two = def.clone();
        two.name = "two".to_owned();
        save(&path, &two)?;
        assert_eq!(crate::Content::load(&path)?.into_def(), two);
        assert_eq!(crate::Content::load(&backup_path(&path))?.into_def(), def);
        let leftovers = std::fs::read_dir(dir.path())?.count();
        assert_eq!(leftovers, 2, "only the file and its backup");
        Ok(())
    }
}
