//! The reader over the text's bytes: white space and comments, tokens
//! (identifiers, strings, numbers) and brackets with the nesting count.

use super::number::short_decimal;
use super::{Bail, MAX_DEPTH, Res};

pub(super) struct Reader<'de> {
    pub(super) b: &'de [u8],
    pub(super) text: &'de str,
    pub(super) at: usize,
    pub(super) depth: u32,
    pub(super) brackets_in_comments: bool,
}

/// Whether `c` may continue a `ron` identifier or number suffix, or makes
/// the token ambiguous (`ron` treats `.`, `+`, `-` after an identifier as a
/// raw-identifier suggestion; any non-ASCII byte may be an identifier
/// character).
fn glues(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, b'_' | b'.' | b'+' | b'-' | b'"' | b'\'' | b'#')
        || c >= 0x80
}

impl<'de> Reader<'de> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    /// Skips ASCII white space and `//` comments (the subset of `ron`'s
    /// trivia accepted here; a block comment bails).
    #[inline]
    pub(super) fn ws(&mut self) -> Res<()> {
        match self.peek() {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'/') => self.ws_slow(),
            _ => Ok(()),
        }
    }

    pub(super) fn ws_slow(&mut self) -> Res<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') => {
                    if self.b.get(self.at + 1) != Some(&b'/') {
                        return Err(Bail);
                    }
                    let end = match self.b[self.at..].iter().position(|&c| c == b'\n') {
                        Some(n) => self.at + n,
                        None => self.b.len(),
                    };
                    self.brackets_in_comments |= self.b[self.at..end]
                        .iter()
                        .any(|c| matches!(c, b'"' | b'(' | b'[' | b'{'));
                    self.at = end;
                }
                _ => return Ok(()),
            }
        }
    }

    pub(super) fn eat(&mut self, c: u8) -> Res<()> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(Bail)
        }
    }

    /// `ron`'s `comma`: white space, an optional comma, white space.
    pub(super) fn comma(&mut self) -> Res<bool> {
        self.ws()?;
        if self.peek() == Some(b',') {
            self.at += 1;
            self.ws()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// A plain identifier `[A-Za-z_][A-Za-z0-9_]*` not followed by anything
    /// that could extend it.
    pub(super) fn ident(&mut self) -> Res<&'de str> {
        let start = self.at;
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => self.at += 1,
            _ => return Err(Bail),
        }
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
            self.at += 1;
        }
        if self.peek().is_some_and(glues) {
            return Err(Bail);
        }
        self.text.get(start..self.at).ok_or(Bail)
    }

    /// The identifier at the cursor without consuming it.
    pub(super) fn peek_ident(&mut self) -> Option<&'de str> {
        let at = self.at;
        let id = self.ident().ok();
        self.at = at;
        id
    }

    /// A string without escapes: `ron` borrows exactly the bytes up to the
    /// next `"`.
    pub(super) fn string(&mut self) -> Res<&'de str> {
        self.eat(b'"')?;
        let start = self.at;
        let len = self.b[start..]
            .iter()
            .position(|&c| c == b'"')
            .ok_or(Bail)?;
        let s = &self.b[start..start + len];
        if s.contains(&b'\\') {
            return Err(Bail);
        }
        self.at = start + len + 1;
        self.text.get(start..start + len).ok_or(Bail)
    }

    /// A decimal integer, optionally negative, as `ron` reads one without a
    /// base prefix, suffix or underscore.
    pub(super) fn integer(&mut self) -> Res<i128> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let start = self.at;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits = &self.b[start..self.at];
        // Longer than any u64 (20 digits) or followed by something `ron`
        // would read on (hex digits, suffixes, a fraction): give up.
        if digits.is_empty() || digits.len() > 20 || self.peek().is_some_and(glues) {
            return Err(Bail);
        }
        let mut v: i128 = 0;
        for &d in digits {
            v = v * 10 + i128::from(d - b'0');
        }
        Ok(if negative { -v } else { v })
    }

    pub(super) fn int<T: TryFrom<i128>>(&mut self) -> Res<T> {
        // `ron` accepts `-0` for unsigned types; so does `try_from`, with
        // the same value.
        T::try_from(self.integer()?).map_err(|_| Bail)
    }

    /// The longest run of `ron`'s float characters, which `ron` converts
    /// with `str::parse` after dropping underscores (here: none allowed).
    pub(super) fn float_run(&mut self) -> Res<&'de str> {
        let start = self.at;
        let mut previous = 0u8;
        while let Some(c) = self.peek() {
            match c {
                b'0'..=b'9' | b'e' | b'E' | b'+' | b'-' => {}
                b'.' if previous != b'.' => {}
                // An underscore or `..` (a range): `ron` reads these
                // differently.
                b'.' | b'_' => return Err(Bail),
                _ => break,
            }
            previous = c;
            self.at += 1;
        }
        let run = self.text.get(start..self.at).ok_or(Bail)?;
        if run.is_empty() || self.peek().is_some_and(glues) {
            return Err(Bail);
        }
        Ok(run)
    }

    pub(super) fn f32(&mut self) -> Res<f32> {
        let run = self.float_run()?;
        match short_decimal(run) {
            Some(v) => Ok(v),
            None => run.parse().map_err(|_| Bail),
        }
    }

    pub(super) fn f64(&mut self) -> Res<f64> {
        self.float_run()?.parse().map_err(|_| Bail)
    }

    pub(super) fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Bail)
        } else {
            Ok(())
        }
    }

    /// `open`, the elements or entries read by `f`, white space, `close`.
    pub(super) fn container<V>(
        &mut self,
        open: u8,
        close: u8,
        f: impl FnOnce(&mut Self) -> Res<V>,
    ) -> Res<V> {
        self.eat(open)?;
        self.enter()?;
        let v = f(self)?;
        self.depth -= 1;
        self.ws()?;
        self.eat(close)?;
        Ok(v)
    }
}
