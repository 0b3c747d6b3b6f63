//! Firmware with no allocator: an inline pool in a `static`, behind the program's own lock.
//!
//! `cargo build --release --manifest-path examples/firmware/Cargo.toml --target
//! thumbv7em-none-eabihf`. There is no `#[global_allocator]` and no `alloc` crate: if anything
//! in the pool allocated, the build would fail to link.
#![no_std]
#![no_main]

use core::panic::PanicInfo;
use core::sync::atomic::{AtomicU32, Ordering};
use pooling::{Handle, Pooled};
use spin::Mutex;

/// A radio frame waiting to be sent.
#[derive(Pooled)]
#[pool(size = 16, storage = inline, on_full = evict, evict_by = |f| f.priority)]
struct Frame {
    priority: u8,
    len: u8,
    payload: [u8; 32],
}

/// A reading of the antenna's signal, kept as columns: the average below reads one column.
#[derive(Pooled)]
#[pool(size = 8, storage = inline, on_full = evict, evict_by = |s| *s.age, layout = columns)]
struct Sample {
    strength: i16,
    age: u16,
}

/// Sixteen frames in the binary's static memory: `FramePool::new()` is `const` and builds nothing.
static FRAMES: Mutex<FramePool> = Mutex::new(FramePool::new());

/// Where the "radio" writes, so that the loop has an effect the optimizer keeps.
static SENT: AtomicU32 = AtomicU32::new(0);

/// Queues a frame; the least urgent queued frame makes room when all sixteen are taken.
fn queue(priority: u8, bytes: &[u8]) -> Handle<Frame> {
    FRAMES.lock().create(|frame| {
        frame.priority = priority;
        let len = bytes.len().min(frame.payload.len());
        frame.payload[..len].copy_from_slice(&bytes[..len]);
        #[expect(clippy::cast_possible_truncation, reason = "at most 32")]
        let len = len as u8;
        frame.len = len;
    })
}

/// Sends the frame and gives its slot back, reset.
fn send(frame: Handle<Frame>) {
    let mut frames = FRAMES.lock();
    if let Some(f) = frames.get(frame) {
        let sum: u32 = f.payload[..usize::from(f.len)]
            .iter()
            .map(|&b| u32::from(b))
            .sum();
        SENT.fetch_add(sum, Ordering::Relaxed);
    }
    // A frame evicted meanwhile is already gone: its handle is stale, not another frame's.
    let _ = frames.release(frame);
}

/// The average signal strength of the samples kept: a loop over one column's slices.
fn average(samples: &SamplePool) -> i32 {
    let (mut sum, mut count) = (0i32, 0i32);
    for run in samples.runs() {
        sum += run.strength.iter().map(|&s| i32::from(s)).sum::<i32>();
        #[expect(clippy::cast_possible_truncation, clippy::cast_possible_wrap, reason = "at most 8")]
        let len = run.strength.len() as i32;
        count += len;
    }
    sum / count.max(1)
}

#[unsafe(no_mangle)]
extern "C" fn _start() -> ! {
    // Eight samples on the stack, an array of each field: no allocation either.
    let mut samples = SamplePool::new();
    let mut tick: u8 = 0;
    loop {
        samples.values_mut().for_each(|s| *s.age = s.age.saturating_add(1));
        samples.create(|s| *s.strength = i16::from(tick) - 128);
        #[expect(clippy::cast_sign_loss, reason = "the average of i16s, shifted to be positive")]
        SENT.fetch_add((average(&samples) + 32_768) as u32, Ordering::Relaxed);
        let urgent = queue(200, &[tick, 1, 2, 3]);
        let chatter = queue(tick % 8, &[tick; 8]);
        send(urgent);
        if tick.is_multiple_of(4) {
            send(chatter);
        }
        tick = tick.wrapping_add(1);
    }
}

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    loop {}
}
