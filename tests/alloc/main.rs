//! The hot paths allocate nothing. A global allocator counts the
//! allocations of each thread while seeded workloads run on it (searches
//! with one thread run on the calling thread).

#[path = "../common/mod.rs"]
mod common;

mod rules;
mod search;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;
