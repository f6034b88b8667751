//! Files: opening content into a document, the recovery file's place,
//! completing typed paths, and the list of recently opened files.

use std::path::{Path, PathBuf};

use super::analysis::{self, Finding};
use super::doc::{Document, empty_def};

/// How many recent files File → Open Recent lists.
pub const RECENT_MAX: usize = 10;

/// Opens `path`: content that parses opens even with validation errors
/// (they are listed); content that does not parse opens an untitled empty
/// document and lists why. A path that does not exist starts an empty
/// document that saves there (what `kiai-editor NEW.ron` does; File →
/// Open refuses missing files first, see [`check_open`]).
pub fn open_document(path: &Path) -> (Document, Vec<Finding>) {
    let file = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return (Document::new(empty_def(), Some(path.into())), Vec::new());
        }
        Err(e) => {
            let d = kiai_content::Diagnostic::error(
                &file,
                kiai_content::Pos { line: 1, column: 1 },
                format!("cannot read the file: {e}"),
            );
            return (
                Document::untitled(),
                vec![Finding {
                    diagnostic: d,
                    target: None,
                }],
            );
        }
    };
    let findings = analysis::check_text(&text, &file);
    match kiai_content::parse(&text, &file) {
        Ok(def) => (Document::new(def, Some(path.into())), findings),
        Err(_) => (Document::untitled(), findings),
    }
}

/// Whether File → Open may open `path`: it must be an existing file. The
/// error says what to do instead.
pub fn check_open(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(format!(
            "{} is a folder, not a content file: type or pick a .ron file in it",
            path.display()
        )),
        Err(_) => Err(format!(
            "{} does not exist. To start a new map there, use File -> New, then Save as.",
            path.display()
        )),
    }
}

/// Where unsaved changes of the document at `path` are autosaved:
/// `level.ron` → `level.ron.recovery`; an untitled document's go to
/// `untitled.ron.recovery` in `data_dir`.
pub fn recovery_path(path: Option<&Path>, data_dir: &Path) -> PathBuf {
    match path {
        Some(p) => {
            let mut name = p.as_os_str().to_owned();
            name.push(".recovery");
            PathBuf::from(name)
        }
        None => data_dir.join("untitled.ron.recovery"),
    }
}

/// `path` written as a person would: `.` and `..` folded where the path
/// allows it (`content/demo/../../scripts/guard.lua` →
/// `scripts/guard.lua`), without touching the file system.
pub fn tidy(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

/// What Tab does in a path prompt: the completed text and the names that
/// match what was typed (files with `extension` and folders, sorted).
/// One match completes fully (a folder gets a trailing separator); several
/// complete to their longest common prefix.
pub fn complete(typed: &str, extension: &str) -> (String, Vec<String>) {
    let (dir, stem) = match typed.rfind(std::path::MAIN_SEPARATOR) {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let listing = if dir.is_empty() { "." } else { dir };
    let Ok(entries) = std::fs::read_dir(listing) else {
        return (typed.to_owned(), Vec::new());
    };
    let mut matches: Vec<(String, bool)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            let fits = is_dir
                || Path::new(&name)
                    .extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case(extension));
            (name.starts_with(stem) && fits && !name.starts_with('.')).then_some((name, is_dir))
        })
        .collect();
    matches.sort();
    let names: Vec<String> = matches
        .iter()
        .map(|(n, d)| {
            if *d {
                format!("{n}{}", std::path::MAIN_SEPARATOR)
            } else {
                n.clone()
            }
        })
        .collect();
    let completed = match names.as_slice() {
        [] => typed.to_owned(),
        [one] => format!("{dir}{one}"),
        many => {
            let first = &many[0];
            let common = many.iter().skip(1).fold(first.len(), |len, n| {
                first
                    .chars()
                    .zip(n.chars())
                    .take_while(|(a, b)| a == b)
                    .count()
                    .min(len)
            });
            let prefix: String = first.chars().take(common).collect();
            format!("{dir}{prefix}")
        }
    };
    (completed, names)
}

/// The recently opened files, newest first, without duplicates.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Recent(pub Vec<PathBuf>);

impl Recent {
    /// Puts `path` first (absolute when it can be made so).
    pub fn touch(&mut self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.0.retain(|p| *p != path);
        self.0.insert(0, path);
        self.0.truncate(RECENT_MAX);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    #[test]
    fn tidy_folds_dots_like_a_person_would() {
        assert_eq!(
            tidy(Path::new("content/demo/../../scripts/guard.lua")),
            PathBuf::from("scripts/guard.lua")
        );
        assert_eq!(
            tidy(Path::new("/a/b/./../c.lua")),
            PathBuf::from("/a/c.lua")
        );
        assert_eq!(tidy(Path::new("../x.lua")), PathBuf::from("../x.lua"));
    }

    #[test]
    fn tab_completes_one_match_fully_and_several_to_their_common_prefix() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["guards.ron", "guild.ron", "village.ron", "notes.txt"] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("gutter")).unwrap();
        let base = format!("{}{}", dir.path().display(), std::path::MAIN_SEPARATOR);
        let (text, names) = complete(&format!("{base}v"), "ron");
        assert_eq!(text, format!("{base}village.ron"));
        assert_eq!(names, vec!["village.ron"]);
        let (text, names) = complete(&format!("{base}gu"), "ron");
        assert_eq!(text, format!("{base}gu"));
        assert_eq!(
            names,
            vec![
                "guards.ron".to_owned(),
                "guild.ron".to_owned(),
                format!("gutter{}", std::path::MAIN_SEPARATOR)
            ]
        );
        let (text, _) = complete(&format!("{base}gua"), "ron");
        assert_eq!(text, format!("{base}guards.ron"));
        let (text, names) = complete(&format!("{base}n"), "ron");
        assert_eq!(
            (text.as_str(), names.len()),
            (format!("{base}n").as_str(), 0)
        );
    }

    #[test]
    fn a_missing_file_is_refused_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let e = check_open(&dir.path().join("nope.ron")).unwrap_err();
        assert!(
            e.contains("does not exist") && e.contains("File -> New"),
            "{e}"
        );
        assert!(check_open(dir.path()).unwrap_err().contains("is a folder"));
    }

    #[test]
    fn recent_files_are_newest_first_without_duplicates() {
        let mut r = Recent::default();
        for p in ["/a.ron", "/b.ron", "/a.ron"] {
            r.touch(Path::new(p));
        }
        assert_eq!(r.0, vec![PathBuf::from("/a.ron"), PathBuf::from("/b.ron")]);
    }
}
