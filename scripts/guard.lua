-- guard.lua: article 003's guard. A hostile in sight is chased. A loud sound
-- makes the guard hostile (chase whoever made it); a quiet one makes it
-- alert: it goes to look where the sound came from ("investigate"). A
-- captain's radio (tag 1) sends it to the captain's position.

local LOUD = 2.0      -- perceived loudness from which a sound is a threat
local ALERT_TICKS = 80

function decide(agent, ctx)
  local enemy = agent:nearest("eyes")
  if enemy then
    return "chase", enemy
  end
  local loudness, source, x, y, z = agent:heard("ears")
  if loudness then
    if loudness >= LOUD and source and agent:is_hostile(source) then
      return "chase", source
    end
    agent.memory.alert = { x, y, z, ctx.tick }
  end
  local a = agent.memory.alert
  if a and ctx.tick - a[4] < ALERT_TICKS then
    local px, _, pz = agent:position()
    if (px - a[1]) ^ 2 + (pz - a[3]) ^ 2 > 4 then
      return "investigate", nil, a[1], a[2], a[3]
    end
  end
  return nil
end

function on_message(agent, from, tag, x, y, z)
  if tag == 1 then
    agent.memory.alert = { x, y, z, kiai.tick() }
  end
end
