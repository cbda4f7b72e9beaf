//! A worker's timely I/O: the dataflow of its four exchanges (parent
//! updates, summaries, gathered cells, shard entries), what arrived by
//! round, and the barriers that end a round; the end of a run, and the
//! faults the tests ask for.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use timely::dataflow::operators::vec::Input;
use timely::dataflow::operators::{Exchange, Inspect, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::progress::Stamp;
use timely::worker::Worker;

use super::db::EntryMsg;
use super::gather::GatherMsg;
use super::Ctx;
use crate::cell::Width;
use crate::local::Local;
use crate::space::Space;
use crate::Error;

/// What arrived for a worker, by round: a fast worker's next round may
/// arrive before this worker has finished the last one.
pub(super) type Buf<T> = Rc<RefCell<std::collections::BTreeMap<u64, Vec<T>>>>;

/// Moves what arrived for rounds before `round` into `out`.
pub(super) fn take<T>(buf: &Buf<T>, round: u64, out: &mut Vec<T>) {
    let mut b = buf.borrow_mut();
    let later = b.split_off(&round);
    for (_, mut v) in std::mem::replace(&mut *b, later) {
        if out.is_empty() {
            *out = std::mem::take(&mut v);
        } else {
            out.append(&mut v);
        }
    }
}

/// The worker's inputs, what arrived for it, and the round (timestamp).
pub(super) struct Io {
    /// Parent updates to workers of other processes: the target worker
    /// and the words (see `updates.rs`).
    pub(super) updates: InputHandleVec<u64, (u64, Vec<u64>)>,
    pub(super) summary: InputHandleVec<u64, (u64, u64, u64)>,
    pub(super) gather: InputHandleVec<u64, GatherMsg>,
    pub(super) entries: InputHandleVec<u64, EntryMsg>,
    pub(super) probe: ProbeHandle<u64>,
    pub(super) got_updates: Buf<(u64, Vec<u64>)>,
    pub(super) got_summary: Buf<(u64, u64, u64)>,
    pub(super) got_entries: Buf<EntryMsg>,
    pub(super) round: u64,
    /// A crash to simulate at this round (tests of faults).
    pub(super) abort_at: Option<u64>,
    /// A stop (`SIGSTOP`) to simulate at this round (tests of faults).
    pub(super) stop_at: Option<u64>,
    /// The run's failure record.
    pub(super) fault: crate::fault::Fault,
}

/// An inspector that files each batch under its round.
#[allow(clippy::type_complexity)]
fn collect<T: Clone + 'static>(
    buf: &Buf<T>,
) -> impl FnMut(Result<(&Stamp<u64>, &Vec<T>), &[u64]>) + 'static {
    let buf = Rc::clone(buf);
    move |ev| {
        if let Ok((stamp, data)) = ev {
            // An input's batch carries one time (the round it was sent in).
            let t = stamp.iter().copied().min().unwrap_or(0);
            buf.borrow_mut()
                .entry(t)
                .or_default()
                .extend_from_slice(data);
        }
    }
}

/// The inspector `inner`, which panics at the first batch sent in round
/// `at` or later it sees (`SOLVER_CLUSTER_PANIC_AT`, tests of faults):
/// a panic inside timely's step.
#[allow(clippy::type_complexity)]
fn panicking_at<T: 'static>(
    mut inner: impl FnMut(Result<(&Stamp<u64>, &Vec<T>), &[u64]>) + 'static,
    at: Option<u64>,
) -> impl FnMut(Result<(&Stamp<u64>, &Vec<T>), &[u64]>) + 'static {
    move |ev| {
        if let (Some(at), Ok((stamp, _))) = (at, &ev) {
            // A batch sent in round t + 1 carries the time t.
            let t = stamp.iter().copied().min().unwrap_or(0);
            assert!(
                t + 1 < at,
                "SOLVER_CLUSTER_PANIC_AT: a panic inside timely's step, in round {}",
                t + 1
            );
        }
        inner(ev);
    }
}

impl Io {
    pub(super) fn new<S: Space>(worker: &mut Worker, ctx: &Ctx<S>) -> Io {
        let mut io = Io {
            updates: InputHandleVec::new(),
            summary: InputHandleVec::new(),
            gather: InputHandleVec::new(),
            entries: InputHandleVec::new(),
            probe: ProbeHandle::new(),
            got_updates: Rc::default(),
            got_summary: Rc::default(),
            got_entries: Rc::default(),
            round: 0,
            abort_at: at_round(
                "SOLVER_CLUSTER_ABORT_AT",
                worker.index() / ctx.per_process.max(1),
            ),
            stop_at: at_round(
                "SOLVER_CLUSTER_STOP_AT",
                worker.index() / ctx.per_process.max(1),
            ),
            fault: ctx.shared.local.fault.clone(),
        };
        let (gu, gm, ge) = (
            collect(&io.got_updates),
            collect(&io.got_summary),
            collect(&io.got_entries),
        );
        let panic_at = at_round(
            "SOLVER_CLUSTER_PANIC_AT",
            worker.index() / ctx.per_process.max(1),
        );
        let gm = panicking_at(gm, panic_at);
        let (shared, space) = (Arc::clone(&ctx.shared), Arc::clone(&ctx.space));
        let probe = io.probe.clone();
        let Io {
            updates,
            summary,
            gather,
            entries,
            ..
        } = &mut io;
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(updates)
                .exchange(|x: &(u64, Vec<u64>)| x.0)
                .inspect_core(gu)
                .probe_with(&probe);
            scope
                .input_from(summary)
                .exchange(|x: &(u64, u64, u64)| x.0)
                .inspect_core(gm)
                .probe_with(&probe);
            scope
                .input_from(gather)
                .exchange(|x: &GatherMsg| x.0)
                .inspect_core(move |ev| {
                    if let Ok((_, data)) = ev {
                        for (_, tier, first, bytes, cells) in data {
                            let width = Width::of_bytes(*bytes);
                            if let Err(e) =
                                shared.put_cells(*tier, space.size(*tier), *first, width, cells)
                            {
                                shared.local.fault.set(e.to_string());
                            }
                        }
                    }
                })
                .probe_with(&probe);
            scope
                .input_from(entries)
                .exchange(|x: &EntryMsg| x.0)
                .inspect_core(ge)
                .probe_with(&probe);
        });
        io
    }

    /// Starts the next round, crashing here if asked to.
    pub(super) fn advance(&mut self) -> u64 {
        self.round += 1;
        let r = self.round;
        if self.abort_at == Some(r) {
            eprintln!("solver-cluster: SOLVER_CLUSTER_ABORT_AT: this process crashes at round {r}");
            std::process::abort();
        }
        if self.stop_at == Some(r) {
            // Stopped as a whole, its connections open, as a host that
            // vanished: only its silence tells.
            eprintln!("solver-cluster: SOLVER_CLUSTER_STOP_AT: this process stops at round {r}");
            let _ = std::process::Command::new("kill")
                .args(["-STOP", &std::process::id().to_string()])
                .status();
        }
        r
    }

    /// Ends the round among this process's workers only (a process that is
    /// the whole cluster): what they posted each other has arrived.
    pub(super) fn local_barrier(&mut self, local: &Local) -> Result<(), Error> {
        self.advance();
        local.barrier()
    }

    /// Ends the round: every message sent in it, by timely or to a
    /// mailbox, has arrived when this returns (timely's progress tracking
    /// says so: every worker has advanced its inputs past the round, after
    /// posting its mail).
    pub(super) fn barrier(&mut self, worker: &mut Worker) -> Result<(), Error> {
        let r = self.advance();
        self.updates.advance_to(r);
        self.summary.advance_to(r);
        self.gather.advance_to(r);
        self.entries.advance_to(r);
        let mut spins = 0u32;
        while self.probe.less_than(&r) {
            if let Some(msg) = self.fault.get() {
                return Err(Error::Failed(msg));
            }
            spins += 1;
            if spins < 1000 {
                worker.step();
            } else {
                worker.step_or_park(Some(Duration::from_millis(50)));
            }
        }
        Ok(())
    }
}

/// Steps `worker` until its dataflows are complete (the inputs were
/// dropped with the worker's [`Io`]: every worker of the cluster has
/// finished), or the run fails ([`Error::Failed`]). timely's own wait
/// for this, after a worker's work, would wait for ever on a peer that
/// failed.
pub(crate) fn finish(worker: &mut Worker, fault: &crate::fault::Fault) -> Result<(), Error> {
    while worker.has_dataflows() {
        if let Some(msg) = fault.get() {
            return Err(Error::Failed(msg));
        }
        worker.step_or_park(Some(Duration::from_millis(50)));
    }
    Ok(())
}

/// Drops `worker`'s dataflows, once its run failed: timely then neither
/// steps the worker again nor waits for its dataflows to complete (they
/// never would), and the worker's thread ends.
pub(crate) fn stop(worker: &mut Worker) {
    for d in worker.installed_dataflows() {
        worker.drop_dataflow(d);
    }
}

/// `SOLVER_CLUSTER_ABORT_AT=P:R` makes process `P` crash (abort, as a
/// killed process) when it reaches round `R`,
/// `SOLVER_CLUSTER_STOP_AT=P:R` makes it stop (`SIGSTOP`, as a host that
/// vanished), and `SOLVER_CLUSTER_PANIC_AT=P:R` makes its workers panic
/// inside timely's step (in the operator that takes the summaries) at the
/// first summaries sent in round `R` or later that they take: how the
/// tests and the fault demonstration fail a process at a chosen point of
/// a solve. The round of the variable `var` for
/// process `process`, if any (`threads.rs` reads
/// `SOLVER_CLUSTER_SPAWN_FAIL_AT=P:K` with it too).
pub(crate) fn at_round(var: &str, process: usize) -> Option<u64> {
    let v = std::env::var(var).ok()?;
    let (p, r) = v.split_once(':')?;
    (p.parse::<usize>().ok()? == process).then_some(())?;
    r.parse().ok()
}
