//! The document half of XML reading: the tokenizer's events ([`super::tokens`]) in order, read
//! into entries, namespaces, positions and issues; no allocation per event except the values kept.
//! A document longer than one block is tokenized on a second thread.
//!
//! Namespaces are resolved with quick-xml's `NamespaceResolver`, but a scope is pushed only for
//! elements that declare one (an `xmlns` in the tag), not for every element as `NsReader` does:
//! that alone doubled throughput on the 50 MB benchmark (BENCHMARKS.md).
//!
//! Well-formedness is checked as quick-xml reads (bad syntax, non-UTF-8), plus what it leaves to
//! us: end tags that do not match (quick-xml's reader is new for each block), undefined
//! entities, bare `&`, text or a second element outside the root, a document ending inside an
//! element. After a recoverable error reading goes on, so one broken
//! tag does not hide the rest of the file. A DOCTYPE stops reading (`sitemap/unsafe-xml`: no
//! entity is ever expanded), and so does HTML served in place of a sitemap.

mod document;
mod pipeline;

pub(crate) use pipeline::parse;
