//! A TCP echo server on 127.0.0.1 whose per-request buffers come from a 16-slot pool, and a
//! bounded load client: 64 connections × 1,000 requests over loopback, every response checked.
//! First, the README's plain echo server (`readme.rs`) is checked the same way: 40 connections
//! sending messages of up to 100,000 bytes through 16 buffers, every byte compared.
//!
//! Each client connection writes its requests from one task and reads the answers from
//! another, so several requests of each are in flight. Each server connection's reader task
//! waits for a buffer with `acquire_owned_async` (64 connections share 16 buffers), reads the request into it, and sends the lease
//! itself to the connection's writer task, spawned beside it, which writes the answer and drops
//! the lease: the buffer goes back, cleared, from that task. At the end every slot must be free
//! and no acquisition refused. The same server runs, in the same process, with a fresh `Vec`
//! per request and with a `Mutex<Vec<Vec<u8>>>` free list, and the three rates are printed.
//!
//! ```text
//! cargo run --release -p pooling-echo -- --rounds 3
//! ```

mod readme;

use pooling::{OwnedSyncLease, Pooled};
use std::future::Future;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

const CONNECTIONS: usize = 64;
const REQUESTS: usize = 1_000;
const MAX_LEN: usize = 1_024;

const USAGE: &str = "\
Usage: cargo run --release -p pooling-echo [-- OPTIONS]

A TCP echo server with pooled per-request buffers, against a fresh Vec per request and a Mutex
free list, under 64 connections x 1,000 requests on loopback.

Options:
  --rounds N   times to run the three servers (default 1)
  --help       print this";

/// A request's bytes, in a buffer that keeps its capacity from one request to the next.
#[derive(Pooled)]
#[pool(size = 16, sync)]
struct Buffer {
    bytes: Vec<u8>,
}

/// Where the server gets a buffer for each request.
trait Buffers: Send + Sync + 'static {
    type Buf: Send + 'static;
    fn take(self: &Arc<Self>) -> impl Future<Output = Self::Buf> + Send;
    fn bytes(buf: &mut Self::Buf) -> &mut Vec<u8>;
}

impl Buffers for BufferPool {
    type Buf = OwnedSyncLease<Buffer>;

    fn take(self: &Arc<Self>) -> impl Future<Output = Self::Buf> + Send {
        self.acquire_owned_async(|_| {})
    }

    fn bytes(buf: &mut Self::Buf) -> &mut Vec<u8> {
        &mut buf.bytes
    }
}

/// A fresh `Vec` per request.
struct Fresh;

impl Buffers for Fresh {
    type Buf = Vec<u8>;

    async fn take(self: &Arc<Self>) -> Vec<u8> {
        Vec::with_capacity(MAX_LEN)
    }

    fn bytes(buf: &mut Vec<u8>) -> &mut Vec<u8> {
        buf
    }
}

/// A free list behind a lock: a buffer is popped, or made when the list is empty, and pushed
/// back, cleared, when dropped.
#[derive(Default)]
struct FreeList(Mutex<Vec<Vec<u8>>>);

struct Listed {
    bytes: Vec<u8>,
    list: Arc<FreeList>,
}

impl Drop for Listed {
    fn drop(&mut self) {
        let mut bytes = std::mem::take(&mut self.bytes);
        bytes.clear();
        self.list.0.lock().unwrap().push(bytes);
    }
}

impl Buffers for FreeList {
    type Buf = Listed;

    async fn take(self: &Arc<Self>) -> Listed {
        let bytes = self.0.lock().unwrap().pop();
        Listed {
            bytes: bytes.unwrap_or_else(|| Vec::with_capacity(MAX_LEN)),
            list: Arc::clone(self),
        }
    }

    fn bytes(buf: &mut Listed) -> &mut Vec<u8> {
        &mut buf.bytes
    }
}

/// Serves one connection: requests are a little-endian `u32` length and that many bytes; the
/// answer is the same frame.
async fn serve_connection<B: Buffers>(stream: TcpStream, buffers: Arc<B>) -> std::io::Result<()> {
    let (mut reader, mut writer) = stream.into_split();
    let (send, mut receive) = mpsc::channel::<B::Buf>(4);
    let writing = tokio::spawn(async move {
        while let Some(mut buf) = receive.recv().await {
            let bytes = B::bytes(&mut buf);
            let len = u32::try_from(bytes.len()).expect("short requests");
            writer.write_all(&len.to_le_bytes()).await?;
            writer.write_all(bytes).await?;
            // `buf` drops here: a pooled buffer goes back from this task.
        }
        std::io::Result::Ok(())
    });
    loop {
        let mut len = [0; 4];
        if reader.read_exact(&mut len).await.is_err() {
            break; // the client is done
        }
        let len = u32::from_le_bytes(len) as usize;
        let mut buf = buffers.take().await;
        let bytes = B::bytes(&mut buf);
        bytes.resize(len, 0);
        reader.read_exact(bytes).await?;
        if send.send(buf).await.is_err() {
            break;
        }
    }
    drop(send);
    writing.await.expect("the writer does not panic")
}

/// Accepts `CONNECTIONS` connections and serves each in its own task.
fn serve<B: Buffers>(listener: TcpListener, buffers: &Arc<B>) -> JoinHandle<()> {
    let buffers = Arc::clone(buffers);
    tokio::spawn(async move {
        let mut connections = Vec::with_capacity(CONNECTIONS);
        for _ in 0..CONNECTIONS {
            let (stream, _) = listener.accept().await.expect("accept");
            stream.set_nodelay(true).expect("nodelay");
            connections.push(tokio::spawn(serve_connection(stream, Arc::clone(&buffers))));
        }
        for connection in connections {
            connection.await.expect("no panic").expect("no I/O error");
        }
    })
}

/// The request `index` of connection `connection`: its length and bytes vary with both.
fn request(connection: usize, index: usize, out: &mut Vec<u8>) {
    let len = 1 + (connection * 31 + index * 17) % MAX_LEN;
    out.clear();
    #[expect(clippy::cast_possible_truncation, reason = "a byte pattern")]
    out.extend((0..len).map(|i| (i ^ connection ^ index) as u8));
}

/// One client connection: its requests, written by a task of their own while this one reads
/// and checks the answers in order, so that several requests of a connection are in flight.
async fn client(connection: usize, address: std::net::SocketAddr) -> std::io::Result<()> {
    let stream = TcpStream::connect(address).await?;
    stream.set_nodelay(true)?;
    let (mut reader, mut writer) = stream.into_split();
    let sending = tokio::spawn(async move {
        let mut sent = Vec::new();
        for index in 0..REQUESTS {
            request(connection, index, &mut sent);
            let len = u32::try_from(sent.len()).expect("short requests");
            writer.write_all(&len.to_le_bytes()).await?;
            writer.write_all(&sent).await?;
        }
        std::io::Result::Ok(writer)
    });
    let (mut expected, mut answer) = (Vec::new(), Vec::new());
    for index in 0..REQUESTS {
        request(connection, index, &mut expected);
        let mut header = [0; 4];
        reader.read_exact(&mut header).await?;
        answer.resize(u32::from_le_bytes(header) as usize, 0);
        reader.read_exact(&mut answer).await?;
        assert_eq!(answer, expected, "connection {connection}, request {index}");
    }
    // The write half closes (the server sees the end) only once every answer is in.
    drop(sending.await.expect("the sender does not panic")?);
    Ok(())
}

/// Runs the server with `buffers` against the load client; requests per second.
async fn run<B: Buffers>(buffers: &Arc<B>) -> f64 {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    let server = serve(listener, buffers);
    let start = Instant::now();
    let clients: Vec<_> = (0..CONNECTIONS)
        .map(|connection| tokio::spawn(client(connection, address)))
        .collect();
    for client in clients {
        client.await.expect("no panic").expect("no I/O error");
    }
    let elapsed = start.elapsed();
    server.await.expect("the server does not panic");
    #[expect(clippy::cast_precision_loss, reason = "a rate")]
    let total = (CONNECTIONS * REQUESTS) as f64;
    total / elapsed.as_secs_f64()
}

fn parse_rounds() -> Result<usize, String> {
    let mut args = std::env::args().skip(1);
    let mut rounds = 1;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--rounds takes a positive number")?;
            }
            "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown option {other}\n\n{USAGE}")),
        }
    }
    Ok(rounds)
}

#[tokio::main]
async fn main() -> ExitCode {
    let rounds = match parse_rounds() {
        Ok(rounds) => rounds,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let readme = readme::check().await;
    assert_eq!((readme.leased, readme.failed), (0, 0));
    println!(
        "the README's server: messages of up to 100,000 bytes echoed whole on 40 connections \
         through {} buffers ({} reads, {} of them waited for a buffer)",
        readme.capacity, readme.created, readme.waited
    );
    println!(
        "{CONNECTIONS} connections x {REQUESTS} requests of 1 to {MAX_LEN} bytes, on 127.0.0.1, every answer checked"
    );
    println!(
        "round  pool (16 slots, acquire_owned_async)  fresh Vec  Mutex free list  (requests/s)"
    );
    for round in 1..=rounds {
        let pool = Arc::new(BufferPool::new());
        let pooled = run(&pool).await;
        let stats = pool.stats();
        assert_eq!(stats.free, stats.capacity, "every slot is free at the end");
        assert_eq!((stats.failed, stats.leased), (0, 0));
        assert_eq!(stats.created, (CONNECTIONS * REQUESTS) as u64);
        let fresh = run(&Arc::new(Fresh)).await;
        let listed = run(&Arc::new(FreeList::default())).await;
        println!(
            "{round:>5}  {pooled:>36.0}  {fresh:>9.0}  {listed:>15.0}   (pool: {} of {} acquisitions waited, 0 failed)",
            stats.waited, stats.created
        );
    }
    ExitCode::SUCCESS
}
