use super::inbound_evidence;
use crate::support::ok_pages;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::{Evidence, Site};

declare_rule! {
    /// ## What it does
    /// Finds responses labelled `Content-Type: text/html` (2xx) whose body is not HTML, judged
    /// from the body's first bytes by the signatures of the WHATWG MIME Sniffing standard: a
    /// PDF or PostScript file, an image (PNG, JPEG, GIF, WebP, ICO), an archive or compressed
    /// data (gzip, ZIP, RAR), a font, audio or video; a feed (RSS, Atom) or an XML document
    /// with a declaration and a root element that is not HTML; JSON (an object or array that
    /// reads as JSON); or binary data (a control byte the standard calls binary in the first
    /// 1,445 bytes). Never reported: HTML in any form (a BOM, leading white space, comments,
    /// XHTML with an XML declaration), UTF-16 text, plain text, and empty bodies.
    ///
    /// ## Why is this bad?
    /// The label decides how the response is read. Google indexes PDFs, images and other
    /// formats by their real type; labelled as HTML they are parsed as broken HTML, so the
    /// document is not indexed as what it is, and a browser shows bytes instead of opening it.
    /// A gzip body labelled HTML (compressed twice, or stored compressed without
    /// `Content-Encoding`) shows garbage to everyone. JSON or XML served as a page usually
    /// means an API or feed URL leaking into links, or an error handler answering in the wrong
    /// format.
    ///
    /// ## Example
    /// ```text
    /// /docs/catalogue   200   Content-Type: text/html; charset=utf-8
    ///                   %PDF-1.7 …
    /// ```
    ///
    /// ## How to fix
    /// Serve the file with its real media type (named in the finding, e.g.
    /// `application/pdf`): fix the server's extension-to-type mapping, or the application's
    /// response headers. For a compressed body, send `Content-Encoding: gzip` or serve it
    /// uncompressed. If the URL is an API endpoint, stop linking to it from pages.
    pub struct NotHtml {
        id: "http/not-html",
        severity: Warning,
        summary: "A response labelled text/html whose body is not HTML",
    }
}

impl Rule for NotHtml {
    fn page_local(&self) -> bool {
        true
    }

    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        for (resource, page) in ok_pages(site) {
            let Some(found) = &page.signals.not_html else {
                continue;
            };
            let Some(label) = page.headers.iter().rev().find(|h| h.is("content-type")) else {
                continue;
            };
            let serve_as = found
                .kind
                .media_type()
                .map(|media| format!("; serve it as {media}"))
                .unwrap_or_default();
            out.report(
                Occurrence::new(
                    resource.url.as_str(),
                    format!(
                        "is labelled `Content-Type: {}` but its body is {} ({}){serve_as}",
                        label.value,
                        found.kind.description(),
                        found.evidence
                    ),
                )
                .evidence(Evidence::HttpHeader {
                    url: resource.url.to_string(),
                    name: label.name.to_owned(),
                    value: label.value.to_owned(),
                })
                .evidence(Evidence::Note {
                    text: format!(
                        "the body is {}: {}",
                        found.kind.description(),
                        found.evidence
                    ),
                })
                .evidence_all(inbound_evidence(site, resource)),
            );
        }
    }
}
