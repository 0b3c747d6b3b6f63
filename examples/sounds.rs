//! The seed's sound pool: when every voice is busy and the game asks for one more sound, the
//! quietest voice playing is cut and its slot plays the new sound, whose start masks the cut.
//!
//! It shows:
//! - `#[pool(on_full = evict, evict_by = Voice::loudness)]`: `create` always returns a voice, so
//!   the wand swish never stays silent; the loudness is a float, ranked through `TotalOrder`;
//! - that a cut voice is let go at once: its handle is stale (`contains` is false) and its
//!   `Rc<Sample>` is dropped, as a release would;
//! - `retain` to play every voice for a tick and hand back the ones that ended, and `release`
//!   answering `StaleHandle` for sounds that ended or were cut;
//! - `stats().evicted`, and no heap allocation in the game loop: the example measures it with
//!   `allocation_counter` and prints the count, which is 0.
//!
//! ```text
//! cargo run --release --example sounds
//! ```

mod cli;

use pooling::{Handle, Pooled, TotalOrder};
use std::io::{self, Write};
use std::process::ExitCode;
use std::rc::Rc;

const USAGE: &str = "\
Usage: cargo run --release --example sounds [-- --help]

Plays a scripted scene on a voice pool that cuts the quietest voice when full. It takes no
options.";

const TICKS: u32 = 16;

/// What the game asks for, and when: a walk, an ambush, and the battle at tick 9, which asks
/// for more sounds than there are voices.
const SCRIPT: &[(u32, &str)] = &[
    (0, "ambient wind"),
    (1, "footstep"),
    (3, "footstep"),
    (5, "footstep"),
    (6, "goblin shriek"),
    (6, "goblin shriek"),
    (7, "footstep"),
    (8, "fireball"),
    (9, "thunder"),
    (9, "goblin shriek"),
    (9, "fireball"),
    (9, "goblin shriek"),
    (9, "wand swish"),
    (9, "fireball"),
    (9, "wand swish"),
    (11, "goblin shriek"),
    (13, "footstep"),
    (15, "footstep"),
];

/// A sound loaded once at start-up; the voices playing it share it through an `Rc`.
struct Sample {
    name: &'static str,
    /// Loudness when it starts.
    volume: f32,
    /// Share of its loudness a voice keeps from one tick to the next.
    fade: f32,
    ticks: u32,
}

#[derive(Pooled)]
#[pool(size = 8, on_full = evict, evict_by = Voice::loudness)]
struct Voice {
    /// Let go at release and at eviction, so a sample's `Rc` counts only the voices playing it.
    sample: Option<Rc<Sample>>,
    /// Ticks played.
    position: u32,
    volume: f32,
}

impl Voice {
    /// The voice the player would miss least is the quietest one.
    fn loudness(&self) -> TotalOrder<f32> {
        TotalOrder(self.volume)
    }

    fn name(&self) -> &'static str {
        self.sample.as_ref().map_or("nothing", |s| s.name)
    }

    /// Plays one tick; false once the sample has ended.
    fn play(&mut self) -> bool {
        let Some(sample) = &self.sample else {
            return false;
        };
        self.position += 1;
        self.volume *= sample.fade;
        self.position < sample.ticks
    }
}

/// The voice `create` is about to cut, noted beforehand to tell the story.
struct Cut {
    voice: Handle<Voice>,
    name: &'static str,
    loudness: f32,
    refs_before: usize,
}

struct Mixer {
    voices: VoicePool,
    bank: [Rc<Sample>; 6],
    /// Every sound started, so that the game can stop them all at the end.
    started: Vec<Handle<Voice>>,
}

impl Mixer {
    fn new() -> Self {
        let sample = |name, volume, fade, ticks| {
            Rc::new(Sample {
                name,
                volume,
                fade,
                ticks,
            })
        };
        Self {
            voices: VoicePool::new(),
            bank: [
                // Looped for the whole scene, and quiet: the first to go when the battle starts.
                sample("ambient wind", 0.25, 1.0, TICKS),
                sample("footstep", 0.4, 0.6, 3),
                sample("goblin shriek", 0.7, 0.75, 5),
                sample("wand swish", 0.8, 0.7, 2),
                sample("fireball", 0.9, 0.8, 8),
                sample("thunder", 1.0, 0.85, 10),
            ],
            // Reserved here so that pushing in the game loop never allocates.
            started: Vec::with_capacity(SCRIPT.len()),
        }
    }

    fn sample(&self, name: &str) -> &Rc<Sample> {
        self.bank
            .iter()
            .find(|s| s.name == name)
            .expect("the script names only samples in the bank")
    }

    fn start(&mut self, tick: u32, name: &str, out: &mut impl Write) -> io::Result<()> {
        let sample = Rc::clone(self.sample(name));
        let cut = self.voices.is_full().then(|| self.quietest());
        let volume = sample.volume;
        let voice = self.voices.create(|v| {
            v.volume = volume;
            v.sample = Some(sample);
        });
        self.started.push(voice);
        write!(out, "tick {tick:>2}  {name:<13}  voice {}", voice.index())?;
        let Some(cut) = cut else {
            let (playing, capacity) = (self.voices.len(), self.voices.capacity());
            return writeln!(out, "  ({playing} of {capacity} playing)");
        };
        assert_eq!(voice.index(), cut.voice.index(), "create cut another voice");
        let refs_after = Rc::strong_count(self.sample(cut.name));
        writeln!(
            out,
            "  pool full: cut {} at loudness {:.2}",
            cut.name, cut.loudness
        )?;
        writeln!(
            out,
            "{:34}the cut voice's handle: contains = {}; {} Rc count {} -> {}",
            "",
            self.voices.contains(cut.voice),
            cut.name,
            cut.refs_before,
            refs_after,
        )
    }

    /// The voice `create` is about to evict: the one `evict_by` ranks lowest.
    fn quietest(&self) -> Cut {
        let voice = self.voices.victim().expect("a full pool has live voices");
        let v = self.voices.get(voice).expect("the victim is live");
        Cut {
            voice,
            name: v.name(),
            loudness: v.volume,
            refs_before: v.sample.as_ref().map_or(0, Rc::strong_count),
        }
    }

    /// The scene is over: stop every sound the game started. The handles of sounds that ended
    /// or were cut are stale, and `release` says so without touching the voice now in the slot.
    fn stop_all(&mut self, out: &mut impl Write) -> io::Result<()> {
        let stopped = self
            .started
            .iter()
            .filter(|&&voice| self.voices.release(voice).is_ok())
            .count();
        let stale = self.started.len() - stopped;
        writeln!(
            out,
            "end of scene: stopped {stopped} voices still playing; {stale} handles were stale"
        )
    }
}

fn main() -> ExitCode {
    if let Err(status) = cli::read(USAGE, (), |(), arg, _| cli::unknown(arg)) {
        return status;
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        // `| head` closing the pipe early is not a failure of the example.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> io::Result<()> {
    // Everything that allocates happens here, before the measured loop.
    let mut mixer = Mixer::new();
    let mut stdout = io::stdout().lock();
    // The first write also makes stdout allocate its buffer, outside the measurement.
    writeln!(
        stdout,
        "{} voices; Rc counts include the sound bank's own reference",
        mixer.voices.capacity()
    )?;

    let mut outcome = Ok(());
    let allocations = allocation_counter::measure(|| {
        outcome = play_scene(&mut mixer, &mut stdout);
    });
    outcome?;

    let stats = mixer.voices.stats();
    writeln!(
        stdout,
        "sounds started: {}, voices cut to make room: {}",
        stats.created, stats.evicted
    )?;
    writeln!(stdout, "{:?}", mixer.voices)?;
    writeln!(
        stdout,
        "heap allocations in the game loop: {}",
        allocations.count_total
    )
}

fn play_scene(mixer: &mut Mixer, out: &mut impl Write) -> io::Result<()> {
    for tick in 0..TICKS {
        mixer.voices.retain(Voice::play);
        for &(_, name) in SCRIPT.iter().filter(|&&(at, _)| at == tick) {
            mixer.start(tick, name, out)?;
        }
    }
    mixer.stop_all(out)
}
