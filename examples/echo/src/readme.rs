//! The README's echo server ("Servers: waiting for a free object"), which the README quotes from
//! between the `ANCHOR` lines, its `use` lines included (`tests/readme.rs` fails when the two
//! differ): the server is this module's only code, so it compiles as the README shows it. The
//! client that checks it is the module `check` below: messages of 1,000 and 100,000 bytes, and
//! more connections at once than buffers, every byte compared. `main` runs the check before the
//! load test; so does this file's test.

// ANCHOR: server
use pooling::Pooled;
use std::io;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[derive(Pooled)]
#[pool(size = 16, sync)]
struct Chunk {
    #[pool(build = Vec::with_capacity(65_536))] // 64 KiB per slot, allocated once
    bytes: Vec<u8>,
}

async fn serve(listener: TcpListener, buffers: Arc<ChunkPool>) -> io::Result<()> {
    loop {
        let (mut socket, _) = listener.accept().await?;
        let buffers = Arc::clone(&buffers);
        tokio::spawn(async move {
            loop {
                // A buffer only once there is something to read: idle connections hold none.
                socket.readable().await?;
                // Waits while all 16 buffers are out; `failed` stays 0.
                let mut buffer = buffers.acquire_owned_async(|_| {}).await;
                if socket.read_buf(&mut buffer.bytes).await? == 0 {
                    return io::Result::Ok(()); // the client is done
                }
                socket.write_all(&buffer.bytes).await?;
            } // each time round, the buffer goes back, cleared, keeping its 64 KiB
        });
    }
}
// ANCHOR_END: server

pub(crate) use check::check;

/// The client that checks the server, and the test that runs it.
mod check {
    use super::{ChunkPool, serve};
    use std::io;
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};

    /// The messages a connection sends: their lengths, above what one read takes at a time.
    const MESSAGES: [usize; 3] = [1_000, 100_000, 70_000];

    /// Connections at once, more than the pool's 16 buffers.
    const CONNECTIONS: usize = 40;

    /// Message `index` of connection `connection`: its bytes vary with both.
    fn message(connection: usize, index: usize, len: usize) -> Vec<u8> {
        #[expect(clippy::cast_possible_truncation, reason = "a byte pattern")]
        (0..len)
            .map(|i| (i * 7 + connection * 13 + index) as u8)
            .collect()
    }

    /// One connection: every message written by one task while this one reads the echo back, so
    /// that a long message is in flight both ways at once; each compared byte for byte.
    async fn client(connection: usize, address: SocketAddr) -> io::Result<()> {
        let (mut reader, mut writer) = TcpStream::connect(address).await?.into_split();
        let sending = tokio::spawn(async move {
            for (index, len) in MESSAGES.into_iter().enumerate() {
                writer.write_all(&message(connection, index, len)).await?;
            }
            io::Result::Ok(writer)
        });
        for (index, len) in MESSAGES.into_iter().enumerate() {
            let mut echoed = vec![0; len];
            reader.read_exact(&mut echoed).await?;
            assert!(
                echoed == message(connection, index, len),
                "connection {connection}: message {index} of {len} bytes echoed whole"
            );
        }
        // Closing the write half ends the server's loop for this connection.
        drop(sending.await.expect("the sender does not panic")?);
        let mut rest = Vec::new();
        assert_eq!(reader.read_to_end(&mut rest).await?, 0, "nothing more");
        Ok(())
    }

    /// Runs the server on 127.0.0.1 against `CONNECTIONS` clients at once; the pool's stats once
    /// every buffer is back.
    pub(crate) async fn check() -> pooling::Stats {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        let buffers = Arc::new(ChunkPool::new());
        let server = tokio::spawn(serve(listener, Arc::clone(&buffers)));
        let clients: Vec<_> = (0..CONNECTIONS)
            .map(|connection| tokio::spawn(client(connection, address)))
            .collect();
        for client in clients {
            client.await.expect("no panic").expect("no I/O error");
        }
        // A connection's task gives its buffer back as it ends, just after the client sees the end.
        for _ in 0..200 {
            if buffers.stats().leased == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        server.abort();
        buffers.stats()
    }

    #[cfg(test)]
    mod tests {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn messages_longer_than_a_read_echo_whole_through_16_buffers_shared_by_40_connections()
         {
            let stats = super::check().await;
            assert_eq!((stats.leased, stats.free, stats.failed), (0, 16, 0));
            assert!(
                stats.created >= (super::CONNECTIONS * super::MESSAGES.len()) as u64,
                "a buffer per read: {stats:?}"
            );
        }
    }
}
