//! A mutation fuzzer for the content loader and the pack loader that runs on
//! stable Rust (cargo-fuzz needs nightly).
//!
//! ```sh
//! cargo run --release -p kiai-content --example fuzz -- --iterations 1000000
//! cargo run --release -p kiai-content --example fuzz -- --target pack --iterations 1000000 --seed 2
//! ```
//!
//! Inputs start from the seed corpus in `tests/fuzz-corpus/{ron,pack}` and
//! are mutated (bit flips, byte edits, range deletes and copies, splices
//! with other inputs, RON tokens; packs get their length and checksum
//! fixed up most of the time so mutations reach the decoder). Inputs that
//! produce a diagnostic not seen before join the corpus. A crash is a
//! panic (packs that load are also built and run for three ticks), or valid
//! content that does not survive save -> load and export -> pack decode
//! unchanged, or whose pack runs differently (state hash after two ticks).
//! Crashing inputs are written to `fuzz-crashes/` in cargo's target
//! directory (where this example's binary was built), or to `--crashes
//! DIR`. The process exits with status 1 if any crash was found.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use kiai_content::pack::{HEADER_BYTES, Pack};
use kiai_content::{Content, to_ron};

/// xorshift64*: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "format: 1",
    "format: 2",
    "format: 3",
    "Some(",
    "None",
    "NaN",
    "inf",
    "-inf",
    "-1.0",
    "0",
    "1e39",
    "4294967296",
    "-1",
    "costs: [1.0, 2.0]",
    "costs: {\"default\": 1.0}",
    "two_way: true",
    "//",
    "/*",
    "*/",
    "r#\"",
    "'",
    "\\",
    "Sphere(radius: 1.0)",
    "Cone(range: 1.0, fov_deg: 400.0)",
    "filter: Hostile",
    "filter: Friendly",
    "active: false",
    "hostile: [\"red\"]",
    "(id: 0, pos: (0.0, 0.0, 0.0))",
    "(from: 0, to: 0)",
    "archetype: \"guard\"",
    "faction: \"red\"",
    "\u{e9}",
    "\u{1F600}",
    "\n",
    "#![enable(implicit_some)]",
];

const NUMBERS: &[&str] = &[
    "0", "1", "2", "-1", "0.5", "-0.0", "7.25", "90.0", "360.0", "361.0", "1e10", "65", "4096",
    "99999", "1e-45", "NaN",
];

/// Replaces the number (run of digits) around a random position.
fn mutate_number(rng: &mut Rng, out: &mut Vec<u8>) {
    let len = out.len();
    if len == 0 {
        return;
    }
    let Some(at) = (0..64)
        .map(|_| rng.below(len))
        .find(|&i| out[i].is_ascii_digit())
    else {
        return;
    };
    let mut a = at;
    while a > 0 && (out[a - 1].is_ascii_digit() || out[a - 1] == b'.') {
        a -= 1;
    }
    let mut b = at;
    while b < len && (out[b].is_ascii_digit() || out[b] == b'.') {
        b += 1;
    }
    let with = NUMBERS[rng.below(NUMBERS.len())].as_bytes();
    out.splice(a..b, with.iter().copied());
}

fn mutate(rng: &mut Rng, input: &[u8], corpus: &[Vec<u8>], ron: bool, light: bool) -> Vec<u8> {
    let mut out = input.to_vec();
    if light && ron {
        // One small, mostly type-preserving edit: exercises validation,
        // save and pack round trips on content that still parses.
        match rng.below(3) {
            0 | 1 => mutate_number(rng, &mut out),
            _ => {
                let token = ["Hostile", "Friendly", "true", "false", "\"red\"", "\"x\""];
                let t = token[rng.below(token.len())].as_bytes();
                let len = out.len();
                if len > 0 {
                    let at = rng.below(len);
                    if let Some(end) = out[at..].iter().position(|&c| c == b',' || c == b')') {
                        let start = out[..at]
                            .iter()
                            .rposition(|&c| c == b':')
                            .map_or(at, |p| p + 1);
                        if start <= at + end {
                            out.splice(start..at + end, b" ".iter().chain(t).copied());
                        }
                    }
                }
            }
        }
        return out;
    }
    for _ in 0..1 + rng.below(4) {
        let len = out.len();
        match rng.below(if ron { 9 } else { 6 }) {
            8 => mutate_number(rng, &mut out),
            0 if len > 0 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                out[i] = rng.next() as u8;
            }
            2 => {
                let i = rng.below(len + 1);
                out.insert(i, rng.next() as u8);
            }
            3 if len > 0 => {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(16)).min(len);
                out.drain(a..b);
            }
            4 if len > 0 => {
                let a = rng.below(len);
                let b = (a + 1 + rng.below(64)).min(len);
                let piece = out[a..b].to_vec();
                let at = rng.below(len + 1);
                out.splice(at..at, piece);
            }
            5 if !corpus.is_empty() => {
                let other = &corpus[rng.below(corpus.len())];
                if !other.is_empty() {
                    let a = rng.below(other.len());
                    let b = (a + 1 + rng.below(256)).min(other.len());
                    let at = rng.below(len + 1);
                    out.splice(at..at, other[a..b].iter().copied());
                }
            }
            6 | 7 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let at = rng.below(len + 1);
                out.splice(at..at, token.iter().copied());
            }
            _ => {}
        }
    }
    out
}

/// Rewrites a mutated pack's length and checksum so the body is decoded.
fn fix_header(bytes: &mut [u8]) {
    if bytes.len() < HEADER_BYTES {
        return;
    }
    let body_len = (bytes.len() - HEADER_BYTES) as u64;
    let sum = xxh3(&bytes[HEADER_BYTES..]);
    bytes[16..24].copy_from_slice(&body_len.to_le_bytes());
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
}

/// The pack checksum (XXH3-64, as in `kiai_content::pack`).
fn xxh3(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// A crude "new behaviour" signal: the diagnostic with digits removed.
fn signature(message: &str) -> String {
    message
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .take(60)
        .collect()
}

/// Loads RON text; on success checks the save and pack round trips.
fn run_ron(bytes: &[u8]) -> Result<String, String> {
    let text = String::from_utf8_lossy(bytes);
    match Content::from_str(&text, "fuzz.ron") {
        Err(d) => Ok(d
            .0
            .first()
            .map(|d| signature(&d.message))
            .unwrap_or_default()),
        Ok(c) => {
            let world = hash_after_ticks(&c);
            let def = c.into_def();
            let saved = to_ron(&def).map_err(|e| format!("save failed: {e}"))?;
            let again = Content::from_str(&saved, "saved.ron")
                .map_err(|e| format!("saved content does not load:\n{e}\n{saved}"))?;
            if again.def() != Some(&def) {
                return Err(format!("save -> load changed the content:\n{saved}"));
            }
            let pack = Pack::from_def(&def).map_err(|e| format!("export failed: {e}"))?;
            let bytes = pack.encode().map_err(|e| format!("encode failed: {e}"))?;
            let decoded = Pack::decode(&bytes).map_err(|e| format!("decode failed: {e}"))?;
            if decoded != pack {
                return Err("pack round trip changed the pack".to_owned());
            }
            let from_pack = Content::from_pack(decoded, "fuzz.kpack")
                .map_err(|e| format!("exported pack does not load: {e}"))?;
            if hash_after_ticks(&from_pack) != world {
                return Err(format!(
                    "the pack runs differently from its content:\n{saved}"
                ));
            }
            Ok("ok".to_owned())
        }
    }
}

/// The state hash after two ticks of content's world, or the build error.
fn hash_after_ticks(content: &Content) -> Result<u64, String> {
    let mut world = content.world(None).map_err(|e| e.to_string())?;
    let mut pipeline = kiai_core::Pipeline::new();
    let mut decider = kiai_core::DefaultDecider::default();
    for _ in 0..2 {
        pipeline.tick(&mut world, &mut decider);
    }
    Ok(kiai_core::state_hash(&world))
}

/// Loads a pack's bytes as content (what `kiai` does with a pack file) and,
/// if they load, builds the navigation graph and the world and runs a few
/// ticks of it: a pack is not validated like text, so whatever passes its
/// checks must run.
fn run_pack(bytes: &[u8]) -> Result<String, String> {
    match Content::from_pack_bytes(bytes, "fuzz.kpack") {
        Err(d) => Ok(d
            .0
            .first()
            .map(|d| signature(&d.message))
            .unwrap_or_default()),
        Ok(c) => {
            let _ = c.nav();
            if let Ok(mut world) = c.world(None) {
                let mut pipeline = kiai_core::Pipeline::new();
                let mut decider = kiai_core::DefaultDecider::default();
                for _ in 0..3 {
                    pipeline.tick(&mut world, &mut decider);
                }
            }
            Ok("ok".to_owned())
        }
    }
}

fn load_corpus(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files.iter().filter_map(|f| std::fs::read(f).ok()).collect()
}

struct Options {
    iterations: u64,
    targets: Vec<String>,
    seed: u64,
    corpus: PathBuf,
    crashes: PathBuf,
}

/// `fuzz-crashes/` in the target directory this example was built in
/// (`TARGET/PROFILE/examples/fuzz`), wherever `CARGO_TARGET_DIR` put it;
/// next to the binary when it does not sit in such a layout.
fn default_crash_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let target = exe
        .parent()
        .filter(|dir| dir.ends_with("examples"))
        .and_then(Path::parent)
        .and_then(Path::parent);
    match target {
        Some(dir) => dir.join("fuzz-crashes"),
        None => exe.with_file_name("fuzz-crashes"),
    }
}

fn options() -> Result<Options, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut o = Options {
        iterations: 100_000,
        targets: vec!["ron".to_owned(), "pack".to_owned()],
        seed: 1,
        corpus: root.join("tests/fuzz-corpus"),
        crashes: default_crash_dir(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--iterations" => o.iterations = value()?.parse().map_err(|e| format!("{e}"))?,
            "--seed" => o.seed = value()?.parse().map_err(|e| format!("{e}"))?,
            "--target" => {
                let t = value()?;
                o.targets = match t.as_str() {
                    "all" => vec!["ron".to_owned(), "pack".to_owned()],
                    "ron" | "pack" => vec![t],
                    _ => return Err(format!("unknown target {t}: ron, pack or all")),
                }
            }
            "--corpus" => o.corpus = PathBuf::from(value()?),
            "--crashes" => o.crashes = PathBuf::from(value()?),
            "-h" | "--help" => {
                return Err("usage: fuzz [--iterations N] [--target ron|pack|all] [--seed S] [--corpus DIR] [--crashes DIR]".to_owned());
            }
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    Ok(o)
}

fn main() -> std::process::ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    std::panic::set_hook(Box::new(|_| {}));
    let crash_dir = o.crashes.clone();
    let mut total_crashes = 0u64;
    for target in &o.targets {
        let ron = target == "ron";
        let mut corpus = load_corpus(&o.corpus.join(target));
        if corpus.is_empty() {
            eprintln!("no seed corpus in {}", o.corpus.join(target).display());
            return std::process::ExitCode::FAILURE;
        }
        let seeds = corpus.len();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut rng = Rng(o.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let (mut crashes, mut oks) = (0u64, 0u64);
        let start = Instant::now();
        for i in 0..o.iterations {
            // Half the time one light edit of a seed, else heavy edits of
            // anything in the corpus.
            let light = rng.below(2) == 0;
            let parent = &corpus[rng.below(if light { seeds } else { corpus.len() })];
            let mut input = mutate(&mut rng, parent, &corpus, ron, light);
            if !ron && rng.below(10) != 0 {
                fix_header(&mut input);
            }
            let run = if ron { run_ron } else { run_pack };
            let outcome = catch_unwind(AssertUnwindSafe(|| run(&input)));
            let failure = match outcome {
                Ok(Ok(sig)) => {
                    if sig == "ok" {
                        oks += 1;
                    }
                    if seen.insert(sig) && input.len() < 64 * 1024 && corpus.len() < 4096 {
                        corpus.push(input.clone());
                    }
                    None
                }
                Ok(Err(property)) => Some(property),
                Err(panic) => Some(
                    panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                        .unwrap_or_else(|| "panic".to_owned()),
                ),
            };
            if let Some(why) = failure {
                crashes += 1;
                let _ = std::fs::create_dir_all(&crash_dir);
                let path = crash_dir.join(format!("{target}-{i}"));
                let _ = std::fs::write(&path, &input);
                eprintln!(
                    "crash {crashes} at execution {i}: {why} (input: {})",
                    path.display()
                );
            }
            if (i + 1) % 200_000 == 0 {
                eprintln!(
                    "{target}: {} executions, {:.0}/s, corpus {}, crashes {crashes}",
                    i + 1,
                    (i + 1) as f64 / start.elapsed().as_secs_f64(),
                    corpus.len()
                );
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "target={target} executions={} crashes={crashes} valid={oks} seeds={seeds} corpus={} seconds={secs:.1} per_second={:.0}",
            o.iterations,
            corpus.len(),
            o.iterations as f64 / secs.max(1e-9)
        );
        total_crashes += crashes;
    }
    if total_crashes > 0 {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
