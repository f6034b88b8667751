//! The lua-language-server definitions: they declare every function the
//! API registers and every hook, they are valid Lua that a Lua parser
//! accepts, and the copy shipped in `scripts/` is the current one.
//!
//! lua-language-server itself is not packaged for Debian or npm, so the
//! parser check uses PyPI's `luaparser` (`pip install luaparser`; CI
//! installs it) besides kiai's own Lua compiler. Without it the check says
//! on the terminal that it was skipped and how to run it; with the `CI`
//! environment variable set, it fails instead.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use kiai_lua::{HOOKS, On, api_functions, lua_defs};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Every function the definitions must declare, as `owner.name` (agent
/// methods as `Agent:name`, hooks bare).
fn expected() -> BTreeSet<String> {
    let mut names: BTreeSet<String> = api_functions()
        .map(|f| match f.on {
            On::Agent => format!("Agent:{}", f.name),
            On::Kiai => format!("kiai.{}", f.name),
            On::Math => format!("math.{}", f.name),
        })
        .collect();
    names.extend(HOOKS.iter().map(|h| h.name.to_owned()));
    names
}

#[test]
fn the_definitions_declare_every_registered_function_and_hook() {
    let defs = lua_defs();
    assert!(defs.starts_with("---@meta"), "{}", &defs[..40]);
    let declared: BTreeSet<String> = defs
        .lines()
        .filter_map(|l| l.strip_prefix("function "))
        .map(|l| l.split('(').next().unwrap().to_owned())
        .collect();
    assert_eq!(declared, expected());
    for class in [
        "@class kiai.Agent",
        "@class kiai.Ctx",
        "@class kiai.Intent",
        "@class kiai\n",
    ] {
        assert!(defs.contains(class), "no {class}");
    }
    // Each stub's parameters are the ones its `---@param` lines name.
    let lines: Vec<&str> = defs.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(sig) = line.strip_prefix("function ") else {
            continue;
        };
        let args = sig.split_once('(').unwrap().1.trim_end_matches(") end");
        let args: Vec<&str> = args.split(", ").filter(|a| !a.is_empty()).collect();
        let params: Vec<&str> = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.starts_with("---"))
            .filter_map(|l| l.strip_prefix("---@param "))
            .map(|p| p.split(' ').next().unwrap().trim_end_matches('?'))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        assert_eq!(args, params, "{line}");
    }
}

#[test]
fn the_shipped_definitions_are_current_and_luarc_points_at_them() {
    let shipped = std::fs::read_to_string(root().join("scripts/kiai.d.lua")).unwrap();
    assert!(
        shipped == lua_defs(),
        "scripts/kiai.d.lua is out of date: run `kiai lua-defs -o scripts/kiai.d.lua`"
    );
    let luarc = std::fs::read_to_string(root().join("scripts/.luarc.json")).unwrap();
    assert!(
        luarc.contains(r#""workspace.library": ["kiai.d.lua"]"#),
        "{luarc}"
    );
    assert!(luarc.contains(r#""runtime.version": "Lua 5.4""#), "{luarc}");
}

#[test]
fn the_definitions_compile_as_lua() {
    kiai_lua::check_syntax("kiai.d.lua", &lua_defs()).unwrap();
}

/// What the Python checker prints: the declared functions, one per line,
/// as luaparser's syntax tree has them.
const LUAPARSER_CHECK: &str = r#"
import sys
from luaparser import ast, astnodes
tree = ast.parse(open(sys.argv[1]).read())
def name(n):
    if isinstance(n, astnodes.Name): return n.id
    if isinstance(n, astnodes.Index): return name(n.value) + "." + name(n.idx)
    return "?"
for node in ast.walk(tree):
    if isinstance(node, astnodes.Method):
        print(name(node.source) + ":" + name(node.name))
    elif isinstance(node, astnodes.Function):
        print(name(node.name))
"#;

/// Why the luaparser check cannot run here, if it cannot: python3 or its
/// luaparser package is missing.
fn luaparser_missing() -> Option<&'static str> {
    let runs = |args: &[&str]| {
        Command::new("python3")
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !runs(&["--version"]) {
        Some("python3 is not installed")
    } else if !runs(&["-c", "import luaparser"]) {
        Some("python3 has no luaparser package")
    } else {
        None
    }
}

#[test]
fn luaparser_parses_the_definitions() {
    if let Some(why) = luaparser_missing() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run this check, but {why}: python3 -m pip install luaparser"
        );
        // Straight to the terminal: `eprintln!` inside a passing test is
        // captured by the test harness, and a skip must not pass silently.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "luaparser_parses_the_definitions: SKIPPED, {why}. To run it: \
             `python3 -m pip install luaparser` (with CI set, a missing luaparser fails)."
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kiai.d.lua");
    std::fs::write(&file, lua_defs()).unwrap();
    let out = Command::new("python3")
        .args(["-c", LUAPARSER_CHECK])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "luaparser rejected the definitions: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parsed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(parsed, expected());
}
