//! Layer 5, the files of a run beside the content: events files
//! ([`events`]), scenario files ([`scenario`]) with their one-line
//! expectations ([`expect`]), and recordings ([`recording`]). They check
//! names against loaded content and may use every layer below.

pub mod events;
pub mod expect;
pub mod recording;
pub mod scenario;
