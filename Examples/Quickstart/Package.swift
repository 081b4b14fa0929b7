// swift-tools-version: 6.1
import PackageDescription

// A user's package that depends on Rehearsal (here by path; a versioned
// `.package(url: "https://…/Rehearsal", from: "0.1.0")` works the same: docs/depend-on-rehearsal.md).
//
// Every target that RUNS simulations (tests, the rehearse-style executable) needs
// `-Xlinker --export-dynamic`, so `Date()` and `ContinuousClock` read virtual time; without it a
// simulation refuses to start and says so. Unsafe flags are fine here: this is the root package.
let exportDynamic: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--export-dynamic"])]

let package = Package(
    name: "Quickstart",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Rehearsal", path: "../..")],
    targets: [
        // Production code: actors that run on the global pool, and on the simulator in a simulation.
        .target(name: "Bank", dependencies: [.product(name: "Sim", package: "Rehearsal")]),
        // A scenario: the bank under two concurrent transfers, one Always check, one latency.
        .target(name: "BankScenarios", dependencies: ["Bank", .product(name: "Harness", package: "Rehearsal")]),
        // `bank-rehearse run|fuzz|replay|shrink transfer-race …`: a full rehearse with the scenario.
        .executableTarget(
            name: "bank-rehearse",
            dependencies: ["BankScenarios", .product(name: "RehearseCLI", package: "Rehearsal")],
            linkerSettings: exportDynamic),
        .testTarget(
            name: "BankTests",
            dependencies: ["Bank", "BankScenarios", .product(name: "RehearsalTesting", package: "Rehearsal")],
            linkerSettings: exportDynamic),
    ]
)
