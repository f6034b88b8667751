-- captain.lua: article 003's captain. When it sees a hostile it radios every
-- guard of its faction to come to its position (tag 1, at most every 20
-- ticks) and holds its ground ("command").

local EVERY = 20

function decide(agent, ctx)
  local enemy = agent:nearest("eyes")
  if not enemy then
    return nil
  end
  local m = agent.memory
  if not m.last or ctx.tick - m.last >= EVERY then
    agent:broadcast(1) -- to the faction, at the captain's position
    m.last = ctx.tick
  end
  return { state = "command", target = enemy }
end
