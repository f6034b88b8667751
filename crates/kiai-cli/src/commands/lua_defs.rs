//! `kiai lua-defs`: the lua-language-server definition file for kiai's
//! script API, generated from the registry that installs the functions.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

/// `kiai lua-defs`' flags.
#[derive(Args)]
pub(crate) struct LuaDefsArgs {
    /// Write the definitions to FILE (replacing it) instead of stdout.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print one JSON object instead: {"out","bytes","functions","hooks"},
    /// plus "defs" (the text) when there is no --out.
    #[arg(long)]
    json: bool,
}

/// How to point lua-language-server at the file, shown by `--help`.
pub(crate) const AFTER_HELP: &str = "Examples:\n  \
    kiai lua-defs -o scripts/kiai.d.lua\n\n\
    Then, next to your scripts, a .luarc.json tells lua-language-server (VS Code's\n\
    \"Lua\" extension, Neovim's lua_ls) to read it:\n  \
    {\n    \"runtime.version\": \"Lua 5.4\",\n    \"workspace.library\": [\"kiai.d.lua\"]\n  }";

/// Writes the definitions to `--out` (atomically: a temporary file renamed
/// over it) or prints them.
pub(crate) fn run(args: &LuaDefsArgs) -> anyhow::Result<ExitCode> {
    let defs = kiai_lua::lua_defs();
    let mut report = serde_json::json!({
        "out": args.out.as_ref().map(|p| p.display().to_string()),
        "bytes": defs.len(),
        "functions": kiai_lua::api_functions().count(),
        "hooks": kiai_lua::HOOKS.len(),
    });
    let Some(out) = &args.out else {
        if args.json {
            report["defs"] = defs.into();
            println!("{report}");
        } else {
            print!("{defs}");
        }
        return Ok(ExitCode::SUCCESS);
    };
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp",
        out.file_name()
            .map_or_else(|| "kiai.d.lua".into(), |n| n.to_string_lossy().into_owned())
    ));
    std::fs::write(&tmp, &defs)
        .with_context(|| format!("cannot write {} (does the directory exist?)", tmp.display()))?;
    std::fs::rename(&tmp, out).with_context(|| format!("cannot replace {}", out.display()))?;
    if args.json {
        println!("{report}");
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "wrote {} ({} lines); point .luarc.json's \"workspace.library\" at it",
        out.display(),
        defs.lines().count()
    );
    Ok(ExitCode::SUCCESS)
}
