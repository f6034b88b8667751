//! Lua scripting: everything of `kiai-lua`, plus the one place that gives
//! each scripted archetype of some content its script.
//!
//! ```
//! let content = kiai::content::Content::load("../../content/demo/guards.ron".as_ref())?;
//! let (decider, errors) = kiai::lua::decider_for(&content, kiai::lua::Limits::default());
//! assert!(errors.is_empty(), "{errors:?}");
//! let mut decider = decider.expect("guards.ron has scripted archetypes");
//! let mut world = content.world(None)?;
//! kiai::core::Pipeline::new().tick(&mut world, &mut decider);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use kiai_content::def::ContentDef;
use kiai_content::{Content, ScriptRef};
use kiai_core::ArchetypeId;
pub use kiai_lua::*;

/// A [`LuaDecider`] under `limits` deciding for every archetype of `content`
/// that names a script, or `None` when none does; and the scripts that did
/// not load (`script:line: message`).
///
/// A script comes from the text bundled in the pack when `content` was
/// loaded from one, else from its file (resolved against the content file's
/// directory, so [`ScriptWatcher`] can watch it). An archetype whose script
/// did not load decides with the Rust default until a reload succeeds.
pub fn decider_for(content: &Content, limits: Limits) -> (Option<LuaDecider>, Vec<ScriptError>) {
    decider_for_scripts(&content.scripts(), limits)
}

/// [`decider_for`] over a list of scripts ([`Content::scripts`], or
/// [`document_scripts`] for content being edited). Archetypes naming the
/// same script share one Lua state, bundled or not.
pub fn decider_for_scripts(
    scripts: &[ScriptRef],
    limits: Limits,
) -> (Option<LuaDecider>, Vec<ScriptError>) {
    if scripts.is_empty() {
        return (None, Vec::new());
    }
    let mut decider = LuaDecider::new(limits);
    let mut errors = Vec::new();
    let mut loaded: BTreeMap<&Path, ScriptId> = BTreeMap::new();
    for s in scripts {
        let id = match loaded.get(s.path.as_path()) {
            Some(&id) => id,
            None => {
                let (id, result) = match &s.bundled {
                    Some(text) => decider.load_source(&s.path.display().to_string(), text),
                    None => decider.load_file(&s.path),
                };
                if let Err(e) = result {
                    errors.push(e);
                }
                loaded.insert(&s.path, id);
                id
            }
        };
        decider.assign(ArchetypeId::from_index(s.index), id);
    }
    (Some(decider), errors)
}

/// The scripts of content being edited: `def`'s archetypes that name a
/// script, with the script's file resolved against `dir` (the directory
/// of the content file) as [`Content::scripts`] resolves them; nothing is
/// bundled.
pub fn document_scripts(def: &ContentDef, dir: &Path) -> Vec<ScriptRef> {
    def.archetypes
        .iter()
        .enumerate()
        .filter_map(|(index, (name, a))| {
            Some(ScriptRef {
                index,
                archetype: name.to_owned(),
                path: kiai_content::script_path(dir, a.script.as_deref()?),
                bundled: None,
            })
        })
        .collect()
}
