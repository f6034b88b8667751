//! The import scanner: which top-level modules of a crate each top-level
//! module imports, where, and whether that makes a circle or runs up a
//! layer order.
//!
//! A crate's **top-level modules** are the files and folders directly
//! under its `src/` (`fog.rs` and `fog/` are both `fog`); the crate roots
//! `lib.rs` and `main.rs` (which see everything) and `src/bin/` (other
//! crates) are not modules. A module **imports** another when its code
//! names it through
//! * a `crate::` path (`crate::storage::Planes`, `crate::{a, b::c}` groups
//!   too, across lines),
//! * a `super::` or `self::` path that resolves to another top-level
//!   module (`super::x` in `fog.rs`, `super::super::x` in `fog/units.rs`;
//!   inline `mod tests { … }` blocks are followed), or
//! * a name the crate root brings into scope from that module
//!   (`crate::FogGrid` when `lib.rs` says `pub use fog::FogGrid`: the
//!   re-export hides the import but not the dependency).
//!
//! Comments, strings and `$crate::` in macros are not imports. Doc links
//! are read only with [`Options::doc_links`].
//!
//! ```
//! use kiai_tidy::imports::{ModuleGraph, circles};
//!
//! let graph = ModuleGraph::from_sources(&[
//!     ("lib.rs", "mod build; mod load; pub use load::Loaded;"),
//!     ("load.rs", "use crate::build::Built;\npub struct Loaded;"),
//!     ("build/mod.rs", "use crate::Loaded; // via the root's re-export"),
//! ]);
//! assert_eq!(circles(&graph), [vec!["build".to_owned(), "load".to_owned()]]);
//! assert_eq!(
//!     graph.back_imports(&[&["load"], &["build"]]),
//!     ["load -> build: load.rs:1 imports a higher layer"]
//! );
//! ```

mod lexer;
mod paths;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Deref;
use std::path::Path;

use crate::files::rust_files;

/// What the scanner reads besides code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Count `crate::` paths in doc comments (`///`, `//!`), as intra-doc
    /// links, too. Plain `//` comments never count.
    pub doc_links: bool,
}

/// One import of a top-level module by a file of another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Import {
    /// The importing file, relative to `src/`, with `/` separators.
    pub file: String,
    /// The 1-based line of the path.
    pub line: usize,
    /// The top-level module the file belongs to.
    pub from: String,
    /// The top-level module imported, or [`ROOT`] for an item the crate
    /// root defines itself (or brings in from outside the crate).
    pub to: String,
}

/// The name [`Import::to`] gives the crate root (`lib.rs`, `main.rs`).
pub const ROOT: &str = "crate";

/// The top-level module graph of one crate, with where each edge comes
/// from.
///
/// Dereferences to the plain graph, `BTreeMap<module, modules it
/// imports>`: every top-level module is a key (with an empty set if it
/// imports nothing), a module never lists itself, and the crate root
/// ([`ROOT`]) is never a key or a value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleGraph {
    edges: BTreeMap<String, BTreeSet<String>>,
    imports: Vec<Import>,
}

/// Panics, listing every problem, unless the crate whose manifest folder
/// is `crate_dir` imports one way through `layers` (see
/// [`ModuleGraph::layer_problems`]): the body of a crate's layering test.
pub fn assert_layered(crate_dir: &Path, layers: &[&[&str]], options: Options) {
    let graph = ModuleGraph::read(&crate_dir.join("src"), options);
    let bad = graph.layer_problems(layers);
    assert!(bad.is_empty(), "layering broken:\n{}", bad.join("\n"));
}

/// The graph of the crate whose sources are under `src` (a crate's
/// `src/` folder), reading code only. Panics if `src` cannot be read (a
/// test's failure report).
pub fn module_graph(src: &Path) -> ModuleGraph {
    ModuleGraph::read(src, Options::default())
}

/// The circles of `graph`: each set of modules that import each other
/// round (a strongly connected component of two or more), sorted, the
/// circles in order of their first module. Empty when imports go one way.
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut tarjan = Tarjan::default();
    for module in graph.keys() {
        if !tarjan.index.contains_key(module.as_str()) {
            tarjan.visit(graph, module);
        }
    }
    let mut out: Vec<Vec<String>> = tarjan
        .components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|mut c| {
            c.sort();
            c
        })
        .collect();
    out.sort();
    out
}

/// The imports that run up `layers` (lowest layer first), as messages
/// `"load -> build: load.rs:12 imports a higher layer"`, plus one message
/// per module that is in no layer and per layer name that is no module.
/// Modules in the same layer may import each other (see
/// [`ModuleGraph::peer_imports`] to forbid that). Same as
/// [`ModuleGraph::back_imports`].
pub fn back_imports(graph: &ModuleGraph, layers: &[&[&str]]) -> Vec<String> {
    graph.back_imports(layers)
}

impl ModuleGraph {
    /// The graph of the crate whose sources are under `src`.
    pub fn read(src: &Path, options: Options) -> Self {
        let files: Vec<(String, String)> = rust_files(src)
            .into_iter()
            .map(|f| {
                let rel = f.strip_prefix(src).unwrap_or(&f);
                let rel = rel.to_string_lossy().replace('\\', "/");
                let text =
                    std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                (rel, text)
            })
            .collect();
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        Self::from_sources_with(&refs, options)
    }

    /// The graph of the given files: (path relative to `src/`, text).
    /// For tests of a check: give it the few files of a broken layering.
    pub fn from_sources(files: &[(&str, &str)]) -> Self {
        Self::from_sources_with(files, Options::default())
    }

    /// [`from_sources`](Self::from_sources) with options.
    pub fn from_sources_with(files: &[(&str, &str)], options: Options) -> Self {
        let modules: BTreeSet<String> = files.iter().filter_map(|(f, _)| top_module(f)).collect();
        // What `crate::Name` means when `Name` is no module: the root's
        // `use` declarations.
        let mut root_names: BTreeMap<String, String> = BTreeMap::new();
        for (file, text) in files {
            if top_module(file).is_none() && is_root(file) {
                for (name, path) in paths::root_uses(text) {
                    if let Some(first) = path.first().filter(|m| modules.contains(*m)) {
                        root_names.insert(name, first.clone());
                    }
                }
            }
        }
        let mut imports = Vec::new();
        for (file, text) in files {
            let Some(from) = top_module(file) else {
                continue;
            };
            for found in paths::crate_paths(text, &module_path(file), options.doc_links) {
                let Some(first) = found.segments.first() else {
                    continue;
                };
                let to = if modules.contains(first) {
                    first.clone()
                } else {
                    root_names
                        .get(first)
                        .cloned()
                        .unwrap_or_else(|| ROOT.to_owned())
                };
                if to != from {
                    imports.push(Import {
                        file: (*file).to_owned(),
                        line: found.line,
                        from: from.clone(),
                        to,
                    });
                }
            }
        }
        imports.sort();
        imports.dedup();
        let mut edges: BTreeMap<String, BTreeSet<String>> = modules
            .iter()
            .map(|m| (m.clone(), BTreeSet::new()))
            .collect();
        for i in imports.iter().filter(|i| i.to != ROOT) {
            edges
                .entry(i.from.clone())
                .or_default()
                .insert(i.to.clone());
        }
        Self { edges, imports }
    }

    /// Every import between top-level modules, and of the crate root's
    /// own items ([`ROOT`]), sorted by file and line.
    pub fn imports(&self) -> &[Import] {
        &self.imports
    }

    /// The imports of `to` by `from`.
    pub fn sites(&self, from: &str, to: &str) -> impl Iterator<Item = &Import> {
        self.imports
            .iter()
            .filter(move |i| i.from == from && i.to == to)
    }

    /// A crate of one file per module of `layers`, each empty but those
    /// `texts` give (`(file, text)`): the scratch crate a layering test
    /// breaks on purpose to show that its check fails.
    pub fn from_layers(layers: &[&[&str]], texts: &[(&str, &str)], options: Options) -> Self {
        let mut files: Vec<(String, &str)> = layers
            .iter()
            .flat_map(|l| l.iter())
            .map(|m| (format!("{m}.rs"), ""))
            .collect();
        for (name, text) in texts {
            match files.iter_mut().find(|f| f.0 == *name) {
                Some(f) => f.1 = text,
                None => files.push(((*name).to_owned(), text)),
            }
        }
        let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), *b)).collect();
        Self::from_sources_with(&refs, options)
    }

    /// Everything wrong with the graph against `layers`, where each layer
    /// holds independent rooms: imports up ([`back_imports`]), imports
    /// within a layer ([`ModuleGraph::peer_imports`]) and circles, as
    /// messages (`"circle: a <-> b"`).
    pub fn layer_problems(&self, layers: &[&[&str]]) -> Vec<String> {
        let mut out = self.back_imports(layers);
        out.extend(self.peer_imports(layers));
        out.extend(
            circles(self)
                .iter()
                .map(|c| format!("circle: {}", c.join(" <-> "))),
        );
        out
    }

    /// See [`back_imports`].
    pub fn back_imports(&self, layers: &[&[&str]]) -> Vec<String> {
        let level = self.levels(layers);
        let mut out = self.misplaced(layers);
        for i in &self.imports {
            if let (Some(a), Some(b)) = (level.get(i.from.as_str()), level.get(i.to.as_str()))
                && b > a
            {
                out.push(format!(
                    "{} -> {}: {}:{} imports a higher layer",
                    i.from, i.to, i.file, i.line
                ));
            }
        }
        out
    }

    /// The imports between two modules of the same layer, as messages
    /// `"spans -> storage: spans.rs:6 imports its own layer"`: for layer
    /// orders whose layers hold independent rooms.
    pub fn peer_imports(&self, layers: &[&[&str]]) -> Vec<String> {
        let level = self.levels(layers);
        self.imports
            .iter()
            .filter(|i| {
                let (a, b) = (level.get(i.from.as_str()), level.get(i.to.as_str()));
                a.is_some() && a == b
            })
            .map(|i| {
                format!(
                    "{} -> {}: {}:{} imports its own layer",
                    i.from, i.to, i.file, i.line
                )
            })
            .collect()
    }

    /// Each module's layer index.
    fn levels<'a>(&self, layers: &[&[&'a str]]) -> BTreeMap<&'a str, usize> {
        layers
            .iter()
            .enumerate()
            .flat_map(|(n, layer)| layer.iter().map(move |m| (*m, n)))
            .collect()
    }

    /// Modules in no layer and layer names that are no module.
    fn misplaced(&self, layers: &[&[&str]]) -> Vec<String> {
        let named: BTreeSet<&str> = layers.iter().flat_map(|l| l.iter().copied()).collect();
        let mut out: Vec<String> = self
            .edges
            .keys()
            .filter(|m| !named.contains(m.as_str()))
            .map(|m| format!("{m}: a module in no layer (add it to the layer order)"))
            .collect();
        out.extend(
            named
                .iter()
                .filter(|m| !self.edges.contains_key(**m))
                .map(|m| format!("{m}: in the layer order but not a module")),
        );
        out
    }
}

impl Deref for ModuleGraph {
    type Target = BTreeMap<String, BTreeSet<String>>;

    fn deref(&self) -> &Self::Target {
        &self.edges
    }
}

impl<'a> IntoIterator for &'a ModuleGraph {
    type Item = (&'a String, &'a BTreeSet<String>);
    type IntoIter = std::collections::btree_map::Iter<'a, String, BTreeSet<String>>;

    fn into_iter(self) -> Self::IntoIter {
        self.edges.iter()
    }
}

impl PartialEq<BTreeMap<String, BTreeSet<String>>> for ModuleGraph {
    fn eq(&self, other: &BTreeMap<String, BTreeSet<String>>) -> bool {
        self.edges == *other
    }
}

impl From<ModuleGraph> for BTreeMap<String, BTreeSet<String>> {
    fn from(graph: ModuleGraph) -> Self {
        graph.edges
    }
}

/// Whether `file` (relative to `src/`) is a crate root.
fn is_root(file: &str) -> bool {
    file == "lib.rs" || file == "main.rs"
}

/// The top-level module `file` (relative to `src/`) belongs to, if any.
pub fn top_module(file: &str) -> Option<String> {
    if is_root(file) || file.starts_with("bin/") {
        return None;
    }
    let first = file.split('/').next()?;
    Some(first.trim_end_matches(".rs").to_owned())
}

/// The module path of `file` (relative to `src/`): `[]` for the roots,
/// `["fog"]` for `fog.rs` and `fog/mod.rs`, `["fog", "units"]` for
/// `fog/units.rs`.
fn module_path(file: &str) -> Vec<String> {
    if is_root(file) {
        return Vec::new();
    }
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Tarjan's strongly connected components.
#[derive(Default)]
struct Tarjan<'a> {
    index: BTreeMap<&'a str, usize>,
    low: BTreeMap<&'a str, usize>,
    stack: Vec<&'a str>,
    on_stack: BTreeSet<&'a str>,
    components: Vec<Vec<String>>,
}

impl<'a> Tarjan<'a> {
    /// Lowers `v`'s low-link to `to` if smaller.
    fn lower(&mut self, v: &'a str, to: usize) {
        let low = self.low.entry(v).or_insert(to);
        *low = (*low).min(to);
    }

    fn visit(&mut self, graph: &'a BTreeMap<String, BTreeSet<String>>, v: &'a str) {
        let n = self.index.len();
        self.index.insert(v, n);
        self.low.insert(v, n);
        self.stack.push(v);
        self.on_stack.insert(v);
        for w in graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !self.index.contains_key(w) {
                self.visit(graph, w);
                let lw = self.low[w];
                self.lower(v, lw);
            } else if self.on_stack.contains(w) {
                let iw = self.index[w];
                self.lower(v, iw);
            }
        }
        if self.low[v] == self.index[v] {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack.remove(w);
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}
