//! Instruction counts: one create + release of a sync pool beside one request + drop of heapless's
//! `object_pool!`, each in an out-of-line function that does only that, run a few times with
//! no interrupts; `count.sh` counts the instructions QEMU
//! executes inside each function.
#![no_std]
#![no_main]

#[cfg(target_has_atomic = "32")]
use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use cortex_m_semihosting::debug;
use firmware_qemu as _;
#[cfg(target_has_atomic = "32")]
use heapless::object_pool;
#[cfg(target_has_atomic = "32")]
use heapless::pool::object::ObjectBlock;
use pooling::Pooled;

/// How often each function runs: `count.sh` divides by it.
const CALLS: u32 = 10;

// heapless has no pool on cores without compare-and-swap (thumbv6m).
#[cfg(target_has_atomic = "32")]
object_pool!(Blocks: [u32; 4]);

/// The same block in a sync pool, kept as it is between uses as heapless keeps its objects.
#[derive(Pooled)]
#[pool(size = 16, sync, storage = inline)]
struct Block {
    #[expect(dead_code, reason = "a payload, as heapless's blocks")]
    #[pool(keep)]
    words: [u32; 4],
}

static BLOCKS: BlockPool = BlockPool::new();

/// A block with its words reset to zero on reuse, as `#[derive(Pooled)]` does by default.
#[derive(Pooled)]
#[pool(size = 16, sync, storage = inline)]
struct Cleared {
    words: [u32; 4],
}

static CLEARED: ClearedPool = ClearedPool::new();

#[cfg(target_has_atomic = "32")]
#[inline(never)]
#[unsafe(no_mangle)]
fn heapless_pair() {
    drop(Blocks.request());
}

#[inline(never)]
#[unsafe(no_mangle)]
fn pooling_pair() {
    if let Ok(block) = BLOCKS.create(|_| {}) {
        let _ = BLOCKS.release(block);
    }
}

#[inline(never)]
#[unsafe(no_mangle)]
fn pooling_lease_pair() {
    drop(BLOCKS.acquire(|_| {}));
}

#[inline(never)]
#[unsafe(no_mangle)]
fn pooling_cleared_pair() {
    if let Ok(block) = CLEARED.create(|_| {}) {
        let _ = CLEARED.release(block);
    }
}

/// Gives heapless's pool its blocks.
#[cfg(target_has_atomic = "32")]
fn manage_blocks() {
    let blocks: &'static mut [ObjectBlock<[u32; 4]>] = {
        #[expect(
            clippy::declare_interior_mutable_const,
            reason = "heapless's way to fill a static array of blocks"
        )]
        const BLOCK: ObjectBlock<[u32; 4]> = ObjectBlock::new([0; 4]);
        static mut BLOCKS: [ObjectBlock<[u32; 4]>; 16] = [BLOCK; 16];
        // SAFETY: the one reference to BLOCKS, made once.
        unsafe { addr_of_mut!(BLOCKS).as_mut().unwrap() }
    };
    for block in blocks {
        Blocks.manage(block);
    }
}

#[entry]
fn main() -> ! {
    #[cfg(target_has_atomic = "32")]
    manage_blocks();
    // Each slot's first use builds its object and draws the pool's versions: not counted.
    let warm = BLOCKS.create(|_| {}).unwrap();
    BLOCKS.release(warm).unwrap();
    let warm = CLEARED.create(|_| {}).unwrap();
    CLEARED.release(warm).unwrap();
    for _ in 0..CALLS {
        #[cfg(target_has_atomic = "32")]
        heapless_pair();
        pooling_pair();
        pooling_lease_pair();
        pooling_cleared_pair();
    }
    loop {
        debug::exit(debug::EXIT_SUCCESS);
    }
}
