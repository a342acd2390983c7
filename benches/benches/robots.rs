//! robots benchmark (built in its issue).

fn main() {}
