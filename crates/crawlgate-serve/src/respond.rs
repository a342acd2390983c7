//! Answer one request from a [`ServedSite`]: its route (if any), else its file, else 404.

use crate::body::ServedBody;
use crate::route::Route;
use crate::site::ServedSite;
use bytes::Bytes;
use flate2::Compression;
use flate2::write::GzEncoder;
use hyper::header::{CONTENT_ENCODING, CONTENT_TYPE, HeaderName, HeaderValue, LOCATION};
use hyper::{Request, Response, StatusCode};
use std::convert::Infallible;
use std::io::Write;
use std::time::Duration;

/// A repeated body (`Route::repeat`) stops growing past this size.
const MAX_REPEATED_BYTES: usize = 64 * 1024 * 1024;
/// In a repeated body, replaced by the copy's number (1, 2, …).
const COPY_NUMBER: &str = "{{n}}";

const NOT_FOUND_BODY: &[u8] = b"<!doctype html><title>404</title><h1>Not found</h1>\n";

pub(crate) async fn respond<B>(
    site: &ServedSite,
    request: &Request<B>,
) -> Result<Response<ServedBody>, Infallible> {
    if let Some(missing) = site.missing_header(request.headers()) {
        let mut response = Response::new(ServedBody::new(Bytes::from_static(
            b"<!doctype html><title>Sign in</title><h1>Sign in</h1>\n",
        )));
        if missing == "authorization" {
            *response.status_mut() = StatusCode::UNAUTHORIZED;
            response.headers_mut().insert(
                hyper::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"staging\""),
            );
        } else {
            *response.status_mut() = StatusCode::FORBIDDEN;
        }
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("text/html"));
        return Ok(response);
    }
    Ok(answer(site, request.uri().path(), request.uri().query()).await)
}

/// The response to a request for `path` (as sent, escapes and all) and `query`, after the
/// route's delay.
pub(crate) async fn answer(
    site: &ServedSite,
    path: &str,
    query: Option<&str>,
) -> Response<ServedBody> {
    let path = percent_decode(path);
    let route = site.route_answering(&path, query);
    if let Some(delay) = route.and_then(|r| r.delay_ms) {
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    build(site, &path, query, route)
}

fn build(
    site: &ServedSite,
    path: &str,
    query: Option<&str>,
    route: Option<&Route>,
) -> Response<ServedBody> {
    // The body and the name its content type is guessed from.
    let (named, data): (Option<String>, Option<Bytes>) = match route {
        Some(Route {
            body: Some(text), ..
        }) => (None, Some(Bytes::from(text.clone()))),
        Some(Route {
            body_from: Some(other),
            ..
        }) => match site.file_for(other) {
            Some((name, bytes)) => (Some(name.to_owned()), Some(bytes.clone())),
            None => (None, None),
        },
        _ => {
            if let Some((name, bytes)) = site.file_for(path) {
                (Some(name.to_owned()), Some(bytes.clone()))
            } else {
                let target = match query {
                    Some(query) => format!("{path}?{query}"),
                    None => path.to_owned(),
                };
                (None, site.generated(&target))
            }
        }
    };
    let found = data.is_some();
    let default_status = if found || route.is_some_and(|r| r.pad_bytes.is_some() || r.endless) {
        StatusCode::OK
    } else {
        StatusCode::NOT_FOUND
    };
    let status = route
        .and_then(|r| r.status)
        .and_then(|s| StatusCode::from_u16(s).ok())
        .unwrap_or(default_status);
    let mut data = data.unwrap_or_else(|| {
        if status == StatusCode::NOT_FOUND && route.is_none_or(|r| r.body.is_none()) {
            Bytes::from_static(NOT_FOUND_BODY)
        } else {
            Bytes::new()
        }
    });
    let content_type = match &named {
        Some(name) => content_type_of(name, &data),
        None => content_type_of("", &data),
    };

    let mut response = Response::new(ServedBody::new(Bytes::new()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if route.is_none_or(|r| !r.replace_headers) {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    let Some(route) = route else {
        *response.body_mut() = ServedBody::new(data);
        return response;
    };
    for line in &route.headers {
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.trim().as_bytes()),
            HeaderValue::from_bytes(value.trim().as_bytes()),
        ) {
            headers.append(name, value);
        }
    }
    if let Some(location) = &route.location
        && let Ok(value) = HeaderValue::from_bytes(location.as_bytes())
    {
        headers.insert(LOCATION, value);
    }
    if let Some(times) = route.repeat.filter(|&n| n > 1 && !data.is_empty()) {
        data = repeat(&data, times);
    }
    if route.gzip_file {
        data = gzip(&data);
    }
    if route.gzip {
        data = gzip(&data);
        headers.insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    let mut body = ServedBody::new(data);
    if let Some(pad) = route.pad_bytes {
        body = body.padded(pad);
    }
    if route.endless {
        body = body.endless();
    }
    if let Some(rate) = route.trickle_bytes_per_sec {
        body = body.trickled(rate);
    }
    if let Some(bytes) = route.reset_after_bytes {
        body = body.reset_after(bytes);
    }
    *response.body_mut() = body;
    response
}

/// `data` `times` times over, each copy's [`COPY_NUMBER`] replaced by its number (from 1); whole
/// copies only, within [`MAX_REPEATED_BYTES`].
fn repeat(data: &[u8], times: u64) -> Bytes {
    let needle = COPY_NUMBER.as_bytes();
    let numbered = memchr::memmem::find(data, needle).is_some();
    let mut out = Vec::with_capacity(data.len().saturating_mul(2));
    for copy in 1..=times {
        if numbered {
            let number = copy.to_string();
            let mut rest = data;
            while let Some(at) = memchr::memmem::find(rest, needle) {
                out.extend_from_slice(&rest[..at]);
                out.extend_from_slice(number.as_bytes());
                rest = &rest[at + needle.len()..];
            }
            out.extend_from_slice(rest);
        } else {
            out.extend_from_slice(data);
        }
        if out.len() > MAX_REPEATED_BYTES {
            break;
        }
    }
    Bytes::from(out)
}

fn gzip(data: &[u8]) -> Bytes {
    let mut encoder = GzEncoder::new(Vec::with_capacity(data.len() / 2), Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(data);
    Bytes::from(encoder.finish().unwrap_or_default())
}

/// The content type served for a file, from its extension; a file without one is HTML when it
/// starts with `<` (fixture pages are often named like their URL path: `about`, `blog/post`),
/// else plain text.
pub(crate) fn content_type_of(name: &str, data: &[u8]) -> &'static str {
    let file_name = name.rsplit('/').next().unwrap_or(name);
    let Some((_, extension)) = file_name.rsplit_once('.') else {
        return if data.trim_ascii_start().starts_with(b"<") {
            "text/html; charset=utf-8"
        } else {
            "text/plain; charset=utf-8"
        };
    };
    let extension = extension.to_ascii_lowercase();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "xml" => "application/xml",
        "txt" => "text/plain; charset=utf-8",
        "css" => "text/css",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "pdf" => "application/pdf",
        "gz" => "application/gzip",
        _ => "application/octet-stream",
    }
}

/// `%XX` escapes decoded (invalid ones kept as written), for finding files by name.
pub(crate) fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(value) = bytes
                .get(i + 1..i + 3)
                .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
                .and_then(|hex| std::str::from_utf8(hex).ok())
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(value);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(
            content_type_of("a/index.html", b""),
            "text/html; charset=utf-8"
        );
        assert_eq!(content_type_of("sitemap.XML", b""), "application/xml");
        assert_eq!(content_type_of("sitemap.xml.gz", b""), "application/gzip");
        assert_eq!(
            content_type_of("robots.txt", b""),
            "text/plain; charset=utf-8"
        );
        assert_eq!(
            content_type_of("data.bin", b"<"),
            "application/octet-stream"
        );
        assert_eq!(
            content_type_of("v1.2/about", b"\n <!doctype html>"),
            "text/html; charset=utf-8"
        );
        assert_eq!(
            content_type_of("notes", b"hello"),
            "text/plain; charset=utf-8"
        );
    }

    #[test]
    fn a_repeated_body_numbers_its_copies() {
        assert_eq!(&repeat(b"u/{{n}}\n", 3)[..], b"u/1\nu/2\nu/3\n");
        assert_eq!(&repeat(b"ab", 2)[..], b"abab");
        let site = ServedSite::new().file("s.txt", "line {{n}}\n");
        let mut route = Route::new("/s.txt");
        route.repeat = Some(50_001);
        let response = build(&site, "/s.txt", None, Some(&route));
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()[CONTENT_TYPE],
            "text/plain; charset=utf-8"
        );
    }

    #[test]
    fn escapes_are_decoded_for_file_lookup() {
        assert_eq!(percent_decode("/caf%C3%A9.html"), "/café.html");
        assert_eq!(percent_decode("/a%2"), "/a%2");
        assert_eq!(percent_decode("/100%"), "/100%");
    }
}
