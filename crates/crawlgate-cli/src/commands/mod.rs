//! One module per top-level subcommand.

pub(crate) mod atomic;
pub(crate) mod audit;
pub(crate) mod audit_config;
pub(crate) mod crawl;
pub(crate) mod crawl_args;
pub(crate) mod diff;
pub(crate) mod input;
pub(crate) mod live;
pub(crate) mod net;
pub(crate) mod robots;
pub(crate) mod robots_diff;
pub(crate) mod rules;
pub(crate) mod sitemap;
