//! One `static` sync pool shared by thread mode, SysTick and a higher-priority PendSV, under
//! QEMU: thread mode creates, reads and releases objects and leases others, while SysTick fires
//! every 400 cycles (as fast as the emulator allows an interrupt to finish its own work) and
//! PendSV preempts it every third tick. Each owner writes a marker of its own into the object it
//! takes, finds the object blank before, and its marker intact after: an object held by two
//! owners at once, or handed out unreset, fails the run. SysTick passes some of its leases to
//! thread mode through a queue, which drops them there. At the end the pool's stats must match
//! what every context counted, and QEMU exits through semihosting.
//!
//! `cargo run --release` from this folder (QEMU's `lm3s6965evb`, a Cortex-M3; thumbv6m runs on
//! `microbit`, a Cortex-M0, with `--target thumbv6m-none-eabi --features critical-section`).
#![no_std]
#![no_main]

use core::cell::RefCell;
use cortex_m::peripheral::scb::SystemHandler;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m_rt::{entry, exception};
use cortex_m_semihosting::{debug, hprintln};
use critical_section::Mutex;
use firmware_qemu as _;
use heapless::spsc::{Consumer, Producer, Queue};
use pooling::{Pooled, SyncLease};
use portable_atomic::{AtomicBool, AtomicU32, Ordering};

// ANCHOR: static
/// A packet buffer, as a driver would keep them.
#[derive(Pooled)]
#[pool(size = 16, sync, storage = inline)]
struct Packet {
    /// Who holds it: 0 while free (reset), then the holder's own marker.
    marker: u32,
    len: u8,
    bytes: [u8; 32],
}

/// Sixteen packets in static memory, shared by every context: `new` is `const`.
static PACKETS: PacketPool = PacketPool::new();

/// A lease of a `static` pool: `'static` and `Send`, so it goes through a queue.
type Lease = SyncLease<'static, Packet>;
// ANCHOR_END: static

/// SysTick's end of the queue, handed over once.
static PRODUCER: Mutex<RefCell<Option<Producer<'static, Lease>>>> = Mutex::new(RefCell::new(None));

/// Each context's operations (a create + release, or an acquire + drop, or a lease from the
/// queue dropped), and the markers each writes: its id in the top byte, a sequence below.
static THREAD_OPS: AtomicU32 = AtomicU32::new(0);
static SYSTICK_OPS: AtomicU32 = AtomicU32::new(0);
static PENDSV_OPS: AtomicU32 = AtomicU32::new(0);
static PASSED: AtomicU32 = AtomicU32::new(0);
static DROPPED_IN_THREAD: AtomicU32 = AtomicU32::new(0);
/// Objects asked for while all sixteen were taken.
static REFUSED: AtomicU32 = AtomicU32::new(0);
/// Set by thread mode around each pool call; interrupts that find it set landed inside one.
static IN_CALL: AtomicBool = AtomicBool::new(false);
static LANDED: AtomicU32 = AtomicU32::new(0);
static TICKS: AtomicU32 = AtomicU32::new(0);

const THREAD: u32 = 1 << 24;
const SYSTICK: u32 = 2 << 24;
const PENDSV: u32 = 3 << 24;
/// Thread-mode rounds: each creates, reads and releases, and acquires and drops. Fewer on
/// thumbv6m, whose atomics are critical sections, slower to emulate.
const ROUNDS: u32 = if cfg!(target_has_atomic = "32") {
    200_000
} else {
    100_000
};
/// SysTick fires every `RELOAD + 1` ticks of its clock: about every 1,400 instructions on
/// `lm3s6965evb` (12 MHz, with `-icount shift=0` an instruction a nanosecond) and 6,300 on
/// `microbit`. A period much shorter starves thread mode: SysTick and PendSV would take all of it.
const RELOAD: u32 = if cfg!(target_has_atomic = "32") {
    16
} else {
    100
};

/// Takes an object as its holder `marker`: it must be blank.
fn claim(packet: &mut Packet, marker: u32) {
    assert_eq!(
        packet.marker, 0,
        "an object handed out unreset, or held twice"
    );
    assert_eq!(packet.len, 0, "an object handed out unreset");
    packet.marker = marker;
    packet.len = 3;
    packet.bytes[..3].copy_from_slice(&marker.to_le_bytes()[..3]);
}

/// The holder `marker` still holds it alone.
fn holds(packet: &Packet, marker: u32) {
    assert_eq!(packet.marker, marker, "an object held by two owners");
    assert_eq!(
        packet.bytes[..3],
        marker.to_le_bytes()[..3],
        "written by two owners"
    );
}

// ANCHOR: churn
/// What each context does: create, read and release an object; acquire one, and drop it or
/// hand it back to the caller.
fn churn(marker: u32, ops: &AtomicU32) -> Option<Lease> {
    match PACKETS.create(|p| claim(p, marker)) {
        Ok(handle) => {
            holds(&PACKETS.get(handle).expect("live"), marker);
            PACKETS
                .release(handle)
                .expect("its only holder releases it");
            assert!(PACKETS.get(handle).is_none(), "stale once released");
            ops.fetch_add(1, Ordering::Relaxed);
        }
        Err(_) => {
            REFUSED.fetch_add(1, Ordering::Relaxed);
        }
    }
    let lease = PACKETS.acquire(|p| claim(p, marker + 1));
    let Ok(lease) = lease else {
        REFUSED.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    holds(&lease, marker + 1);
    ops.fetch_add(1, Ordering::Relaxed);
    Some(lease)
}
// ANCHOR_END: churn

#[entry]
fn main() -> ! {
    let queue: &'static mut Queue<Lease, 8> =
        cortex_m::singleton!(: Queue<Lease, 8> = Queue::new()).expect("once");
    let (producer, mut consumer): (Producer<'static, Lease>, Consumer<'static, Lease>) =
        queue.split();
    critical_section::with(|cs| PRODUCER.borrow_ref_mut(cs).replace(producer));

    let mut core = cortex_m::Peripherals::take().expect("once");
    // SAFETY: setting priorities before the handlers run; PendSV preempts SysTick.
    unsafe {
        core.SCB.set_priority(SystemHandler::SysTick, 0x80);
        core.SCB.set_priority(SystemHandler::PendSV, 0x40);
    }
    core.SYST.set_clock_source(SystClkSource::Core);
    core.SYST.set_reload(RELOAD);
    core.SYST.clear_current();
    core.SYST.enable_interrupt();
    core.SYST.enable_counter();

    for round in 0..ROUNDS {
        let marker = THREAD | (round & 0xFF_FFFE);
        IN_CALL.store(true, Ordering::Relaxed);
        let lease = churn(marker, &THREAD_OPS);
        IN_CALL.store(false, Ordering::Relaxed);
        if let Some(lease) = lease {
            holds(&lease, marker + 1);
            IN_CALL.store(true, Ordering::Relaxed);
            drop(lease);
            IN_CALL.store(false, Ordering::Relaxed);
        }
        // SysTick's leases, dropped here: given back from thread mode.
        while let Some(lease) = consumer.dequeue() {
            assert_eq!(lease.marker >> 24, SYSTICK >> 24, "a lease SysTick wrote");
            holds(&lease, lease.marker);
            IN_CALL.store(true, Ordering::Relaxed);
            drop(lease);
            IN_CALL.store(false, Ordering::Relaxed);
            DROPPED_IN_THREAD.fetch_add(1, Ordering::Relaxed);
        }
    }
    core.SYST.disable_interrupt();
    core.SYST.disable_counter();
    while let Some(lease) = consumer.dequeue() {
        drop(lease);
        DROPPED_IN_THREAD.fetch_add(1, Ordering::Relaxed);
    }

    let stats = PACKETS.stats();
    let (thread, systick, pendsv) = (
        THREAD_OPS.load(Ordering::Relaxed),
        SYSTICK_OPS.load(Ordering::Relaxed),
        PENDSV_OPS.load(Ordering::Relaxed),
    );
    let ops = u64::from(thread + systick + pendsv);
    hprintln!(
        "thread mode: {} operations; SysTick: {} operations in {} interrupts, {} leases passed to thread mode; PendSV: {} operations; {} interrupts landed inside a pool call; {} refusals (pool full)",
        thread,
        systick,
        TICKS.load(Ordering::Relaxed),
        PASSED.load(Ordering::Relaxed),
        pendsv,
        LANDED.load(Ordering::Relaxed),
        REFUSED.load(Ordering::Relaxed),
    );
    hprintln!("{:?}", PACKETS);
    assert_eq!(
        PASSED.load(Ordering::Relaxed),
        DROPPED_IN_THREAD.load(Ordering::Relaxed)
    );
    assert_eq!(
        (stats.live, stats.leased, stats.retired),
        (0, 0, 0),
        "nothing held or lost"
    );
    assert_eq!(stats.free, stats.capacity, "every slot back");
    assert_eq!(
        (stats.created, stats.released),
        (ops, ops),
        "every operation counted, once"
    );
    assert_eq!(stats.failed, u64::from(REFUSED.load(Ordering::Relaxed)));
    assert!(
        u64::from(systick) > ops / 50,
        "the interrupts did work: {systick}"
    );
    assert!(
        LANDED.load(Ordering::Relaxed) > 100,
        "interrupts landed inside pool calls"
    );
    loop {
        debug::exit(debug::EXIT_SUCCESS);
    }
}

// ANCHOR: handler
#[exception]
fn SysTick() {
    static mut PRODUCER_HERE: Option<Producer<'static, Lease>> = None;
    static mut SEQUENCE: u32 = 0;
    if IN_CALL.load(Ordering::Relaxed) {
        LANDED.fetch_add(1, Ordering::Relaxed);
    }
    let tick = TICKS.fetch_add(1, Ordering::Relaxed);
    if PRODUCER_HERE.is_none() {
        *PRODUCER_HERE = critical_section::with(|cs| PRODUCER.borrow_ref_mut(cs).take());
    }
    *SEQUENCE = (*SEQUENCE + 2) & 0xFF_FFFE;
    let marker = SYSTICK | *SEQUENCE;
    if tick.is_multiple_of(3) {
        cortex_m::peripheral::SCB::set_pendsv();
    }
    if let Some(lease) = churn(marker, &SYSTICK_OPS) {
        match PRODUCER_HERE.as_mut() {
            Some(producer) if tick.is_multiple_of(2) => match producer.enqueue(lease) {
                Ok(()) => {
                    PASSED.fetch_add(1, Ordering::Relaxed);
                }
                // The queue is full: released here instead.
                Err(lease) => drop(lease),
            },
            _ => drop(lease),
        }
    }
}
// ANCHOR_END: handler

#[exception]
fn PendSV() {
    static mut SEQUENCE: u32 = 0;
    if IN_CALL.load(Ordering::Relaxed) {
        LANDED.fetch_add(1, Ordering::Relaxed);
    }
    *SEQUENCE = (*SEQUENCE + 2) & 0xFF_FFFE;
    if let Some(lease) = churn(PENDSV | *SEQUENCE, &PENDSV_OPS) {
        drop(lease);
    }
}
