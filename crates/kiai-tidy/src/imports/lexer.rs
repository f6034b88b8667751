//! Blanks out what is not code: comments, string and character literals
//! become spaces (newlines kept, so byte offsets and line numbers stay
//! those of the file), and the text of doc comments is kept aside for the
//! callers that read intra-doc links.

/// A source text with its comments and literals blanked.
pub(crate) struct Stripped {
    /// The code, byte for byte as long as the source; blanked parts are
    /// spaces, newlines stay.
    pub(crate) code: Vec<u8>,
    /// Every doc comment (`///`, `//!`, `/** */`, `/*! */`): its byte
    /// offset in the source and its text.
    pub(crate) docs: Vec<(usize, String)>,
}

/// Blanks the comments and literals of `text`.
pub(crate) fn strip(text: &str) -> Stripped {
    let src = text.as_bytes();
    let mut code = src.to_vec();
    let mut docs = Vec::new();
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let end = if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(src.len(), |n| i + n);
            let doc = (rest.starts_with(b"///") && !rest.starts_with(b"////"))
                || rest.starts_with(b"//!");
            if doc {
                docs.push((i, text[i..end].to_owned()));
            }
            end
        } else if rest.starts_with(b"/*") {
            let end = block_comment_end(src, i);
            let doc = (rest.starts_with(b"/**") && !rest.starts_with(b"/**/"))
                || rest.starts_with(b"/*!");
            if doc {
                docs.push((i, text[i..end].to_owned()));
            }
            end
        } else if let Some(end) = string_end(src, i) {
            end
        } else if let Some(end) = (rest[0] == b'\'').then(|| char_end(src, i)).flatten() {
            end
        } else {
            // An identifier is skipped whole, so that `br` in `abr"` or a
            // `'` after a letter is never read as a literal's start.
            let word = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b >= 0x80)
                .count();
            i += word.max(1);
            continue;
        };
        blank(&mut code, i, end);
        i = end;
    }
    Stripped { code, docs }
}

/// Spaces over `code[from..to]`, newlines kept.
fn blank(code: &mut [u8], from: usize, to: usize) {
    for b in &mut code[from..to] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// The end of the (nested) block comment starting at `start`.
fn block_comment_end(src: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < src.len() {
        if src[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if src[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    src.len()
}

/// The end of the string literal starting at `start` (`"…"`, `b"…"`,
/// `c"…"`, `r#"…"#`, `br"…"`, `cr"…"`), if one starts there.
fn string_end(src: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    for prefix in [&b"br"[..], b"cr", b"b", b"c", b"r"] {
        if src[i..].starts_with(prefix) {
            let after = i + prefix.len();
            let raw = prefix.ends_with(b"r");
            let mut j = after;
            while raw && j < src.len() && src[j] == b'#' {
                j += 1;
            }
            if src.get(j) == Some(&b'"') {
                if raw {
                    let hashes = j - after;
                    let mut close = vec![b'"'];
                    close.extend(std::iter::repeat_n(b'#', hashes));
                    let body = j + 1;
                    let end = src[body..]
                        .windows(close.len())
                        .position(|w| w == close.as_slice())
                        .map_or(src.len(), |n| body + n + close.len());
                    return Some(end);
                }
                i = j;
                break;
            }
            return None;
        }
    }
    if src.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    Some(src.len())
}

/// The end of the character literal starting at `start` (a `'`), or
/// `None` for a lifetime or label.
fn char_end(src: &[u8], start: usize) -> Option<usize> {
    let body = start + 1;
    if src.get(body) == Some(&b'\\') {
        let close = src[body + 2..].iter().position(|&b| b == b'\'')?;
        return Some(body + 2 + close + 1);
    }
    // One character (1 to 4 bytes of UTF-8), then the closing quote.
    let first = *src.get(body)?;
    let width = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    (src.get(body + width) == Some(&b'\'')).then_some(body + width + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code left, each run of blanks shown as one space.
    fn code(text: &str) -> String {
        let code = String::from_utf8(strip(text).code).unwrap_or_default();
        assert_eq!(code.len(), text.len(), "offsets kept");
        let mut out = String::new();
        for c in code.chars() {
            if !(c == ' ' && out.ends_with(' ')) {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn comments_and_literals_are_blanked() {
        assert_eq!(code("a // crate::x\nb"), "a \nb");
        assert_eq!(code("a /* x /* y */ z */ b"), "a b");
        assert_eq!(code(r#"f("crate::x{", '{', 'a)"#), "f( , , 'a)");
        assert_eq!(code(r##"r#"a"b"# c"##), " c");
        assert_eq!(code("br\"{\" x"), " x");
        assert_eq!(code("fn f<'a>(x: &'a str)"), "fn f<'a>(x: &'a str)");
        assert_eq!(code("'\\u{7b}' x"), " x");
        assert_eq!(code("b'{' abr\"x\""), "b abr ");
    }

    #[test]
    fn doc_comments_are_kept_aside() {
        let s = strip("/// see [`crate::a`]\n// not [`crate::b`]\n//! top\nfn x() {}");
        let docs: Vec<&str> = s.docs.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(docs, ["/// see [`crate::a`]", "//! top"]);
    }
}
