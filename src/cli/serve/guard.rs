//! What keeps the server safe and its errors plain: the Host and Origin
//! checks (no DNS rebinding, no other site driving the page's API), the
//! cap on request bodies, and errors as JSON `{"error": ...}` with a 4xx
//! status.

use std::net::{IpAddr, SocketAddr};

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::App;
use super::conn::ConnInfo;

/// The largest request body accepted (a `.caminos` file of a whole game
/// is under 2 KiB; comments may add some).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The time a client has to send a request's body (a game file arrives in
/// milliseconds); slower ones get 408.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// An error answered as `{"error": message}` (with `line` for a bad file).
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status (4xx, or 503 when the server is full).
    pub status: StatusCode,
    /// What went wrong, in plain words.
    pub message: String,
    /// The line of a `.caminos` file that was refused.
    pub line: Option<usize>,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            line: None,
        }
    }

    /// 400: the request itself is malformed.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 409: the request does not fit the game's state now.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 422: well formed, but against the rules.
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

/// Errors that axum answers itself (a path that is not UTF-8, say) come
/// as plain text: they get the JSON shape of every other error.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let text = axum::body::to_bytes(response.into_body(), BODY_LIMIT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let text = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    ApiError::new(status, text).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(line) = self.line {
            body["line"] = line.into();
        }
        (self.status, axum::Json(body)).into_response()
    }
}

/// The body of a request, at most [`BODY_LIMIT`] bytes (413 otherwise),
/// sent within [`BODY_TIMEOUT`] (408 otherwise).
pub struct Body(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for Body {
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, Self::Rejection> {
        let too_big = || {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is larger than {} KiB", BODY_LIMIT / 1024),
            )
        };
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
            return Err(too_big());
        }
        let read = read_body(req.into_body(), BODY_LIMIT);
        let bytes = tokio::time::timeout(BODY_TIMEOUT, read)
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the request body did not arrive within {} s",
                        BODY_TIMEOUT.as_secs()
                    ),
                )
            })?
            .map_err(|e| match e {
                BodyError::TooBig => too_big(),
                BodyError::Broken => {
                    ApiError::bad("the request body could not be read (a broken chunked encoding?)")
                }
            })?;
        Ok(Body(bytes))
    }
}

/// Why a request body could not be read.
enum BodyError {
    /// It has more than the limit's bytes.
    TooBig,
    /// The connection or its encoding broke off.
    Broken,
}

/// Reads a body of at most `limit` bytes. Unlike `axum::body::to_bytes`,
/// it tells a body over the limit (413) from one that is malformed (400).
async fn read_body(mut body: axum::body::Body, limit: usize) -> Result<Bytes, BodyError> {
    use http_body::Body as _;
    let mut out = Vec::new();
    loop {
        let frame = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await;
        match frame {
            None => return Ok(Bytes::from(out)),
            Some(Err(_)) => return Err(BodyError::Broken),
            Some(Ok(frame)) => {
                // Trailers carry no data.
                if let Ok(data) = frame.into_data() {
                    if out.len() + data.len() > limit {
                        return Err(BodyError::TooBig);
                    }
                    out.extend_from_slice(&data);
                }
            }
        }
    }
}

/// A JSON body (400 with serde's reason when it does not parse; an empty
/// body reads as `{}`).
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Body(bytes) = Body::from_request(req, state).await?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(bytes)
            .map(Json)
            .map_err(|e| ApiError::bad(format!("the request is not the JSON expected: {e}")))
    }
}

/// Whom the server answers: the names it is known by (`localhost`, the
/// address the connection arrived at, names given with `--allow-host`),
/// and the token a client from another machine must present.
#[derive(Clone, Debug, Default)]
pub struct Gate {
    /// Extra host names (`--allow-host`).
    pub hosts: Vec<String>,
    /// What a non-local client presents (`--token`, or one made up when
    /// the server listens beyond the loopback).
    pub token: Option<String>,
}

/// The name of the cookie that carries the token, once a page was opened
/// with it.
pub const TOKEN_COOKIE: &str = "cabra_token";

/// The host part and the port of `authority` (`host[:port]`, an IPv6
/// address in brackets).
fn split_authority(authority: &str) -> (&str, Option<&str>) {
    match authority.rsplit_once(':') {
        Some((h, _)) if !h.ends_with(']') && h.contains(':') => (authority, None),
        Some((h, p)) => (h, Some(p)),
        None => (authority, None),
    }
}

impl Gate {
    /// Whether `authority` names this server as reached at `local`: one of
    /// its names, on the port the connection arrived at.
    fn ours(&self, authority: &str, local: SocketAddr) -> bool {
        let (host, port) = split_authority(authority);
        let port_ok = match port {
            Some(p) => p.parse::<u16>().ok() == Some(local.port()),
            None => local.port() == 80,
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let named = host.eq_ignore_ascii_case("localhost")
            || host.parse::<IpAddr>().ok() == Some(local.ip())
            || self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host));
        port_ok && named
    }

    /// Why a request with these headers, on this connection, is refused,
    /// if it is: 400 for two Host or two Origin headers (which of them
    /// would count is anyone's guess), 403 for a foreign host or origin.
    pub fn refused(&self, headers: &HeaderMap, conn: ConnInfo) -> Option<ApiError> {
        for (name, what) in [(header::HOST, "Host"), (header::ORIGIN, "Origin")] {
            let n = headers.get_all(&name).iter().count();
            if n > 1 {
                return Some(ApiError::bad(format!(
                    "a request has at most one {what} header, not {n}"
                )));
            }
        }
        let forbidden = |why: String| Some(ApiError::new(StatusCode::FORBIDDEN, why));
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
        match host {
            Some(h) if self.ours(h, conn.local) => {}
            Some(h) => {
                return forbidden(format!(
                    "Host `{h}` is refused: open the page at the address `cabra serve` printed"
                ));
            }
            None => return forbidden("a Host header is required".to_string()),
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let o = origin.to_str().unwrap_or("");
            let ok = o
                .strip_prefix("http://")
                .is_some_and(|a| self.ours(a, conn.local));
            if !ok {
                return forbidden(format!("requests from origin `{o}` are refused"));
            }
        }
        None
    }

    /// Whether a client from another machine presents the token: in an
    /// `Authorization: Bearer` header, the cookie the page got, or the
    /// page's address (`?token=`). A client on this machine needs none.
    fn admits(&self, req: &Request, conn: ConnInfo) -> Admission {
        let Some(token) = &self.token else {
            return Admission::Yes;
        };
        // Only the loopback is this machine for sure: a peer at one of our
        // own addresses may be a forwarded or translated connection.
        if conn.peer.ip().is_loopback() {
            return Admission::Yes;
        }
        let headers = req.headers();
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, t)| t.trim());
        let cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().strip_prefix(TOKEN_COOKIE)?.strip_prefix('='))
            .next();
        let query = req
            .uri()
            .query()
            .into_iter()
            .flat_map(|q| q.split('&'))
            .find_map(|kv| kv.strip_prefix("token="));
        let same = |given: Option<&str>| given.is_some_and(|g| same_secret(g, token));
        if same(bearer) || same(cookie) {
            Admission::Yes
        } else if same(query) {
            Admission::SetCookie(token.clone())
        } else {
            Admission::No
        }
    }
}

/// Compares a given token with the server's in time that does not depend
/// on where they differ.
fn same_secret(given: &str, token: &str) -> bool {
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// What the token check decided.
enum Admission {
    Yes,
    /// Yes, and the page (opened with the token in its address) gets it as
    /// a cookie, which its later requests carry.
    SetCookie(String),
    No,
}

/// The middleware: refuses two Host or Origin headers with 400, foreign
/// ones with 403, and clients from other machines without the token with
/// 401.
pub async fn check_host(
    State(app): State<std::sync::Arc<App>>,
    req: Request,
    next: Next,
) -> Response {
    let Some(conn) = req.extensions().get::<ConnInfo>().copied() else {
        return ApiError::new(StatusCode::FORBIDDEN, "no connection").into_response();
    };
    if let Some(refusal) = app.gate.refused(req.headers(), conn) {
        return refusal.into_response();
    }
    // A request line in absolute form (`GET http://host/...`) names the
    // host too, and takes precedence over Host: it must be ours as well.
    if let Some(authority) = req.uri().authority() {
        if !app.gate.ours(authority.as_str(), conn.local) {
            let why = format!("`{authority}` is refused: it is not this server");
            return ApiError::new(StatusCode::FORBIDDEN, why).into_response();
        }
    }
    match app.gate.admits(&req, conn) {
        Admission::Yes => next.run(req).await,
        Admission::SetCookie(token) => {
            let mut response = next.run(req).await;
            let cookie = format!("{TOKEN_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/");
            if let Ok(v) = header::HeaderValue::from_str(&cookie) {
                response.headers_mut().append(header::SET_COOKIE, v);
            }
            response
        }
        Admission::No => ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this server answers other machines only with its token: open the address `cabra serve` printed (with ?token=...), or send Authorization: Bearer TOKEN",
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(local: &str, peer: &str) -> ConnInfo {
        ConnInfo {
            local: local.parse().unwrap(),
            peer: peer.parse().unwrap(),
        }
    }

    #[test]
    fn only_our_own_names_on_our_port() {
        let gate = Gate {
            hosts: vec!["cabra.example".into()],
            token: None,
        };
        let local = "127.0.0.1:8080".parse().unwrap();
        assert!(gate.ours("127.0.0.1:8080", local));
        assert!(gate.ours("localhost:8080", local));
        // Another loopback address is another listener, not this one.
        assert!(!gate.ours("[::1]:8080", local));
        assert!(gate.ours("cabra.example:8080", local));
        assert!(!gate.ours("192.168.1.5:8080", local));
        assert!(!gate.ours("203.0.113.5:8080", local));
        assert!(!gate.ours("127.0.0.1:8081", local));
        assert!(!gate.ours("evil.example:8080", local));
        assert!(!gate.ours("127.0.0.1", local));
        assert!(!gate.ours("::1", local));
        // Reached at another address, that address is ours.
        let lan = "192.0.2.2:8080".parse().unwrap();
        assert!(gate.ours("192.0.2.2:8080", lan) && gate.ours("localhost:8080", lan));
        assert!(!gate.ours("127.0.0.1:8080", lan) && !gate.ours("192.0.2.3:8080", lan));
    }

    #[test]
    fn origins_must_be_ours() {
        let gate = Gate::default();
        let c = conn("127.0.0.1:9000", "127.0.0.1:5000");
        let refused = |h: &HeaderMap| gate.refused(h, c).map(|e| (e.status, e.message));
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "127.0.0.1:9000".parse().unwrap());
        assert_eq!(refused(&h), None);
        h.insert(header::ORIGIN, "http://127.0.0.1:9000".parse().unwrap());
        assert_eq!(refused(&h), None);
        for foreign in ["http://evil.example", "http://203.0.113.5:9000", "null"] {
            h.insert(header::ORIGIN, foreign.parse().unwrap());
            let (status, why) = refused(&h).unwrap();
            assert_eq!(status, StatusCode::FORBIDDEN, "{foreign}");
            assert!(why.contains("origin"), "{foreign}");
        }
        // Two of either, even when the first is ours, are refused as malformed.
        h.insert(header::ORIGIN, "http://127.0.0.1:9000".parse().unwrap());
        h.append(header::ORIGIN, "http://evil.example".parse().unwrap());
        let (status, why) = refused(&h).unwrap();
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(why.contains("one Origin header, not 2"), "{why}");
        h.remove(header::ORIGIN);
        h.append(header::HOST, "evil.example".parse().unwrap());
        let (status, why) = refused(&h).unwrap();
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(why.contains("one Host header"), "{why}");
        h.insert(header::HOST, "attacker.example:9000".parse().unwrap());
        let (status, why) = refused(&h).unwrap();
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(why.contains("Host"));
    }

    #[test]
    fn other_machines_present_the_token() {
        let gate = Gate {
            hosts: Vec::new(),
            token: Some("s3cret".into()),
        };
        let remote = conn("192.0.2.2:9000", "192.0.2.9:5000");
        let req = |uri: &str, header: Option<(header::HeaderName, &str)>| {
            let mut r = Request::builder().uri(uri);
            if let Some((k, v)) = header {
                r = r.header(k, v);
            }
            r.body(axum::body::Body::empty()).unwrap()
        };
        assert!(matches!(
            gate.admits(&req("/api/info", None), remote),
            Admission::No
        ));
        let bearer = Some((header::AUTHORIZATION, "Bearer s3cret"));
        assert!(matches!(
            gate.admits(&req("/api/info", bearer), remote),
            Admission::Yes
        ));
        let wrong = Some((header::AUTHORIZATION, "Bearer s3crex"));
        assert!(matches!(
            gate.admits(&req("/api/info", wrong), remote),
            Admission::No
        ));
        let cookie = Some((header::COOKIE, "a=1; cabra_token=s3cret"));
        assert!(matches!(
            gate.admits(&req("/", cookie), remote),
            Admission::Yes
        ));
        assert!(matches!(
            gate.admits(&req("/?token=s3cret", None), remote),
            Admission::SetCookie(_)
        ));
        // This machine needs none.
        let local = conn("192.0.2.2:9000", "127.0.0.1:5000");
        assert!(matches!(
            gate.admits(&req("/api/info", None), local),
            Admission::Yes
        ));
    }
}
