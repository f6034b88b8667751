//! Checks of kiai's own source, shared by the workspace's tests; a
//! dev-dependency only (`publish = false`, no runtime crate depends on
//! it).
//!
//! * [`imports`]: **one import scanner** for every layering test. It reads
//!   a crate's `src/` into a [`ModuleGraph`](imports::ModuleGraph) (each
//!   top-level module -> the top-level modules it imports, with file and
//!   line of every import), finds its [`circles`](imports::circles) and
//!   the imports that run up a layer order
//!   ([`back_imports`](imports::back_imports)).
//! * [`lengths`]: the **tidy length counter** (800 lines per file, 100 per
//!   function, on rustfmt's layout).
//! * [`files`]: finding the sources.
//!
//! A layering test for a crate, with its layer order (lowest first) in its
//! module doc:
//!
//! ```no_run
//! use std::path::Path;
//! use kiai_tidy::imports::{circles, module_graph};
//!
//! /// Lowest layer first; a module may import only its own layer and
//! /// those below.
//! const LAYERS: &[&[&str]] = &[&["unit"], &["storage", "spans"], &["fog"]];
//!
//! let graph = module_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
//! assert!(circles(&graph).is_empty(), "{:?}", circles(&graph));
//! let back = graph.back_imports(LAYERS);
//! assert!(back.is_empty(), "{}", back.join("\n"));
//! ```
//!
//! And the length check:
//!
//! ```no_run
//! use kiai_tidy::{files, lengths};
//!
//! let root = files::workspace_root();
//! let src = files::rust_files(&root.join("crates/kiai-fog/src"));
//! assert!(lengths::files_over(&root, &src, lengths::MAX_FILE_LINES).is_empty());
//! assert!(lengths::functions_over(&root, &src, lengths::MAX_FN_LINES).is_empty());
//! ```

pub mod files;
pub mod imports;
pub mod lengths;
