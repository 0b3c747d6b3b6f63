//! The examples' command lines, read alike: `--help` prints the usage; an unknown argument, a
//! missing value or a malformed one prints the error and the usage and exits with status 2.

use std::process::ExitCode;

/// Reads the command line into `settings`, handing each argument other than `--help` to
/// `option`, with a function that takes the next argument as its value. `Err` is the status
/// `main` returns at once.
pub(crate) fn read<T>(
    usage: &str,
    mut settings: T,
    mut option: impl FnMut(
        &mut T,
        &str,
        &mut dyn FnMut() -> Result<String, String>,
    ) -> Result<(), String>,
) -> Result<T, ExitCode> {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--help" || arg == "-h" {
            println!("{usage}");
            return Err(ExitCode::SUCCESS);
        }
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        if let Err(message) = option(&mut settings, &arg, &mut value) {
            eprintln!("error: {message}\n\n{usage}");
            return Err(ExitCode::from(2));
        }
    }
    Ok(settings)
}

/// The answer to an argument an example does not take.
pub(crate) fn unknown(arg: &str) -> Result<(), String> {
    Err(format!("unknown argument `{arg}`"))
}
