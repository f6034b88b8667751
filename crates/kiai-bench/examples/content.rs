//! The content-loading scenarios alone (what `kiai bench` runs among the
//! rest): `cargo run --release -p kiai-bench --example content [-- --quick]`.

fn main() -> Result<(), String> {
    let quick = std::env::args().any(|a| a == "--quick");
    for s in kiai_bench::content::scenarios(kiai_bench::Effort { quick })? {
        println!(
            "{:<40} kiai {:>9.2} ms   {} {:>9.2} ms   ratio {:.2}\n  {}",
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
