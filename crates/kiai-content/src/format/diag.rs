//! Diagnostics: problems found in content, each with file, line and column.

use std::fmt;

use super::locate::Pos;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The content cannot be used.
    Error,
    /// Legal but probably not what was meant.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem at one place of a content file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Diagnostic {
    /// The file as the user named it.
    pub file: String,
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
    /// Error or warning.
    pub severity: Severity,
    /// One line saying what is wrong, with a hint where one helps.
    pub message: String,
}

impl Diagnostic {
    /// An error at `pos` of `file`.
    pub fn error(file: &str, pos: Pos, message: impl Into<String>) -> Self {
        Self::new(file, pos, Severity::Error, message)
    }

    /// A warning at `pos` of `file`.
    pub fn warning(file: &str, pos: Pos, message: impl Into<String>) -> Self {
        Self::new(file, pos, Severity::Warning, message)
    }

    fn new(file: &str, pos: Pos, severity: Severity, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            line: pos.line,
            column: pos.column,
            severity,
            message: message.into(),
        }
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: error: message`, the format compilers use, so editors
    /// and terminals make it clickable.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}",
            self.file,
            self.line,
            self.column,
            self.severity.as_str(),
            self.message
        )
    }
}

/// Every diagnostic of a failed load, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// The closest of `candidates` to `wrong`, when close enough to be a typo.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(wrong, c), c))
        .filter(|&(d, c)| d <= (c.chars().count().max(wrong.chars().count()) / 3).max(1))
        .min()
        .map(|(_, c)| c)
}

/// `"; did you mean `x`?"` or nothing.
pub(crate) fn hint<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(wrong, candidates)
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}
