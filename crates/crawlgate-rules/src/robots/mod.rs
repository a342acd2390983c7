//! robots.txt rules: the file as fetched, its lines, and its verdicts crossed with pages.

mod blocked_linked;
mod blocked_noindex;

pub use blocked_linked::BlockedLinked;
pub use blocked_noindex::BlockedNoindex;
