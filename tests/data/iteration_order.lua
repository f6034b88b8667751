-- Decisions taken from the first key `pairs` and `next` meet in tables
-- keyed by strings, numbers, tables, functions and coroutines: the same
-- in every process (tests/lua_determinism.rs, the editor's replay test).
local words = {}
for i = 1, 12 do words["key" .. i] = i end
local objects, functions, threads = {}, {}, {}
for i = 1, 8 do
  objects[{ i = i }] = i
  functions[function() return i end] = i
  threads[coroutine.create(function() return i end)] = i
end

local function first(t)
  for _, v in pairs(t) do return v end
end

function decide(agent, ctx)
  local _, s = next(words)
  local numbers = {}
  for i = 1, 6 do numbers[i * 1000 + agent.id * 7 + ctx.tick] = i end
  numbers[0.5 + ctx.tick] = 7
  local _, n = next(numbers)
  local m = agent.memory
  m.seen = m.seen or {}
  m.seen[{ tick = ctx.tick }] = ctx.tick % 5
  m.seen[string.format("t%d", ctx.tick)] = ctx.tick % 3
  local pick = (s + n + first(objects) + first(functions) + first(threads)
    + first(m.seen) + ctx.tick) % 4
  if pick == 0 then return "random_walk" end
  if pick == 1 then return "investigate", nil, s - 6, 0, n - 3 end
  if pick == 2 then return { state = "evade", goal = { n, 0, -s }, label = "scatter" } end
  local foe = agent:nearest("eyes")
  return "chase", foe
end
