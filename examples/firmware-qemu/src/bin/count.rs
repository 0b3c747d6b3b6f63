//! Instruction counts: one create + release of a sync pool beside one request + drop of heapless's
//! `object_pool!`, each in an out-of-line function that does only that, run a few times with
//! no interrupts; `count.sh` counts the instructions QEMU
//! executes inside each function.
#![no_std]
#![no_main]

use core::ptr::addr_of_mut;
use cortex_m_rt::entry;
use cortex_m_semihosting::debug;
use heapless::object_pool;
use heapless::pool::object::ObjectBlock;
use firmware_qemu as _;

/// How often each function runs: `count.sh` divides by it.
const CALLS: u32 = 10;

object_pool!(Blocks: [u32; 4]);

#[inline(never)]
#[unsafe(no_mangle)]
fn heapless_pair() {
    drop(Blocks.request());
}

#[entry]
fn main() -> ! {
    let blocks: &'static mut [ObjectBlock<[u32; 4]>] = {
        const BLOCK: ObjectBlock<[u32; 4]> = ObjectBlock::new([0; 4]);
        static mut BLOCKS: [ObjectBlock<[u32; 4]>; 16] = [BLOCK; 16];
        // SAFETY: the one reference to BLOCKS, made once.
        unsafe { addr_of_mut!(BLOCKS).as_mut().unwrap() }
    };
    for block in blocks {
        Blocks.manage(block);
    }
    for _ in 0..CALLS {
        heapless_pair();
    }
    debug::exit(debug::EXIT_SUCCESS);
    loop {}
}
