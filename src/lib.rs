//! gamesolve
