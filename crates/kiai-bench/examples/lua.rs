//! Runs only the Lua-vs-Rust decider scenarios of `kiai bench`:
//! `cargo run --release -p kiai-bench --example lua [-- --quick]`.

fn main() -> Result<(), String> {
    let quick = std::env::args().any(|a| a == "--quick");
    for s in kiai_bench::lua::scenarios(kiai_bench::Effort { quick })? {
        println!(
            "{}: ours {:.3} ms, {} {:.3} ms, ratio {:.2}; {}",
            s.name,
            s.ours_ms,
            s.peer,
            s.peer_ms,
            s.ratio(),
            s.note
        );
    }
    Ok(())
}
