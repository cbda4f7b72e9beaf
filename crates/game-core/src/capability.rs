//! Capability traits declared once, and their forwarding generated from
//! the declaration.
//!
//! A wrapper that changes nothing about a capability — [`Misere`](crate::Misere)
//! changes only how the game ends, `&G` nothing at all — must pass on every
//! method of it, the optional fast paths included: a wrapper that forgot
//! one would silently fall back to the slow default. So each capability
//! trait is written inside `capability!`, which emits the trait as
//! written and, beside it, a macro (`indexed_methods!` for [`Indexed`](crate::Indexed))
//! that hands the trait's method list to another macro. `forward!` uses it to write a
//! wrapper's impl from that list: a method added to a trait reaches every
//! wrapper with no second list to keep (the model is petgraph's
//! `trait_template!` and `delegate_impl!`).
//!
//! What a method of a capability may look like (what `forward_methods!`
//! reads): `fn name<V: Bound>(&self, arg: Type, …) -> Ret where Self: Sized`
//! with each of the type parameter, the return type and the `where` clause
//! optional, then `;` or a default body. A method bound by another
//! capability (`where Self: Tiered`) cannot be passed on by a generic
//! wrapper, which cannot pass the bound down: such a method belongs to a
//! capability of its own with that bound as a supertrait
//! ([`TieredSymmetric`](crate::TieredSymmetric)).

/// Declares a capability trait, written as a plain trait after
/// `macro NAME;`, and the macro `NAME` that passes the trait's methods to
/// `$m!` (see the module's docs).
macro_rules! capability {
    (
        macro $methods:ident;
        $(#[$attr:meta])*
        pub trait $name:ident: $sup:ident $(+ $more:ident)* { $($body:tt)* }
    ) => {
        $(#[$attr])*
        pub trait $name: $sup $(+ $more)* { $($body)* }

        // `$m` and `$extra` are the inner macro's own: unbound here, they
        // pass through as written.
        #[allow(unused_macros)]
        macro_rules! $methods {
            ($m:ident $extra:tt) => {
                $m! { $extra $name { $($body)* } }
            };
        }
    };
}

/// Implements a capability for a wrapper type, each method calling the
/// same method of the game `|s| inner` gives; the capability is named by
/// its methods' macro:
/// `forward!(tiered_methods impl[G: Tiered] for Misere<G>, |s| s.0);`
macro_rules! forward {
    ($methods:ident impl[$($gen:tt)*] for $ty:ty, |$s:ident| $inner:expr) => {
        $methods! { forward_impl ([$($gen)*] $ty, $s, $inner) }
    };
}

/// The impl `forward!` asks for, given the capability's methods.
macro_rules! forward_impl {
    (([$($gen:tt)*] $ty:ty, $s:ident, $inner:expr) $name:ident { $($body:tt)* }) => {
        impl<$($gen)*> $crate::$name for $ty {
            forward_methods! { $s, $inner; $($body)* }
        }
    };
}

/// One forwarding method for each method of a capability's body.
macro_rules! forward_methods {
    ($s:ident, $inner:expr;) => {};
    (
        $s:ident, $inner:expr;
        $(#[$attr:meta])*
        fn $f:ident $(<$g:ident: $gb:path>)? (&self $(, $arg:ident: $t:ty)* $(,)?) $(-> $r:ty)?
        $(where $sized:ident: Sized $(,)?)? ;
        $($rest:tt)*
    ) => {
        forward_methods! { @one $s, $inner; $f [$($g: $gb)?] ($($arg: $t),*) [$($r)?] [$($sized)?] }
        forward_methods! { $s, $inner; $($rest)* }
    };
    (
        $s:ident, $inner:expr;
        $(#[$attr:meta])*
        fn $f:ident $(<$g:ident: $gb:path>)? (&self $(, $arg:ident: $t:ty)* $(,)?) $(-> $r:ty)?
        $(where $sized:ident: Sized $(,)?)? $default:block
        $($rest:tt)*
    ) => {
        forward_methods! { @one $s, $inner; $f [$($g: $gb)?] ($($arg: $t),*) [$($r)?] [$($sized)?] }
        forward_methods! { $s, $inner; $($rest)* }
    };
    (@one $s:ident, $inner:expr; $f:ident [$($g:ident: $gb:path)?] ($($arg:ident: $t:ty),*) [$($r:ty)?] [$($sized:ident)?]) => {
        fn $f $(<$g: $gb>)? (&self $(, $arg: $t)*) $(-> $r)? $(where $sized: Sized)? {
            let $s = self;
            $inner.$f($($arg),*)
        }
    };
}
