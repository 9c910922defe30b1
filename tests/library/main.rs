//! The library as another crate uses it, built with or without the
//! program's features (`cargo test --no-default-features --test library`
//! in CI): every public constructor and checked call, given input out of
//! range or nonsense, answers with an error (or `None`), never a panic.

mod causes;
mod checked;
mod listing;
