//! The page's files, embedded in the binary: the page works with no
//! network at all (no CDN, no web fonts).

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::guard::ApiError;

/// Every embedded file: name, content type, bytes.
pub const FILES: &[(&str, &str, &[u8])] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("page/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("page/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/app.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/api.js"),
    ),
    (
        "aim.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/aim.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/board.js"),
    ),
    (
        "panels.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/panels.js"),
    ),
    (
        "coach.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/coach.js"),
    ),
    (
        "limits.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/limits.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("page/favicon.svg"),
    ),
];

/// The total size of the embedded files, in bytes.
pub fn total_size() -> usize {
    FILES.iter().map(|f| f.2.len()).sum()
}

fn serve(name: &str) -> Response {
    match FILES.iter().find(|f| f.0 == name) {
        Some((_, kind, bytes)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *bytes,
        )
            .into_response(),
        None => ApiError::new(StatusCode::NOT_FOUND, format!("no file `{name}`")).into_response(),
    }
}

/// `GET /`: the page.
pub async fn index() -> Response {
    serve("index.html")
}

/// `GET /assets/{name}`.
pub async fn asset(Path(name): Path<String>) -> Response {
    serve(&name)
}
