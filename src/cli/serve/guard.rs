//! What keeps the server safe and its errors plain: the Host and Origin
//! checks (no DNS rebinding, no other site driving the page's API), the
//! cap on request bodies, and errors as JSON `{"error": ...}` with a 4xx
//! status.

use std::net::IpAddr;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::App;

/// The largest request body accepted (a `.caminos` file of a whole game
/// is under 2 KiB; comments may add some).
pub const BODY_LIMIT: usize = 64 * 1024;

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

/// The body of a request, at most [`BODY_LIMIT`] bytes (413 otherwise).
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
        let bytes = axum::body::to_bytes(req.into_body(), BODY_LIMIT)
            .await
            .map_err(|_| too_big())?;
        Ok(Body(bytes))
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

/// Whether `authority` (`host[:port]` from a Host header or an origin)
/// names this server: `localhost` or an IP address, on our port. A name
/// that a DNS server could point at us (DNS rebinding) is refused.
fn is_local_authority(authority: &str, port: u16) -> bool {
    let (host, p) = match authority.rsplit_once(':') {
        Some((h, _)) if !h.ends_with(']') && h.contains(':') => (authority, None),
        Some((h, p)) => (h, Some(p)),
        None => (authority, None),
    };
    let port_ok = match p {
        Some(p) => p.parse::<u16>().ok() == Some(port),
        None => port == 80,
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let name_ok = host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok();
    port_ok && name_ok
}

/// Why the request's Host or Origin header is refused, if it is.
pub fn refused(headers: &HeaderMap, port: u16) -> Option<String> {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    match host {
        Some(h) if is_local_authority(h, port) => {}
        Some(h) => {
            return Some(format!(
                "Host `{h}` is refused: open the page at the address `cabra serve` printed"
            ));
        }
        None => return Some("a Host header is required".to_string()),
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let o = origin.to_str().unwrap_or("");
        let ok = o
            .strip_prefix("http://")
            .is_some_and(|a| is_local_authority(a, port));
        if !ok {
            return Some(format!("requests from origin `{o}` are refused"));
        }
    }
    None
}

/// The middleware: refuses foreign Host and Origin headers with 403.
pub async fn check_host(
    State(app): State<std::sync::Arc<App>>,
    req: Request,
    next: Next,
) -> Response {
    match refused(req.headers(), app.port) {
        Some(why) => ApiError::new(StatusCode::FORBIDDEN, why).into_response(),
        None => next.run(req).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_names_on_our_port_only() {
        assert!(is_local_authority("127.0.0.1:8080", 8080));
        assert!(is_local_authority("localhost:8080", 8080));
        assert!(is_local_authority("[::1]:8080", 8080));
        assert!(is_local_authority("192.168.1.5:8080", 8080));
        assert!(!is_local_authority("127.0.0.1:8081", 8080));
        assert!(!is_local_authority("evil.example:8080", 8080));
        assert!(!is_local_authority("127.0.0.1", 8080));
        assert!(is_local_authority("localhost", 80));
        assert!(!is_local_authority("::1", 8080));
    }

    #[test]
    fn origins_must_be_ours() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "127.0.0.1:9000".parse().unwrap());
        assert_eq!(refused(&h, 9000), None);
        h.insert(header::ORIGIN, "http://127.0.0.1:9000".parse().unwrap());
        assert_eq!(refused(&h, 9000), None);
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(refused(&h, 9000).unwrap().contains("origin"));
        h.insert(header::ORIGIN, "null".parse().unwrap());
        assert!(refused(&h, 9000).is_some());
        h.remove(header::ORIGIN);
        h.insert(header::HOST, "attacker.example:9000".parse().unwrap());
        assert!(refused(&h, 9000).unwrap().contains("Host"));
    }
}
