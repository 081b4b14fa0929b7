// swift-tools-version: 6.1
import PackageDescription

/// Every executable and test target that runs simulations: exported, the kernel's `clock_gettime`
/// interposer is the one the Swift runtime's libraries call, so `Date()` and `ContinuousClock`
/// read virtual time. Without it a simulation refuses to start (docs/depend-on-rehearsal.md).
/// Unsafe flags are allowed in a root package's own targets, never in a library product.
let exportDynamic: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--export-dynamic"])]

// Arrows point one way, toward Sim (docs/architecture.md draws them). Sim knows nothing of the
// domain; Harness knows no app; SimulatedFirebase and Domain take their clock, executors and
// randomness injected and import neither Sim nor the harness; FirebaseHarness joins the two.
let package = Package(
    name: "Rehearsal",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Sim", targets: ["Sim"]),
        // The harness: scenarios as values, the runner, checks, fuzz, shrink, reports and load. It
        // knows no app and no backend: a backend reaches a scenario through `ScenarioContext`'s
        // run participants (`RunParticipant`).
        .library(name: "Harness", targets: ["Harness"]),
        // The simulated Firebase (Firestore, Functions, Scheduler, FCM, SendGrid, Storage) and the
        // injected environment it runs on (clock, executors, randomness).
        .library(name: "SimulatedFirebase", targets: ["SimulatedFirebase"]),
        // The five apps' backends on the simulated Firebase.
        .library(name: "Domain", targets: ["Domain"]),
        // The simulated Firebase as a run participant of the harness, on the simulator's clock.
        .library(name: "FirebaseHarness", targets: ["FirebaseHarness"]),
        // The built-in scenarios of the five apps, their bug zoo and load profiles.
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
        // The functions host the Firestore emulator posts trigger events to (`TriggerHost`): a small
        // HTTP server on Swift concurrency and sockets, which builds in seconds (no SwiftNIO).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        .target(
            name: "Sim",
            dependencies: [
                "SimSyscall",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
            // No unsafe flags: a product with them cannot be a versioned dependency. The
            // scheduler's hot stored properties are `@exclusivity(unchecked)` instead (it is
            // single-threaded by construction, so dynamic exclusivity checks there buy nothing).
        ),
        // `syscall(2)` for the process, so the standard library's getrandom call is seen (C: variadic).
        .target(name: "SimSyscall", path: "Sources/SimSyscall"),
        .target(name: "KernelWorkloads", dependencies: ["Sim"]),
        // The system zlib: HdrHistogram's standard compressed encoding (sweep files) is zlib-deflated.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(
            name: "Harness",
            dependencies: [
                "Sim", "CZlib", .product(name: "Collections", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Sources/Scenarios/Harness"
        ),
        .target(name: "SimulatedFirebase", path: "Sources/Domain/SimulatedFirebase"),
        .target(
            name: "Domain", dependencies: ["SimulatedFirebase"], path: "Sources/Domain/Domain",
            // Each app's rules file (and SafeNSound's index file), as its team deploys it, compiled into the library.
            resources: [.embedInCode("KNB/knb.rules"), .embedInCode("SafeNSound/safensound.rules"), .embedInCode("SafeNSound/safensound-dev-catch-all.rules"), .embedInCode("Stampbook/stampbook.rules"), .embedInCode("UFree/ufree.rules"), .embedInCode("UFree/ufree-seed.rules"), .embedInCode("Inspired/inspired.rules"), .embedInCode("SafeNSound/firestore.indexes.json")]
        ),
        // A client of Firestore's v1 REST API (the emulator's and production's): the same values and
        // writes as the simulated Firebase, against a real server; and the host its emulator posts
        // trigger events to.
        .target(
            name: "FirestoreREST", dependencies: ["SimulatedFirebase", .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox")],
            path: "Sources/Domain/FirestoreREST"),
        .target(name: "FirebaseHarness", dependencies: ["Harness", "SimulatedFirebase", "Sim"], path: "Sources/Scenarios/FirebaseHarness"),
        .target(
            name: "Scenarios",
            dependencies: ["FirebaseHarness", "Harness", "Domain", "SimulatedFirebase", "Sim"],
            path: "Sources/Scenarios/Scenarios"
        ),
        // `rehearse timeline`'s engine: a real check-in log replayed through SafeNSound's functions on
        // the simulator (only the built-in `rehearse` ships it).
        .target(
            name: "Timeline",
            dependencies: ["Scenarios", "FirebaseHarness", "Harness", "Domain", "SimulatedFirebase", "Sim"],
            path: "Sources/Scenarios/Timeline"
        ),
        // The Firestore emulator as the server of `rehearse load --backend emulator`: projects,
        // deployments and the trigger events it delivers to the apps' functions in this process.
        .target(
            name: "RealFirebase", dependencies: ["FirebaseHarness", "FirestoreREST", "Harness", "SimulatedFirebase"],
            path: "Sources/Scenarios/RealFirebase"),
        // The differential oracle: generated programs on the simulated Firebase and on a real
        // Firestore (the emulator), compared and shrunk.
        .target(name: "Conformance", dependencies: ["SimulatedFirebase", "FirestoreREST"], path: "Sources/Scenarios/Conformance"),
        // The rules differential: each app's Swift rules against its rules file on a real Firestore.
        .target(name: "RulesConformance", dependencies: ["Conformance", "Domain", "SimulatedFirebase", "FirestoreREST"], path: "Sources/Scenarios/RulesConformance"),
        .target(
            name: "RehearseCLI",
            dependencies: ["Harness", "Sim", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/RehearseCLI/RehearseCLI"
        ),
        // The built-in `rehearse`'s own commands (zoo, timeline, bench, selfcheck): they know the
        // five apps and the kernel's workloads, so a user's `Rehearse.main` does not ship them.
        .target(
            name: "RehearseTools",
            dependencies: [
                "RehearseCLI", "Scenarios", "Timeline", "Conformance", "RulesConformance", "FirestoreREST", "RealFirebase", "FirebaseHarness", "Harness", "Domain", "SimulatedFirebase", "Sim", "KernelWorkloads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Sources/RehearseCLI/RehearseTools"
        ),
        .target(name: "RehearsalTesting", dependencies: ["Harness", "Sim"]),
        // Test fixtures (the `crash-test` scenario): in no product; the built-in executable and
        // the tests register them.
        .target(name: "ScenarioFixtures", dependencies: ["Harness", "Sim"]),
        .executableTarget(
            name: "rehearse",
            dependencies: ["RehearseTools", "RehearseCLI", "ScenarioFixtures", "Scenarios", "Harness"],
            linkerSettings: exportDynamic
        ),
        .testTarget(name: "SimTests", dependencies: ["Sim", "KernelWorkloads", "RehearsalTestSupport"], linkerSettings: exportDynamic),
        // Linked WITHOUT the flag on purpose: its simulation must refuse to start (a test bundle
        // cannot show that: SwiftPM links every test target into one binary).
        .executableTarget(name: "virtual-time-probe", dependencies: ["Sim", "Harness", "RehearseCLI"], path: "Sources/virtual-time-probe"),
        // Starts child processes for tests with posix_spawn (Foundation's Process crashed the test binary).
        .target(name: "ChildProcess", path: "Tests/ChildProcess"),
        // The `.slow`/`.subprocess` tags and the `.ciOnly` condition (REHEARSAL_SLOW_TESTS=1, set by .ci/run).
        .target(name: "RehearsalTestSupport", path: "Tests/RehearsalTestSupport"),
        .testTarget(name: "VirtualTimeRefusalTests", dependencies: ["virtual-time-probe", "ChildProcess"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "SimulatedFirebase", "Sim"], linkerSettings: exportDynamic),
        .testTarget(
            name: "ScenariosTests",
            dependencies: ["Scenarios", "FirebaseHarness", "Harness", "Domain", "SimulatedFirebase", "Sim", "ScenarioFixtures", "ChildProcess", "RehearsalTestSupport"],
            linkerSettings: exportDynamic),
        // The harness alone: it imports no app, no backend and no built-in scenario (the fixture is app-free).
        .testTarget(name: "HarnessTests", dependencies: ["Harness", "Sim", "ScenarioFixtures"], linkerSettings: exportDynamic),
        // Against Google's Firestore emulator (started by the tests; .ci/run requires it installed).
        .testTarget(name: "FirestoreRESTTests", dependencies: ["FirestoreREST", "RealFirebase", "Harness", "Conformance", "RulesConformance", "Domain", "SimulatedFirebase", "RehearsalTestSupport"]),
        .testTarget(name: "TimelineTests", dependencies: ["Timeline", "Scenarios", "FirebaseHarness", "Harness", "Domain", "SimulatedFirebase", "Sim"], linkerSettings: exportDynamic),
        .testTarget(name: "RehearsalTestingTests", dependencies: ["RehearsalTesting", "Harness", "Sim"], linkerSettings: exportDynamic),
        .testTarget(name: "RehearseTests", dependencies: ["rehearse", "ChildProcess", "RehearsalTestSupport"], linkerSettings: exportDynamic),
    ]
)
