//! What a script decides for an agent: intents, packed or spelled out.

use kiai_core::behaviour::{BehaviourState, Decision};
use kiai_core::glam::Vec3;
use kiai_core::{AgentId, World};
use mlua::Value;

/// A script's intent for one agent.
#[derive(Clone, Debug)]
pub(crate) struct Intent {
    pub(crate) decision: Decision,
    pub(crate) label: Option<String>,
}

/// Code of an intent that goes through the slow path (the batch driver
/// left its values in the `extra` tables).
pub(crate) const SLOW: i64 = 15;

/// Decodes an intent the batch driver packed as an integer: state code
/// (`k + 1` for [`BehaviourState::ALL`]`[k]`) + 16 × (target handle + 1);
/// `world` is the world the target must be alive in.
pub(crate) fn unpack(code: i64, world: &World) -> Result<Intent, String> {
    let state = usize::try_from((code & 15) - 1)
        .ok()
        .and_then(|k| BehaviourState::ALL.get(k).copied());
    let target = (code >> 4) - 1;
    let Some(state) = state else {
        return Err(format!("target {target} is not an agent"));
    };
    let target = match target {
        -1 => None,
        t => Some(live_target(world, t)?),
    };
    Ok(Intent {
        decision: Decision {
            state,
            target,
            goal: None,
        },
        label: None,
    })
}

/// Parses `state, target, x, y, z` or `{state=, target=, goal={x,y,z}}`.
pub(crate) fn parse_intent(v: &[Value; 5], world: &World) -> Result<Intent, String> {
    let (state, target, goal) = match &v[0] {
        Value::Table(t) => return parse_table(t, world),
        s => {
            let goal = match (&v[2], &v[3], &v[4]) {
                (Value::Nil, Value::Nil, Value::Nil) => None,
                (x, y, z) => Some(vec3(x, y, z)?),
            };
            (s.clone(), v[1].clone(), goal)
        }
    };
    build_intent(&state, &target, goal, world)
}

/// The keys of an intent table.
const KEYS: [&str; 4] = ["state", "target", "goal", "label"];

/// Parses `{state=, target=, goal={x,y,z}, label=}`.
fn parse_table(t: &mlua::Table, world: &World) -> Result<Intent, String> {
    let state: Value = t.raw_get("state").map_err(|e| e.to_string())?;
    if state.is_nil() {
        return Err(without_state(t));
    }
    let target: Value = t.raw_get("target").map_err(|e| e.to_string())?;
    let goal = match t.raw_get::<Value>("goal").map_err(|e| e.to_string())? {
        Value::Nil => None,
        Value::Table(g) => Some(vec3(
            &g.raw_get::<Value>(1).map_err(|e| e.to_string())?,
            &g.raw_get::<Value>(2).map_err(|e| e.to_string())?,
            &g.raw_get::<Value>(3).map_err(|e| e.to_string())?,
        )?),
        other => {
            return Err(format!(
                "goal must be {{x, y, z}}, not a {}",
                other.type_name()
            ));
        }
    };
    let label: Value = t.raw_get("label").map_err(|e| e.to_string())?;
    let mut intent = build_intent(&state, &target, goal, world)?;
    match label {
        Value::Nil => {}
        Value::String(s) => intent.label = Some(label_text(&s.to_string_lossy())?),
        other => {
            return Err(format!(
                "label must be a string, not a {}",
                other.type_name()
            ));
        }
    }
    Ok(intent)
}

/// Why an intent table without `state` is refused, naming the keys it has
/// that an intent does not read (a misspelt `state` is the usual cause).
fn without_state(t: &mlua::Table) -> String {
    let mut unknown: Vec<String> = t
        .pairs::<Value, Value>()
        .filter_map(|pair| match pair {
            Ok((Value::String(k), _)) => Some(k.to_string_lossy()),
            _ => None,
        })
        .filter(|k| !KEYS.contains(&k.as_str()))
        .collect();
    unknown.sort();
    let expected = "state = \"chase\", \"evade\", \"random_walk\" or a name of your own";
    match unknown.as_slice() {
        [] => format!("the intent table has no state ({expected})"),
        keys => format!(
            "the intent table has no state ({expected}); an intent has no `{}` (its keys: {})",
            keys.join("`, `"),
            KEYS.join(", ")
        ),
    }
}

fn label_text(s: &str) -> Result<String, String> {
    if s.is_empty() || s.len() > 64 {
        return Err("a state name must have 1 to 64 bytes".into());
    }
    Ok(s.to_owned())
}

fn vec3(x: &Value, y: &Value, z: &Value) -> Result<Vec3, String> {
    let f = |v: &Value| -> Result<f32, String> {
        let n = match v {
            Value::Integer(i) => *i as f64,
            Value::Number(n) => *n,
            other => {
                return Err(format!(
                    "goal coordinates must be numbers, not {}",
                    other.type_name()
                ));
            }
        };
        if n.is_finite() && n.abs() < 1e9 {
            Ok(n as f32)
        } else {
            Err(format!(
                "goal coordinate {n} is not a finite world position"
            ))
        }
    };
    Ok(Vec3::new(f(x)?, f(y)?, f(z)?))
}

/// The target of an intent: nil/false, a handle, an agent table or a name.
fn target_of(target: &Value, world: &World) -> Result<Option<AgentId>, String> {
    Ok(match target {
        Value::Nil | Value::Boolean(false) => None,
        Value::Integer(t) => Some(live_target(world, *t)?),
        Value::Number(t) if t.fract() == 0.0 && *t >= 0.0 && *t < 9.0e18 => {
            Some(live_target(world, *t as i64)?)
        }
        Value::Table(t) => match t.raw_get::<Value>(0) {
            Ok(Value::Integer(i)) => Some(live_target(world, i)?),
            _ => return Err("target table is not an agent".into()),
        },
        Value::String(s) => {
            let name = s.to_string_lossy();
            Some(
                world
                    .agents()
                    .find(&name)
                    .ok_or_else(|| format!("no agent named `{name}`"))?,
            )
        }
        other => {
            return Err(format!(
                "target must be an agent handle or name, not {other:?}"
            ));
        }
    })
}

fn build_intent(
    state: &Value,
    target: &Value,
    goal: Option<Vec3>,
    world: &World,
) -> Result<Intent, String> {
    let target = target_of(target, world)?;
    let name = match state {
        Value::String(s) => s.to_string_lossy(),
        other => {
            return Err(format!(
                "state must be a string, not a {}",
                other.type_name()
            ));
        }
    };
    let (state, label) = match name.as_str() {
        "random_walk" => (BehaviourState::RandomWalk, None),
        "chase" => (BehaviourState::Chase, None),
        "evade" => (BehaviourState::Evade, None),
        custom => {
            let base = if target.is_some() || goal.is_some() {
                BehaviourState::Chase
            } else {
                BehaviourState::RandomWalk
            };
            (base, Some(label_text(custom)?))
        }
    };
    Ok(Intent {
        decision: Decision {
            state,
            target,
            goal,
        },
        label,
    })
}

/// The live agent a script's integer `t` names.
fn live_target(world: &World, t: i64) -> Result<AgentId, String> {
    crate::handles::live(world, t).ok_or_else(|| {
        if t >= 0 && AgentId::from_bits(t as u64).index() < world.agents().len() {
            format!("target {t} has left the world")
        } else {
            format!("target {t} is not an agent")
        }
    })
}
