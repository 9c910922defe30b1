//! The rules of Caminos.
