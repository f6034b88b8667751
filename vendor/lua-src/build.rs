//! Rebuilds this crate, and with it the Lua library that mlua-sys builds
//! from it, whenever a patched C source changes (cargo tracks only Rust
//! sources otherwise).

fn main() {
    println!("cargo:rerun-if-changed=lua-5.4.9");
}
