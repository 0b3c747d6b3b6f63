//! A worker pool on std threads sharing one pool of request buffers, and one of response
//! buffers, across threads.
//!
//! The dispatcher fills a request buffer in the shared `RequestPool` and sends its 8-byte handle
//! to a worker over a channel; the worker reads the request through `get`, builds the response
//! in a buffer leased from the `ResponsePool`, sends the lease itself on to the writer thread,
//! and releases the request. The writer checks each response and drops the lease, which gives
//! the buffer back, cleared, to the pool, from the writer's thread. No lock guards either pool:
//! `create`, `get`, `release` and `acquire` take `&pool` from any thread. A full pool is the
//! back-pressure: the dispatcher waits for a free request buffer, a worker for a free response
//! buffer.
//!
//! ```text
//! cargo run --release --example workers -- --workers 4 --requests 100000
//! ```

mod cli;

use pooling::{Handle, Pooled, SyncLease};
use std::process::ExitCode;
use std::sync::mpsc;
use std::thread;
use std::time::Instant;

const USAGE: &str = "\
Usage: cargo run --release --example workers [-- OPTIONS]

Std worker threads share one pool of request buffers and one of response buffers.

Options:
  --workers N    worker threads, 1 to 64 (default 4)
  --requests N   requests to handle (default 100000)
  --help         print this";

/// A request as it arrives: an id and a body, whose buffer keeps its capacity from one request
/// to the next.
#[derive(Pooled)]
#[pool(size = 32, sync)]
struct Request {
    id: u64,
    body: Vec<u8>,
}

/// A response being written: which request it answers, and its bytes.
#[derive(Pooled)]
#[pool(size = 16, sync)]
struct Response {
    request: u64,
    bytes: Vec<u8>,
}

struct Settings {
    workers: usize,
    requests: u64,
}

fn main() -> ExitCode {
    let settings = Settings {
        workers: 4,
        requests: 100_000,
    };
    let settings = match cli::read(USAGE, settings, option) {
        Ok(settings) => settings,
        Err(status) => return status,
    };
    let requests = RequestPool::new();
    let responses = ResponsePool::new();
    let start = Instant::now();
    let (waits, checked) = run(&settings, &requests, &responses);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} requests through {} workers in {seconds:.2} s; {checked} responses checked",
        settings.requests, settings.workers
    );
    let (req, resp) = (requests.stats(), responses.stats());
    println!(
        "request buffers: {} slots, {} requests made in them, at most {} in use at once; the dispatcher waited {waits} times for a free one",
        req.capacity, req.created, req.high_water
    );
    println!(
        "response buffers: {} slots, {} leases, at most {} out at once, {} out now",
        resp.capacity, resp.created, resp.high_water, resp.leased
    );
    assert_eq!((req.live, resp.leased), (0, 0), "every buffer came back");
    ExitCode::SUCCESS
}

/// Dispatches every request and waits for the workers and the writer; the times the dispatcher
/// found the request pool full, and the responses the writer checked.
fn run(settings: &Settings, requests: &RequestPool, responses: &ResponsePool) -> (u64, u64) {
    thread::scope(|s| {
        let (to_writer, from_workers) = mpsc::channel::<SyncLease<'_, Response>>();
        let writer = s.spawn(move || {
            let mut checked = 0;
            for response in from_workers {
                assert_eq!(
                    response.bytes,
                    answer(response.request),
                    "response {}",
                    response.request
                );
                checked += 1;
            } // each lease drops here, on the writer's thread: its buffer goes back cleared
            checked
        });
        let inboxes: Vec<mpsc::Sender<Handle<Request>>> = (0..settings.workers)
            .map(|_| {
                let (to_worker, inbox) = mpsc::channel();
                let to_writer = to_writer.clone();
                s.spawn(move || {
                    for handle in inbox {
                        work(handle, requests, responses, &to_writer);
                    }
                });
                to_worker
            })
            .collect();
        drop(to_writer);
        let mut waits = 0;
        for id in 0..settings.requests {
            let handle = loop {
                match requests.create(|r| {
                    r.id = id;
                    r.body.extend_from_slice(&id.to_le_bytes());
                }) {
                    Ok(handle) => break handle,
                    Err(_full) => {
                        waits += 1;
                        thread::yield_now();
                    }
                }
            };
            #[expect(clippy::cast_possible_truncation, reason = "a worker index")]
            let worker = (id % settings.workers as u64) as usize;
            inboxes[worker]
                .send(handle)
                .expect("workers run until the inboxes close");
        }
        drop(inboxes);
        (
            waits,
            writer.join().expect("the writer checked every response"),
        )
    })
}

/// Handles one request: reads it, answers it in a leased response buffer sent to the writer,
/// and releases the request buffer.
fn work<'p>(
    handle: Handle<Request>,
    requests: &RequestPool,
    responses: &'p ResponsePool,
    to_writer: &mpsc::Sender<SyncLease<'p, Response>>,
) {
    let id = {
        let request = requests
            .get(handle)
            .expect("the dispatcher's request is live");
        let id = u64::from_le_bytes(request.body[..8].try_into().expect("8 bytes"));
        assert_eq!(id, request.id);
        id
    };
    let mut response = loop {
        match responses.acquire(|r| r.request = id) {
            Ok(lease) => break lease,
            Err(_full) => thread::yield_now(),
        }
    };
    assert!(
        response.bytes.is_empty(),
        "a response buffer comes back cleared"
    );
    response.bytes.extend_from_slice(&answer(id));
    to_writer
        .send(response)
        .expect("the writer runs until the workers are done");
    requests
        .release(handle)
        .expect("each request is released once");
}

/// The response to request `id`.
fn answer(id: u64) -> Vec<u8> {
    (id.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .to_be_bytes()
        .to_vec()
}

fn option(
    settings: &mut Settings,
    arg: &str,
    value: &mut dyn FnMut() -> Result<String, String>,
) -> Result<(), String> {
    let mut count = |name: &str, range: std::ops::RangeInclusive<u64>| {
        let text = value()?;
        text.parse::<u64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or(format!(
                "{name} takes a whole number from {} to {}, not `{text}`",
                range.start(),
                range.end()
            ))
    };
    match arg {
        "--workers" => {
            settings.workers = usize::try_from(count("--workers", 1..=64)?).expect("at most 64");
        }
        "--requests" => settings.requests = count("--requests", 1..=u64::MAX)?,
        _ => return cli::unknown(arg),
    }
    Ok(())
}
