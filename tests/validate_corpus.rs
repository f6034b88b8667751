//! `kiai validate` on the malformed-content corpus in `tests/malformed/`:
//! each file's diagnostics must equal its `.expected` file exactly, every
//! line must be `file:line:col: error: message`, and the exit status is 1.
//! Good files (the demos) exit 0.

mod common;

use common::{kiai, root};

fn corpus() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/malformed"))
        .unwrap_or_else(|e| panic!("no corpus: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron"))
        .map(|n| format!("tests/malformed/{n}"))
        .collect();
    files.sort();
    files
}

/// `file:line:col: error: message` with the given file.
fn is_diagnostic_line(line: &str, file: &str) -> bool {
    let Some(rest) = line.strip_prefix(&format!("{file}:")) else {
        return false;
    };
    let mut parts = rest.splitn(3, ':');
    let (Some(l), Some(c), Some(tail)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    l.parse::<u32>().is_ok_and(|l| l >= 1)
        && c.parse::<u32>().is_ok_and(|c| c >= 1)
        && (tail.starts_with(" error: ") || tail.starts_with(" warning: "))
}

#[test]
fn corpus_is_large_enough() {
    assert!(corpus().len() >= 40, "{} files", corpus().len());
}

#[test]
fn every_malformed_file_gets_its_expected_diagnostics() {
    for file in corpus() {
        let out = kiai(&["validate", &file]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let expected = std::fs::read_to_string(root().join(file.replace(".ron", ".expected")))
            .unwrap_or_else(|e| panic!("{file}: no .expected file: {e}"));
        assert_eq!(stdout, expected, "{file}");
        assert_eq!(out.status.code(), Some(1), "{file}: exit status");
        assert!(!stdout.is_empty(), "{file}: no diagnostics");
        for line in stdout.lines() {
            assert!(is_diagnostic_line(line, &file), "{file}: bad line {line:?}");
        }
        assert!(stdout.contains(": error: "), "{file}: no error");
    }
}

#[test]
fn three_independent_mistakes_give_three_errors_at_once() {
    let file = "tests/malformed/19_three_mistakes.ron";
    let out = kiai(&["validate", file]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let errors: Vec<&str> = stdout.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(errors.len(), 3, "{stdout}");
    assert_eq!(out.status.code(), Some(1));
    // Each names its own line.
    let lines: Vec<&str> = errors
        .iter()
        .map(|l| l.split(':').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(lines, ["4", "6", "8"]);
}

#[test]
fn json_diagnostics_name_file_line_and_column() {
    let out = kiai(&[
        "validate",
        "--json",
        "tests/malformed/19_three_mistakes.ron",
        "tests/malformed/01_unknown_archetype.ron",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["ok"], false);
    let ds = v["diagnostics"].as_array().cloned().unwrap_or_default();
    assert_eq!(ds.len(), 4);
    assert_eq!(ds[3]["file"], "tests/malformed/01_unknown_archetype.ron");
    assert_eq!(ds[3]["line"], 5);
    assert_eq!(ds[3]["column"], 37);
    assert_eq!(ds[3]["severity"], "error");
    assert_eq!(
        ds[3]["message"],
        "unknown archetype `gaurd`; did you mean `guard`?"
    );
}

#[test]
fn demo_content_validates() {
    let mut demos: Vec<String> = std::fs::read_dir(root().join("content/demo"))
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok())
        .map(|e| format!("content/demo/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".ron"))
        .collect();
    demos.sort();
    assert!(!demos.is_empty());
    let mut args = vec!["validate", "--json"];
    args.extend(demos.iter().map(String::as_str));
    let out = kiai(&args);
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn missing_file_is_a_diagnostic_not_a_crash() {
    let out = kiai(&["validate", "tests/malformed/does_not_exist.ron"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("tests/malformed/does_not_exist.ron:1:1: error: cannot read"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A deterministic stream of printable ASCII "garbage" (xorshift).
fn garbage(len: usize, mut state: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push(b' ' + (state % 95) as u8);
    }
    out
}

#[test]
fn fifty_megabytes_of_garbage_is_one_diagnostic() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("garbage.ron");
    std::fs::write(&file, garbage(50 * 1024 * 1024, 0x9E37_79B9_7F4A_7C15))
        .unwrap_or_else(|e| panic!("{e}"));
    let name = file.to_string_lossy().into_owned();
    let out = kiai(&["validate", &name]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{name}:1:102910: error: nesting deeper than 64 levels\n")
    );
    // Garbage of the same size that is not text at all.
    let mut bytes = garbage(50 * 1024 * 1024, 7);
    bytes[1000] = 0xFF;
    std::fs::write(&file, bytes).unwrap_or_else(|e| panic!("{e}"));
    let out = kiai(&["validate", &name]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{name}:1:1001: error: file is not valid UTF-8 text\n")
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("huge.ron");
    let f = std::fs::File::create(&file).unwrap_or_else(|e| panic!("{e}"));
    f.set_len(65 * 1024 * 1024)
        .unwrap_or_else(|e| panic!("{e}"));
    let name = file.to_string_lossy().into_owned();
    let out = kiai(&["validate", &name]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "{name}:1:1: error: file is 68157440 bytes; content files are limited to 67108864 bytes\n"
        )
    );
}
