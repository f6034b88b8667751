//! Content and scripts as Bevy assets: `.ron` content and `.kiaipack`
//! packs load as [`KiaiContent`], `.lua` files as [`KiaiScript`]. A file
//! that does not load is an asset load failure carrying every diagnostic
//! (`file:line:col: error: ...`); the plugin logs it and keeps what it had.

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, AssetPath, Handle, LoadContext};
use bevy_reflect::TypePath;
use kiai::content::{Content, ScriptRef};

/// Loaded, validated content (a level): what the plugin builds its world
/// from. Its scripts are assets of their own, so that editing one reloads
/// only that script.
#[derive(Asset, TypePath, Debug)]
pub struct KiaiContent {
    /// The content.
    pub content: Content,
    /// Each scripted archetype's script: the file's asset, or `None` when
    /// the script came bundled in a pack (its text is in the [`ScriptRef`]).
    pub scripts: Vec<(ScriptRef, Option<Handle<KiaiScript>>)>,
}

impl KiaiContent {
    /// Content made in code (tests, generated levels): scripts bundled in a
    /// pack keep their text; a script file named by content text is read
    /// from disk when the world is built (its path resolved against the
    /// content's file name, from the working directory; unreadable, its
    /// archetype decides with the default), unless given an asset with
    /// [`KiaiContent::with_script`].
    pub fn new(content: Content) -> Self {
        let scripts = content.scripts().into_iter().map(|s| (s, None)).collect();
        Self { content, scripts }
    }

    /// Gives the archetypes whose script is `path` (as the content names
    /// it, resolved against the content file) the script asset `handle`.
    pub fn with_script(mut self, path: &str, handle: Handle<KiaiScript>) -> Self {
        for (s, h) in &mut self.scripts {
            if s.path.ends_with(path) {
                *h = Some(handle.clone());
            }
        }
        self
    }
}

/// A Lua script's text.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct KiaiScript {
    /// The file name errors name (its asset path).
    pub file: String,
    /// The source text.
    pub source: String,
}

/// Why a content or script file did not load.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{file}:1:1: error: cannot read: {error}")]
    Io {
        /// The asset path.
        file: String,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The content did not parse or validate: every diagnostic, one per
    /// line, `file:line:col: error: message`.
    #[error("{0}")]
    Content(kiai::content::Diagnostics),
    /// The file is neither a pack nor UTF-8 text.
    #[error("{file}:1:1: error: not UTF-8 text (content and scripts are text files)")]
    NotText {
        /// The asset path.
        file: String,
    },
}

/// The asset's name (its path, for diagnostics) and all its bytes.
async fn read_all(
    reader: &mut dyn Reader,
    load_context: &LoadContext<'_>,
) -> Result<(String, Vec<u8>), LoadError> {
    let file = load_context.path().path().display().to_string();
    let mut bytes = Vec::new();
    match reader.read_to_end(&mut bytes).await {
        Ok(_) => Ok((file, bytes)),
        Err(error) => Err(LoadError::Io { file, error }),
    }
}

/// Loads `.ron` content and `.kiaipack` packs as [`KiaiContent`].
#[derive(Default, TypePath)]
pub struct ContentLoader;

impl AssetLoader for ContentLoader {
    type Asset = KiaiContent;
    type Settings = ();
    type Error = LoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<KiaiContent, LoadError> {
        let (file, bytes) = read_all(reader, load_context).await?;
        let content = if bytes.starts_with(&kiai::content::pack::PACK_MAGIC) {
            Content::from_pack_bytes(&bytes, &file)
        } else {
            let text =
                String::from_utf8(bytes).map_err(|_| LoadError::NotText { file: file.clone() })?;
            Content::from_str(&text, &file)
        }
        .map_err(LoadError::Content)?;
        let scripts = content
            .scripts()
            .into_iter()
            .map(|s| {
                let handle = s.bundled.is_none().then(|| {
                    let path = AssetPath::from_path(&s.path);
                    load_context.load(AssetPath::default().resolve(&path))
                });
                (s, handle)
            })
            .collect();
        Ok(KiaiContent { content, scripts })
    }

    fn extensions(&self) -> &[&str] {
        &["ron", "kiaipack"]
    }
}

/// Loads `.lua` files as [`KiaiScript`] (the text only: the plugin compiles
/// it, and keeps the last good version when it does not compile).
#[derive(Default, TypePath)]
pub struct ScriptLoader;

impl AssetLoader for ScriptLoader {
    type Asset = KiaiScript;
    type Settings = ();
    type Error = LoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<KiaiScript, LoadError> {
        let (file, bytes) = read_all(reader, load_context).await?;
        let source =
            String::from_utf8(bytes).map_err(|_| LoadError::NotText { file: file.clone() })?;
        Ok(KiaiScript { file, source })
    }

    fn extensions(&self) -> &[&str] {
        &["lua"]
    }
}
