//! JUnit XML for `kiai test --junit`: `testsuites` / `testsuite` /
//! `testcase` with `failure` or `error`, the shape CI systems read.

use std::fmt::Write as _;

use kiai::scenario::Outcome;

/// A scenario file that did not load (its diagnostics).
pub(crate) struct Broken {
    /// The scenario's name.
    pub(crate) name: String,
    /// The file.
    pub(crate) file: String,
    /// Its diagnostics, one per line.
    pub(crate) message: String,
}

/// Escapes text for XML attributes and content.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' => out.push(c),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

/// The report: one `testsuite` named `suite` holding one `testcase` per
/// scenario (loaded or not), times in seconds.
pub(crate) fn report(suite: &str, outcomes: &[Outcome], broken: &[Broken], seconds: f64) -> String {
    let failures = outcomes.iter().filter(|o| !o.ok).count();
    let tests = outcomes.len() + broken.len();
    let errors = broken.len();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let head = format!(
        "tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{seconds:.3}\""
    );
    let _ = writeln!(x, "<testsuites name=\"kiai test\" {head}>");
    let _ = writeln!(
        x,
        "  <testsuite name=\"{}\" {head} skipped=\"0\">",
        escape(suite)
    );
    for o in outcomes {
        let _ = write!(
            x,
            "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" time=\"{:.3}\"",
            escape(&o.name),
            escape(suite),
            escape(&o.file),
            o.elapsed.as_secs_f64()
        );
        match &o.failure {
            None if o.ok => x.push_str("/>\n"),
            failure => {
                let (message, body) = match failure {
                    Some(f) => {
                        let mut body = f.to_string();
                        for w in &f.why {
                            body.push_str(&format!("\nwhy {w}"));
                        }
                        (format!("`{}` {}", f.expectation, f.message), body)
                    }
                    None => {
                        let notes = o.notes.join("\n");
                        ("the run could not start".to_owned(), notes)
                    }
                };
                let _ = write!(
                    x,
                    ">\n      <failure message=\"{}\" type=\"expectation\">{}</failure>\n    </testcase>\n",
                    escape(&message),
                    escape(&body)
                );
            }
        }
    }
    for b in broken {
        let _ = write!(
            x,
            "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" time=\"0.000\">\n      <error message=\"the scenario does not load\" type=\"scenario\">{}</error>\n    </testcase>\n",
            escape(&b.name),
            escape(suite),
            escape(&b.file),
            escape(&b.message)
        );
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}
