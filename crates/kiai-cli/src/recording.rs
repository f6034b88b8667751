//! `kiai run --record`: the run written as a recording (content, seed,
//! events, scripts and the state hash after every tick) that the editor
//! opens and `kiai fork` replays.

use std::path::Path;

use anyhow::Context;
use kiai_content::Content;
use kiai_content::events::EventsDef;
use kiai_content::recording::Recording;

/// Writes the recording of a run of `content` with `seed` to `out`: the
/// events file `events` names (if any) and the hashes of every tick.
pub(crate) fn write_recording(
    out: &Path,
    content: &Content,
    events: Option<&Path>,
    seed: u64,
    hashes: Vec<u64>,
) -> anyhow::Result<()> {
    let events = match events {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            EventsDef::from_str(&text, &path.display().to_string())
                .map_err(|d| anyhow::anyhow!("{d}"))?
                .events
        }
        None => Vec::new(),
    };
    let mut recording = Recording::new(
        content.to_def().into_owned(),
        seed,
        events,
        &content.scripts(),
    )?;
    recording.hashes = hashes;
    recording.save(out)?;
    eprintln!(
        "recorded {} ticks to {}",
        recording.hashes.len(),
        out.display()
    );
    Ok(())
}
