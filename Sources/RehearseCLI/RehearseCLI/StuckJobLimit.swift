/// `--stuck-job-limit`: the wall time one job may run before the watchdog fails the run.
struct StuckJobLimit: Hashable {
    /// Whole seconds, 1 to 3,600; nil: `off`, no watchdog.
    var seconds: Int?
}
