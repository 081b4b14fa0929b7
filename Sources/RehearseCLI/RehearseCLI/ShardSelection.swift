import Foundation
import Harness

/// Which shard of a sweep this process runs: `--shard i/n`, or under `--shard-from-env` a
/// Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with `--shards N` (or `JOB_COMPLETIONS`), or a
/// Slurm job array's `SLURM_ARRAY_TASK_ID` with `--shards N` (or `SLURM_ARRAY_TASK_COUNT`).
struct ShardSelection: Equatable {
    var index: Int
    var count: Int

    var label: String { "\(index)/\(count)" }

    /// nil when the whole range runs here; bad input (exit 2) names the input.
    static func resolve(shard: ShardSelection?, fromEnvironment: Bool, shards: Int?, environment: [String: String]) throws -> ShardSelection? {
        if let shard {
            guard !fromEnvironment else { throw InputError.fail("--shard and --shard-from-env exclude each other") }
            return shard
        }
        guard fromEnvironment else {
            if shards != nil { throw InputError.fail("--shards needs --shard-from-env") }
            return nil
        }
        if environment["JOB_COMPLETION_INDEX"] == nil, let task = environment["SLURM_ARRAY_TASK_ID"] {
            return try slurm(task: task, shards: shards, environment: environment)
        }
        guard let indexText = environment["JOB_COMPLETION_INDEX"], let index = Int(indexText), index >= 0 else {
            throw InputError.fail("JOB_COMPLETION_INDEX '\(environment["JOB_COMPLETION_INDEX"] ?? "")' is not a shard index (set by an Indexed Job; a Slurm job array sets SLURM_ARRAY_TASK_ID)")
        }
        guard let count = shards ?? environment["JOB_COMPLETIONS"].flatMap({ Int($0) }), count >= 1 else {
            throw InputError.fail("--shards N (or JOB_COMPLETIONS) is needed with --shard-from-env")
        }
        try Limits.check(count, in: Limits.shards, option: "--shards (or JOB_COMPLETIONS)", limit: "shards")
        guard index < count else { throw InputError.fail("JOB_COMPLETION_INDEX \(index) is not below the shard count \(count)") }
        return ShardSelection(index: index, count: count)
    }

    /// A Slurm job array task (`sbatch --array=0-7`): shard SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN
    /// of `--shards` or SLURM_ARRAY_TASK_COUNT (the array must be contiguous, e.g. 0-7 or 1-8).
    static func slurm(task: String, shards: Int?, environment: [String: String]) throws -> ShardSelection {
        guard let id = Int(task), id >= 0 else { throw InputError.fail("SLURM_ARRAY_TASK_ID '\(task)' is not a task index") }
        let minimumText = environment["SLURM_ARRAY_TASK_MIN"] ?? "0"
        guard let minimum = Int(minimumText), minimum >= 0, minimum <= id else {
            throw InputError.fail("SLURM_ARRAY_TASK_MIN '\(minimumText)' is not an index at most SLURM_ARRAY_TASK_ID \(id)")
        }
        guard let count = shards ?? environment["SLURM_ARRAY_TASK_COUNT"].flatMap({ Int($0) }), count >= 1 else {
            throw InputError.fail("--shards N (or SLURM_ARRAY_TASK_COUNT) is needed with --shard-from-env in a Slurm job array")
        }
        try Limits.check(count, in: Limits.shards, option: "--shards (or SLURM_ARRAY_TASK_COUNT)", limit: "shards")
        let index = id - minimum
        guard index < count else {
            throw InputError.fail("SLURM_ARRAY_TASK_ID \(id) − SLURM_ARRAY_TASK_MIN \(minimum) is not below the shard count \(count) (use a contiguous --array such as 0-\(count - 1))")
        }
        return ShardSelection(index: index, count: count)
    }
}
