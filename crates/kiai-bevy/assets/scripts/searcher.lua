-- searcher.lua: the stealth example's guard. It chases the thief it sees;
-- when it loses sight it searches the last place it saw the thief for a
-- while ("search"); a thief heard running is investigated the same way.
-- Otherwise the guard patrols (nil: the default decision).

local SEARCH_TICKS = 100   -- how long a lost trail is followed (20 ticks/s: 5 s)

function decide(agent, ctx)
  local thief = agent:nearest("eyes")
  if thief then
    local x, y, z = kiai.position(thief)
    agent.memory.last_seen = { x, y, z, ctx.tick }
    return "chase", thief
  end
  local loudness, _, hx, hy, hz = agent:heard("ears")
  if loudness then
    agent.memory.last_seen = { hx, hy, hz, ctx.tick }
  end
  local seen = agent.memory.last_seen
  if seen and ctx.tick - seen[4] < SEARCH_TICKS then
    local px, _, pz = agent:position()
    if (px - seen[1]) ^ 2 + (pz - seen[3]) ^ 2 > 1 then
      return "search", nil, seen[1], seen[2], seen[3]
    end
  end
  return nil
end
