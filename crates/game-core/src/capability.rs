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
//! optional, then `;` or a default body; an associated type
//! `type Name: Bound + …;` (bounds by plain names) is the wrapped game's. [`Game`](crate::Game)
//! itself is declared so: a wrapper that changes some of a capability's
//! methods (misère play its ending, [`Canonical`](crate::Canonical) its
//! moves and indices) names those it owns and gets the rest forwarded. A method bound by another
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
        pub trait $name:ident $(: $sup:ident $(+ $more:ident)*)? { $($body:tt)* }
    ) => {
        $(#[$attr])*
        pub trait $name $(: $sup $(+ $more)*)? { $($body)* }

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
/// its methods' macro, and the wrapped game's type follows `=>` (the
/// wrapper's associated types are its):
/// `forward!(tiered_methods impl[G: Tiered] for Misere<G> => G, |s| s.0);`
///
/// A wrapper that changes some methods writes those after `own` and gets
/// every other one forwarded, so a method added to the trait still
/// reaches it: `forward!(game_methods impl[G: Game] for Misere<G> => G,
/// |s| s.0, own { fn outcome(…) -> … { … } fn stalemate(…) -> … { … } });`
/// (The methods it owns are told apart by name: a local macro, made here with
/// `$` passed in as a token, matches each one's name and drops the
/// forwarding one.)
macro_rules! forward {
    ($methods:ident impl[$($gen:tt)*] for $ty:ty => $it:ty, |$s:ident| $inner:expr) => {
        $methods! { forward_impl ([$($gen)*] $ty, $it, $s, $inner, forward_keep_all, {}) }
    };
    (
        $methods:ident impl[$($gen:tt)*] for $ty:ty => $it:ty, |$s:ident| $inner:expr,
        own { $($(#[$oa:meta])* fn $o:ident $p:tt $(-> $r:ty)? $b:block)* }
    ) => {
        forward! { @own ($) $methods [$($gen)*] $ty, $it, $s, $inner,
        { $($(#[$oa])* fn $o $p $(-> $r)? $b)* } [$($o)*] }
    };
    (
        @own ($d:tt) $methods:ident [$($gen:tt)*] $ty:ty, $it:ty, $s:ident, $inner:expr,
        $own:tt [$($o:ident)*]
    ) => {
        const _: () = {
            // The methods the wrapper owns are dropped from the forwarding.
            macro_rules! forward_keep {
                $( ($o $d($d t:tt)*) => {}; )*
                ($d f:ident $d($d t:tt)*) => { $d($d t)* };
            }
            $methods! { forward_impl ([$($gen)*] $ty, $it, $s, $inner, forward_keep, $own) }
        };
    };
}

/// Keeps every forwarding method (a wrapper that owns none).
macro_rules! forward_keep_all {
    ($f:ident $($t:tt)*) => { $($t)* };
}

/// The impl `forward!` asks for, given the capability's methods.
macro_rules! forward_impl {
    (
        ([$($gen:tt)*] $ty:ty, $it:ty, $s:ident, $inner:expr, $keep:ident, { $($own:tt)* })
        $name:ident { $($body:tt)* }
    ) => {
        impl<$($gen)*> $crate::$name for $ty {
            $($own)*
            forward_methods! { $name, $it, $keep, $s, $inner; $($body)* }
        }
    };
}

/// One forwarding method for each method of a capability's body (and
/// each associated type: the wrapped game's).
macro_rules! forward_methods {
    ($name:ident, $it:ty, $keep:ident, $s:ident, $inner:expr;) => {};
    (
        $name:ident, $it:ty, $keep:ident, $s:ident, $inner:expr;
        $(#[$attr:meta])*
        type $t:ident $(: $b:ident $(+ $bs:ident)*)?;
        $($rest:tt)*
    ) => {
        type $t = <$it as $crate::$name>::$t;
        forward_methods! { $name, $it, $keep, $s, $inner; $($rest)* }
    };
    (
        $name:ident, $it:ty, $keep:ident, $s:ident, $inner:expr;
        $(#[$attr:meta])*
        fn $f:ident $(<$g:ident: $gb:path>)? (&self $(, $arg:ident: $t:ty)* $(,)?) $(-> $r:ty)?
        $(where $sized:ident: Sized $(,)?)? ;
        $($rest:tt)*
    ) => {
        forward_methods! { @one $keep, $s, $inner; $f [$($g: $gb)?] ($($arg: $t),*) [$($r)?] [$($sized)?] }
        forward_methods! { $name, $it, $keep, $s, $inner; $($rest)* }
    };
    (
        $name:ident, $it:ty, $keep:ident, $s:ident, $inner:expr;
        $(#[$attr:meta])*
        fn $f:ident $(<$g:ident: $gb:path>)? (&self $(, $arg:ident: $t:ty)* $(,)?) $(-> $r:ty)?
        $(where $sized:ident: Sized $(,)?)? $default:block
        $($rest:tt)*
    ) => {
        forward_methods! { @one $keep, $s, $inner; $f [$($g: $gb)?] ($($arg: $t),*) [$($r)?] [$($sized)?] }
        forward_methods! { $name, $it, $keep, $s, $inner; $($rest)* }
    };
    (@one $keep:ident, $s:ident, $inner:expr; $f:ident [$($g:ident: $gb:path)?] ($($arg:ident: $t:ty),*) [$($r:ty)?] [$($sized:ident)?]) => {
        $keep! { $f
            #[inline]
            fn $f $(<$g: $gb>)? (&self $(, $arg: $t)*) $(-> $r)? $(where $sized: Sized)? {
                let $s = self;
                $inner.$f($($arg),*)
            }
        }
    };
}
