//! Where an archetype's `script` names a file: resolved against the
//! content file's directory, and written the shortest way that names the
//! same file, so that diagnostics say `scripts/guard.lua` rather than
//! `content/demo/../../scripts/guard.lua`.

use std::path::{Component, Path, PathBuf};

/// The file `script` (as written in content) names, relative to `dir` (the
/// content file's directory): `dir.join(script)` with `.` and `name/..`
/// taken out, when that names the same directory (it does not when a
/// directory before a `..` is a symbolic link; the joined path is kept
/// then, as it is when the directory does not exist).
pub fn script_path(dir: &Path, script: &str) -> PathBuf {
    let joined = dir.join(script);
    let short = lexically_normal(&joined);
    if short == joined {
        return joined;
    }
    let parent = |p: &Path| match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match (
        parent(&joined).canonicalize(),
        parent(&short).canonicalize(),
    ) {
        (Ok(a), Ok(b)) if a == b => short,
        _ => joined,
    }
}

/// `path` with `.` components dropped and each `name/..` pair removed,
/// without asking the file system (leading `..`s and a root stay; `.` for
/// nothing left). Where a directory before a `..` is a symbolic link, the
/// result names another file: check on disk before opening it
/// ([`script_path`] does).
pub fn lexically_normal(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            Component::ParentDir
                if matches!(out.last(), Some(Component::RootDir | Component::Prefix(_))) => {}
            c => out.push(c),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

#[cfg(test)]
#[allow(clippy::expect_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    #[test]
    fn names_and_dots_cancel_without_the_file_system() {
        let n = |s: &str| lexically_normal(Path::new(s));
        assert_eq!(
            n("content/demo/../../scripts/a.lua"),
            Path::new("scripts/a.lua")
        );
        assert_eq!(n("./a/./b.lua"), Path::new("a/b.lua"));
        assert_eq!(n("../x/../y.lua"), Path::new("../y.lua"));
        assert_eq!(n("/a/../../b"), Path::new("/b"));
        assert_eq!(n("a/.."), Path::new("."));
    }

    #[test]
    fn a_script_beside_the_content_keeps_its_path_and_a_climb_is_shortened() {
        let root = tempfile::tempdir().expect("temp dir");
        let (content, scripts) = (
            root.path().join("content/demo"),
            root.path().join("scripts"),
        );
        std::fs::create_dir_all(&content).expect("dirs");
        std::fs::create_dir_all(&scripts).expect("dirs");
        assert_eq!(script_path(&content, "g.lua"), content.join("g.lua"));
        assert_eq!(
            script_path(&content, "../../scripts/g.lua"),
            scripts.join("g.lua")
        );
    }

    #[cfg(unix)]
    #[test]
    fn through_a_symbolic_link_the_joined_path_is_kept() {
        let root = tempfile::tempdir().expect("temp dir");
        let (real, link) = (root.path().join("deep/real"), root.path().join("link"));
        std::fs::create_dir_all(&real).expect("dirs");
        std::fs::create_dir_all(root.path().join("deep/scripts")).expect("dirs");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        // `link/../scripts` is `deep/scripts` on disk, not `root/scripts`.
        let got = script_path(&link, "../scripts/g.lua");
        assert_eq!(got, link.join("../scripts/g.lua"));
    }
}
