//! `kiai`: run, inspect, validate and benchmark kiai content from the shell.
//!
//! Every command reads a content file (`.ron`), prints a short human summary,
//! or one JSON object on stdout with `--json` (the contract pipelines and
//! tests rely on). Problems in content are printed as
//! `file:line:col: error: message` and make the command exit with status 1.

mod bench;
mod content_cmds;
mod fork_cmd;
mod junit;
mod lua_defs_cmd;
mod path_cmd;
mod positions;
mod run_summary;
mod set_cmd;
mod test_cmd;
mod timings;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use kiai_content::events::Schedule;
use kiai_content::{Content, Diagnostic, NavMap};
use kiai_core::{BehaviourState, DefaultDecider, Pipeline, TickTimes, World, state_hash};
use kiai_nav::{CostListId, Destination, Heading, NeighbourFilter, SelectOptions, WaypointId};
use serde_json::{Value, json};

#[derive(Parser)]
#[command(
    name = "kiai",
    version,
    about = "kiai game-AI toolkit: run, inspect, validate and benchmark AI content",
    long_about = "kiai game-AI toolkit: run, inspect, validate and benchmark AI content.\n\n\
        FILE is a content file in RON (see content/demo/ for examples). Every command prints a \
        human summary, or one JSON object on stdout with --json. Content problems are reported \
        as `file:line:col: error: message` and exit with status 1.",
    after_help = "Examples:\n  kiai run content/demo/arena.ron --ticks 600 --seed 1\n  \
        kiai perceive content/demo/arena.ron --tick 10 --json\n  \
        kiai validate content/demo/*.ron\n  \
        kiai set level.ron archetypes.guard.senses.eyes.shape.range=40\n  kiai bench --quick"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate headlessly and report the final state.
    Run(RunArgs),
    /// Report what each agent senses at a given tick.
    Perceive(PerceiveArgs),
    /// Check content files and report every problem with file:line:col.
    Validate(ValidateArgs),
    /// Find the cheapest route between two waypoints (A*).
    Path(path_cmd::PathArgs),
    /// Pick the next waypoint toward or away from a destination (seed 001).
    Select(SelectArgs),
    /// Report the tile fog of war per faction at a given tick.
    Fog(FogArgs),
    /// Run the side-by-side benchmarks (kiai against a peer, same inputs).
    Bench(bench::BenchArgs),
    /// Write a validated, resolved runtime pack (binary or RON).
    Export(content_cmds::ExportArgs),
    /// Rewrite a content file in place to the newest format (keeps FILE.bak).
    Migrate(content_cmds::MigrateArgs),
    /// Set values in a content file by path, keeping comments (FILE.bak).
    #[command(long_about = set_cmd::LONG_ABOUT, after_help = set_cmd::EXAMPLES)]
    Set(set_cmd::SetArgs),
    /// Run scenario tests (*.scenario.ron): pass/fail, why, coverage.
    #[command(long_about = test_cmd::LONG_ABOUT)]
    Test(test_cmd::TestArgs),
    /// Replay a recording, change the world at a tick, compare the branches.
    #[command(long_about = fork_cmd::LONG_ABOUT, after_help = fork_cmd::EXAMPLES)]
    Fork(fork_cmd::ForkArgs),
    /// Write lua-language-server definitions for the script API.
    #[command(after_help = lua_defs_cmd::AFTER_HELP)]
    LuaDefs(lua_defs_cmd::LuaDefsArgs),
}

#[derive(Args)]
pub(crate) struct SimArgs {
    /// Content file (.ron) or exported pack.
    pub(crate) file: PathBuf,
    /// Seed for every random stream; defaults to the file's `seed`.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Worker threads (results are identical at any count); defaults to the
    /// number of cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub(crate) threads: Option<u16>,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    pub(crate) json: bool,
    /// Changes to apply on a schedule (spawns, despawns, moves, doors,
    /// blocked links, waypoints, sounds; see docs/cli.md): an event of tick
    /// T is applied after T ticks have run, before the next one.
    #[arg(long, value_name = "EVENTS.ron")]
    pub(crate) events: Option<PathBuf>,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    sim: SimArgs,
    /// Number of ticks to simulate.
    #[arg(long, default_value_t = 600)]
    ticks: u64,
    /// Write why every agent decided what it did, one JSON object per agent
    /// and tick (JSON Lines): options, rolls with thresholds, who decided,
    /// weights, target and steering.
    #[arg(long, value_name = "OUT.jsonl")]
    trace: Option<PathBuf>,
    /// Write every agent's position and velocity after each tick, one JSON
    /// object per agent and tick (JSON Lines): {"tick", "agent", "pos",
    /// "vel"}, world units and world units per second.
    #[arg(long, value_name = "OUT.jsonl")]
    positions: Option<PathBuf>,
    /// Reload archetypes' Lua scripts when their files change (between
    /// ticks); errors go to stderr and the last good version keeps running.
    #[arg(long)]
    watch: bool,
    /// Also write the run as a recording (content, seed, events, scripts,
    /// the state hash after every tick) that the editor opens and `kiai
    /// fork` replays.
    #[arg(long, value_name = "OUT.kiairec")]
    record: Option<PathBuf>,
}

#[derive(Args)]
struct PerceiveArgs {
    #[command(flatten)]
    sim: SimArgs,
    /// Simulate this many ticks first, then sense (0: the initial positions).
    #[arg(long, default_value_t = 0)]
    tick: u64,
}

#[derive(Args)]
struct ValidateArgs {
    /// Content files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object on stdout instead of diagnostic lines.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("heading").required(true).args(["toward", "away"]))]
struct SelectArgs {
    /// Content file (.ron) with waypoints and links.
    file: PathBuf,
    /// The waypoint the agent stands on.
    #[arg(long)]
    at: u32,
    /// The destination waypoint.
    #[arg(long)]
    dest: u32,
    /// Pick the neighbour that gets closer to the destination.
    #[arg(long)]
    toward: bool,
    /// Pick the neighbour that gets farther from the destination.
    #[arg(long)]
    away: bool,
    /// Cost list to weigh links with; defaults to the first.
    #[arg(long)]
    cost_list: Option<String>,
    /// Skip neighbours farther than this from the current waypoint (world units).
    #[arg(long)]
    max_distance: Option<f32>,
    /// Waypoint ids never to pick, comma-separated.
    #[arg(long, value_delimiter = ',')]
    exclude: Vec<u32>,
    /// Random variation of link costs (0: none), so agents take detours.
    #[arg(long, default_value_t = 0.0)]
    jitter: f32,
    /// Seed of the jitter's random stream; defaults to the file's seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Print one JSON object on stdout instead of a summary.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct FogArgs {
    #[command(flatten)]
    sim: SimArgs,
    /// Simulate this many ticks first (0: the initial positions).
    #[arg(long, default_value_t = 0)]
    tick: u64,
    /// Report only this faction (and dump the grid as it sees it).
    #[arg(long)]
    faction: Option<String>,
    /// Also print the grid, one string per row of tiles (north = first row):
    /// `#` visible, `.` explored, ` ` unexplored, `X` blocking.
    #[arg(long)]
    dump: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => run(&args),
        Command::Perceive(args) => perceive(&args),
        Command::Validate(args) => validate(&args),
        Command::Path(args) => path_cmd::path(&args),
        Command::Select(args) => select(&args),
        Command::Fog(args) => fog(&args),
        Command::Bench(args) => bench::bench(&args),
        Command::Export(args) => content_cmds::export(&args),
        Command::Migrate(args) => content_cmds::migrate(&args),
        Command::Set(args) => set_cmd::run(&args),
        Command::Test(args) => test_cmd::run(&args),
        Command::Fork(args) => fork_cmd::run(&args),
        Command::LuaDefs(args) => lua_defs_cmd::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // `kiai ... | head` closing the pipe early is not an error.
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// A failure already reported to the user (diagnostics printed).
const REPORTED: ExitCode = ExitCode::FAILURE;

/// Loads content, printing diagnostics (errors and warnings) to stderr.
fn load(file: &Path) -> Option<Content> {
    match Content::load(file) {
        Ok(content) => {
            for w in &content.warnings {
                eprintln!("{w}");
            }
            Some(content)
        }
        Err(diagnostics) => {
            for d in &diagnostics.0 {
                eprintln!("{d}");
            }
            None
        }
    }
}

/// Runs `f` on a pool of `threads` workers (or the default pool).
fn with_threads<T: Send>(threads: Option<u16>, f: impl FnOnce() -> T + Send) -> anyhow::Result<T> {
    match threads {
        None => Ok(f()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(usize::from(n))
                .build()
                .context("cannot start worker threads")?;
            Ok(pool.install(f))
        }
    }
}

/// The events file `--events` names, checked against `content`, or an
/// empty schedule; `None` when it has problems (printed like content's).
fn schedule_of(args: &SimArgs, content: &Content) -> Option<Schedule> {
    let Some(path) = &args.events else {
        return Some(Schedule::default());
    };
    match Schedule::load(path, content) {
        Ok(s) => Some(s),
        Err(diagnostics) => {
            for d in &diagnostics.0 {
                eprintln!("{d}");
            }
            None
        }
    }
}

/// Applies the events that are due; says on stderr which could not be.
fn apply_events(schedule: &mut Schedule, world: &mut World) {
    for line in schedule.apply_due(world) {
        eprintln!("events: {line}");
    }
}

/// Runs `ticks` ticks with the Rust decider, applying `schedule`'s events
/// before each and after the last; returns the pipeline (to sense again).
fn simulate(world: &mut World, ticks: u64, schedule: &mut Schedule) -> Pipeline {
    let mut pipeline = Pipeline::new();
    let mut decider = DefaultDecider::default();
    for _ in 0..ticks {
        apply_events(schedule, world);
        pipeline.tick(world, &mut decider);
    }
    apply_events(schedule, world);
    pipeline
}

fn world_of(content: &Content, seed: Option<u64>) -> anyhow::Result<World> {
    content.world(seed).context("cannot build the world")
}

/// Writes one line to stdout, reporting (not panicking on) a closed pipe.
fn outln(line: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")
}

fn print_json(value: &Value) -> anyhow::Result<()> {
    outln(&serde_json::to_string(value)?)?;
    Ok(())
}

/// A watcher over `lua`'s script files; says on stderr what it watches.
fn watch_scripts(lua: &kiai::lua::LuaDecider) -> anyhow::Result<kiai::lua::ScriptWatcher> {
    let watcher =
        kiai::lua::ScriptWatcher::new(lua.script_paths()).context("cannot watch the scripts")?;
    match lua.script_paths().count() {
        0 => eprintln!("watching no script files: the scripts came bundled in a pack"),
        n => eprintln!("watching {n} script files for changes"),
    }
    Ok(watcher)
}

/// A script error on stderr: `tick T: file:line: message`, then the
/// traceback if any.
fn print_script_error(tick: u64, error: &kiai::lua::ScriptError) {
    eprintln!("tick {tick}: {error}");
    if !error.traceback.is_empty() {
        eprintln!("{}", error.traceback);
    }
}

/// The script errors and `print` lines of the last tick, on stderr.
fn print_script_output(lua: &mut kiai::lua::LuaDecider) {
    for r in lua.take_reports() {
        print_script_error(r.tick, &r.error);
    }
    for line in lua.take_log() {
        eprintln!("{line}");
    }
}

/// A progress bar on stderr for long human runs in a terminal; hidden
/// otherwise.
fn progress_bar(args: &RunArgs) -> indicatif::ProgressBar {
    if args.sim.json || !std::io::stderr().is_terminal() || args.ticks < 200 {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(args.ticks)
    }
}

/// A buffered file created at `path`, if one is given.
fn create_output(path: Option<&Path>) -> anyhow::Result<Option<std::io::BufWriter<std::fs::File>>> {
    path.map(|path| {
        std::fs::File::create(path)
            .map(std::io::BufWriter::new)
            .with_context(|| format!("cannot create {}", path.display()))
    })
    .transpose()
}

/// `kiai run`: ticks the content, writing what `--trace`, `--positions`
/// and `--record` ask for, then prints the summary (`run_summary`).
fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let Some(content) = load(&args.sim.file) else {
        return Ok(REPORTED);
    };
    let Some(mut schedule) = schedule_of(&args.sim, &content) else {
        return Ok(REPORTED);
    };
    let mut world = world_of(&content, args.sim.seed)?;
    let progress = progress_bar(args);
    let mut trace = create_output(args.trace.as_deref())?;
    let mut positions = create_output(args.positions.as_deref())?;
    let scripts = content.scripts();
    anyhow::ensure!(
        scripts.is_empty() || trace.is_none(),
        "--trace is not available yet for content with scripts"
    );
    anyhow::ensure!(
        args.record.is_none() || !args.watch,
        "--record cannot be combined with --watch: a reloaded script changes the run, and the \
         recording would not replay"
    );
    let mut hashes: Vec<u64> = Vec::new();
    let (elapsed, times, labels) = with_threads(args.sim.threads, || -> anyhow::Result<_> {
        let (mut lua, errors) = kiai::lua::decider_for(&content, kiai::lua::Limits::default());
        for e in errors {
            eprintln!("{e}");
        }
        let mut watcher = match (&lua, args.watch) {
            (Some(d), true) => Some(watch_scripts(d)?),
            _ => None,
        };
        let mut pipeline = Pipeline::new();
        let mut decider = if trace.is_some() {
            DefaultDecider::with_traces()
        } else {
            DefaultDecider::default()
        };
        let mut times = TickTimes::new();
        let mut elapsed = std::time::Duration::ZERO;
        for t in 0..args.ticks {
            if let (Some(w), Some(d)) = (&mut watcher, &mut lua) {
                for r in w.poll(d, world.tick()) {
                    match &r.result {
                        Ok(()) => eprintln!("reloaded {} before tick {}", r.path.display(), r.tick),
                        Err(e) => print_script_error(r.tick, e),
                    }
                }
            }
            apply_events(&mut schedule, &mut world);
            let start = Instant::now();
            match &mut lua {
                Some(d) => pipeline.tick(&mut world, d),
                None => pipeline.tick(&mut world, &mut decider),
            }
            elapsed += start.elapsed();
            if args.record.is_some() {
                hashes.push(state_hash(&world));
            }
            if let Some(d) = &mut lua {
                print_script_output(d);
            }
            times.push(*pipeline.timings());
            if let Some(out) = &mut trace {
                write_trace(out, &content, &world, &decider)?;
            }
            if let Some(out) = &mut positions {
                positions::write_positions(out, &world)?;
            }
            if t % 64 == 0 {
                progress.set_position(t);
            }
        }
        for out in [&mut trace, &mut positions].into_iter().flatten() {
            std::io::Write::flush(out)?;
        }
        apply_events(&mut schedule, &mut world);
        let labels: Vec<Option<String>> = (0..world.agents().len())
            .map(|i| {
                let id = world.agents().id(i)?;
                lua.as_ref().and_then(|l| l.label(id)).map(str::to_owned)
            })
            .collect();
        Ok((elapsed, times, labels))
    })??;
    progress.finish_and_clear();
    if let Some(out) = &args.record {
        fork_cmd::write_recording(out, &content, &args.sim, world.config().seed, hashes)?;
    }
    let ms_per_tick = elapsed.as_secs_f64() * 1e3 / args.ticks.max(1) as f64;
    let measured = run_summary::Measured {
        labels: &labels,
        times: &times,
        ms_per_tick,
    };
    run_summary::print(&args.sim, &world, &measured)?;
    Ok(ExitCode::SUCCESS)
}

/// Appends one JSON line per agent: why it decided what it did this tick.
fn write_trace(
    out: &mut impl std::io::Write,
    content: &Content,
    world: &World,
    decider: &DefaultDecider,
) -> anyhow::Result<()> {
    let a = world.agents();
    let names = a.names();
    let name = |id: Option<kiai_core::AgentId>| id.map(|id| names[id.index()].as_str());
    for (i, t) in decider.traces().iter().enumerate() {
        if !a.alive()[i] {
            continue;
        }
        let d = a.decisions()[i];
        let archetype = &world.archetypes()[a.archetypes()[i].index()];
        let profile = content.archetype_profile(a.archetypes()[i].index());
        let steering = match (archetype.movement, d.state, d.target.is_some()) {
            (kiai_core::Movement::Static, ..) => "static",
            (kiai_core::Movement::Missile { .. }, BehaviourState::Chase, true) => {
                "missile_guidance"
            }
            (kiai_core::Movement::Missile { .. }, ..) => "missile_straight",
            (kiai_core::Movement::WaypointWalker { .. }, ..) => "waypoints",
            (kiai_core::Movement::Custom { .. }, ..) => "custom",
            (_, BehaviourState::Chase, true) => "pursue",
            (_, BehaviourState::Evade, true) => "evade",
            _ => "random_walk",
        };
        let rolls: Vec<Value> = t
            .rolls
            .iter()
            .map(|r| json!({ "kind": r.kind.name(), "value": r.value, "threshold": r.threshold }))
            .collect();
        let line = json!({
            "tick": world.tick() - 1,
            "agent": names[i],
            "state": d.state.name(),
            "target": name(d.target),
            "options": { "chase": name(t.chase_option), "evade": name(t.evade_option) },
            "chased": t.chased,
            "rolls": rolls,
            "decided_by": t.decided_by.name(),
            "profile": profile,
            "weights": { "chase": t.weights[0], "evade": t.weights[1] },
            "outcome": t.outcome.map(|o| format!("{o:?}").to_lowercase()),
            "steering": steering,
        });
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

fn perceive(args: &PerceiveArgs) -> anyhow::Result<ExitCode> {
    let Some(content) = load(&args.sim.file) else {
        return Ok(REPORTED);
    };
    let Some(mut schedule) = schedule_of(&args.sim, &content) else {
        return Ok(REPORTED);
    };
    let mut world = world_of(&content, args.sim.seed)?;
    with_threads(args.sim.threads, || {
        let mut pipeline = simulate(&mut world, args.tick, &mut schedule);
        pipeline.sense(&mut world);
    })?;
    let agents = world.agents();
    let names = agents.names();
    let mut report = Vec::with_capacity(agents.len());
    for id in agents.ids() {
        let archetype = &world.archetypes()[agents.archetypes()[id.index()].index()];
        let mut senses = serde_json::Map::new();
        for (s, sense) in archetype.senses.iter().enumerate() {
            let mut seen: Vec<&str> = world
                .percepts()
                .sensed(id, s)
                .iter()
                .map(|other| names[other.index()].as_str())
                .collect();
            seen.sort_unstable();
            senses.insert(sense.name.clone(), json!(seen));
        }
        // Everything its hearing senses heard, loudest first.
        let mut hears: Vec<(f32, Value)> = Vec::new();
        for (s, sense) in archetype.senses.iter().enumerate() {
            for h in world.percepts().heard(id, s) {
                let Some(sound) = world.percepts().sounds().get(h.sound) else {
                    continue;
                };
                let source = names.get(sound.source as usize).map_or("", String::as_str);
                hears.push((
                    h.loudness,
                    json!({ "source": source, "loudness": h.loudness, "sense": sense.name, "tag": sound.tag }),
                ));
            }
        }
        hears.sort_by(|a, b| b.0.total_cmp(&a.0));
        report.push((names[id.index()].as_str(), senses, hears));
    }
    if args.sim.json {
        let agents: Vec<Value> = report
            .into_iter()
            .map(|(name, senses, hears)| {
                let hears: Vec<Value> = hears.into_iter().map(|(_, h)| h).collect();
                json!({ "name": name, "senses": senses, "hears": hears })
            })
            .collect();
        print_json(&json!({ "tick": world.tick(), "agents": agents }))?;
    } else {
        outln(&format!("tick {}", world.tick()))?;
        for (name, senses, hears) in report {
            let parts: Vec<String> = senses
                .iter()
                .map(|(sense, seen)| {
                    let list: Vec<&str> = seen
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    format!("{sense} [{}]", list.join(", "))
                })
                .collect();
            let mut line = format!("{name}: {}", parts.join("; "));
            for (loudness, h) in &hears {
                line.push_str(&format!(
                    "; hears {} ({loudness:.3})",
                    h["source"]
                        .as_str()
                        .filter(|s| !s.is_empty())
                        .unwrap_or("a sound")
                ));
            }
            outln(&line)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn validate(args: &ValidateArgs) -> anyhow::Result<ExitCode> {
    let mut all: Vec<Diagnostic> = Vec::new();
    for file in &args.files {
        match Content::load(file) {
            Ok(content) => {
                for script in content.scripts() {
                    let checked = match &script.bundled {
                        Some(text) => {
                            kiai_lua::check_syntax(&script.path.display().to_string(), text)
                        }
                        None => kiai_lua::check_file(&script.path),
                    };
                    if let Err(e) = checked {
                        all.push(Diagnostic {
                            file: e.file.clone(),
                            line: e.line.unwrap_or(1),
                            column: 1,
                            severity: kiai_content::Severity::Error,
                            message: e.message.clone(),
                        });
                    }
                }
                all.extend(content.warnings);
            }
            Err(d) => all.extend(d.0),
        }
    }
    let errors = all.iter().filter(|d| d.is_error()).count();
    let ok = errors == 0;
    if args.json {
        let diagnostics: Vec<Value> = all
            .iter()
            .map(|d| {
                json!({
                    "file": d.file,
                    "line": d.line,
                    "column": d.column,
                    "severity": d.severity.as_str(),
                    "message": d.message,
                })
            })
            .collect();
        print_json(&json!({ "ok": ok, "diagnostics": diagnostics }))?;
    } else {
        for d in &all {
            outln(&format!("{d}"))?;
        }
        eprintln!(
            "{} file{} checked: {errors} error{}, {} warning{}",
            args.files.len(),
            plural(args.files.len()),
            plural(errors),
            all.len() - errors,
            plural(all.len() - errors)
        );
    }
    Ok(if ok { ExitCode::SUCCESS } else { REPORTED })
}

/// The navigation graph and the cost list named on the command line.
fn nav_of(content: &Content, cost_list: Option<&str>) -> anyhow::Result<(NavMap, CostListId)> {
    let nav = content.nav().context("cannot build the navigation graph")?;
    let list = match cost_list {
        Some(name) => nav.cost_list(name).with_context(|| {
            format!(
                "no cost list `{name}`; this file has: {}",
                nav.cost_list_names().join(", ")
            )
        })?,
        None => nav.first_cost_list().context("the file has no cost list")?,
    };
    Ok((nav, list))
}

fn waypoint(nav: &NavMap, id: u32) -> anyhow::Result<WaypointId> {
    nav.waypoint(id)
        .with_context(|| format!("no waypoint with id {id} in this file"))
}

fn select(args: &SelectArgs) -> anyhow::Result<ExitCode> {
    use rand::SeedableRng;

    let Some(content) = load(&args.file) else {
        return Ok(REPORTED);
    };
    let (nav, list) = nav_of(&content, args.cost_list.as_deref())?;
    let (at, dest) = (waypoint(&nav, args.at)?, waypoint(&nav, args.dest)?);
    let exclude = args
        .exclude
        .iter()
        .map(|id| waypoint(&nav, *id))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if !(args.jitter.is_finite() && args.jitter >= 0.0) {
        anyhow::bail!("--jitter must be a finite number >= 0");
    }
    if args
        .max_distance
        .is_some_and(|d| !(d.is_finite() && d > 0.0))
    {
        anyhow::bail!("--max-distance must be a finite number > 0");
    }
    let mut options = SelectOptions::new(
        if args.away {
            Heading::Away
        } else {
            Heading::Toward
        },
        list,
    );
    options.filter = NeighbourFilter {
        max_distance: args.max_distance,
        exclude: &exclude,
        ..NeighbourFilter::default()
    };
    options.jitter = args.jitter;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed.unwrap_or(content.seed()));
    let selected = nav
        .graph
        .select_neighbour(at, Destination::Waypoint(dest), &options, &mut rng)
        .and_then(|w| nav.content_id(w));
    if args.json {
        print_json(&json!({ "selected": selected }))?;
    } else {
        match selected {
            Some(id) => outln(&format!("{id}"))?,
            None => outln("none: no neighbour qualifies")?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn fog(args: &FogArgs) -> anyhow::Result<ExitCode> {
    use kiai_core::fog::{FactionId as FogFaction, FactionMask, TilePos, TileState};

    let Some(content) = load(&args.sim.file) else {
        return Ok(REPORTED);
    };
    let Some(mut schedule) = schedule_of(&args.sim, &content) else {
        return Ok(REPORTED);
    };
    let mut world = world_of(&content, args.sim.seed)?;
    if world.fog().is_none() {
        anyhow::bail!(
            "{} has no `fog` section (add e.g. `fog: (tile_size: 2.0)` next to `bounds`)",
            args.sim.file.display()
        );
    }
    with_threads(args.sim.threads, || {
        simulate(&mut world, args.tick, &mut schedule);
    })?;
    let factions = world.factions();
    let selected: Vec<usize> = match &args.faction {
        Some(name) => vec![factions.find(name).map(|f| f.index()).with_context(|| {
            let names: Vec<&str> = (0..factions.len())
                .filter_map(|i| factions.name(kiai_core::FactionId::from_index(i)))
                .collect();
            format!("no faction `{name}`; this file has: {}", names.join(", "))
        })?],
        None => (0..factions.len()).collect(),
    };
    let Some(fog) = world.fog() else {
        anyhow::bail!("the fog of war is not enabled");
    };
    let grid = fog.grid();
    let spec = grid.spec();
    let mut per_faction = serde_json::Map::new();
    for &i in &selected {
        let f = FogFaction(i as u8);
        let name = factions
            .name(kiai_core::FactionId::from_index(i))
            .unwrap_or_default();
        per_faction.insert(
            name.to_owned(),
            json!({
                "visible": grid.visible_tile_count(f),
                "explored": grid.explored_tile_count(f),
            }),
        );
    }
    let spectator = FactionMask::of(selected.iter().map(|&i| FogFaction(i as u8)));
    let rows: Vec<String> = if args.dump {
        (0..spec.height)
            .rev()
            .map(|z| {
                (0..spec.width)
                    .map(|x| {
                        let t = TilePos::new(x, z);
                        if grid.is_blocking(t) {
                            'X'
                        } else {
                            match grid.state(t, spectator) {
                                TileState::Visible => '#',
                                TileState::Explored => '.',
                                TileState::Unexplored => ' ',
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    } else {
        Vec::new()
    };
    if args.sim.json {
        let mut out = json!({
            "tick": world.tick(),
            "width": spec.width,
            "height": spec.height,
            "tile_size": spec.tile_size,
            "factions": per_faction,
        });
        if args.dump {
            out["grid"] = json!(rows);
        }
        print_json(&out)?;
    } else {
        outln(&format!(
            "tick {}: {} x {} tiles of {} units",
            world.tick(),
            spec.width,
            spec.height,
            spec.tile_size
        ))?;
        for (name, v) in &per_faction {
            outln(&format!(
                "{name:<12} visible {:>7}  explored {:>7}",
                v["visible"], v["explored"]
            ))?;
        }
        for row in rows {
            outln(&format!("|{row}|"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
