//! What both programs share: a panic prints its message through semihosting and exits QEMU
//! with a failure.
#![no_std]

use core::panic::PanicInfo;
use cortex_m_semihosting::{debug, hprintln};

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    hprintln!("{}", info);
    loop {
        debug::exit(debug::EXIT_FAILURE);
    }
}
