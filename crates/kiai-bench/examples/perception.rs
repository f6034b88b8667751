//! Runs only the perception scenarios of `kiai bench` (pass `--quick` for
//! the short form).

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    match kiai_bench::perception::scenarios(kiai_bench::Effort { quick }) {
        Ok(scenarios) => {
            for s in scenarios {
                println!(
                    "{:<48} ours {:>8.3} ms  {:<32} {:>9.3} ms  {:>6.2}x  {}",
                    s.name,
                    s.ours_ms,
                    s.peer,
                    s.peer_ms,
                    s.ratio(),
                    s.note
                );
            }
        }
        Err(e) => {
            eprintln!("mismatch: {e}");
            std::process::exit(1);
        }
    }
}
