//! Warnings for legal but suspicious content: parts of the waypoint graph
//! that cannot be reached or left, senses that can never report anything,
//! profiles and archetypes nothing uses, waypoints outside the bounds.
//!
//! Every rule runs in time linear in the file (the graph rules are one
//! Tarjan pass), so lints stay cheap on 100k-waypoint maps.

use std::collections::BTreeMap;

use crate::format::def::{ContentDef, FilterDef};
use crate::format::diag::Diagnostic;
use crate::format::locate::SpanIndex;

/// Every warning for `def`, unordered.
pub(crate) fn warnings(def: &ContentDef, spans: &SpanIndex, file: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut warn = |path: &str, message: String| {
        out.push(Diagnostic::warning(file, spans.pos(path), message));
    };
    graph(def, &mut warn);
    senses(def, &mut warn);
    unused(def, &mut warn);
    if let Some(b) = def.bounds {
        let inside = |v: f32, lo: f32, hi: f32| v >= lo && v <= hi;
        for (i, w) in def.waypoints.iter().enumerate() {
            let p = w.pos;
            let finite = p.0.is_finite() && p.1.is_finite() && p.2.is_finite();
            if finite
                && !(inside(p.0, b.min.0, b.max.0)
                    && inside(p.1, b.min.1, b.max.1)
                    && inside(p.2, b.min.2, b.max.2))
            {
                warn(
                    &format!("waypoints[{i}].pos"),
                    format!("waypoint {} lies outside the bounds", w.id),
                );
            }
        }
    }
    out
}

/// "waypoint 7" or "waypoint 7 and 3 others".
fn group(id: u32, size: usize) -> String {
    match size {
        0 | 1 => format!("waypoint {id}"),
        2 => format!("waypoint {id} and 1 other"),
        n => format!("waypoint {id} and {} others", n - 1),
    }
}

/// Isolated waypoints, pieces cut off from the largest part of the graph,
/// and, within a piece, groups that links only leave (unreachable) or only
/// enter (dead ends).
fn graph(def: &ContentDef, warn: &mut impl FnMut(&str, String)) {
    let n = def.waypoints.len();
    if n < 2 {
        return;
    }
    let edges = edges(def);
    let (start, adj, degree) = adjacency(n, &edges);
    let (piece, piece_size) = pieces(n, &edges);
    // The main piece: the largest, the earliest on ties.
    let main = (0..n)
        .filter(|&p| piece[p] == p)
        .max_by_key(|&p| (piece_size[p], std::cmp::Reverse(p)))
        .unwrap_or(0);
    let main_id = def.waypoints[main].id;

    for v in 0..n {
        let w = &def.waypoints[v];
        if degree[v] == 0 {
            warn(
                &format!("waypoints[{v}]"),
                format!("waypoint {} is isolated: no link enters or leaves it", w.id),
            );
        } else if piece[v] == v && v != main {
            warn(
                &format!("waypoints[{v}]"),
                format!(
                    "{} cannot reach or be reached from waypoint {main_id}: no link joins them to the rest of the graph",
                    group(w.id, piece_size[v])
                ),
            );
        }
    }

    let (component, components) = strong_components(n, |v| &adj[start[v]..start[v + 1]]);
    let mut size = vec![0usize; components];
    let mut first = vec![usize::MAX; components];
    for v in 0..n {
        size[component[v]] += 1;
        if first[component[v]] == usize::MAX {
            first[component[v]] = v;
        }
    }
    let (mut enters, mut leaves) = (vec![false; components], vec![false; components]);
    for &(a, b) in &edges {
        let (ca, cb) = (component[a], component[b]);
        if ca != cb {
            leaves[ca] = true;
            enters[cb] = true;
        }
    }
    for c in 0..components {
        let v = first[c];
        let w = &def.waypoints[v];
        if degree[v] == 0 || size[c] == piece_size[piece[v]] {
            continue; // isolated, or the whole piece is one component
        }
        let path = format!("waypoints[{v}]");
        if !enters[c] {
            warn(
                &path,
                format!(
                    "{} cannot be reached: links leave but none lead in from the rest of the graph",
                    group(w.id, size[c])
                ),
            );
        } else if !leaves[c] {
            warn(
                &path,
                format!(
                    "{} is a dead end: links lead in but none lead back out to the rest of the graph",
                    group(w.id, size[c])
                ),
            );
        }
    }
}

/// The directed edges between waypoint indices (the first waypoint with an
/// id stands for it), both ways for a two-way link; self-links and links
/// to unknown ids are left out.
fn edges(def: &ContentDef) -> Vec<(usize, usize)> {
    let index = crate::format::ids::WaypointIndex::new(&def.waypoints);
    let find = |id: u32| index.get(id);
    let mut edges: Vec<(usize, usize)> = Vec::with_capacity(def.links.len() * 2);
    for l in &def.links {
        if let (Some(a), Some(b)) = (find(l.from), find(l.to))
            && a != b
        {
            edges.push((a, b));
            if l.two_way {
                edges.push((b, a));
            }
        }
    }
    edges
}

/// The edges out of each of `n` waypoints in CSR form (those of `v` are
/// `adj[start[v]..start[v + 1]]`), and each waypoint's degree (in plus
/// out).
fn adjacency(n: usize, edges: &[(usize, usize)]) -> (Vec<usize>, Vec<usize>, Vec<u32>) {
    let mut start = vec![0usize; n + 1];
    for &(a, _) in edges {
        start[a + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut adj = vec![0usize; edges.len()];
    let mut degree = vec![0u32; n];
    for &(a, b) in edges {
        adj[fill[a]] = b;
        fill[a] += 1;
        degree[a] = degree[a].saturating_add(1);
        degree[b] = degree[b].saturating_add(1);
    }
    (start, adj, degree)
}

/// The weakly connected pieces (union-find): each waypoint's piece, named
/// by its smallest waypoint index, and the size of each piece by that name.
fn pieces(n: usize, edges: &[(usize, usize)]) -> (Vec<usize>, Vec<usize>) {
    fn root(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    let mut parent: Vec<usize> = (0..n).collect();
    for &(a, b) in edges {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let piece: Vec<usize> = (0..n).map(|v| root(&mut parent, v)).collect();
    let mut piece_size = vec![0usize; n];
    for &p in &piece {
        piece_size[p] += 1;
    }
    (piece, piece_size)
}

/// The strongly connected components of the `n` waypoints whose edges
/// `out_of` gives (iterative Tarjan): each waypoint's component, and the
/// number of components.
fn strong_components<'a>(n: usize, out_of: impl Fn(usize) -> &'a [usize]) -> (Vec<usize>, usize) {
    const NONE: usize = usize::MAX;
    let mut order = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![NONE; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut call: Vec<(usize, usize)> = Vec::new();
    let mut next = 0usize;
    let mut components = 0usize;
    for root_v in 0..n {
        if order[root_v] != NONE {
            continue;
        }
        call.push((root_v, 0));
        order[root_v] = next;
        low[root_v] = next;
        next += 1;
        stack.push(root_v);
        on_stack[root_v] = true;
        while let Some(&mut (v, ref mut k)) = call.last_mut() {
            let succ = out_of(v);
            if *k < succ.len() {
                let u = succ[*k];
                *k += 1;
                if order[u] == NONE {
                    order[u] = next;
                    low[u] = next;
                    next += 1;
                    stack.push(u);
                    on_stack[u] = true;
                    call.push((u, 0));
                } else if on_stack[u] {
                    low[v] = low[v].min(order[u]);
                }
            } else {
                call.pop();
                if let Some(&(p, _)) = call.last() {
                    low[p] = low[p].min(low[v]);
                }
                if low[v] == order[v] {
                    while let Some(u) = stack.pop() {
                        on_stack[u] = false;
                        component[u] = components;
                        if u == v {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
    }
    (component, components)
}

/// Senses whose filter can never match any other agent of the scene.
fn senses(def: &ContentDef, warn: &mut impl FnMut(&str, String)) {
    if def.agents.is_empty() {
        return;
    }
    let faction_index: BTreeMap<&str, usize> = def
        .factions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    let mut members = vec![0usize; def.factions.len()];
    for a in &def.agents {
        if let Some(&f) = faction_index.get(a.faction.as_str()) {
            members[f] += 1;
        }
    }
    let total: usize = members.iter().sum();
    // hostile[f]: factions f is hostile to (itself excluded, as at runtime).
    let hostile: Vec<Vec<usize>> = def
        .factions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut h: Vec<usize> = f
                .hostile
                .iter()
                .filter_map(|n| faction_index.get(n.as_str()).copied())
                .filter(|&j| j != i)
                .collect();
            h.sort_unstable();
            h.dedup();
            h
        })
        .collect();
    // Factions of the agents of each archetype, in order of appearance.
    let mut factions_of: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for agent in &def.agents {
        if let Some(&f) = faction_index.get(agent.faction.as_str()) {
            let list = factions_of.entry(agent.archetype.as_str()).or_default();
            if !list.contains(&f) {
                list.push(f);
            }
        }
    }
    for (i, (name, a)) in def.archetypes.0.iter().enumerate() {
        let Some(factions) = factions_of.get(name.as_str()) else {
            continue;
        };
        for (j, s) in a.senses.iter().enumerate() {
            for &f in factions {
                let fname = &def.factions[f].name;
                let hostile_agents: usize = hostile[f].iter().map(|&h| members[h]).sum();
                let reason = match s.filter {
                    FilterDef::All => None,
                    FilterDef::Hostile if hostile[f].is_empty() => {
                        Some(format!("faction `{fname}` is hostile to nobody"))
                    }
                    FilterDef::Hostile if hostile_agents == 0 => Some(format!(
                        "no agent belongs to a faction `{fname}` is hostile to"
                    )),
                    FilterDef::Friendly if total - hostile_agents <= 1 => Some(format!(
                        "no other agent belongs to a faction `{fname}` is friendly with"
                    )),
                    _ => None,
                };
                if let Some(reason) = reason {
                    warn(
                        &format!("archetypes{{{i}}}.senses[{j}].filter"),
                        format!(
                            "sense `{}` of archetype `{name}` never reports anything for agents of faction `{fname}`: {reason}",
                            s.name
                        ),
                    );
                }
            }
        }
    }
}

/// Profiles no archetype names; archetypes no agent uses (in a scene).
fn unused(def: &ContentDef, warn: &mut impl FnMut(&str, String)) {
    for (i, (name, _)) in def.profiles.0.iter().enumerate() {
        if def.profiles.position(name) == Some(i)
            && !def
                .archetypes
                .iter()
                .any(|(_, a)| a.profile.as_deref() == Some(name.as_str()))
        {
            warn(
                &format!("profiles{{{i}}}"),
                format!("profile `{name}` is never used: no archetype names it"),
            );
        }
    }
    if def.agents.is_empty() {
        return;
    }
    let used: std::collections::BTreeSet<&str> =
        def.agents.iter().map(|a| a.archetype.as_str()).collect();
    for (i, (name, _)) in def.archetypes.0.iter().enumerate() {
        if def.archetypes.position(name) == Some(i) && !used.contains(name.as_str()) {
            warn(
                &format!("archetypes{{{i}}}"),
                format!("archetype `{name}` is never used: no agent has it"),
            );
        }
    }
}
