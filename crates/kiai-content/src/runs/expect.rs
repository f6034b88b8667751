//! Expectations of scenario files: one line of text each, such as
//! `sees(guard_1, intruder) within 120 ticks` or
//! `count(state == evade) >= 10 at end`, parsed into [`Expectation`]s.
//!
//! ```text
//! expectation := ["never" | "always"] condition [window]
//! condition   := sees(AGENT, TARGET [, SENSE])
//!              | state(AGENT) (== | !=) STATE
//!              | reaches(AGENT, waypoint ID)
//!              | count(state (== | !=) STATE) CMP NUMBER
//!              | distance(AGENT, AGENT) CMP NUMBER
//!              | no script errors
//!              | hash == "16 hex digits"
//! window      := within N [ticks] | at tick N | before tick N | at end | eventually
//! CMP         := < | <= | > | >= | == | !=
//! ```
//!
//! Names are bare (`guard_1`, `red-2`) or quoted (`"big guard"`,
//! `'big guard'`). Without a window, a condition must hold at some tick of
//! the run (`eventually`), `never` at none, `always` at every one; `hash`
//! is checked `at end`, and `no script errors` covers the whole run.

use std::fmt;

/// How often the condition must hold in the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// At one tick at least: passes at the first tick it holds.
    Exists,
    /// At no tick: fails at the first tick it holds.
    Never,
    /// At every tick: fails at the first tick it does not hold.
    Always,
}

/// The ticks an expectation looks at. Ticks count the ticks run: tick
/// `t` is the world after `t` ticks, and checks start at tick 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Ticks 1 to N.
    Within(u64),
    /// Tick N alone.
    At(u64),
    /// Ticks 1 to N - 1.
    Before(u64),
    /// The scenario's last tick alone.
    End,
    /// Every tick of the run.
    Eventually,
}

impl Window {
    /// The first and last tick of the window in a run of `limit` ticks.
    pub fn ticks(self, limit: u64) -> (u64, u64) {
        match self {
            Window::Within(n) => (1, n),
            Window::At(n) => (n, n),
            Window::Before(n) => (1, n.saturating_sub(1)),
            Window::End => (limit, limit),
            Window::Eventually => (1, limit),
        }
    }
}

/// A comparison of a number with a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Cmp {
    /// Whether `value CMP bound` holds.
    pub fn holds(self, value: f64, bound: f64) -> bool {
        match self {
            Cmp::Lt => value < bound,
            Cmp::Le => value <= bound,
            Cmp::Gt => value > bound,
            Cmp::Ge => value >= bound,
            Cmp::Eq => value == bound,
            Cmp::Ne => value != bound,
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
}

/// What is checked at a tick.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// A sense of `agent` (the one named, or any that is not hearing)
    /// reports `target`.
    Sees {
        /// The observer.
        agent: String,
        /// Who it should sense.
        target: String,
        /// The sense, if one is named.
        sense: Option<String>,
    },
    /// `agent`'s behaviour state is (`equal`) or is not `state`: a built-in
    /// state (`random_walk`, `chase`, `evade`) or a script's own.
    State {
        /// The agent.
        agent: String,
        /// `==` (true) or `!=`.
        equal: bool,
        /// The state's name.
        state: String,
    },
    /// `agent` is at waypoint `waypoint`: its waypoint walker reached it,
    /// or, for another movement, it is within [`REACH_DISTANCE`] of it.
    Reaches {
        /// The agent.
        agent: String,
        /// The waypoint's id in the content.
        waypoint: u32,
    },
    /// The number of live agents whose state is (or is not) `state`,
    /// compared with `value`.
    Count {
        /// The state's name.
        state: String,
        /// `state == S` (true) or `state != S`.
        equal: bool,
        /// The comparison.
        cmp: Cmp,
        /// The bound.
        value: f64,
    },
    /// The distance between `a` and `b`, world units, compared with
    /// `value`.
    Distance {
        /// One agent.
        a: String,
        /// The other.
        b: String,
        /// The comparison.
        cmp: Cmp,
        /// The bound, world units.
        value: f64,
    },
    /// A script failed in this tick (`no script errors` is `never` this).
    ScriptError,
    /// The state hash is `hash`.
    Hash(u64),
}

/// How close to a waypoint an agent that does not walk waypoints must come
/// to reach it, world units.
pub const REACH_DISTANCE: f32 = 1.0;

/// One parsed expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    /// The text as written.
    pub text: String,
    /// Never, always or at least once.
    pub quantifier: Quantifier,
    /// What is checked.
    pub condition: Condition,
    /// When.
    pub window: Window,
}

impl Expectation {
    /// The agents the expectation names, in order, without repeats.
    pub fn agents(&self) -> Vec<&str> {
        let names: Vec<&str> = match &self.condition {
            Condition::Sees { agent, target, .. } => vec![agent, target],
            Condition::State { agent, .. } | Condition::Reaches { agent, .. } => vec![agent],
            Condition::Distance { a, b, .. } => vec![a, b],
            Condition::Count { .. } | Condition::ScriptError | Condition::Hash(_) => Vec::new(),
        };
        let mut out: Vec<&str> = Vec::with_capacity(names.len());
        for n in names {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }
}

/// A problem in an expectation's text, at a byte offset into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectError {
    /// Byte offset into the expectation's text.
    pub offset: usize,
    /// What is wrong and what is expected.
    pub message: String,
}

impl fmt::Display for ExpectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A token of an expectation.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A bare word or number (`guard_1`, `120`, `2.5`).
    Word(String),
    /// A quoted string, unquoted.
    Quoted(String),
    /// `(`, `)`, `,` or an operator.
    Punct(&'static str),
}

/// Splits `text` into tokens with their byte offsets.
fn tokens(text: &str) -> Result<Vec<(usize, Tok)>, ExpectError> {
    const PUNCT: [&str; 9] = ["==", "!=", "<=", ">=", "<", ">", "(", ")", ","];
    let mut out = Vec::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if let Some(p) = PUNCT.iter().find(|p| text[i..].starts_with(**p)) {
            out.push((i, Tok::Punct(p)));
            i += p.len();
        } else if c == b'"' || c == b'\'' {
            let close = text[i + 1..].find(c as char).ok_or_else(|| ExpectError {
                offset: i,
                message: format!("a name quoted with {} is not closed", c as char),
            })?;
            out.push((i, Tok::Quoted(text[i + 1..i + 1 + close].to_owned())));
            i += close + 2;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-' | b'.'))
            {
                i += 1;
            }
            out.push((start, Tok::Word(text[start..i].to_owned())));
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(ExpectError {
                offset: i,
                message: format!("unexpected `{ch}`"),
            });
        }
    }
    Ok(out)
}

/// A cursor over the tokens.
struct Parser<'a> {
    toks: Vec<(usize, Tok)>,
    at: usize,
    len: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn offset(&self) -> usize {
        self.toks.get(self.at).map_or(self.len, |(o, _)| *o)
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, ExpectError> {
        Err(ExpectError {
            offset: self.offset(),
            message: message.into(),
        })
    }

    fn peek_word(&self) -> Option<&str> {
        match self.toks.get(self.at) {
            Some((_, Tok::Word(w))) => Some(w),
            _ => None,
        }
    }

    fn eat_word(&mut self, word: &str) -> bool {
        if self.peek_word() == Some(word) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect_word(&mut self, word: &str, what: &str) -> Result<(), ExpectError> {
        if self.eat_word(word) {
            Ok(())
        } else {
            self.error(format!("expected `{word}` {what}{}", self.found()))
        }
    }

    fn punct(&mut self, p: &str) -> Result<(), ExpectError> {
        match self.toks.get(self.at) {
            Some((_, Tok::Punct(q))) if *q == p => {
                self.at += 1;
                Ok(())
            }
            _ => self.error(format!("expected `{p}`{}", self.found())),
        }
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        self.punct(p).is_ok()
    }

    /// ", found `x`" or ", found the end".
    fn found(&self) -> String {
        match self.toks.get(self.at) {
            Some((o, _)) => {
                let rest = &self.text[*o..];
                let end = rest
                    .char_indices()
                    .find(|(_, c)| c.is_whitespace())
                    .map_or(rest.len(), |(i, _)| i)
                    .max(1);
                format!(", found `{}`", &rest[..end])
            }
            None => ", found the end".to_owned(),
        }
    }

    fn name(&mut self, what: &str) -> Result<String, ExpectError> {
        match self.toks.get(self.at) {
            Some((_, Tok::Word(w) | Tok::Quoted(w))) => {
                let w = w.clone();
                self.at += 1;
                Ok(w)
            }
            _ => self.error(format!("expected {what}{}", self.found())),
        }
    }

    fn number(&mut self, what: &str) -> Result<f64, ExpectError> {
        let at = self.at;
        match self.peek_word().map(str::parse::<f64>) {
            Some(Ok(v)) if v.is_finite() => {
                self.at += 1;
                Ok(v)
            }
            _ => {
                self.at = at;
                self.error(format!("expected {what}{}", self.found()))
            }
        }
    }

    fn integer(&mut self, what: &str) -> Result<u64, ExpectError> {
        match self.peek_word().map(str::parse::<u64>) {
            Some(Ok(v)) => {
                self.at += 1;
                Ok(v)
            }
            _ => self.error(format!("expected {what}{}", self.found())),
        }
    }

    fn cmp(&mut self) -> Result<Cmp, ExpectError> {
        let cmp = match self.toks.get(self.at) {
            Some((_, Tok::Punct("<"))) => Cmp::Lt,
            Some((_, Tok::Punct("<="))) => Cmp::Le,
            Some((_, Tok::Punct(">"))) => Cmp::Gt,
            Some((_, Tok::Punct(">="))) => Cmp::Ge,
            Some((_, Tok::Punct("=="))) => Cmp::Eq,
            Some((_, Tok::Punct("!="))) => Cmp::Ne,
            _ => {
                return self.error(format!(
                    "expected a comparison (<, <=, >, >=, ==, !=){}",
                    self.found()
                ));
            }
        };
        self.at += 1;
        Ok(cmp)
    }

    /// `==` (true) or `!=` (false).
    fn equality(&mut self) -> Result<bool, ExpectError> {
        if self.eat_punct("==") {
            Ok(true)
        } else if self.eat_punct("!=") {
            Ok(false)
        } else {
            self.error(format!("expected `==` or `!=`{}", self.found()))
        }
    }

    fn condition(&mut self) -> Result<Condition, ExpectError> {
        let start = self.at;
        let Some(word) = self.peek_word().map(str::to_owned) else {
            return self.error(format!(
                "expected a condition: sees(...), state(...), reaches(...), count(...), \
                 distance(...), no script errors or hash == \"...\"{}",
                self.found()
            ));
        };
        self.at += 1;
        match word.as_str() {
            "sees" => self.condition_sees(),
            "state" => self.condition_state(),
            "reaches" => self.condition_reaches(),
            "count" => self.condition_count(),
            "distance" => self.condition_distance(),
            "no" => {
                self.expect_word("script", "(no script errors)")?;
                self.expect_word("errors", "(no script errors)")?;
                Ok(Condition::ScriptError)
            }
            "hash" => self.condition_hash(),
            other => {
                self.at = start;
                let hint = crate::format::diag::hint(
                    other,
                    [
                        "sees", "state", "reaches", "count", "distance", "no", "hash",
                    ],
                );
                self.error(format!("unknown condition `{other}`{hint}"))
            }
        }
    }

    /// `sees(AGENT, TARGET[, SENSE])`, after the word.
    fn condition_sees(&mut self) -> Result<Condition, ExpectError> {
        self.punct("(")?;
        let agent = self.name("the observer's name")?;
        self.punct(",")?;
        let target = self.name("the name of the agent it sees")?;
        let sense = if self.eat_punct(",") {
            Some(self.name("a sense's name")?)
        } else {
            None
        };
        self.punct(")")?;
        Ok(Condition::Sees {
            agent,
            target,
            sense,
        })
    }

    /// `state(AGENT) ==|!= STATE`, after the word.
    fn condition_state(&mut self) -> Result<Condition, ExpectError> {
        self.punct("(")?;
        let agent = self.name("an agent's name")?;
        self.punct(")")?;
        let equal = self.equality()?;
        let state = self.name("a state (random_walk, chase, evade or a script's)")?;
        Ok(Condition::State {
            agent,
            equal,
            state,
        })
    }

    /// `reaches(AGENT, waypoint ID)`, after the word.
    fn condition_reaches(&mut self) -> Result<Condition, ExpectError> {
        self.punct("(")?;
        let agent = self.name("an agent's name")?;
        self.punct(",")?;
        self.expect_word("waypoint", "before the waypoint's id")?;
        let id = self.integer("a waypoint id")?;
        self.punct(")")?;
        let waypoint = u32::try_from(id).or_else(|_| self.error("waypoint ids fit in 32 bits"))?;
        Ok(Condition::Reaches { agent, waypoint })
    }

    /// `count(state ==|!= STATE) CMP N`, after the word.
    fn condition_count(&mut self) -> Result<Condition, ExpectError> {
        self.punct("(")?;
        self.expect_word("state", "(count(state == NAME))")?;
        let equal = self.equality()?;
        let state = self.name("a state's name")?;
        self.punct(")")?;
        let cmp = self.cmp()?;
        let value = self.number("a number of agents")?;
        Ok(Condition::Count {
            state,
            equal,
            cmp,
            value,
        })
    }

    /// `distance(A, B) CMP D`, after the word.
    fn condition_distance(&mut self) -> Result<Condition, ExpectError> {
        self.punct("(")?;
        let a = self.name("an agent's name")?;
        self.punct(",")?;
        let b = self.name("an agent's name")?;
        self.punct(")")?;
        let cmp = self.cmp()?;
        let value = self.number("a distance in world units")?;
        Ok(Condition::Distance { a, b, cmp, value })
    }

    /// `hash == HEX` (16 hex digits), after the word.
    fn condition_hash(&mut self) -> Result<Condition, ExpectError> {
        self.punct("==")?;
        let at = self.at;
        let hex = self.name("a state hash of 16 hex digits")?;
        match u64::from_str_radix(&hex, 16) {
            Ok(h) if hex.len() == 16 => Ok(Condition::Hash(h)),
            _ => {
                self.at = at;
                self.error(format!(
                    "`{hex}` is not a state hash: 16 hex digits, as `kiai run` prints"
                ))
            }
        }
    }

    fn window(&mut self) -> Result<Option<Window>, ExpectError> {
        let Some(word) = self.peek_word().map(str::to_owned) else {
            return Ok(None);
        };
        self.at += 1;
        let window = match word.as_str() {
            "within" => {
                let n = self.integer("a number of ticks")?;
                self.eat_word("ticks");
                self.eat_word("tick");
                Window::Within(n)
            }
            "at" => {
                if self.eat_word("end") {
                    Window::End
                } else {
                    self.expect_word("tick", "(at tick N, or at end)")?;
                    Window::At(self.integer("a tick")?)
                }
            }
            "before" => {
                self.expect_word("tick", "(before tick N)")?;
                Window::Before(self.integer("a tick")?)
            }
            "eventually" => Window::Eventually,
            other => {
                self.at -= 1;
                return self.error(format!(
                    "unexpected `{other}`: a window is `within N ticks`, `at tick N`, \
                     `before tick N`, `at end` or `eventually`"
                ));
            }
        };
        Ok(Some(window))
    }
}

/// Parses one expectation.
pub fn parse_expectation(text: &str) -> Result<Expectation, ExpectError> {
    let mut p = Parser {
        toks: tokens(text)?,
        at: 0,
        len: text.len(),
        text,
    };
    let quantifier = if p.eat_word("never") {
        Quantifier::Never
    } else if p.eat_word("always") {
        Quantifier::Always
    } else {
        Quantifier::Exists
    };
    let condition = p.condition()?;
    let given = p.window()?;
    if p.at < p.toks.len() {
        return p.error(format!(
            "unexpected text after the expectation{}",
            p.found()
        ));
    }
    let (quantifier, window) = match (&condition, given) {
        (Condition::ScriptError, _) if quantifier != Quantifier::Exists => {
            return Err(ExpectError {
                offset: 0,
                message: "`no script errors` takes no `never` or `always`".into(),
            });
        }
        (Condition::ScriptError, w) => (Quantifier::Never, w.unwrap_or(Window::Eventually)),
        (Condition::Hash(_), w) => (quantifier, w.unwrap_or(Window::End)),
        (_, w) => (quantifier, w.unwrap_or(Window::Eventually)),
    };
    Ok(Expectation {
        text: text.to_owned(),
        quantifier,
        condition,
        window,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests: a panic is the failure report
mod tests {
    use super::*;

    fn parse(t: &str) -> Expectation {
        parse_expectation(t).unwrap_or_else(|e| panic!("{t}: {e}"))
    }

    #[test]
    fn the_forms_of_the_issue_parse() {
        let e = parse(r#"sees("guard_1", "intruder") within 120 ticks"#);
        assert_eq!(e.quantifier, Quantifier::Exists);
        assert_eq!(e.window, Window::Within(120));
        assert_eq!(e.agents(), ["guard_1", "intruder"]);
        let e = parse("never sees(guard_1, intruder, eyes)");
        assert_eq!(
            (e.quantifier, e.window),
            (Quantifier::Never, Window::Eventually)
        );
        assert!(matches!(e.condition, Condition::Sees { sense: Some(ref s), .. } if s == "eyes"));
        let e = parse(r#"state("guard_1") == "chase" at tick 200"#);
        assert_eq!(e.window, Window::At(200));
        let e = parse(r#"reaches("scout", waypoint 42) before tick 900"#);
        assert_eq!(
            e.condition,
            Condition::Reaches {
                agent: "scout".into(),
                waypoint: 42
            }
        );
        assert_eq!(e.window.ticks(1000), (1, 899));
        let e = parse(r#"count(state == "evade") >= 10 at end"#);
        assert!(
            matches!(e.condition, Condition::Count { cmp: Cmp::Ge, value, .. } if value == 10.0)
        );
        let e = parse("distance(a, b) < 2.0 eventually");
        assert!(matches!(
            e.condition,
            Condition::Distance { cmp: Cmp::Lt, .. }
        ));
        let e = parse("no script errors");
        assert_eq!(
            (e.quantifier, e.condition),
            (Quantifier::Never, Condition::ScriptError)
        );
        let e = parse(r#"hash == "e183cec25adeac31""#);
        assert_eq!(e.window, Window::End);
        assert_eq!(e.condition, Condition::Hash(0xe183_cec2_5ade_ac31));
        let e = parse("always distance('big guard', b) > 3");
        assert_eq!(e.agents(), ["big guard", "b"]);
    }

    #[test]
    fn mistakes_point_at_their_offset_with_what_is_expected() {
        let err = |t: &str| parse_expectation(t).unwrap_err();
        let e = err("see(a, b)");
        assert_eq!(e.offset, 0);
        assert!(e.message.contains("did you mean `sees`?"), "{e}");
        let e = err("sees(a b)");
        assert_eq!(
            (e.offset, e.message.as_str()),
            (7, "expected `,`, found `b)`")
        );
        let e = err("sees(a, b) within soon");
        assert_eq!(e.offset, 18);
        assert!(e.message.starts_with("expected a number of ticks"), "{e}");
        let e = err("hash == \"abc\"");
        assert!(e.message.contains("16 hex digits"), "{e}");
        let e = err("sees(a, b) whenever");
        assert!(e.message.contains("a window is"), "{e}");
        let e = err("sees(\"a, b)");
        assert!(e.message.contains("not closed"), "{e}");
        let e = err("count(state == chase) > lots");
        assert!(e.message.contains("a number of agents"), "{e}");
    }
}
