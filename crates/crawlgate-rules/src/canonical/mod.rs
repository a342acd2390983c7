//! Canonical rules: how a page declares its canonical URL, and what that URL turns out to be.

mod outside_head;

pub use outside_head::OutsideHead;
