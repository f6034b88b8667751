-- coward.lua: runs from any hostile it notices (eyes or radar) and yelps
-- (a sound, tag 2) the moment it first sees one.

function on_seen(agent, other, sense)
  if agent:is_hostile(other) then
    agent:emit_sound(40, 2)
  end
end

function decide(agent, ctx)
  local threat = agent:nearest("eyes") or agent:nearest("radar")
  if threat then
    return "evade", threat
  end
  return nil
end
