//! What a scripted agent remembers: its `agent.memory` table read through
//! the script's own sandbox (the console's read-only evaluation, which
//! cannot change the run), as a tree of keys and values.

use std::collections::BTreeSet;

/// Keys listed at most (the rest is summed up as one line).
pub const MAX_ENTRIES: usize = 500;

/// Nesting shown at most.
pub const MAX_DEPTH: usize = 8;

/// One key of the memory (or of a table in it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// How deep: 0 for `agent.memory`'s own keys.
    pub depth: usize,
    /// The key as Lua writes it: `home`, `[1]`, `["two words"]`.
    pub key: String,
    /// Where it is from `agent.memory`: `goto.[1]`.
    pub path: String,
    /// Its value as Lua prints it (strings quoted); `{n}` for a table of
    /// n keys.
    pub value: String,
    /// Whether the value is a table (its keys follow, one deeper).
    pub table: bool,
}

/// The memory of one agent at one tick.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The agent's slot.
    pub agent: usize,
    /// The tick it was read at.
    pub tick: u64,
    /// Its keys, depth first, each table's keys sorted.
    pub entries: Vec<Entry>,
    /// Paths whose value differs from the tick read before (added keys
    /// included), for the same agent.
    pub changed: BTreeSet<String>,
    /// Why it could not be read (no script, the script did not load).
    pub error: Option<String>,
}

impl Memory {
    /// The memory read from [`dump`]'s output, compared with `before` (the
    /// same agent's memory read earlier, if any).
    pub fn read(agent: usize, tick: u64, text: &str, before: Option<&Memory>) -> Self {
        let entries = parse(text);
        let changed = match before {
            Some(b) if b.agent == agent && b.tick != tick => {
                let old: std::collections::BTreeMap<&str, &str> = b
                    .entries
                    .iter()
                    .map(|e| (e.path.as_str(), e.value.as_str()))
                    .collect();
                entries
                    .iter()
                    .filter(|e| old.get(e.path.as_str()) != Some(&e.value.as_str()))
                    .map(|e| e.path.clone())
                    .collect()
            }
            Some(b) if b.agent == agent => b.changed.clone(),
            _ => BTreeSet::new(),
        };
        Self {
            agent,
            tick,
            entries,
            changed,
            error: None,
        }
    }

    /// The value at top-level key `key`, as shown.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.depth == 0 && e.key == key)
            .map(|e| e.value.as_str())
    }
}

/// Lua statements (for the console's sandbox, with `agent` bound) that
/// return the value of the expression `root` as lines of `depth TAB key
/// TAB value [TAB table]`, keys sorted, tables expanded up to
/// [`MAX_DEPTH`], at most [`MAX_ENTRIES`] keys.
pub fn dump(root: &str) -> String {
    format!(
        r#"local root = {root}
local out, seen, count = {{}}, {{}}, 0
local function show(v)
  if type(v) == "string" then return (string.format("%q", v):gsub("\\\n", "\\n")) end
  return tostring(v)
end
local function name(k)
  if type(k) == "string" then
    if k:match("^[%a_][%w_]*$") then return k end
    return "[" .. show(k) .. "]"
  end
  return "[" .. tostring(k) .. "]"
end
local function less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end
local function walk(t, depth)
  seen[t] = true
  local keys = {{}}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, less)
  for _, k in ipairs(keys) do
    count = count + 1
    if count > {MAX_ENTRIES} then out[#out + 1] = depth .. "\t...\t(more keys)"; return end
    local v = t[k]
    if type(v) == "table" and not seen[v] then
      local n = 0
      for _ in pairs(v) do n = n + 1 end
      out[#out + 1] = depth .. "\t" .. name(k) .. "\t{{" .. n .. "}}\ttable"
      if depth < {MAX_DEPTH} then walk(v, depth + 1) end
    elseif type(v) == "table" then
      out[#out + 1] = depth .. "\t" .. name(k) .. "\t(a table shown above)"
    else
      out[#out + 1] = depth .. "\t" .. name(k) .. "\t" .. show(v)
    end
  end
end
if type(root) == "table" then walk(root, 0)
elseif root ~= nil then out[1] = "0\t=\t" .. show(root) end
return table.concat(out, "\n")"#
    )
}

/// The entries of [`dump`]'s output, with their paths.
pub fn parse(text: &str) -> Vec<Entry> {
    let mut stack: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let mut parts = line.splitn(4, '\t');
        let (Some(depth), Some(key), Some(value)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(depth) = depth.parse::<usize>() else {
            continue;
        };
        stack.truncate(depth);
        let path = if stack.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", stack.join("."))
        };
        let table = parts.next() == Some("table");
        if table {
            stack.push(key.to_owned());
        }
        out.push(Entry {
            depth,
            key: key.to_owned(),
            path,
            value: value.to_owned(),
            table,
        });
    }
    out
}

/// A short form of [`dump`]'s output for one value: the value itself, or
/// a table's first keys (`{home={3}, mode="idle"}`), or `nil`.
pub fn summary(text: &str) -> String {
    let entries = parse(text);
    match entries.as_slice() {
        [] => "nil".to_owned(),
        [e] if e.key == "=" => e.value.clone(),
        _ => {
            let mut s = String::from("{");
            for (i, e) in entries.iter().filter(|e| e.depth == 0).enumerate() {
                if s.len() > 60 {
                    s.push_str(", …");
                    break;
                }
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(&format!("{}={}", e.key, e.value));
            }
            s.push('}');
            s
        }
    }
}

/// A Lua string literal of `s` (for a key typed by the user).
pub fn lua_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\{}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_tables_have_paths_and_changes_are_found() {
        let before = Memory::read(
            3,
            10,
            "0\thome\t{3}\ttable\n1\t[1]\t1.0\n1\t[2]\t0.0\n1\t[3]\t2.0\n0\tmode\t\"idle\"",
            None,
        );
        assert_eq!(before.entries[1].path, "home.[1]");
        assert_eq!(before.get("mode"), Some("\"idle\""));
        let after = Memory::read(
            3,
            11,
            "0\thome\t{3}\ttable\n1\t[1]\t1.0\n1\t[2]\t5.0\n1\t[3]\t2.0\n0\tmode\t\"idle\"\n0\tnew\ttrue",
            Some(&before),
        );
        let changed: Vec<&str> = after.changed.iter().map(String::as_str).collect();
        assert_eq!(changed, ["home.[2]", "new"]);
    }
}
