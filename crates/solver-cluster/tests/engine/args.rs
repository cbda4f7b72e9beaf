//! Timely's flags in every form timely takes, checked alike.

use solver_cluster::{ClusterConfig, Error, MAX_WORKERS};

fn config(args: &[&str]) -> Result<ClusterConfig, Error> {
    ClusterConfig::from_args(args.iter().map(|s| s.to_string()))
}

fn refused(args: &[&str]) -> String {
    match config(args) {
        Err(Error::Args(m)) => m,
        Err(e) => panic!("{args:?}: not an argument error: {e}"),
        Ok(_) => panic!("{args:?} was accepted"),
    }
}

/// A value attached to its flag (`-w4`, `--threads=4`) is read like a
/// separate one. Before, such values skipped the range check: `-w1025`
/// and `--threads=5000` passed the cap of 1,024 workers, and `-w0` was
/// silently one worker.
#[test]
fn attached_values_are_checked_like_separate_ones() {
    for args in [
        &["-w", "4"][..],
        &["-w4"],
        &["--threads=4"],
        &["--threads", "4"],
    ] {
        assert_eq!(config(args).unwrap().workers(), 4, "{args:?}");
    }
    let cap = MAX_WORKERS.to_string();
    for args in [
        &["-w0"][..],
        &["-w1025"],
        &["--threads=5000"],
        &["--threads=0"],
        &["-n0"],
        &["-n2000"],
        &["--processes=2000"],
        &["--processes=0"],
    ] {
        let m = refused(args);
        assert!(m.contains(&format!("from 1 to {cap}")), "{args:?}: {m}");
    }
    // With one process timely reads no -p at all.
    for args in [&["-p", "1"][..], &["-p1"], &["--process=1"]] {
        assert!(refused(args).contains("-p 1"), "{args:?}");
    }
}

/// Timely reads the hostfile whole: a device (`/dev/zero` aborted the
/// process asking for 4 GiB) or a FIFO (waited for ever) is refused
/// before, and so is a file longer than a list of every process needs.
#[cfg(unix)]
#[test]
fn a_hostfile_that_is_not_a_small_plain_file_is_refused() {
    let m = refused(&["-n", "2", "-h", "/dev/zero"]);
    assert!(m.contains("not a plain file"), "{m}");
    let m = refused(&["-n", "2", "--hostfile=/dev/zero"]);
    assert!(m.contains("not a plain file"), "{m}");
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("hosts");
    std::fs::File::create(&long)
        .unwrap()
        .set_len(2 << 20)
        .unwrap();
    let m = refused(&["-n", "2", "-h", long.to_str().unwrap()]);
    assert!(m.contains("more than"), "{m}");
    // Two processes at one address: before, process 0 waited the whole
    // connection time for the process that could not listen there.
    let dup = dir.path().join("dup");
    std::fs::write(&dup, "localhost:2101\nlocalhost:2102\nlocalhost:2101\n").unwrap();
    let m = refused(&["-n", "3", "-p", "0", "-h", dup.to_str().unwrap()]);
    assert!(m.contains("processes 0 and 2 the same address"), "{m}");
    // A line no host name fills was repeated whole in the error about
    // its address (a 500 KB line, 500 KB of message).
    let wide = dir.path().join("wide");
    std::fs::write(
        &wide,
        format!("{}:2101\nlocalhost:2102\n", "x".repeat(5000)),
    )
    .unwrap();
    let m = refused(&["-n", "2", "-p", "1", "-h", wide.to_str().unwrap()]);
    assert!(m.contains("line 1 is 5005 bytes long"), "{m}");
    assert!(m.len() < 300, "{m}");
    let hosts = dir.path().join("two");
    std::fs::write(&hosts, "localhost:2101\nlocalhost:2102\n").unwrap();
    let ok = config(&["-n", "2", "-p", "1", "-h", hosts.to_str().unwrap()]).unwrap();
    assert_eq!((ok.process(), ok.processes()), (1, 2));
}

/// Every process's line of the hostfile is checked before any connection,
/// named by its line: a bad line for a later process was never read by
/// process 0, which waited the whole connection time (60 s) and then said
/// that process "did not connect"; a line with a trailing space was
/// "invalid port value" for its own process only. Spaces around an
/// address are now ignored (two lines differing only by them are one
/// address).
#[test]
fn every_hostfile_line_is_checked_before_connecting() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hosts");
    let path = file.to_str().unwrap();
    std::fs::write(&file, "127.0.0.1:4391\n127.0.0.1:43x2\n").unwrap();
    for p in ["0", "1"] {
        let m = refused(&["-n", "2", "-p", p, "-h", path]);
        assert!(
            m.contains(&format!(
                "-h {path}: line 2 (\"127.0.0.1:43x2\"), the address of process 1"
            )) && m.contains("the port \"43x2\" is not a number"),
            "-p {p}: {m}"
        );
    }
    std::fs::write(&file, "localhost:2101\n\nlocalhost:2103\n").unwrap();
    let m = refused(&["-n", "3", "-p", "0", "-h", path]);
    assert!(
        m.contains("line 2 (\"\")") && m.contains("empty line"),
        "{m}"
    );
    // Lines past -n are not the cluster's: timely reads only the first -n.
    std::fs::write(&file, " localhost:2101\t\nlocalhost:2102  \r\n# spare\n").unwrap();
    let ok = config(&["-n", "2", "-p", "1", "-h", path]).unwrap();
    assert_eq!((ok.process(), ok.processes()), (1, 2));
    std::fs::write(&file, "localhost:2101 \nlocalhost:2101\n").unwrap();
    let m = refused(&["-n", "2", "-p", "0", "-h", path]);
    assert!(m.contains("processes 0 and 1 the same address"), "{m}");
}
