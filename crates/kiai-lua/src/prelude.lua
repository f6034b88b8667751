-- kiai-lua sandbox prelude: runs once in every fresh state, before any
-- script, with the base, string, table, math, coroutine and utf8 libraries
-- loaded. Everything it keeps is captured as upvalues here, so scripts that
-- tamper with globals cannot change how the runtime behaves.
local guard, API, HOST, log, script_fn, kiai_names, agent_methods = ...

local error, type, rawget, rawset, select = error, type, rawget, rawset, select
local rawpcall, rawxpcall = pcall, xpcall
local rawsetmetatable, rawgetmetatable, rawtostring = setmetatable, getmetatable, tostring
local resume, close = coroutine.resume, coroutine.close
local sfind, srep, sformat, sgsub, smatch, sgmatch = string.find, string.rep, string.format, string.gsub, string.match, string.gmatch
local next, rawlen = next, rawlen
local rawcollect = collectgarbage
-- The host's switch for key identities (the patched Lua's base library):
-- the REPL runs with them frozen, so that it leaves no trace in the order
-- `next` visits table keys in later.
local freeze_keys = __kiai_freeze_keys
__kiai_freeze_keys = nil

-- Removed: anything that reads files, loads code or bytecode, or reaches the
-- host: load, loadstring, dofile, loadfile, require, string.dump, and the
-- (never loaded) io, os, package and debug libraries.
load, loadstring, dofile, loadfile, require, module = nil, nil, nil, nil, nil, nil
string.dump = nil
warn = nil
math.randomseed = nil

-- After an instruction budget tripped, catching the error must not let the
-- script go on: every protected call re-raises it.
-- Protected calls also nest at most MAX_NEST deep: far from Lua's C-stack
-- limit, where error handling itself starts to fail.
local MAX_NEST, nest = 64, 0
local function check(...)
  nest = nest - 1
  if guard[1] then error(guard[2], 0) end
  return ...
end
local function enter()
  if guard[1] then error(guard[2], 0) end
  if nest >= MAX_NEST then error("protected calls nested too deeply", 3) end
  nest = nest + 1
end
guard.reset_nest = function() nest = 0 end
pcall = function(f, ...) enter() return check(rawpcall(f, ...)) end
xpcall = function(f, h, ...)
  -- Once tripped, the user's handler does not run again (an error inside a
  -- handler calls the handler again).
  local function handler(e)
    if guard[1] then return e end
    return h(e)
  end
  enter()
  return check(rawxpcall(f, handler, ...))
end
coroutine.resume = function(c, ...) enter() return check(resume(c, ...)) end
coroutine.close = function(c) enter() return check(close(c)) end

-- Finalizers run with hooks off, so a looping __gc could never be stopped.
setmetatable = function(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("__gc metamethods are not allowed in kiai scripts", 2)
  end
  return rawsetmetatable(t, mt)
end

collectgarbage = function(opt)
  if opt == nil or opt == "count" then
    return rawcollect("count")
  end
  error("collectgarbage: only \"count\" is allowed", 2)
end

-- Addresses differ between runs: never show them.
tostring = function(v)
  local t = type(v)
  if t == "table" or t == "function" or t == "thread" or t == "userdata" then
    local mt = rawgetmetatable(v)
    if t == "table" and type(mt) == "table" and rawget(mt, "__tostring") ~= nil then
      return rawtostring(v)
    end
    -- The host's userdata (errors of host functions caught by pcall) show
    -- their message; one without a __tostring would show its address.
    if t == "userdata" then
      local s = rawtostring(v)
      if type(s) == "string" and sfind(s, "^userdata: ") == nil then
        return s
      end
    end
    return t
  end
  return rawtostring(v)
end

print = function(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = tostring((select(i, ...))) end
  log(table.concat(parts, "\t"))
end

-- C string functions are not interrupted by the instruction budget: bound
-- their work up front.
local MAX_REP = 1048576
string.rep = function(s, n, sep)
  local len = #tostring(s) + (sep and #tostring(sep) or 0)
  if type(n) == "number" and n * len > MAX_REP then
    error("string.rep: result longer than " .. MAX_REP .. " bytes", 2)
  end
  return srep(s, n, sep)
end
local safe_tostring, tpack, tunpack = tostring, table.pack, table.unpack
local shown_as_address = { table = true, ["function"] = true, thread = true, userdata = true }
string.format = function(fmt, ...)
  if type(fmt) == "string" and sfind(fmt, "%%[-+ #0-9.]*p") then
    error("string.format: %p is not allowed", 2)
  end
  -- `%s` shows a table, function, coroutine or userdata as its address:
  -- show it as `tostring` does.
  local n = select("#", ...)
  for i = 1, n do
    if shown_as_address[type((select(i, ...)))] then
      local args = tpack(...)
      for j = i, n do
        if shown_as_address[type(args[j])] then args[j] = safe_tostring(args[j]) end
      end
      return sformat(fmt, tunpack(args, 1, n))
    end
  end
  return sformat(fmt, ...)
end
local MAX_PATTERN_WORK = 1e9
local function bound(s, p, plain)
  if plain or type(s) ~= "string" or type(p) ~= "string" then return end
  local q = 0
  local i, n = 1, #p
  while i <= n do
    local c = p:byte(i)
    if c == 37 then i = i + 1 -- '%' escapes the next character
    elseif c == 42 or c == 43 or c == 45 or c == 63 then q = q + 1 end
    i = i + 1
  end
  if (#s + 1) ^ (q + 1) > MAX_PATTERN_WORK then
    error("pattern too complex for a subject of " .. #s .. " bytes", 3)
  end
end
string.find = function(s, p, init, plain) bound(s, p, plain) return sfind(s, p, init, plain) end
string.match = function(s, p, init) bound(s, p) return smatch(s, p, init) end
string.gmatch = function(s, p, init) bound(s, p) return sgmatch(s, p, init) end
string.gsub = function(s, p, r, n) bound(s, p) return sgsub(s, p, r, n) end

-- math.random draws from the current agent's own stream.
math.random = function(m, n) return API.random(m, n) end

-- The string metatable is shared by the whole state: hide it.
rawset(rawgetmetatable(""), "__metatable", false)

-- The host makes each tick's functions on first use (api.rs, `install`):
-- a name missing from `API` or `HOST` asks `API.__make` for it (there is
-- none before the first tick: the name is then nil, as it always was).
local function made(on_agent, name)
  local make = rawget(API, "__make")
  if make == nil then return nil end
  return make(on_agent, name)
end
rawsetmetatable(API, { __index = function(_, name) return made(false, name) end })
rawsetmetatable(HOST, { __index = function(_, name) return made(true, name) end })

-- The world API: thin wrappers so functions kept across ticks keep working
-- (`kiai_names`: every `kiai.*` function the host makes, in registry order).
kiai = {}
for _, name in ipairs(kiai_names) do
  local outside = "kiai." .. name .. " works only inside hooks (decide, on_seen, ...), not while the script loads"
  kiai[name] = function(...)
    local f = API[name]
    if f == nil then error(outside, 2) end
    return f(...)
  end
end

-- Sense names as small integers (the host's sense_ids.rs): each name a
-- script uses gets an id the first time, and queries pass the id, so no
-- string crosses into the host. `sense_ids` maps names and ids to ids.
local sense_ids, sense_names = {}, {}
local MAX_SENSE_NAMES = 4096
local function sense_id(sense)
  local s = sense_ids[sense]
  if s ~= nil then return s end
  if type(sense) ~= "string" then
    error("a sense is a name or an id from kiai.sense(name), not " .. tostring(sense), 3)
  end
  s = #sense_names + 1
  if s > MAX_SENSE_NAMES then
    error("a script may use at most " .. MAX_SENSE_NAMES .. " sense names", 3)
  end
  sense_names[s] = sense
  sense_ids[sense] = s
  sense_ids[s] = s
  return s
end
kiai.sense = function(name)
  local s = sense_id(name)
  return s
end

-- `nearest`'s filters as integers; nil is "hostile".
local filter_ids = { hostile = 1, friendly = 2, any = 3 }
local function filter_id(filter)
  local f = filter_ids[filter]
  if f == nil then
    error('filter must be "hostile", "friendly" or "any", not "' .. tostring(filter) .. '"', 3)
  end
  return f
end

-- Agent methods: the metatable's __index. Each passes the agent's handle
-- (`agent[0]`) instead of its table, so that the host converts integers
-- only; `HOST` holds this tick's host functions. (`agent_methods` leaves
-- out `nearest`: the host adds it to `M`, one C function that does what
-- these wrappers do, api/raw_nearest.rs.)
local M = {}
local function method(name, n)
  if n == 0 then return function(self) return HOST[name](self[0]) end end
  if n == 1 then return function(self, a) return HOST[name](self[0], a) end end
  if n == 2 then return function(self, a, b) return HOST[name](self[0], a, b) end end
  return function(self, ...) return HOST[name](self[0], ...) end
end
for _, m in ipairs(agent_methods) do
  M[m[1]] = method(m[1], m[2])
end
-- The sense queries resolve the sense here (`nearest` resolves it, and
-- its filter, with the tables and functions returned below).
M.sees = function(self, sense)
  return HOST.sees(self[0], sense_ids[sense] or sense_id(sense))
end
M.sensed = function(self, sense, into)
  return HOST.sensed(self[0], sense_ids[sense] or sense_id(sense), into)
end
M.heard = function(self, sense)
  return HOST.heard(self[0], sense_ids[sense] or sense_id(sense))
end
M.sounds = function(self, sense, into)
  return HOST.sounds(self[0], sense_ids[sense] or sense_id(sense), into)
end

-- Read-only views for the host's REPL: reads see through, raw (no script
-- metamethod runs), tables come back as views too, the script's own
-- functions come back as functions that refuse to run (they could change
-- its state), and writes are refused: what is typed there cannot reach the
-- run.
local views = rawsetmetatable({}, { __mode = "k" })
local function refuse()
  error("the REPL cannot change the run (assign to a new global instead)", 2)
end
local function refuse_call()
  error("the REPL does not call the script's own functions (they could change the run)", 2)
end
local view
local function proxy(v, lookup)
  local p = {}
  rawsetmetatable(p, {
    __index = function(_, k) return lookup(k) end,
    __newindex = refuse,
    __len = function() return rawlen(v) end,
    __pairs = function()
      local key = nil
      return function()
        local value
        key, value = next(v, key)
        return view(key), view(value)
      end, p, nil
    end,
    __metatable = false,
  })
  views[v] = p
  return p
end
view = function(v)
  local t = type(v)
  if t == "function" then
    if script_fn(v) then return refuse_call end
    return v
  end
  if t ~= "table" then return v end
  return views[v] or proxy(v, function(k) return view(rawget(v, k)) end)
end
-- An agent's table: its fields as views, its methods (the host's) as they
-- are, its index raw so that methods called on the view find the agent.
API.__view = view
API.__freeze_keys = freeze_keys
API.__view_agent = function(v)
  local p = views[v] or proxy(v, function(k)
    local raw = rawget(v, k)
    if raw == nil then return M[k] end
    return view(raw)
  end)
  rawset(p, 0, rawget(v, 0))
  return p
end

-- The batch driver is the host's (driver.rs).
return M, sense_names, { sense_ids, sense_id, filter_ids, filter_id }
