// swift-tools-version: 6.1
import PackageDescription

/// Every executable and test target that runs simulations: exported, the kernel's `clock_gettime`
/// interposer is the one the Swift runtime's libraries call, so `Date()` and `ContinuousClock`
/// read virtual time. Without it a simulation refuses to start (docs/depend-on-rehearsal.md).
/// Unsafe flags are allowed in a root package's own targets, never in a library product.
let exportDynamic: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--export-dynamic"])]

// Arrows point one way: rehearse → RehearseCLI → Scenarios → Domain, Sim; RehearsalTesting → Scenarios. Sim knows nothing of the domain;
// Domain takes its clock, executors and randomness injected and imports neither Sim nor Scenarios.
let package = Package(
    name: "Rehearsal",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Sim", targets: ["Sim"]),
        .library(name: "Domain", targets: ["Domain"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        // `Rehearse.main(scenarios:)`: a user's executable is a full `rehearse` with her scenarios.
        .library(name: "RehearseCLI", targets: ["RehearseCLI"]),
        // Swift Testing helpers: sweep seeds x strategies over a closure or a scenario.
        .library(name: "RehearsalTesting", targets: ["RehearsalTesting"]),
        // The kernel's own workloads (`rehearse bench`/`selfcheck` and the separate Benchmarks
        // package, which `package` access cannot reach): not part of Sim's API, not for users.
        .library(name: "KernelWorkloads", targets: ["KernelWorkloads"]),
        .executable(name: "rehearse", targets: ["rehearse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // Only `rehearse bench` uses it: the TestClock-driven timeline it is compared against.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        .target(
            name: "Sim",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
            // No unsafe flags: a product with them cannot be a versioned dependency. The
            // scheduler's hot stored properties are `@exclusivity(unchecked)` instead (it is
            // single-threaded by construction, so dynamic exclusivity checks there buy nothing).
        ),
        .target(name: "Domain"),
        .target(name: "KernelWorkloads", dependencies: ["Sim"]),
        // The system zlib: HdrHistogram's standard compressed encoding (sweep files) is zlib-deflated.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(
            name: "Scenarios",
            dependencies: [
                "Sim", "Domain", "CZlib", .product(name: "Collections", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .target(
            name: "RehearseCLI",
            dependencies: [
                "Scenarios", "Sim", "Domain", "KernelWorkloads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .target(name: "RehearsalTesting", dependencies: ["Scenarios", "Sim"]),
        // Test fixtures (the `crash-test` scenario): in no product; the built-in executable and
        // the tests register them.
        .target(name: "ScenarioFixtures", dependencies: ["Scenarios", "Sim"]),
        .executableTarget(
            name: "rehearse",
            dependencies: ["RehearseCLI", "ScenarioFixtures", "Scenarios"],
            linkerSettings: exportDynamic
        ),
        .testTarget(name: "SimTests", dependencies: ["Sim", "KernelWorkloads"], linkerSettings: exportDynamic),
        // Linked WITHOUT the flag on purpose: its simulation must refuse to start (a test bundle
        // cannot show that: SwiftPM links every test target into one binary).
        .executableTarget(name: "virtual-time-probe", dependencies: ["Sim", "RehearseCLI"], path: "Sources/VirtualTimeProbe"),
        // Starts child processes for tests with posix_spawn (Foundation's Process crashed the test binary).
        .target(name: "ChildProcess", path: "Tests/ChildProcess"),
        .testTarget(name: "VirtualTimeRefusalTests", dependencies: ["virtual-time-probe", "ChildProcess"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "Sim"], linkerSettings: exportDynamic),
        .testTarget(name: "ScenariosTests", dependencies: ["Scenarios", "Sim", "Domain", "ScenarioFixtures", "ChildProcess"], linkerSettings: exportDynamic),
        .testTarget(name: "RehearsalTestingTests", dependencies: ["RehearsalTesting", "Scenarios", "Sim"], linkerSettings: exportDynamic),
        .testTarget(name: "RehearseTests", dependencies: ["rehearse", "ChildProcess"], linkerSettings: exportDynamic),
    ]
)
