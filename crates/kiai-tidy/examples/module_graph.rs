//! Prints a crate's top-level module graph, its circles and every import
//! behind each edge of a circle:
//! `cargo run -p kiai-tidy --example module_graph -- crates/kiai-fog/src`
//! (add `--docs` to count doc links too).

use std::path::PathBuf;

use kiai_tidy::imports::{ModuleGraph, Options, circles};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let doc_links = args.iter().any(|a| a == "--docs");
    let src: PathBuf = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or_else(|| "src".into(), Into::into);
    let graph = ModuleGraph::read(&src, Options { doc_links });
    for (module, imports) in &graph {
        let list: Vec<&str> = imports.iter().map(String::as_str).collect();
        println!("{module} -> {}", list.join(", "));
    }
    for circle in circles(&graph) {
        println!("\ncircle: {}", circle.join(" <-> "));
        for i in graph.imports() {
            if circle.contains(&i.from) && circle.contains(&i.to) {
                println!("  {} -> {}: {}:{}", i.from, i.to, i.file, i.line);
            }
        }
    }
}
