//! The rules (RULES.md), tested through the library: one test per rule
//! with explained positions, property tests against a slow reference
//! model, and the public test vectors of an independent implementation,
//! for the default rules and the variants of section 9.

#[path = "../common/mod.rs"]
mod common;

mod properties;
mod reference;
mod rules;
mod variants;
mod vectors;
