import Harness

/// How far each run of a sweep, check or replay may go (steps, virtual time, strictness, the
/// stuck-job watchdog): the same limits `rehearse run` takes as flags.
public typealias RunLimits = Harness.RunLimits
