//! (built in its issue)
