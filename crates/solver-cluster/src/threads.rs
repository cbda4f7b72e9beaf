//! A run's own threads, every one spawned before timely is given any.
//!
//! timely's `execute_from` spawns a process's worker threads one by one,
//! each building its allocator as it starts, and an allocator is built
//! only with every other of the process's (they exchange their channels)
//! and, across processes, with timely's network threads. When a spawn
//! failed part-way (the system's limit of threads, or of memory for their
//! stacks), the builders not yet handed out were dropped: the workers
//! already started and the network threads panicked waiting for them, the
//! panic hook parked them for good (see `fault.rs`), and timely, on its
//! way out with the error, joined the network threads it had started. The
//! process hung for ever, and its peers with it.
//!
//! So a run first spawns the threads it will need ([`Reserved`]): one a
//! worker (named `timely:work-K` as timely names its own, which the panic
//! hook knows) and the one that waits for them at the end of the run
//! (`finish_run`), each waiting for its work. Only once all of them exist
//! are the allocators made and handed out ([`Reserved::start`]). A spawn
//! that fails leaves nothing of timely half built: the threads spawned so
//! far are told that no work comes, they end, and the run fails with
//! [`crate::Error::Start`] (see `net.rs`, which then cuts the connections
//! so that the peers stop too).
//!
//! What this cannot cover is timely's own network threads, which timely
//! spawns itself once the allocators are made: when one of those cannot
//! be spawned, timely drops the allocators with its error, and the
//! network threads already started panic waiting for them. The run fails
//! with [`crate::Error::Start`] at once all the same, and the panic hook
//! lets those threads unwind and end (see `fault.rs`).

use std::any::Any;
use std::io;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Instant;

use timely::communication::allocator::thread::Thread;
use timely::communication::{Allocator, AllocatorBuilder};
use timely::worker::Worker;
use timely::WorkerConfig;

/// What a reserved thread is given to do.
type Job = Box<dyn FnOnce() + Send>;

/// A thread spawned with nothing to do yet: it waits for one job, and
/// ends at once if it is dropped without one.
pub(crate) struct Idle {
    /// Gives the thread its job; dropped, tells it none comes.
    give: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Idle {
    /// A thread named `name`, waiting for its job.
    fn spawn(name: String) -> io::Result<Idle> {
        let (give, take) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            if let Ok(job) = take.recv() {
                job();
            }
        })?;
        Ok(Idle {
            give: Some(give),
            thread: Some(thread),
        })
    }

    /// Runs `job` on the thread: the thread's handle.
    pub(crate) fn run(mut self, job: impl FnOnce() + Send + 'static) -> Option<JoinHandle<()>> {
        if let Some(give) = self.give.take() {
            // The thread ends only once it has a job or this sender is
            // dropped: it is still waiting, so the job reaches it.
            let _ = give.send(Box::new(job));
        }
        self.thread.take()
    }
}

impl Drop for Idle {
    /// A thread never given a job: told none comes, and waited for (it
    /// only waits for its job, so it ends at once).
    fn drop(&mut self) {
        drop(self.give.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Every thread a run of this process spawns of its own, spawned and
/// waiting for their work: the workers, then the one that waits for them.
pub(crate) struct Reserved {
    workers: Vec<Idle>,
    joiner: Idle,
}

impl Reserved {
    /// The threads of process `process` of a run with `threads` workers a
    /// process. A thread that cannot be spawned is an error naming it;
    /// those spawned before it have ended when this returns.
    ///
    /// `SOLVER_CLUSTER_SPAWN_FAIL_AT=P:K` (tests of faults) makes process
    /// `P` fail to spawn its thread `K`: its worker `K`, or, for `K` equal
    /// to `threads`, the thread that waits for the workers.
    pub(crate) fn new(threads: usize, process: usize) -> io::Result<Reserved> {
        let fail_at = crate::worker::at_round("SOLVER_CLUSTER_SPAWN_FAIL_AT", process);
        let spawn = |k: usize, name: String| {
            let what = if k < threads {
                format!("worker thread {k} of {threads}")
            } else {
                "the thread that waits for the workers".to_string()
            };
            let r = if fail_at == Some(k as u64) {
                Err(io::Error::other(
                    "SOLVER_CLUSTER_SPAWN_FAIL_AT: a thread that cannot be spawned",
                ))
            } else {
                Idle::spawn(name)
            };
            r.map_err(|e| io::Error::new(e.kind(), format!("cannot start {what}: {e}")))
        };
        let mut workers = Vec::with_capacity(threads);
        for k in 0..threads {
            // Those spawned so far end as `workers` is dropped.
            workers.push(spawn(k, format!("timely:work-{k}"))?);
        }
        let joiner = spawn(threads, "solver-cluster:join".into())?;
        Ok(Reserved { workers, joiner })
    }

    /// Hands each of `builders` (one a reserved worker) to its thread,
    /// which builds its allocator and runs `work` on a timely worker, then
    /// steps the worker until its dataflows are complete, as
    /// `timely::execute::execute_from` does; `others` (timely's network
    /// threads' guard) is kept to be dropped once the workers have ended.
    pub(crate) fn start<F>(
        self,
        builders: Vec<AllocatorBuilder>,
        others: Box<dyn Any + Send>,
        config: WorkerConfig,
        work: F,
    ) -> Running
    where
        F: Fn(&mut Worker) + Send + Sync + 'static,
    {
        debug_assert_eq!(builders.len(), self.workers.len());
        let work = Arc::new(work);
        let workers = self
            .workers
            .into_iter()
            .zip(builders)
            .filter_map(|(idle, builder)| {
                let (work, config) = (Arc::clone(&work), config.clone());
                idle.run(move || {
                    let mut worker = Worker::new(config, build(builder), Some(Instant::now()));
                    work(&mut worker);
                    while worker.has_dataflows() {
                        worker.step_or_park(None);
                    }
                })
            })
            .collect();
        Running {
            threads: Threads { workers, others },
            joiner: self.joiner,
        }
    }
}

/// The allocator `builder` makes (timely's own build, which it keeps to
/// itself).
fn build(builder: AllocatorBuilder) -> Allocator {
    match builder {
        AllocatorBuilder::Thread(_) => Allocator::Thread(Thread::default()),
        AllocatorBuilder::Process(p) => Allocator::Process(p.build()),
        AllocatorBuilder::Tcp(t) => Allocator::Tcp(t.build()),
    }
}

/// A run under way: its workers' threads, and the thread reserved to wait
/// for them.
pub(crate) struct Running {
    pub(crate) threads: Threads,
    pub(crate) joiner: Idle,
}

/// The threads of a run's workers, and timely's network threads (through
/// their guard).
pub(crate) struct Threads {
    workers: Vec<JoinHandle<()>>,
    others: Box<dyn Any + Send>,
}

impl Threads {
    /// Waits for every worker to end, then for timely's network threads:
    /// a worker that panicked out of its thread is an error, by its
    /// message.
    pub(crate) fn join(self) -> Vec<Result<(), String>> {
        let results = self
            .workers
            .into_iter()
            .map(|t| t.join().map_err(|p| crate::fault::message(p.as_ref())))
            .collect();
        drop(self.others);
        results
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reserved thread dropped without a job ends (the drop waits for
    /// it); one given a job runs it.
    #[test]
    fn an_idle_thread_runs_its_job_or_ends() {
        let idle = Idle::spawn("test:idle".into()).unwrap();
        drop(idle);
        let (tx, rx) = mpsc::channel();
        let idle = Idle::spawn("test:busy".into()).unwrap();
        let handle = idle.run(move || tx.send(7).unwrap()).unwrap();
        handle.join().unwrap();
        assert_eq!(rx.recv().unwrap(), 7);
    }
}
