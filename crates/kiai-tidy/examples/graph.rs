//! Prints a crate's top-level module graph, its circles and every import
//! behind each edge of a circle:
//! `cargo run -p kiai-tidy --example graph -- crates/kiai-fog/src`.

use std::path::PathBuf;

use kiai_tidy::imports::{circles, module_graph};

fn main() {
    let src: PathBuf = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "src".into())
        .into();
    let graph = module_graph(&src);
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
