// swift-tools-version: 6.1
import PackageDescription

// package-benchmark suites for Rehearsal, kept out of the root package so its build and
// `swift test` stay fast. Run from the repository root:
//   swift package --package-path Benchmarks benchmark
//   swift package --package-path Benchmarks benchmark thresholds check
// (see docs/performance.md). Malloc counts are the metric that means something on a shared
// machine; time thresholds are relaxed.
let package = Package(
    name: "RehearsalBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so the identity does not depend on the name of the checkout's directory.
        .package(name: "Rehearsal", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KernelBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sim", package: "Rehearsal"),
                .product(name: "KernelWorkloads", package: "Rehearsal"),
            ],
            path: "Benchmarks/KernelBenchmarks",
            // The kernel's clock_gettime interposer must be visible to the runtime's libraries.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "WorkloadBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Sim", package: "Rehearsal"),
                .product(name: "Harness", package: "Rehearsal"),
                .product(name: "Scenarios", package: "Rehearsal"),
                .product(name: "KernelWorkloads", package: "Rehearsal"),
            ],
            path: "Benchmarks/WorkloadBenchmarks",
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
