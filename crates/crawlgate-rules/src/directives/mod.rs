//! directives rules.
