---@meta kiai
-- kiai's script API for lua-language-server, written by `kiai lua-defs`
-- from the registry that installs the functions: regenerate, do not edit.

---An agent as a script sees it: a table kept for the agent's whole life
---(methods below).
---@class kiai.Agent
---@field id integer The agent's handle: its slot, plus its slot's generation times 2^32.
---@field name string The agent's name.
---@field memory table A table kept across ticks (and reloads) for this agent.
local Agent = {}

---What `decide` gets besides the agent.
---@class kiai.Ctx
---@field tick integer The tick being decided (the first is 0).
---@field agents integer The number of agent slots.
---@field dt number Seconds per tick.

---A behaviour state: a built-in one, or a custom name (1 to 64 bytes) that moves
---like "chase" when it has a target or goal and like "random_walk" otherwise.
---@alias kiai.State "random_walk"|"chase"|"evade"|string

---An agent given to the API: its handle, its name or its table.
---@alias kiai.Target integer|string|kiai.Agent

---An intent spelled out as a table (what `decide` may return).
---@class kiai.Intent
---@field state kiai.State
---@field target? kiai.Target
---@field goal? number[] A position {x, y, z} to move to (chase) or flee from (evade).
---@field label? string The name the state is reported under.

---The world, by handle or name.
---@class kiai
kiai = {}

---The agent's position x, y, z (world units, Y up).
---@return number
---@return number
---@return number
function Agent:position() end

---The direction the agent faces, a unit vector x, y, z.
---@return number
---@return number
---@return number
function Agent:facing() end

---The agent's velocity x, y, z (world units per second).
---@return number
---@return number
---@return number
function Agent:velocity() end

---Last tick's behaviour state name ("random_walk", "chase" or "evade").
---@return string
function Agent:state() end

---Last tick's target handle, or nil.
---@return integer?
function Agent:target() end

---The name of the agent's faction.
---@return string
function Agent:faction() end

---The name of the agent's archetype.
---@return string
function Agent:archetype() end

---The agent's learned chase and evade weights.
---@return number
---@return number
function Agent:weights() end

---Whether the agent's faction is hostile to `other`'s (a handle, name or agent).
---@param other integer|string|table
---@return boolean
function Agent:is_hostile(other) end

---The distance to `other` (a handle, name or agent), in world units.
---@param other integer|string|table
---@return number
function Agent:distance(other) end

---Like `math.random`, from the agent's own deterministic stream.
---@param m? integer
---@param n? integer
---@return number
function Agent:random(m, n) end

---A float in [0, 1), or an integer in [1, m] or [m, n], from the running hook's agent's stream.
---@param m? integer
---@param n? integer
---@return number
function math.random(m, n) end

---How many agents the named sense senses now.
---@param sense string|integer
---@return integer
function Agent:sees(sense) end

---The handles the named sense senses now, ascending (written into `into` when given, else a new table).
---@param sense string|integer
---@param into? integer[]
---@return integer[]
function Agent:sensed(sense, into) end

---Handle and distance of the nearest agent the named sense senses (hostile by default).
---@param sense string|integer
---@param filter? "hostile"|"friendly"|"any"
---@return integer?
---@return number?
function Agent:nearest(sense, filter) end

---The loudest sound the named sense hears: loudness, source, x, y, z, tag (nothing when silent).
---@param sense string|integer
---@return number?
---@return integer?
---@return number?
---@return number?
---@return number?
---@return integer?
function Agent:heard(sense) end

---Every sound the named sense hears, loudest first (written into `into` and its entry tables when given).
---@param sense string|integer
---@param into? table
---@return {loudness: number, source: integer?, x: number, y: number, z: number, tag: integer}[]
function Agent:sounds(sense, into) end

---The messages that reached the agent this tick (written into `into` and its entry tables when given).
---@param into? table
---@return {from: integer?, tag: integer, x: number, y: number, z: number}[]
function Agent:messages(into) end

---Where and when a remembering sense last sensed `other`: x, y, z, tick (nothing when never).
---@param other integer|string|table
---@return number?
---@return number?
---@return number?
---@return integer?
function Agent:remembered(other) end

---An intent (the same forms as decide's results) used when decide returns nil.
---@param state string|table
---@param target? integer|string|table
---@param x? number
---@param y? number
---@param z? number
function Agent:set_intent(state, target, x, y, z) end

---Action: a message to one agent, at the sender's position unless x, y, z are given.
---@param to integer|string|table
---@param tag? integer
---@param x? number
---@param y? number
---@param z? number
function Agent:send(to, tag, x, y, z) end

---Action: a message to every agent within `radius` world units.
---@param radius number
---@param tag? integer
---@param x? number
---@param y? number
---@param z? number
function Agent:radio(radius, tag, x, y, z) end

---Action: a message to every agent of the sender's faction.
---@param tag? integer
---@param x? number
---@param y? number
---@param z? number
function Agent:broadcast(tag, x, y, z) end

---Action: a sound of `volume` at the agent's position.
---@param volume number
---@param tag? integer
function Agent:emit_sound(volume, tag) end

---Action: the agent leaves the world at the end of the tick; its handle then names nobody.
function Agent:despawn() end

---Action: a new agent joins the world at the end of the tick (its on_spawn runs the next tick).
---@param archetype string
---@param faction string
---@param x number
---@param y number
---@param z number
---@param name? string
function kiai.spawn(archetype, faction, x, y, z, name) end

---The tick being decided (the first is 0).
---@return integer
function kiai.tick() end

---The number of agents in the world.
---@return integer
function kiai.agent_count() end

---The handle of the agent called `name`, or nil.
---@param name string
---@return integer?
function kiai.find(name) end

---The name of an agent, or nil.
---@param h integer|string|table
---@return string?
function kiai.name(h) end

---An agent's position x, y, z (nothing for no agent).
---@param h integer|string|table
---@return number?
---@return number?
---@return number?
function kiai.position(h) end

---The name of an agent's faction, or nil.
---@param h integer|string|table
---@return string?
function kiai.faction(h) end

---An agent's behaviour state name as of last tick, or nil.
---@param h integer|string|table
---@return string?
function kiai.state(h) end

---Whether the faction of `a` is hostile to the faction of `b`.
---@param a integer|string|table
---@param b integer|string|table
---@return boolean
function kiai.is_hostile(a, b) end

---A small integer for the sense called `name`, to pass instead of the name (resolve once, at load: `local EYES = kiai.sense("eyes")`).
---@param name string
---@return integer
function kiai.sense(name) end

---The id of the active waypoint nearest to x, y, z, or nil.
---@param x number
---@param y number
---@param z number
---@return integer?
function kiai.nearest_waypoint(x, y, z) end

---The position x, y, z of waypoint `id` (nothing for no waypoint).
---@param id integer
---@return number?
---@return number?
---@return number?
function kiai.waypoint(id) end

---The A* route between two waypoints as ids and its cost (nothing when unreachable).
---@param from integer
---@param to integer
---@param cost_list? integer
---@return integer[]?
---@return number?
function kiai.path(from, to, cost_list) end

---Article 001's next waypoint from `at` toward or away from `dest`, on the agent's random stream.
---@param at integer
---@param dest integer
---@param heading? "toward"|"away"
---@param cost_list? integer
---@return integer?
function kiai.select(at, dest, heading, cost_list) end

-- Hooks: define any of these as globals (or return a table of them).

---Every tick, once per agent of the archetype, in agent order: an intent (state, target, x, y, z or a table), or nil to keep the Rust default.
---@param agent kiai.Agent
---@param ctx kiai.Ctx
---@return kiai.State|kiai.Intent|nil
---@return kiai.Target?
---@return number?
---@return number?
---@return number?
function decide(agent, ctx) end

---A sense of the agent started sensing `other` (before decide, same tick).
---@param agent kiai.Agent
---@param other integer
---@param sense string
function on_seen(agent, other, sense) end

---A sense of the agent stopped sensing `other`.
---@param agent kiai.Agent
---@param other integer
---@param sense string
function on_lost(agent, other, sense) end

---A hearing sense heard a sound (`source` nil when no agent made it).
---@param agent kiai.Agent
---@param source integer?
---@param loudness number
---@param sense string
---@param tag integer
---@param x number
---@param y number
---@param z number
function on_heard(agent, source, loudness, sense, tag, x, y, z) end

---A message reached the agent.
---@param agent kiai.Agent
---@param from integer?
---@param tag integer
---@param x number
---@param y number
---@param z number
function on_message(agent, from, tag, x, y, z) end

---The first tick the script sees the agent.
---@param agent kiai.Agent
function on_spawn(agent) end
