//! Reading a content file that a command rewrites in place (`kiai set`,
//! `kiai navgen --write`, `kiai migrate`): its bytes (not a pack, within
//! the size limit) and, for the first two, its text checked to be the
//! newest format and its definition.

use anyhow::Context;
use kiai_content::def::ContentDef;

use crate::output::print_diagnostics;

/// The bytes of the content file at `path`: within the size limit, not an
/// exported pack (`for_pack` completes the message then: what to do with
/// the content the pack came from).
pub(crate) fn content_bytes(path: &std::path::Path, for_pack: &str) -> anyhow::Result<Vec<u8>> {
    let file = path.display();
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {file}"))?;
    if meta.len() > kiai_content::MAX_FILE_BYTES {
        anyhow::bail!(
            "{file} is {} bytes; content files are limited to {}",
            meta.len(),
            kiai_content::MAX_FILE_BYTES
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {file}"))?;
    if bytes.starts_with(&kiai_content::pack::PACK_MAGIC) {
        anyhow::bail!("{file} is an exported pack; {for_pack}");
    }
    Ok(bytes)
}

/// The text and definition of the content file at `path`, to edit in
/// place (`for_pack`: as in [`content_bytes`]); otherwise the message
/// saying why not (a file that does not parse has its diagnostics printed
/// first).
pub(crate) fn read_for_edit(
    path: &std::path::Path,
    for_pack: &str,
) -> Result<(String, ContentDef), String> {
    let file = path.display().to_string();
    let bytes = content_bytes(path, for_pack).map_err(|e| format!("{e:#}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{file} is not UTF-8 text"))?;
    if kiai_content::migrate::peek_format(&text) != Some(u64::from(kiai_content::FORMAT_VERSION)) {
        return Err(format!(
            "{file} is not format {}; `kiai migrate {file}` rewrites older files first",
            kiai_content::FORMAT_VERSION
        ));
    }
    match kiai_content::parse(&text, &file) {
        Ok(def) => Ok((text, def)),
        Err(d) => {
            print_diagnostics(&d.0);
            Err(format!("{file} does not read as content; fix it first"))
        }
    }
}
