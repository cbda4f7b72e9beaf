//! The HTTP routes, their limits, and the server's run loop.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

use crate::{Answer, Error, GameInfo, ServedGame};

/// The explorer page: plain HTML, SVG and JavaScript, nothing fetched from
/// elsewhere.
pub const EXPLORER: &str = include_str!("explorer.html");

/// The longest request target (path and query) answered: a Connect Four
/// position of 64 moves fits many times over.
pub const MAX_URI_BYTES: usize = 2048;

/// The largest request body read (the API takes none).
pub const MAX_BODY_BYTES: usize = 1024;

/// The longest a request may take before it is answered 503.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);

/// The games served, in the order listed (`'static` to be served over
/// HTTP; any lifetime to be asked in process).
pub struct Games<'a> {
    games: Vec<Box<dyn ServedGame + 'a>>,
}

impl<'a> Games<'a> {
    /// Serves `games`; ids must differ.
    ///
    /// # Errors
    /// [`Error::BadRequest`] naming an id given twice.
    pub fn new(games: Vec<Box<dyn ServedGame + 'a>>) -> Result<Self, Error> {
        for (i, g) in games.iter().enumerate() {
            if games[..i].iter().any(|h| h.info().id == g.info().id) {
                return Err(Error::BadRequest(format!(
                    "two games are served as '{}'",
                    g.info().id
                )));
            }
        }
        Ok(Games { games })
    }

    /// The game with id `id`.
    ///
    /// # Errors
    /// [`Error::UnknownGame`].
    pub fn get(&self, id: &str) -> Result<&(dyn ServedGame + 'a), Error> {
        self.games
            .iter()
            .find(|g| g.info().id == id)
            .map(|g| &**g)
            .ok_or_else(|| Error::UnknownGame(game_core::echo(id).to_string()))
    }

    /// Every game's listing.
    pub fn infos(&self) -> Vec<GameInfo> {
        self.games.iter().map(|g| g.info().clone()).collect()
    }

    /// The answer for `position` of game `id`.
    ///
    /// # Errors
    /// As [`Games::get`] and [`ServedGame::explore`].
    pub fn answer(&self, id: &str, position: &str) -> Result<Answer, Error> {
        Ok(self.get(id)?.explore(position)?.into())
    }
}

/// `{"error": message}` with a status.
fn error_response(status: StatusCode, message: &str) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        error_response(status, &self.to_string())
    }
}

#[derive(Deserialize)]
struct PositionQuery {
    p: Option<String>,
}

async fn list(State(games): State<Arc<Games<'static>>>) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "games": games.infos() }))
}

async fn position(
    State(games): State<Arc<Games<'static>>>,
    Path(id): Path<String>,
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<Answer>, Error> {
    let Query(q) = query.map_err(|e| Error::BadRequest(e.body_text()))?;
    let game = games.get(&id)?;
    let p = q.p.unwrap_or_else(|| game.info().start.clone());
    // A database lookup reads files: off the sockets' threads.
    let answer = tokio::task::spawn_blocking(move || games.answer(&id, &p))
        .await
        .map_err(|e| Error::Stopped(e.to_string()))??;
    Ok(Json(answer))
}

async fn page() -> Html<&'static str> {
    Html(EXPLORER)
}

async fn not_found() -> Response {
    error_response(
        StatusCode::NOT_FOUND,
        "no such route: GET /api/games or /api/games/{id}/positions?p=POSITION",
    )
}

/// Refuses long request targets, bounds each request's time, and gives
/// every error answered without a body (a wrong method, say) the JSON
/// form `{"error": ...}`.
async fn limits(req: Request, next: Next) -> Response {
    if req.uri().to_string().len() > MAX_URI_BYTES {
        return error_response(
            StatusCode::URI_TOO_LONG,
            &format!("a request target is at most {MAX_URI_BYTES} bytes"),
        );
    }
    let Ok(res) = tokio::time::timeout(REQUEST_TIME, next.run(req)).await else {
        return error_response(StatusCode::SERVICE_UNAVAILABLE, "the request took too long");
    };
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if res.status().is_client_error() && !json {
        let status = res.status();
        return error_response(status, status.canonical_reason().unwrap_or("bad request"));
    }
    res
}

/// The routes: `/` the explorer, `GET /api/games`,
/// `GET /api/games/{id}/positions?p=...`; any other path a 404 in JSON.
pub fn router(games: Arc<Games<'static>>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/games", get(list))
        .route("/api/games/{id}/positions", get(position))
        .fallback(not_found)
        .with_state(games)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(limits))
        .layer(middleware::map_response(|mut res: Response| async move {
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            res
        }))
}

/// Serves `games` on `listener` until `shutdown` completes, then lets the
/// requests under way finish.
///
/// # Errors
/// [`Error::Io`] when the socket fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    games: Games<'static>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), Error> {
    let addr = listener
        .local_addr()
        .map_or_else(|_| "?".to_string(), |a| a.to_string());
    axum::serve(listener, router(Arc::new(games)))
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|source| Error::Io { addr, source })
}

/// Binds `addr`, calls `ready` with the address bound (port 0 picks a
/// free one), and serves `games` until Ctrl-C, on a runtime of its own.
///
/// # Errors
/// [`Error::Io`] when the address cannot be bound or the socket fails.
pub fn run(
    addr: &str,
    games: Games<'static>,
    ready: impl FnOnce(std::net::SocketAddr),
) -> Result<(), Error> {
    let io = |source| Error::Io {
        addr: addr.to_string(),
        source,
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(io)?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(io)?;
        ready(listener.local_addr().map_err(io)?);
        serve(listener, games, async {
            // No Ctrl-C to wait for (no signal handler can be set): serve on.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
    })
}

/// A server running on a thread of its own (see [`spawn`]): stopped, the
/// requests under way finished, when dropped or by [`Running::stop`].
pub struct Running {
    addr: std::net::SocketAddr,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<(), Error>>>,
}

impl Running {
    /// The address bound.
    #[must_use]
    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// Stops the server and waits for it.
    ///
    /// # Errors
    /// [`Error::Io`] when the socket failed; [`Error::Stopped`] when the
    /// server's thread panicked.
    pub fn stop(mut self) -> Result<(), Error> {
        self.halt()
    }

    fn halt(&mut self) -> Result<(), Error> {
        drop(self.stop.take());
        match self.thread.take() {
            Some(t) => t
                .join()
                .map_err(|_| Error::Stopped("the server's thread panicked".into()))?,
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.halt();
    }
}

/// Binds `addr` (port 0 picks a free one) and serves `games` on a thread
/// and runtime of its own until the handle is dropped: a server inside a
/// program or a test, where [`run`] serves the calling thread until
/// Ctrl-C.
///
/// # Errors
/// [`Error::Io`] when the address cannot be bound or the runtime cannot
/// start.
pub fn spawn(addr: &str, games: Games<'static>) -> Result<Running, Error> {
    let io = |source| Error::Io {
        addr: addr.to_string(),
        source,
    };
    let listener = std::net::TcpListener::bind(addr).map_err(io)?;
    listener.set_nonblocking(true).map_err(io)?;
    let bound = listener.local_addr().map_err(io)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(io)?;
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let at = bound.to_string();
    let thread = std::thread::spawn(move || {
        let served = rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)
                .map_err(|source| Error::Io { addr: at, source })?;
            serve(listener, games, async move {
                // The sender dropped (or sent): stop.
                let _ = tokio::task::spawn_blocking(move || stopped.recv()).await;
            })
            .await
        });
        // Nothing left to wait for (a socket error ends the serving with
        // the stop still awaited).
        rt.shutdown_background();
        served
    });
    Ok(Running {
        addr: bound,
        stop: Some(stop),
        thread: Some(thread),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::SubtractionNotation;
    use crate::values::Solution;
    use crate::Served;
    use std::io::{Read, Write};

    fn get(addr: std::net::SocketAddr, path: &str) -> std::io::Result<String> {
        let mut s = std::net::TcpStream::connect(addr)?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )?;
        let mut out = String::new();
        s.read_to_string(&mut out)?;
        Ok(out)
    }

    /// A spawned server answers, and once its handle is stopped the port
    /// is closed.
    #[test]
    fn a_spawned_server_answers_until_stopped() {
        let game: &'static games::Subtraction = Box::leak(Box::new(
            games::Subtraction::finite([1, 2])
                .expect("a set")
                .with_limit(9),
        ));
        let sol = solver_retro::solve_indexed(game).expect("solves");
        let served = Served::new(
            "take-1-2",
            "Take 1 or 2",
            "take 1 or 2",
            SubtractionNotation::new(game.clone(), 9),
            Solution(sol),
            false,
        );
        let games = Games::new(vec![Box::new(served)]).expect("one game");
        let running = spawn("127.0.0.1:0", games).expect("binds");
        let addr = running.addr();
        // Take 1 or 2: the player to move loses exactly at multiples of 3.
        let page = get(addr, "/api/games/take-1-2/positions?p=9").expect("answers");
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(page.contains(r#""positionValue":"lose""#), "{page}");
        running.stop().expect("stops cleanly");
        assert!(get(addr, "/api/games").is_err(), "still answering");
    }
}
