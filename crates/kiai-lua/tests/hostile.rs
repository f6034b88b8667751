//! The hostile corpus: scripts that try to escape the sandbox, hang, exhaust
//! memory, crash the host or disturb another mod. For each: no escape (no
//! agent ends up labelled "escaped"), no hang (bounded wall time), the
//! simulation goes on, the same seed gives the same state hash, and a second
//! script (the thieves' probe) still sees an intact sandbox.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use std::time::{Duration, Instant};

use kiai_core::AgentId;

/// The thieves' script: checks its own sandbox every tick.
const PROBE: &str = r#"
local upper, floor, pc = string.upper, math.floor, pcall
function decide(agent, ctx)
    local ok = string.upper == upper and upper("a") == "A" and math.floor == floor
        and floor(2.5) == 2 and pcall == pc and pcall(function() end)
        and evil == nil and ("x"):rep(3) == "xxx" and type(kiai.tick) == "function"
        and kiai.tick() == ctx.tick and getmetatable("") == false
    if ok then return "probe_ok" end
    return "probe_bad"
end
"#;

const CORPUS: &[(&str, &str)] = &[
    // Removed functions and libraries.
    (
        "io",
        "function decide() if io ~= nil then return 'escaped' end return io.open('/etc/passwd') end",
    ),
    (
        "os",
        "function decide() if os ~= nil then return 'escaped' end return os.execute('true') end",
    ),
    ("os_time", "function decide() return os.time() end"),
    (
        "package",
        "function decide() if package ~= nil then return 'escaped' end return package.loadlib('x', 'y') end",
    ),
    (
        "require",
        "function decide() if require ~= nil then return 'escaped' end return require('os') end",
    ),
    (
        "debug",
        "function decide() if debug ~= nil then return 'escaped' end return debug.getregistry() end",
    ),
    (
        "load",
        "function decide() if load ~= nil then return 'escaped' end return load('return 1')() end",
    ),
    (
        "loadstring",
        "function decide() if loadstring ~= nil then return 'escaped' end return loadstring('x')() end",
    ),
    (
        "dofile",
        "function decide() if dofile ~= nil then return 'escaped' end return dofile('/etc/passwd') end",
    ),
    (
        "loadfile",
        "function decide() if loadfile ~= nil then return 'escaped' end return loadfile('/etc/passwd') end",
    ),
    (
        "string_dump",
        "function decide() if string.dump ~= nil then return 'escaped' end return string.dump(decide) end",
    ),
    (
        "load_string_dump",
        "function decide() return load(string.dump(function() return 'escaped' end))() end",
    ),
    (
        "collectgarbage_collect",
        "function decide() collectgarbage('collect') return 'escaped' end",
    ),
    (
        "collectgarbage_stop",
        "function decide() collectgarbage('stop') return 'escaped' end",
    ),
    (
        "collectgarbage_count_ok",
        "function decide() if type(collectgarbage('count')) ~= 'number' then return 'escaped' end end",
    ),
    (
        "randomseed",
        "function decide() math.randomseed(1) return 'escaped' end",
    ),
    (
        "warn",
        "function decide() warn('@on') warn('x') return 'escaped' end",
    ),
    ("getfenv", "function decide() return getfenv(1) end"),
    (
        "format_p",
        "function decide() return string.format('%p', {}) end",
    ),
    (
        "tostring_address",
        "function decide() if tostring({}):find('0x') or tostring(print):find('0x') then return 'escaped' end end",
    ),
    (
        "module_env",
        "function decide() if _ENV.io or _G.io or _G.os then return 'escaped' end end",
    ),
    // Binary chunks.
    ("binary_chunk", "\x1bLua\x54\x00\x19\r\n\x1a\n\x04\x08\x08"),
    (
        "binary_via_string",
        "function decide() return load('\\27Lua', 'x', 'b') end",
    ),
    // Infinite loops.
    ("loop_plain", "function decide() while true do end end"),
    ("loop_repeat", "function decide() repeat until false end"),
    ("loop_goto", "function decide() ::top:: goto top end"),
    (
        "loop_for_huge",
        "function decide() local x = 0 for i = 1, math.maxinteger do x = x + i end end",
    ),
    (
        "loop_in_pcall",
        "function decide() pcall(function() while true do end end) return 'escaped' end",
    ),
    (
        "loop_pcall_retry",
        "function decide() while true do pcall(function() while true do end end) end end",
    ),
    (
        "loop_xpcall_handler",
        "function decide() xpcall(function() error('x') end, function() while true do end end) return 'escaped' end",
    ),
    (
        "loop_error_handler_retry",
        "function decide() while true do xpcall(function() while true do end end, function(e) return e end) end end",
    ),
    (
        "loop_coroutine_wrap",
        "function decide() coroutine.wrap(function() while true do end end)() return 'escaped' end",
    ),
    (
        "loop_coroutine_resume",
        "function decide() local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end end",
    ),
    (
        "loop_coroutine_yield",
        "function decide() local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end end",
    ),
    (
        "loop_metamethod_index",
        "function decide() local t = setmetatable({}, {__index = function() while true do end end}) return t.x end",
    ),
    (
        "loop_metamethod_add",
        "function decide() local t = setmetatable({}, {__add = function() while true do end end}) return t + 1 end",
    ),
    (
        "loop_metamethod_eq",
        "function decide() local m = {__eq = function() while true do end end} return setmetatable({}, m) == setmetatable({}, m) end",
    ),
    (
        "loop_gsub_callback",
        "function decide() return ('aaaa'):gsub('a', function() while true do end end) end",
    ),
    (
        "loop_sort_comparator",
        "function decide() local t = {3, 2, 1} table.sort(t, function() while true do end end) end",
    ),
    (
        "loop_gc",
        "function decide() setmetatable({}, {__gc = function() while true do end end}) return 'escaped' end",
    ),
    (
        "loop_close",
        "function decide() local x <close> = setmetatable({}, {__close = function() while true do end end}) end",
    ),
    (
        "loop_tostring_error",
        "function decide() error(setmetatable({}, {__tostring = function() while true do end end})) end",
    ),
    ("loop_top_level", "while true do end"),
    (
        "loop_in_event",
        "function on_spawn() while true do end end function decide() return nil end",
    ),
    (
        "loop_in_on_seen",
        "function on_seen() while true do end end",
    ),
    // Memory bombs.
    (
        "mem_concat_doubling",
        "function decide() local x = 'x' while true do x = x .. x end end",
    ),
    (
        "mem_string_rep",
        "function decide() return string.rep('x', 1e9) end",
    ),
    (
        "mem_string_rep_sep",
        "function decide() return ('x'):rep(1e6, ('y'):rep(1000)) end",
    ),
    (
        "mem_table_fill",
        "function decide() local t = {} local i = 0 while true do i = i + 1 t[i] = i end end",
    ),
    (
        "mem_nested_tables",
        "function decide() local t = {} while true do t = {t, t, t} end end",
    ),
    (
        "mem_across_ticks",
        "function decide(agent) local m = agent.memory m.junk = m.junk or {} for i = 1, 10000 do m.junk[#m.junk + 1] = ('z'):rep(100) .. i end end",
    ),
    (
        "mem_big_strings_loop",
        "function decide() local s = ('x'):rep(1000000) for i = 1, 1e9 do local y = s .. i end end",
    ),
    (
        "mem_coroutines",
        "function decide() local t = {} while true do t[#t + 1] = coroutine.create(function() end) end end",
    ),
    (
        "mem_table_concat",
        "function decide() local t = {} for i = 1, 1e7 do t[i] = 'abcdefgh' end return table.concat(t) end",
    ),
    (
        "mem_unpack",
        "function decide() return table.unpack({}, 1, 1e8) end",
    ),
    (
        "cpu_pattern",
        "function decide() return ('a'):rep(5000):find('.-.-.-.-.-b') end",
    ),
    (
        "cpu_pattern_gmatch",
        "function decide() for w in ('a'):rep(100000):gmatch('a*a*a*b') do end end",
    ),
    (
        "cpu_sort_huge",
        "function decide() local t = {} for i = 1, 1e6 do t[i] = -i end table.sort(t) end",
    ),
    // Deep recursion.
    (
        "recursion_plain",
        "local function f(n) return 1 + f(n + 1) end function decide() return f(1) end",
    ),
    (
        "recursion_in_pcall",
        "local function f() pcall(f) return f() end function decide() f() end",
    ),
    (
        "recursion_in_pcall_tree",
        "local function f() pcall(f) f() end function decide() f() end",
    ),
    (
        "recursion_metamethod",
        "local t = setmetatable({}, {}) getmetatable and nil; function decide() local m = {} m.__index = function(t, k) return t[k] end local x = setmetatable({}, m) return x.y end",
    ),
    (
        "recursion_tostring",
        "function decide() local m = {} m.__tostring = function(t) return tostring(t) end return tostring(setmetatable({}, m)) end",
    ),
    (
        "recursion_coroutines",
        "local function f() return coroutine.wrap(f)() end function decide() return f() end",
    ),
    (
        "recursion_gsub",
        "local function f(s) return (s:gsub('.', f)) end function decide() return f('abc') end",
    ),
    // Tampering with shared state and globals.
    (
        "string_metatable",
        "function decide() local m = getmetatable('') if m then m.__index = function() return 'escaped' end return 'escaped' end end",
    ),
    (
        "string_metatable_rawset",
        "function decide() rawset(getmetatable(''), '__index', {}) return 'escaped' end",
    ),
    (
        "string_table",
        "string.upper = function() return 'escaped' end function decide() return nil end",
    ),
    (
        "globals_wipe",
        "for k in pairs(_G) do _G[k] = nil end evil = true function decide() return nil end",
    ),
    (
        "globals_pcall",
        "pcall = function() return 'escaped' end math.floor = nil evil = 1 function decide() return nil end",
    ),
    (
        "agent_metatable",
        "function decide(agent) local m = getmetatable(agent) if m then m.__index = nil return 'escaped' end end",
    ),
    (
        "agent_id_spoof",
        "function decide(agent) rawset(agent, 0, 7) return 'chase', agent:nearest('eyes') end",
    ),
    (
        "agent_methods_steal",
        "local keep function decide(agent) if keep then return keep(agent) end keep = agent.position end",
    ),
    (
        "kiai_replace",
        "kiai = nil function decide() return nil end",
    ),
    (
        "random_top_level",
        "local r = math.random() function decide() return nil end",
    ),
    (
        "api_top_level",
        "local n = kiai.tick() function decide() return nil end",
    ),
    ("yield_outside", "function decide() coroutine.yield() end"),
    ("error_nil", "function decide() error() end"),
    ("error_table", "function decide() error({}) end"),
    (
        "message_flood",
        "function decide(agent) for i = 1, 1000 do agent:radio(1000, i) end end",
    ),
    (
        "sound_nan",
        "function decide(agent) agent:emit_sound(0/0) end",
    ),
    (
        "sound_huge",
        "function decide(agent) agent:emit_sound(1e300) end",
    ),
    (
        "send_bad_target",
        "function decide(agent) agent:send(-1, 1) end",
    ),
    ("bad_hook_type", "decide = 42"),
    ("returns_non_table", "return 42"),
    (
        "returns_hooks_table",
        "return { decide = function() return 'chase', -1 end }",
    ),
    (
        "string_rep_negative",
        "function decide() return ('x'):rep(-1) end",
    ),
    // Iteration order and identities: nothing a script sees may depend on
    // the process (addresses, the clock, the string-hash seed); every run
    // twice in one process must give the same hash, and the probe sees an
    // intact sandbox.
    (
        "freeze_keys_hidden",
        "function decide() if __kiai_freeze_keys ~= nil or rawget(_G, '__kiai_freeze_keys') ~= nil then return 'escaped' end end",
    ),
    (
        "format_s_address",
        "function decide() local s = string.format('%s %s %s', {}, print, coroutine.create(print)) if s:find('0x') or s:find('%x%x%x%x%x%x') then return 'escaped' end end",
    ),
    (
        "order_string_keys",
        "local t = {} for i = 1, 40 do t['k' .. i] = i end function decide() local _, v = next(t) return 'investigate', nil, v, 0, 0 end",
    ),
    (
        "order_table_keys",
        "function decide(agent) local t = {} for i = 1, 30 do t[{}] = i end local _, v = next(t) return 'investigate', nil, v, 0, -v end",
    ),
    (
        "order_function_and_thread_keys",
        "function decide() local t = {} for i = 1, 20 do t[function() return i end] = i t[coroutine.create(print)] = -i end for _, v in pairs(t) do return 'investigate', nil, v, 0, 0 end end",
    ),
    (
        "order_c_function_keys",
        "function decide() local t = {} for _, lib in ipairs({string, math, table}) do for _, f in pairs(lib) do t[f] = #t + 1 end end local n = 0 for k, v in pairs(t) do n = n * 31 + v end return 'investigate', nil, n % 17, 0, 0 end",
    ),
    (
        "order_agent_tables_as_keys",
        "seen = {} function decide(agent) seen[agent] = (seen[agent] or 0) + 1 local _, v = next(seen) for k in pairs(seen) do if k.id then return 'investigate', nil, k.id % 9, 0, v end end end",
    ),
    (
        "order_removal_during_traversal",
        "function decide() local t = {} for i = 1, 50 do t['x' .. i] = i t[{}] = i end local s = 0 for k, v in pairs(t) do t[k] = nil s = s * 3 + v end return 'investigate', nil, s % 13, 0, 0 end",
    ),
    (
        "order_sort_ties",
        "function decide() local t = {} for i = 1, 2000 do t[i] = { k = i % 3, i = i } end table.sort(t, function(a, b) return a.k < b.k end) return 'investigate', nil, t[1].i % 11, 0, t[700].i % 7 end",
    ),
    (
        "key_identities_flood",
        "keep = {} function decide() while true do keep[{}] = true end end",
    ),
    (
        "next_invalid_key",
        "function decide() return next({}, {}) end",
    ),
    (
        "setmetatable_gc_false",
        "function decide() local m = {__gc = false} setmetatable({}, m) m.__gc = function() while true do end end end",
    ),
    // agent:nearest and the batch driver are C functions: odd arguments,
    // odd results, calls from coroutines and from kept references.
    (
        "nearest_odd_arguments",
        "function decide(agent) local n = 0 for _, a in ipairs({ {agent}, {agent, nil}, {agent, 1.5}, {agent, {}}, {agent, 'eyes', {}}, {agent, 'eyes', 'any', 'extra', 'args'}, {setmetatable({}, {__index = function() return 7 end}), 'eyes'}, {'eyes'}, {} }) do if pcall(agent.nearest, table.unpack(a, 1, 6)) then n = n + 1 end end return 'investigate', nil, n, 0, 0 end",
    ),
    (
        "nearest_long_names",
        "function decide(agent) local ok, e = pcall(agent.nearest, agent, string.rep('\u{e9}', 2000)) return 'investigate', nil, #tostring(e) % 7, 0, 0 end",
    ),
    (
        "nearest_in_coroutines_and_kept",
        "local keep function decide(agent) keep = keep or agent.nearest local co = coroutine.wrap(function() coroutine.yield(keep(agent, 'eyes')) end) local h = co() if h then return 'chase', h end end",
    ),
    (
        "decide_returns_odd_values",
        "local k = 0 function decide(agent) k = k + 1 local r = { {'chase', 2^40}, {'chase', -1}, {'chase', 0.5}, {'evade', '3'}, {'random_walk', nil, 1}, {'chase', math.huge}, {{}}, {1, 2, 3, 4, 5} } return table.unpack(r[k % #r + 1], 1, 5) end",
    ),
];

fn labelled(d: &kiai_lua::LuaDecider, n: usize, label: &str) -> usize {
    (0..n)
        .filter(|&i| d.label(AgentId::from_index(i)) == Some(label))
        .count()
}

#[test]
fn the_corpus_is_big_enough() {
    assert!(CORPUS.len() >= 99, "{}", CORPUS.len());
}

#[test]
fn hostile_scripts_neither_escape_nor_hang_nor_break_determinism() {
    let mut slow = Vec::new();
    let only = std::env::var("KIAI_HOSTILE").ok();
    for (name, src) in CORPUS {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        eprintln!("hostile: {name}");
        let start = Instant::now();
        let (h1, mut d, world) = common::run(Some(src), Some(PROBE), 4);
        let took = start.elapsed();
        let n = world.agents().len();
        assert_eq!(labelled(&d, n, "escaped"), 0, "{name} escaped");
        assert_eq!(
            labelled(&d, n, "probe_ok"),
            4,
            "{name}: the other mod was disturbed"
        );
        // Every report names the script and a line or says what failed.
        for r in d.take_reports() {
            let text = r.error.to_string();
            assert!(
                text.starts_with("guard.lua") || text.starts_with("thief.lua"),
                "{name}: {text}"
            );
        }
        let (h2, _, _) = common::run(Some(src), Some(PROBE), 4);
        assert_eq!(h1, h2, "{name}: not deterministic");
        eprintln!("hostile: {name} took {took:?}");
        if took > Duration::from_secs(20) {
            slow.push((name, took));
        }
    }
    assert!(slow.is_empty(), "too slow (hang past budget?): {slow:?}");
}
