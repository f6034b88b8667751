//! One module per `kiai` command, named after it: the command's flags
//! (its clap `Args`, beside the code that reads them) and `run`, which
//! carries it out and returns the exit status. What several commands share
//! lives beside this folder in files named after the concept (`load.rs`,
//! `output.rs`, `sim.rs`, `nav.rs`, ...).

pub(crate) mod bench;
pub(crate) mod export;
pub(crate) mod fog;
pub(crate) mod fork;
pub(crate) mod lua_defs;
pub(crate) mod migrate;
pub(crate) mod navgen;
pub(crate) mod path;
pub(crate) mod perceive;
pub(crate) mod run;
pub(crate) mod select;
pub(crate) mod set;
pub(crate) mod test;
pub(crate) mod validate;
