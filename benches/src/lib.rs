//! Benchmarks live in `benches/`; see BENCHMARKS.md for how to run them and the figures measured.
