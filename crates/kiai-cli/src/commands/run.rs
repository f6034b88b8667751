//! `kiai run`: ticks the content headlessly with the Rust decider (or the
//! archetypes' Lua scripts), writing what `--trace`, `--positions` and
//! `--record` ask for after every tick, then prints the summary
//! (`run_summary.rs`).

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use indicatif::ProgressBar;
use kiai::lua::{LuaDecider, ScriptWatcher};
use kiai_content::Content;
use kiai_content::events::Schedule;
use kiai_core::{DefaultDecider, Pipeline, TickTimes, World, state_hash};

use crate::load::{load, schedule_of};
use crate::output::REPORTED;
use crate::scripts::{print_script_error, print_script_output, watch_scripts};
use crate::sim::{SimArgs, apply_events, with_threads, world_of};
use crate::{positions, recording, run_summary, trace};

/// `kiai run`'s flags.
#[derive(Args)]
pub(crate) struct RunArgs {
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

/// Runs `kiai run`: loads, ticks (on `--threads` workers), writes the
/// recording if asked, and prints the summary.
pub(crate) fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let Some(content) = load(&args.sim.file) else {
        return Ok(REPORTED);
    };
    let Some(mut schedule) = schedule_of(args.sim.events.as_deref(), &content) else {
        return Ok(REPORTED);
    };
    let mut world = world_of(&content, args.sim.seed)?;
    let progress = progress_bar(args);
    let mut outputs = Outputs::create(args)?;
    check_flags(args, &content, &outputs)?;
    let ran = with_threads(args.sim.threads, || {
        tick_all(
            args,
            &content,
            &mut world,
            &mut schedule,
            &mut outputs,
            &progress,
        )
    })??;
    progress.finish_and_clear();
    if let Some(out) = &args.record {
        let events = args.sim.events.as_deref();
        recording::write_recording(out, &content, events, world.config().seed, ran.hashes)?;
    }
    let ms_per_tick = ran.elapsed.as_secs_f64() * 1e3 / args.ticks.max(1) as f64;
    let measured = run_summary::Measured {
        labels: &ran.labels,
        times: &ran.times,
        ms_per_tick,
    };
    run_summary::print(&args.sim, &world, &measured)?;
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on stderr for long human runs in a terminal; hidden
/// otherwise.
fn progress_bar(args: &RunArgs) -> ProgressBar {
    if args.sim.json || !std::io::stderr().is_terminal() || args.ticks < 200 {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.ticks)
    }
}

/// Refuses the flag combinations a run cannot honour.
fn check_flags(args: &RunArgs, content: &Content, outputs: &Outputs) -> anyhow::Result<()> {
    anyhow::ensure!(
        content.scripts().is_empty() || outputs.trace.is_none(),
        "--trace is not available yet for content with scripts"
    );
    anyhow::ensure!(
        args.record.is_none() || !args.watch,
        "--record cannot be combined with --watch: a reloaded script changes the run, and the \
         recording would not replay"
    );
    Ok(())
}

/// What a run measured, for the summary and the recording.
struct Ran {
    /// Wall-clock time spent in the ticks themselves.
    elapsed: Duration,
    /// Every tick's stage timings.
    times: TickTimes,
    /// Each agent slot's label from its script's custom state, if any.
    labels: Vec<Option<String>>,
    /// The state hash after every tick (with `--record` only).
    hashes: Vec<u64>,
}

/// Ticks `args.ticks` times, writing the outputs after each tick, then
/// applies the events due after the last.
fn tick_all(
    args: &RunArgs,
    content: &Content,
    world: &mut World,
    schedule: &mut Schedule,
    outputs: &mut Outputs,
    progress: &ProgressBar,
) -> anyhow::Result<Ran> {
    let mut ticker = Ticker::new(args, content, outputs.trace.is_some())?;
    for t in 0..args.ticks {
        ticker.tick(world, schedule);
        outputs.write(content, world, &ticker.decider)?;
        if t % 64 == 0 {
            progress.set_position(t);
        }
    }
    outputs.flush()?;
    apply_events(schedule, world);
    let labels = ticker.labels(world);
    Ok(Ran {
        elapsed: ticker.elapsed,
        times: ticker.times,
        labels,
        hashes: ticker.hashes,
    })
}

/// What ticks the world: the pipeline and its decider (the scripts' when
/// archetypes have scripts), the script watcher of `--watch`, and what is
/// measured on the way.
struct Ticker {
    pipeline: Pipeline,
    lua: Option<LuaDecider>,
    watcher: Option<ScriptWatcher>,
    decider: DefaultDecider,
    times: TickTimes,
    elapsed: Duration,
    record: bool,
    hashes: Vec<u64>,
}

impl Ticker {
    /// The ticker for `content`: its scripts compiled (errors on stderr)
    /// and watched with `--watch`; the Rust decider keeps traces when
    /// `traced`.
    fn new(args: &RunArgs, content: &Content, traced: bool) -> anyhow::Result<Self> {
        let (lua, errors) = kiai::lua::decider_for(content, kiai::lua::Limits::default());
        for e in errors {
            eprintln!("{e}");
        }
        let watcher = match (&lua, args.watch) {
            (Some(d), true) => Some(watch_scripts(d)?),
            _ => None,
        };
        let decider = if traced {
            DefaultDecider::with_traces()
        } else {
            DefaultDecider::default()
        };
        Ok(Self {
            pipeline: Pipeline::new(),
            lua,
            watcher,
            decider,
            times: TickTimes::new(),
            elapsed: Duration::ZERO,
            record: args.record.is_some(),
            hashes: Vec::new(),
        })
    }

    /// One tick: reloads changed scripts, applies the events due, ticks
    /// (timed), and prints what the scripts reported.
    fn tick(&mut self, world: &mut World, schedule: &mut Schedule) {
        self.reload_scripts(world.tick());
        apply_events(schedule, world);
        let start = Instant::now();
        match &mut self.lua {
            Some(d) => self.pipeline.tick(world, d),
            None => self.pipeline.tick(world, &mut self.decider),
        }
        self.elapsed += start.elapsed();
        if self.record {
            self.hashes.push(state_hash(world));
        }
        if let Some(d) = &mut self.lua {
            print_script_output(d);
        }
        self.times.push(*self.pipeline.timings());
    }

    /// Reloads the scripts whose files changed (`--watch`), saying so (or
    /// why not) on stderr.
    fn reload_scripts(&mut self, tick: u64) {
        let (Some(w), Some(d)) = (&mut self.watcher, &mut self.lua) else {
            return;
        };
        for r in w.poll(d, tick) {
            match &r.result {
                Ok(()) => eprintln!("reloaded {} before tick {}", r.path.display(), r.tick),
                Err(e) => print_script_error(r.tick, e),
            }
        }
    }

    /// Each agent slot's label from its script's custom state, if any.
    fn labels(&self, world: &World) -> Vec<Option<String>> {
        (0..world.agents().len())
            .map(|i| {
                let id = world.agents().id(i)?;
                self.lua
                    .as_ref()
                    .and_then(|l| l.label(id))
                    .map(str::to_owned)
            })
            .collect()
    }
}

/// The per-tick files `--trace` and `--positions` name, when given.
struct Outputs {
    trace: Option<BufWriter<File>>,
    positions: Option<BufWriter<File>>,
}

impl Outputs {
    /// Creates the files the flags name.
    fn create(args: &RunArgs) -> anyhow::Result<Self> {
        Ok(Self {
            trace: create_output(args.trace.as_deref())?,
            positions: create_output(args.positions.as_deref())?,
        })
    }

    /// Appends the lines of the tick `world` last ran.
    fn write(
        &mut self,
        content: &Content,
        world: &World,
        decider: &DefaultDecider,
    ) -> anyhow::Result<()> {
        if let Some(out) = &mut self.trace {
            trace::write_trace(out, content, world, decider)?;
        }
        if let Some(out) = &mut self.positions {
            positions::write_positions(out, world)?;
        }
        Ok(())
    }

    /// Flushes both files.
    fn flush(&mut self) -> std::io::Result<()> {
        for out in [&mut self.trace, &mut self.positions].into_iter().flatten() {
            out.flush()?;
        }
        Ok(())
    }
}

/// A buffered file created at `path`, if one is given.
fn create_output(path: Option<&Path>) -> anyhow::Result<Option<BufWriter<File>>> {
    path.map(|path| {
        File::create(path)
            .map(BufWriter::new)
            .with_context(|| format!("cannot create {}", path.display()))
    })
    .transpose()
}
