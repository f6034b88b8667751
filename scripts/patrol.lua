-- patrol.lua: walks a loop of waypoints and chases hostiles on sight; after
-- a chase it resumes the loop at the nearest waypoint.

local route = {
  { -30, 0, -30 }, { 30, 0, -30 }, { 30, 0, 30 }, { -30, 0, 30 },
}

local function nearest_leg(x, z)
  local best, bd = 1, math.huge
  for i, p in ipairs(route) do
    local d = (x - p[1]) ^ 2 + (z - p[3]) ^ 2
    if d < bd then best, bd = i, d end
  end
  return best
end

function decide(agent, ctx)
  local enemy = agent:nearest("eyes")
  local m = agent.memory
  if enemy then
    m.leg = nil
    return "chase", enemy
  end
  local x, _, z = agent:position()
  m.leg = m.leg or nearest_leg(x, z)
  local p = route[m.leg]
  if (x - p[1]) ^ 2 + (z - p[3]) ^ 2 < 4 then
    m.leg = m.leg % #route + 1
    p = route[m.leg]
  end
  return "patrol", nil, p[1], p[2], p[3]
end
