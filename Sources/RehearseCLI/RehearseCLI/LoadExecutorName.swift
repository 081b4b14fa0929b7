import ArgumentParser

/// `--executor`: the k6 executor a load run's flags must describe (`LoadExecutor.name`).
enum LoadExecutorName: String, CaseIterable, ExpressibleByArgument {
    case constantArrivalRate = "constant-arrival-rate"
    case rampingArrivalRate = "ramping-arrival-rate"
    case constantVUs = "constant-vus"
    case rampingVUs = "ramping-vus"
}
