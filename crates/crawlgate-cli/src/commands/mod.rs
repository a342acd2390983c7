//! One module per top-level subcommand.

pub(crate) mod robots;
pub(crate) mod rules;
pub(crate) mod sitemap;
