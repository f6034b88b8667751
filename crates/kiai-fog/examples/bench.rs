//! Prints the fog-of-war benchmark figures: `cargo run --release --example bench --features bench [-- --quick]`.

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    for s in kiai_fog::bench::scenarios(quick) {
        println!("{}", s.name);
        println!(
            "  ours {:.4} ms/tick   peer {:.4} ms/tick   ratio {:.1}x   peer: {}",
            s.ours_ms,
            s.peer_ms,
            s.peer_ms / s.ours_ms,
            s.peer
        );
        println!("  {}", s.note);
    }
}
