//! Environment rules (RULES.md §2.10): a production site carrying staging artefacts, and a
//! staging site open to search engines. They run only when the audit says which environment the
//! site is (`crawlgate audit --environment production|staging`, [`Site::environment`]); the
//! non-production host patterns come from the same settings.
//!
//! [`Site::environment`]: crawlgate_core::Site::environment

mod home;
mod staging_artifact_on_production;
mod staging_exposed;

pub use staging_artifact_on_production::StagingArtifactOnProduction;
pub use staging_exposed::StagingExposed;
