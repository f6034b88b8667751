//! Runs only the Lua scenarios of `kiai bench` (Lua deciding against the
//! Rust decider, and one world query against a bare mlua callback):
//! `cargo run --release -p kiai-bench --example lua [-- --quick]`.

fn main() {
    kiai_bench::print_group(|effort| {
        let mut all = kiai_bench::lua::scenarios(effort)?;
        all.extend(kiai_bench::lua_call::scenarios(effort)?);
        Ok(all)
    });
}
